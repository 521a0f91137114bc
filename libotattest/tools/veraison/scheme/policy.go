// SPDX-License-Identifier: MIT

package scheme

// otattest-verify's policy file (docs/verifier.md, "Policy file format")
// read the way libotattest's ota_policy_parse reads it - "key = value"
// lines, '#' comments, an unknown key, a scalar given twice, a value out
// of range or a line without '=' an error naming the line, since a typo
// must not loosen a policy - and its rules applied as ota_policy_evaluate
// applies them. One key is refused: crl. Veraison keeps a CA's CRLs in its
// endorsement store (provisioned as application/pkix-crl, crl.go), not in
// files beside a policy; a policy naming files the scheme would not read
// is refused rather than passing their revocations unchecked.

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Policy is a verifier policy (struct ota_policy, without CRLs).
type Policy struct {
	MinSVN             [StageCount + 1]uint32 // by stage
	AllowedRootKeys    []string               // hex key ids; none: any
	MaxDepth           uint32
	HybridRequired     bool
	TagPathAllowed     bool
	MinEpoch           uint32
	AllowedLifecycles  uint32 // bit per enum ota_lifecycle; 0: any
	DeniedDelegates    []string
	DebugImagesAllowed bool
	// The update state (issue 28): a trial refused under RequireCommitted;
	// a reverted trial unless allowed (AllowReverted when given, else
	// !RequireCommitted); the fleet-wide revocation sequence's minimum.
	RequireCommitted   bool
	AllowReverted      bool
	AllowRevertedGiven bool
	MinRevocationSeq   uint32
}

// RevertedAllowed is whether a reverted trial passes the policy.
func (p *Policy) RevertedAllowed() bool {
	if p.AllowRevertedGiven {
		return p.AllowReverted
	}
	return !p.RequireCommitted
}

var lifecycleNames = []string{"test_unlocked", "dev", "prod", "prod_end", "rma"}

// DefaultPolicy is ota_policy_init: everything allowed.
func DefaultPolicy() *Policy {
	return &Policy{MaxDepth: MaxDelegationDepth, TagPathAllowed: true, DebugImagesAllowed: true}
}

func parseUint(s string, max uint32) (uint32, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v > uint64(max) {
		return 0, false
	}
	return uint32(v), true
}

func parseBool(s string) (bool, bool) {
	switch s {
	case "true", "yes":
		return true, true
	case "false", "no":
		return false, true
	}
	return false, false
}

func keyID(s string) (string, bool) {
	b, err := hex.DecodeString(s)
	return strings.ToLower(s), err == nil && len(b) == KeyIDBytes
}

const (
	policyMaxRootKeys = 16
	policyMaxDenied   = 64
)

// ParsePolicy reads a policy file's text.
func ParsePolicy(text string) (*Policy, error) {
	p := DefaultPolicy()
	seen := map[string]bool{}
	for n, line := range strings.Split(text, "\n") {
		no := n + 1
		if strings.IndexByte(line, 0) >= 0 {
			return nil, fmt.Errorf("line %d: NUL byte", no)
		}
		if len(line) >= 512 {
			return nil, fmt.Errorf("line %d: longer than 511 bytes", no)
		}
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			return nil, fmt.Errorf("line %d: expected 'key = value'", no)
		}
		key, val := strings.TrimSpace(line[:eq]), strings.TrimSpace(line[eq+1:])
		if err := p.apply(key, val, seen, no); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *Policy) apply(key, val string, seen map[string]bool, no int) error {
	switch key {
	case "allowed_lifecycle":
		for lc, name := range lifecycleNames {
			if name == val {
				if p.AllowedLifecycles&(1<<lc) != 0 {
					return fmt.Errorf("line %d: allowed_lifecycle %s given twice", no, val)
				}
				p.AllowedLifecycles |= 1 << lc
				return nil
			}
		}
		return fmt.Errorf("line %d: allowed_lifecycle is one of %s", no, strings.Join(lifecycleNames, ", "))
	case "denied_delegate_key", "allowed_root_key":
		id, ok := keyID(val)
		if !ok {
			return fmt.Errorf("line %d: %s needs 64 hex digits", no, key)
		}
		if key == "allowed_root_key" {
			if len(p.AllowedRootKeys) == policyMaxRootKeys {
				return fmt.Errorf("line %d: more than %d allowed_root_key entries", no, policyMaxRootKeys)
			}
			p.AllowedRootKeys = append(p.AllowedRootKeys, id)
		} else {
			if len(p.DeniedDelegates) == policyMaxDenied {
				return fmt.Errorf("line %d: more than %d denied_delegate_key entries", no, policyMaxDenied)
			}
			p.DeniedDelegates = append(p.DeniedDelegates, id)
		}
		return nil
	case "crl":
		return fmt.Errorf("line %d: crl: Veraison takes a CA's CRLs in its endorsement store "+
			"(provision them as %s), not from files the policy names", no, CRLMediaType)
	}
	var ok bool
	switch key {
	case "min_svn_rom_ext":
		p.MinSVN[StageROMExt], ok = parseUint(val, SVNLimit)
	case "min_svn_bl0":
		p.MinSVN[StageBL0], ok = parseUint(val, SVNLimit)
	case "max_delegation_depth":
		p.MaxDepth, ok = parseUint(val, MaxDelegationDepth)
	case "hybrid_required":
		p.HybridRequired, ok = parseBool(val)
	case "tag_path_allowed":
		p.TagPathAllowed, ok = parseBool(val)
	case "min_epoch":
		p.MinEpoch, ok = parseUint(val, 0xffffffff)
	case "debug_images_allowed":
		p.DebugImagesAllowed, ok = parseBool(val)
	case "require_committed":
		p.RequireCommitted, ok = parseBool(val)
	case "allow_reverted":
		p.AllowReverted, ok = parseBool(val)
		p.AllowRevertedGiven = ok
	case "min_revocation_sequence":
		p.MinRevocationSeq, ok = parseUint(val, RevocationSeqMax)
	default:
		return fmt.Errorf("line %d: unknown key '%s'", no, key)
	}
	if seen[key] {
		return fmt.Errorf("line %d: '%s' given twice", no, key)
	}
	seen[key] = true
	if !ok {
		return fmt.Errorf("line %d: bad value '%s' for %s", no, val, key)
	}
	return nil
}

func listed(id string, list []string) bool {
	for _, k := range list {
		if k == id {
			return true
		}
	}
	return false
}

// checkStage is check_stage: the rules on one booted stage.
func (s *Summary) checkStage(p *Policy, stage uint32, run *StageSummary) {
	name := StageName(stage)
	add := func(status, format string, a ...any) {
		s.Failures = append(s.Failures, Failure{status, stage, fmt.Sprintf(format, a...)})
	}
	if run.SVN < p.MinSVN[stage] {
		add("VERIFY_SVN_BELOW_POLICY", "%s SVN %d is below the policy minimum %d", name, run.SVN, p.MinSVN[stage])
	}
	if len(p.AllowedRootKeys) > 0 && (len(run.KeyIDs) == 0 || !listed(run.KeyIDs[0], p.AllowedRootKeys)) {
		root := ""
		if len(run.KeyIDs) > 0 {
			root = run.KeyIDs[0]
		}
		add("VERIFY_ROOT_KEY_NOT_ALLOWED", "%s root key %s is not in allowed_root_key", name, root)
	}
	for i := 1; i < len(run.KeyIDs); i++ {
		if listed(run.KeyIDs[i], p.DeniedDelegates) {
			add("VERIFY_DELEGATE_DENIED", "%s delegate %d key %s is in denied_delegate_key", name, i, run.KeyIDs[i])
		}
	}
	if depth := uint32(max(len(run.KeyIDs)-1, 0)); depth > p.MaxDepth {
		add("VERIFY_DEPTH_EXCEEDED", "%s delegation depth %d is above the policy maximum %d", name, depth, p.MaxDepth)
	}
	if run.Path == pathNames[PathTag] && !p.TagPathAllowed {
		add("VERIFY_TAG_PATH_FORBIDDEN", "%s booted on the tag path; the policy requires a signature check", name)
	}
	if p.HybridRequired && run.SigScheme != SigHybrid {
		add("VERIFY_HYBRID_MISSING", "%s was not verified with the hybrid scheme the policy requires", name)
	}
	if !p.DebugImagesAllowed && run.UsageFlags&CapDebug != 0 {
		add("VERIFY_DEBUG_IMAGE", "%s image carries the DEBUG usage flag; debug_images_allowed is false", name)
	}
}

func slotLetter(slot uint32) string { return string(rune('A' + slot)) }

// checkUpdate is check_update: the certified update state against the
// policy - BL0 on trial, a reverted trial, revocations not applied.
func (s *Summary) checkUpdate(p *Policy) {
	u := s.Update
	if u == nil {
		return
	}
	add := func(status string, stage uint32, format string, a ...any) {
		s.Failures = append(s.Failures, Failure{status, stage, fmt.Sprintf(format, a...)})
	}
	if p.RequireCommitted && u.State != UpdateCommitted {
		add("VERIFY_NOT_COMMITTED", StageBL0, "bl0 runs slot %s on trial (boot %d of %d), the primary is %s; "+
			"require_committed is true", slotLetter(u.BootedSlot), u.TrialBoots, TrialMaxBoots,
			slotLetter(u.PrimarySlot))
	}
	if !p.RevertedAllowed() && u.RevertReason != 0 {
		add("VERIFY_TRIAL_REVERTED", StageBL0, "bl0 trial of slot %s was reverted (%s); allow_reverted is false",
			slotLetter(u.RevertedSlot), RevertName(u.RevertReason))
	}
	if u.RevocationSeq < p.MinRevocationSeq {
		add("VERIFY_REVOCATION_BELOW_POLICY", NoStage, "revocation sequence %d is below the policy minimum %d",
			u.RevocationSeq, p.MinRevocationSeq)
	}
}
