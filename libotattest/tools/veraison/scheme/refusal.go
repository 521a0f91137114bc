// SPDX-License-Identifier: MIT

package scheme

// What each refusal tells a relying party: libotattest's one table of them
// (libotattest/include/otattest/refusal.h, OTA_REFUSAL_LIST), taken at
// build time (gen/headers.c writes headers_gen.go).

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

// Refusals maps a status name to its row: refusal.h's table, as the C
// compiler reads it (headers_gen.go).
var Refusals = refusalRows

// StatusNotInReferenceValues is the refusal for a stage the reference
// values do not list (ota_refvals_check).
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
