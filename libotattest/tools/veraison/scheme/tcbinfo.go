// SPDX-License-Identifier: MIT

package scheme

// What the alias certificate certifies: the TCG DICE MultiTcbInfo extension
// ROM_EXT writes (docs/evidence.md, "Alias certificate profile"), read with
// cryptobyte's DER reader and held to exactly that shape, as libotattest's
// alias_info.c holds it: a claim is only worth what the certificate says,
// so a certificate of another shape certifies nothing this verifier reads.

import (
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

var (
	oidMultiTcbInfo = asn1.ObjectIdentifier{2, 23, 133, 5, 4, 5}
	oidSHA256       = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
)

// CertDevice is the ROM entry: the device state ROM and ROM_EXT decided.
type CertDevice struct {
	ROMIdentity   []byte
	Lifecycle     uint32
	Epoch         uint32
	MinSVN        uint32
	FloorROMExt   uint32
	FloorBL0      uint32
	ChainMaxSVN   uint32
	TagKeyVersion uint32
	Flags         uint32
	// DeviceState version 2: the update state (Pending* never certified).
	Update UpdateClaims
}

// CertStage is one booted stage's entry.
type CertStage struct {
	Stage         uint32 // DiceTcbInfo layer: enum ota_stage
	SVN           uint32
	Measurement   []byte
	Path          uint32
	SigScheme     uint32
	Depth         uint32
	TagKeyVersion uint32
	PathReason    uint32   // StageResults version 2 on
	UsageFlags    uint32   // StageResults version 2 on
	KeyIDs        [][]byte // root key id, then each delegate's
}

// AliasInfo is everything the verifier reads from an alias certificate.
type AliasInfo struct {
	// CertifiesResults is false for firmware before the profile (entries
	// with SVNs and measurements only): such a certificate cannot back the
	// claims a policy judges (VERIFY_NOT_CERTIFIED).
	CertifiesResults bool
	Device           CertDevice
	Stages           []CertStage
}

// Tags of DiceTcbInfo's fields (IMPLICIT, context-specific).
var (
	tagVendor     = cbasn1.Tag(0).ContextSpecific()
	tagModel      = cbasn1.Tag(1).ContextSpecific()
	tagSVN        = cbasn1.Tag(3).ContextSpecific()
	tagLayer      = cbasn1.Tag(4).ContextSpecific()
	tagFwids      = cbasn1.Tag(6).ContextSpecific().Constructed()
	tagFlags      = cbasn1.Tag(7).ContextSpecific()
	tagVendorInfo = cbasn1.Tag(8).ContextSpecific()
)

var errTcbShape = errors.New("the alias certificate's MultiTcbInfo is not the otattest profile")

// readUint32 reads a non-negative INTEGER's contents in their shortest
// form, at most 32 bits (cryptobyte checks the form, the bound is ours).
func readUint32(s *cryptobyte.String, tag cbasn1.Tag) (uint32, bool) {
	var v int64
	if !s.ReadASN1Int64WithTag(&v, tag) {
		return 0, false
	}
	if v < 0 || v > 0xffffffff {
		return 0, false
	}
	return uint32(v), true
}

func readFwid(s *cryptobyte.String) ([]byte, bool) {
	var fwids, fwid cryptobyte.String
	var oid asn1.ObjectIdentifier
	var digest []byte
	if !s.ReadASN1(&fwids, tagFwids) || !fwids.ReadASN1(&fwid, cbasn1.SEQUENCE) || !fwids.Empty() {
		return nil, false
	}
	if !fwid.ReadASN1ObjectIdentifier(&oid) || !oid.Equal(oidSHA256) ||
		!fwid.ReadASN1Bytes(&digest, cbasn1.OCTET_STRING) || len(digest) != 32 || !fwid.Empty() {
		return nil, false
	}
	return digest, true
}

// readFlags reads OperationalFlags: always 32 bits wide, no unused bits.
func readFlags(s *cryptobyte.String) (uint32, bool) {
	var b []byte
	if !s.ReadASN1Bytes(&b, tagFlags) || len(b) != 5 || b[0] != 0 {
		return 0, false
	}
	return uint32(b[1])<<24 | uint32(b[2])<<16 | uint32(b[3])<<8 | uint32(b[4]), true
}

// readVendorInfo reads vendorInfo's SEQUENCE, which must start with the
// version the headers give it (TCBInfoVersion, TCBResultsVersion).
func readVendorInfo(s *cryptobyte.String, version uint32) (cryptobyte.String, bool) {
	var octets, seq cryptobyte.String
	if !s.ReadASN1(&octets, tagVendorInfo) || !octets.ReadASN1(&seq, cbasn1.SEQUENCE) || !octets.Empty() {
		return nil, false
	}
	if v, ok := readUint32(&seq, cbasn1.INTEGER); !ok || v != version {
		return nil, false
	}
	return seq, true
}

func readUints(s *cryptobyte.String, out ...*uint32) bool {
	for _, p := range out {
		v, ok := readUint32(s, cbasn1.INTEGER)
		if !ok {
			return false
		}
		*p = v
	}
	return true
}

// parseMultiTcbInfo reads the extension's value.
func parseMultiTcbInfo(value []byte) (*AliasInfo, error) {
	in := cryptobyte.String(value)
	var list cryptobyte.String
	if !in.ReadASN1(&list, cbasn1.SEQUENCE) || !in.Empty() {
		return nil, errTcbShape
	}
	info := &AliasInfo{CertifiesResults: true}
	for i := 0; !list.Empty(); i++ {
		var e cryptobyte.String
		var vendor cryptobyte.String
		var model []byte
		var hasVendor bool
		if !list.ReadASN1(&e, cbasn1.SEQUENCE) {
			return nil, errTcbShape
		}
		if !e.ReadOptionalASN1(&vendor, &hasVendor, tagVendor) {
			return nil, errTcbShape
		}
		if !e.ReadASN1Bytes(&model, tagModel) {
			return nil, errTcbShape
		}
		if i == 0 {
			if !hasVendor || string(vendor) != "otattest" || string(model) != "rom" {
				return nil, errTcbShape
			}
			layer, ok := readUint32(&e, tagLayer)
			if !ok || layer != 0 {
				return nil, errTcbShape
			}
			d := &info.Device
			if d.ROMIdentity, ok = readFwid(&e); !ok {
				return nil, errTcbShape
			}
			if d.Flags, ok = readFlags(&e); !ok {
				return nil, errTcbShape
			}
			vi, ok := readVendorInfo(&e, TCBInfoVersion)
			u := &d.Update
			if !ok || !readUints(&vi, &d.Lifecycle, &d.Epoch, &d.MinSVN, &d.FloorROMExt,
				&d.FloorBL0, &d.ChainMaxSVN, &d.TagKeyVersion, &u.ResetReason, &u.State,
				&u.PrimarySlot, &u.BootedSlot, &u.RevocationSeq, &u.RevocationSeqDevice,
				&u.TrialBoots, &u.RevertReason, &u.RevertedSlot, &u.RefusedCount,
				&u.RefusedSlots) || !vi.Empty() || !e.Empty() {
				return nil, errTcbShape
			}
			if u.ResetReason < ResetCold || u.ResetReason > ResetUpdate || u.State > UpdateTrial ||
				u.PrimarySlot > 1 || u.BootedSlot > 1 || u.RevocationSeq > RevocationSeqMax ||
				u.RevocationSeqDevice > RevocationSeqMax || u.TrialBoots > TrialMaxBoots ||
				u.RevertReason > RevertReasonMax || u.RevertedSlot > 1 ||
				u.RefusedCount > RecordMaxStages || u.RefusedSlots >= 1<<(StageCount*2) {
				return nil, errTcbShape
			}
			continue
		}
		var st CertStage
		var ok bool
		if st.SVN, ok = readUint32(&e, tagSVN); !ok {
			return nil, errTcbShape
		}
		if st.Stage, ok = readUint32(&e, tagLayer); !ok || st.Stage != uint32(i) ||
			string(model) != StageName(st.Stage) {
			return nil, errTcbShape
		}
		if st.Measurement, ok = readFwid(&e); !ok {
			return nil, errTcbShape
		}
		if !hasVendor {
			// Firmware before the profile: SVN and measurement only.
			if !e.Empty() {
				return nil, errTcbShape
			}
			info.CertifiesResults = false
			info.Stages = append(info.Stages, st)
			continue
		}
		if string(vendor) != "otattest" {
			return nil, errTcbShape
		}
		if _, ok = readFlags(&e); !ok {
			return nil, errTcbShape
		}
		vi, ok := readVendorInfo(&e, TCBResultsVersion)
		if !ok || !readUints(&vi, &st.Path, &st.SigScheme, &st.Depth, &st.TagKeyVersion) ||
			st.Depth > MaxDelegationDepth {
			return nil, errTcbShape
		}
		if TCBResultsVersion >= 2 && !readUints(&vi, &st.PathReason, &st.UsageFlags) {
			return nil, errTcbShape
		}
		if st.Path > PathSignatureRetagged || st.SigScheme > SigHybrid || st.PathReason > ReasonMax ||
			st.UsageFlags&^CapAll != 0 {
			return nil, errTcbShape
		}
		for k := uint32(0); k <= st.Depth; k++ {
			var id []byte
			if !vi.ReadASN1Bytes(&id, cbasn1.OCTET_STRING) || len(id) != 32 {
				return nil, errTcbShape
			}
			st.KeyIDs = append(st.KeyIDs, id)
		}
		if !vi.Empty() || !e.Empty() {
			return nil, errTcbShape
		}
		info.Stages = append(info.Stages, st)
	}
	if len(info.Stages) == 0 && info.Device.ROMIdentity == nil {
		return nil, errTcbShape
	}
	if len(info.Stages) > StageCount {
		return nil, errTcbShape
	}
	return info, nil
}

// aliasInfo finds the extension among an alias certificate's.
func aliasInfo(exts []pkix.Extension) (*AliasInfo, error) {
	var found *AliasInfo
	for _, ext := range exts {
		if !ext.Id.Equal(oidMultiTcbInfo) {
			continue
		}
		if found != nil {
			return nil, errors.New("the alias certificate has two MultiTcbInfo extensions")
		}
		info, err := parseMultiTcbInfo(ext.Value)
		if err != nil {
			return nil, err
		}
		found = info
	}
	if found == nil {
		return &AliasInfo{}, nil
	}
	return found, nil
}

// deviceFromCN reads "<prefix><32 hex digits>" from a subject or issuer.
func deviceFromCN(cn, prefix string) ([]byte, error) {
	if len(cn) != len(prefix)+2*DeviceIDBytes || cn[:len(prefix)] != prefix {
		return nil, fmt.Errorf("common name %q does not name an otattest device", cn)
	}
	id := make([]byte, DeviceIDBytes)
	for i := range id {
		hi, lo := unhex(cn[len(prefix)+2*i]), unhex(cn[len(prefix)+2*i+1])
		if hi < 0 || lo < 0 {
			return nil, fmt.Errorf("common name %q does not name an otattest device", cn)
		}
		id[i] = byte(hi<<4 | lo)
	}
	return id, nil
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}
