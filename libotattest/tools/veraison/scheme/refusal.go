// SPDX-License-Identifier: MIT

package scheme

// What each refusal tells a relying party: libotattest's one table of them
// (libotattest/include/otattest/refusal.h, OTA_REFUSAL_LIST), the same rows
// here; refusal_test.go reads the header and fails on any difference.

import "github.com/veraison/ear"

// AR4SI trustworthiness claims, by their EAR names.
const (
	InstanceIdentity = "instance-identity"
	Configuration    = "configuration"
	Executables      = "executables"
	FileSystem       = "file-system"
	Hardware         = "hardware"
	RuntimeOpaque    = "runtime-opaque"
	StorageOpaque    = "storage-opaque"
	SourcedData      = "sourced-data"
)

// AR4SI values otattest gives (refusal.h's OTA_AR4SI_*).
const (
	ValueVerifierMalfunction  = -1
	ValueNoClaim              = 0
	ValueUnexpectedEvidence   = 1
	ValueAffirmed             = 2
	ValueApprovedBoot         = 3
	ValueUnsafe               = 32
	ValueUnrecognized         = 33
	ValueContraindicated      = 96
	ValueUnrecognizedInstance = 97
	ValueCryptoFailed         = 99
)

// Refusal is one row: the claim a refusal speaks to and the value it gives.
type Refusal struct {
	Claim string
	Value int
}

// Refusals maps a status name to its row.
var Refusals = map[string]Refusal{}

func rows(claim string, value int, statuses ...string) {
	for _, s := range statuses {
		Refusals[s] = Refusal{claim, value}
	}
}

func init() {
	rows(InstanceIdentity, ValueUnexpectedEvidence, "CBOR_TRUNCATED", "CBOR_TRAILING", "CBOR_INDEFINITE",
		"CBOR_DUPLICATE_KEY", "CBOR_OVERSIZE", "CBOR_TYPE", "CBOR_NONCANONICAL", "CBOR_DEPTH",
		"CBOR_UNSUPPORTED", "CBOR_BAD_UTF8", "COSE_BAD_HEADER", "COSE_BAD_ALG", "COSE_SIG_INVALID",
		"VERIFY_CLAIMS_INVALID")
	rows(InstanceIdentity, ValueUnrecognizedInstance, "VERIFY_CHAIN_UNTRUSTED")
	rows(InstanceIdentity, ValueContraindicated, "VERIFY_IDENTITY_REVOKED", "VERIFY_DEVICE_MISMATCH",
		"VERIFY_IDENTITY_MISMATCH", "VERIFY_EPOCH_BELOW_POLICY")
	rows(InstanceIdentity, ValueCryptoFailed, "VERIFY_SIGNATURE_INVALID", "VERIFY_NONCE_MISMATCH")
	rows(Executables, ValueUnsafe, "VERIFY_NOT_CERTIFIED", "VERIFY_SVN_BELOW_POLICY")
	rows(Executables, ValueContraindicated, "VERIFY_TCB_MISMATCH", "VERIFY_RESULT_MISMATCH",
		"VERIFY_STATE_MISMATCH", "VERIFY_STAGE_REFUSED", "VERIFY_DELEGATE_DENIED")
	rows(Executables, ValueUnrecognized, "VERIFY_ROOT_KEY_NOT_ALLOWED")
	rows(SourcedData, ValueContraindicated, "VERIFY_RECORD_MISMATCH")
	rows(Hardware, ValueContraindicated, "VERIFY_LIFECYCLE_NOT_ALLOWED")
	rows(Configuration, ValueUnsafe, "VERIFY_DEPTH_EXCEEDED", "VERIFY_TAG_PATH_FORBIDDEN",
		"VERIFY_HYBRID_MISSING")
	rows(Configuration, ValueContraindicated, "VERIFY_DEBUG_IMAGE")
	// A booted stage whose measurement the provisioned reference values do
	// not list: code the fleet does not recognize.
	rows(Executables, ValueUnrecognized, StatusNotInReferenceValues)
}

// StatusNotInReferenceValues is the refusal for a stage the reference
// values do not list.
const StatusNotInReferenceValues = "VERIFY_REFERENCE_MISMATCH"

// Tier is AR4SI's tier of a value, ordered worst last as ear.status
// compares them ("none" after affirming: a refusal that affirms nothing
// never leaves an appraisal affirming).
func Tier(value int) ear.TrustTier {
	switch {
	case value >= 96:
		return ear.TrustTierContraindicated
	case value >= 32:
		return ear.TrustTierWarning
	case value >= 2:
		return ear.TrustTierAffirming
	}
	return ear.TrustTierNone
}

// tierRank orders tiers worst last.
func tierRank(t ear.TrustTier) int {
	switch t {
	case ear.TrustTierAffirming:
		return 0
	case ear.TrustTierNone:
		return 1
	case ear.TrustTierWarning:
		return 2
	}
	return 3
}
