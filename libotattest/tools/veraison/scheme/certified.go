// SPDX-License-Identifier: MIT

package scheme

// Check 5b (docs/verifier.md, "Which layer binds each claim"): the claims
// agree with what ROM_EXT certified in the alias certificate before the
// runtime, which holds the alias key, ever ran.

import "bytes"

func sameU32(v *Verdict, status string, stage uint32, what string, claimed, certified uint32) {
	if claimed == certified {
		return
	}
	prefix := ""
	if stage != NoStage {
		prefix = StageName(stage) + " "
	}
	v.add(status, stage, "%s%s claimed %d, certified %d", prefix, what, claimed, certified)
}

func checkState(d *CertDevice, c *Claims, v *Verdict) {
	const st = "VERIFY_STATE_MISMATCH"
	sameU32(v, st, NoStage, "lifecycle", c.Lifecycle, d.Lifecycle)
	sameU32(v, st, NoStage, "epoch", c.Epoch, d.Epoch)
	sameU32(v, st, NoStage, "min SVN", c.MinSVN, d.MinSVN)
	sameU32(v, st, NoStage, "ROM_EXT floor", c.FloorROMExt, d.FloorROMExt)
	sameU32(v, st, NoStage, "BL0 floor", c.FloorBL0, d.FloorBL0)
	sameU32(v, st, NoStage, "chain max SVN", c.ChainMaxSVN, d.ChainMaxSVN)
	sameU32(v, st, NoStage, "tag key version", c.TagKeyVersion, d.TagKeyVersion)
	if !bytes.Equal(c.ROMIdentity, d.ROMIdentity) {
		v.add(st, NoStage, "ROM identity claimed is not the one certified")
	}
	// The update state (DeviceState version 2); pending-update is the runtime's own.
	cu, du := &c.Update, &d.Update
	sameU32(v, st, NoStage, "reset reason", cu.ResetReason, du.ResetReason)
	sameU32(v, st, NoStage, "update state", cu.State, du.State)
	sameU32(v, st, NoStage, "primary slot", cu.PrimarySlot, du.PrimarySlot)
	sameU32(v, st, NoStage, "booted slot", cu.BootedSlot, du.BootedSlot)
	sameU32(v, st, NoStage, "revocation sequence", cu.RevocationSeq, du.RevocationSeq)
	sameU32(v, st, NoStage, "device revocation sequence", cu.RevocationSeqDevice, du.RevocationSeqDevice)
	sameU32(v, st, NoStage, "trial boots", cu.TrialBoots, du.TrialBoots)
	sameU32(v, st, NoStage, "revert reason", cu.RevertReason, du.RevertReason)
	sameU32(v, st, NoStage, "reverted slot", cu.RevertedSlot, du.RevertedSlot)
	sameU32(v, st, NoStage, "refused attempts", cu.RefusedCount, du.RefusedCount)
	sameU32(v, st, NoStage, "refused attempt slots", cu.RefusedSlots, du.RefusedSlots)
}

func checkResults(t *CertStage, a *Attempt, v *Verdict) {
	const st = "VERIFY_RESULT_MISMATCH"
	sameU32(v, st, a.Stage, "path", a.Path, t.Path)
	sameU32(v, st, a.Stage, "signature scheme", a.SigScheme, t.SigScheme)
	sameU32(v, st, a.Stage, "delegation depth", a.Depth(), t.Depth)
	sameU32(v, st, a.Stage, "tag key version", a.TagKeyVersion, t.TagKeyVersion)
	if TCBResultsVersion >= 2 {
		sameU32(v, st, a.Stage, "path reason", a.PathReason, t.PathReason)
		sameU32(v, st, a.Stage, "usage flags", a.UsageFlags, t.UsageFlags)
	}
	ids := a.Component.Authorities
	for k := 0; k < len(ids) && k < len(t.KeyIDs); k++ {
		if bytes.Equal(ids[k], t.KeyIDs[k]) {
			continue
		}
		if k == 0 {
			v.add(st, a.Stage, "%s root key id claimed is not the one certified", StageName(a.Stage))
		} else {
			v.add(st, a.Stage, "%s delegate %d key id claimed is not the one certified", StageName(a.Stage), k)
		}
	}
}

func checkIdentity(s *Sign1, f *chainFacts, v *Verdict) {
	if f.aliasDevice == nil || f.issuerDevice == nil || !bytes.Equal(f.aliasDevice, f.issuerDevice) {
		v.add("VERIFY_IDENTITY_MISMATCH", NoStage,
			"the alias certificate's subject and issuer name different devices")
		return
	}
	if len(s.Certs) < 2 {
		return // no identity certificate: the chain cannot be trusted, and says so
	}
	if f.identity == nil || !f.issuedAlias || f.identityDevice == nil ||
		!bytes.Equal(f.identityDevice, f.aliasDevice) {
		what := "did not issue the alias certificate"
		if f.issuedAlias {
			what = "names another device than the alias certificate"
		}
		v.add("VERIFY_IDENTITY_MISMATCH", NoStage, "the identity certificate in the evidence %s", what)
	}
}

func certifiedStage(info *AliasInfo, stage uint32) *CertStage {
	for i := range info.Stages {
		if info.Stages[i].Stage == stage {
			return &info.Stages[i]
		}
	}
	return nil
}

func checkCertified(s *Sign1, f *chainFacts, c *Claims, v *Verdict) {
	if f.alias == nil || f.aliasErr != nil {
		v.add("VERIFY_TCB_MISMATCH", NoStage, "the alias certificate's TCB info does not parse")
		return
	}
	info := f.aliasInfo
	if f.aliasDevice == nil || !bytes.Equal(f.aliasDevice, c.DeviceID) {
		v.add("VERIFY_DEVICE_MISMATCH", NoStage, "the ueid claim is not the device the alias certificate names")
	}
	checkIdentity(s, f, v)
	if info.CertifiesResults {
		checkState(&info.Device, c, v)
	} else {
		what := "no TCB info"
		if len(info.Stages) > 0 {
			what = "measurements and SVNs only"
		}
		v.add("VERIFY_NOT_CERTIFIED", NoStage, "the alias certificate certifies %s, not the stage "+
			"results and device state the claims show (older firmware)", what)
	}
	matched, booted := 0, 0
	for i := range c.Attempts {
		a := &c.Attempts[i]
		if !a.Booted() {
			continue
		}
		booted++
		t := certifiedStage(info, a.Stage)
		if t == nil || t.SVN != a.Component.SVN || !bytes.Equal(t.Measurement, a.Component.Digest) {
			v.add("VERIFY_TCB_MISMATCH", a.Stage, "%s SVN and measurement claimed are not the ones "+
				"certified in the alias certificate", StageName(a.Stage))
			continue
		}
		matched++
		if info.CertifiesResults {
			checkResults(t, a, v)
		}
	}
	if matched == booted && len(info.Stages) != booted {
		v.add("VERIFY_TCB_MISMATCH", NoStage, "the alias certificate certifies %d stages, the claims show %d booted",
			len(info.Stages), booted)
	}
}
