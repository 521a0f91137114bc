// SPDX-License-Identifier: MIT

// Package scheme is otattest's attestation scheme for Veraison: it decodes
// otattest evidence (profile v2, docs/evidence.md), checks it against the
// provisioned manufacturer CA and the alias certificate, appraises each
// stage against the provisioned reference values, and reports in AR4SI
// terms the verdict libotattest's ota_verify_evidence reaches on the same
// input (docs/veraison.md). It is a second implementation, on Veraison's
// Go libraries, not a binding to libotattest.
package scheme

// The numbers below are those of libotattest/include/otattest/*.h, the one
// definition of the format: the limits come from the headers at build time
// (headers_gen.go, made by gen/headers.c), the keys here are held to them
// by headers_test.go.

// SchemeName names the scheme in Veraison: lookup keys, EAR policy ids.
const SchemeName = "OTATTEST"

// EATProfile is the evidence profile this scheme reads (OTA_EAT_PROFILE).
const EATProfile = "tag:otattest.org,2025:evidence-v2"

// EATProfileV1 is the retired profile (OTA_EAT_PROFILE_V1).
const EATProfileV1 = "tag:otattest.org,2025:evidence-v1"

// EvidenceMediaType is what the fleet agent posts evidence as: an EAT in a
// COSE_Sign1 (RFC 9711's media type), with the profile parameter.
const EvidenceMediaType = `application/eat+cwt; eat_profile="` + EATProfile + `"`

// CorimProfile names the CoRIM profile of otattest reference values and
// trust anchors; EndorsementMediaType is how provisioning receives them.
const CorimProfile = "tag:otattest.org,2025:corim-v1"
const EndorsementMediaType = `application/corim-unsigned+cbor; profile="` + CorimProfile + `"`

// Stages (enum ota_stage).
const (
	StageROMExt = 1
	StageBL0    = 2
	StageCount  = 2
)

// StageName is ota_stage_name(): the name of a stage in claims, CoRIM
// environments and EAR submodules.
func StageName(stage uint32) string {
	switch stage {
	case StageROMExt:
		return "rom_ext"
	case StageBL0:
		return "bl0"
	}
	return ""
}

// Paths (enum ota_path) and their names (ota_path_name()).
const (
	PathNone              = 0
	PathTag               = 1
	PathSignature         = 2
	PathSignatureRetagged = 3
)

var pathNames = []string{"none", "tag", "signature", "signature-retagged"}

// Signature schemes (enum ota_sig_scheme).
const (
	SigNone   = 0
	SigECDSA  = 1
	SigHybrid = 2
)

// Lifecycle states (enum ota_lifecycle).
const (
	LCTestUnlocked = 0
	LCDev          = 1
	LCProd         = 2
	LCProdEnd      = 3
	LCRMA          = 4
)

const (
	DeviceIDBytes      = 16
	KeyIDBytes         = 32
	MaxDelegationDepth = 2
	StageFlagBooted    = 0x1
	StageFlagFallback  = 0x2
)

// Claims set keys (evidence.h, profile v2).
const (
	ClaimNonce        = 10
	ClaimUEID         = 256
	ClaimOEMID        = 258
	ClaimOEMBoot      = 262
	ClaimDbgStat      = 263
	ClaimEATProfile   = 265
	ClaimMeasurements = 273
	ClaimMeasRes      = 274
)

// claimPrivateBase: a private claim n has the key -1 - (base + n).
const claimPrivateBase = 0x6f746100

func claimPrivate(n int64) int64 { return -1 - (claimPrivateBase + n) }

var (
	ClaimRecordDigest  = claimPrivate(1)
	ClaimMinSVN        = claimPrivate(2)
	ClaimEpoch         = claimPrivate(3)
	ClaimLifecycle     = claimPrivate(4)
	ClaimTagKeyVersion = claimPrivate(5)
	ClaimResetReason   = claimPrivate(6)
	ClaimRecordFlags   = claimPrivate(7)
	ClaimChainMaxSVN   = claimPrivate(8)
	ClaimFloors        = claimPrivate(9)
	ClaimGeneration    = claimPrivate(10)
	ClaimAttempts      = claimPrivate(11)
	// The update state (issue 28).
	ClaimUpdateState   = claimPrivate(12)
	ClaimPrimarySlot   = claimPrivate(13)
	ClaimBootedSlot    = claimPrivate(14)
	ClaimPendingUpdate = claimPrivate(15)
	ClaimRevocationSeq = claimPrivate(16)
	ClaimTrialBoots    = claimPrivate(17)
	ClaimRevert        = claimPrivate(18)
)

// revertNames is ota_revert_reason_name().
var revertNames = []string{"none", "warm-reset", "watchdog", "update-reset"}

// RevertName names a revert reason.
func RevertName(r uint32) string {
	if int(r) < len(revertNames) {
		return revertNames[r]
	}
	return "unknown"
}

// Keys of an attempt map.
const (
	AttemptStage         = 1
	AttemptSlot          = 2
	AttemptStatus        = 3
	AttemptSigScheme     = 4
	AttemptTagKeyVersion = 5
	AttemptFlags         = 6
	AttemptVerifyTimeNs  = 7
	AttemptComponent     = 8
	AttemptPathReason    = 9
	AttemptUsageFlags    = 10
)

// measured-component map keys and values.
const (
	MCID                 = 1
	MCDigest             = 2
	MCAuthorities        = 3
	CFMeasuredComponent  = 295
	MCAlgSHA256          = 1
	MCVersionScheme      = 1
	MCNameROM            = "rom"
	MeasResSuccess       = 1
	MeasResFail          = 2
	MeasResNotRun        = 3
	MeasResSystemPrefix  = "otattest-boot/"
	OEMIDBytes           = 16
	DbgStatEnabled       = 0
	DbgStatDisabledPerm  = 3
	DbgStatDisabledFully = 4
)

// OEMID is OTA_OEMID_INIT.
var OEMID = []byte{0x00, 0x66, 0x57, 0x68, 0x00, 0xdb, 0xde, 0xdb,
	0x39, 0xfe, 0x77, 0x80, 0xec, 0x8f, 0x5b, 0xc0}

// DbgStat is ota_dbgstat(lifecycle).
func DbgStat(lifecycle uint32) uint32 {
	switch lifecycle {
	case LCProd:
		return DbgStatDisabledPerm
	case LCProdEnd:
		return DbgStatDisabledFully
	}
	return DbgStatEnabled
}

// Certificate names (OTA_CERT_CN_*).
const (
	CNIdentity = "otattest identity "
	CNAlias    = "otattest alias "
)
