// SPDX-License-Identifier: MIT

package scheme

import (
	"testing"

	"github.com/veraison/ear"
)

func booted(stage, svn uint32, digest string, keys ...string) StageSummary {
	return StageSummary{Stage: StageName(stage), Booted: true, Status: StatusOK, Path: "signature",
		SVN: svn, Measurement: digest, KeyIDs: keys}
}

func honest() *Summary {
	return &Summary{Authentic: true, ClaimsValid: true, Stages: []StageSummary{
		booted(StageROMExt, 2, "e1", "c1"), booted(StageBL0, 5, "b5", "01", "02")}}
}

func TestAppraiseHonestAffirms(t *testing.T) {
	s := honest()
	s.CheckPolicy(nil, nil)
	for name, a := range s.Appraise() {
		if a.Status != ear.TrustTierAffirming || a.TrustVector.Executables != ValueApprovedBoot ||
			a.TrustVector.InstanceIdentity != ValueAffirmed || len(a.Failures) != 0 {
			t.Errorf("%s: %v %+v %v", name, a.Status, a.TrustVector, a.Failures)
		}
	}
}

func TestAppraiseDeviceFailureInEverySubmod(t *testing.T) {
	s := honest()
	s.Failures = []Failure{{"VERIFY_NONCE_MISMATCH", NoStage, ""}}
	for name, a := range s.Appraise() {
		if a.Status != ear.TrustTierContraindicated || a.TrustVector.InstanceIdentity != ValueCryptoFailed {
			t.Errorf("%s: %v %+v", name, a.Status, a.TrustVector)
		}
	}
}

func TestAppraiseNotAuthenticAffirmsNothing(t *testing.T) {
	s := honest()
	s.Authentic = false
	s.Failures = []Failure{{"VERIFY_SIGNATURE_INVALID", NoStage, ""}}
	a := s.Appraise()["bl0"]
	if a.TrustVector.Executables != 0 || a.TrustVector.Hardware != 0 || a.TrustVector.InstanceIdentity != ValueCryptoFailed {
		t.Errorf("%+v", a.TrustVector)
	}
}

func TestAppraiseDecodeFailureIsNone(t *testing.T) {
	s := &Summary{Failures: []Failure{{"CBOR_TRUNCATED", NoStage, ""}}}
	for name, a := range s.Appraise() {
		if a.Status != ear.TrustTierNone || a.TrustVector.InstanceIdentity != ValueUnexpectedEvidence {
			t.Errorf("%s: %v %+v", name, a.Status, a.TrustVector)
		}
	}
}

func TestAppraiseWorstValueWins(t *testing.T) {
	s := honest()
	// Within one claim: contraindicated over warning, whatever the order.
	s.Failures = []Failure{{"VERIFY_TCB_MISMATCH", StageBL0, ""}, {"VERIFY_SVN_BELOW_POLICY", StageBL0, ""}}
	a := s.Appraise()
	if a["bl0"].TrustVector.Executables != ValueContraindicated || a["bl0"].Status != ear.TrustTierContraindicated {
		t.Errorf("bl0 %+v", a["bl0"])
	}
	if a["rom_ext"].Status != ear.TrustTierAffirming {
		t.Errorf("rom_ext took bl0's failure: %+v", a["rom_ext"])
	}
}

func TestUnknownStatusIsVerifierMalfunction(t *testing.T) {
	s := honest()
	s.Failures = []Failure{{"NO_SUCH_STATUS", NoStage, ""}}
	if a := s.Appraise()["bl0"]; a.TrustVector.InstanceIdentity != ValueVerifierMalfunction ||
		a.Status != ear.TrustTierNone {
		t.Errorf("%v %+v", a.Status, a.TrustVector)
	}
}

func svn(n uint32) *uint32 { return &n }

func TestReferenceValues(t *testing.T) {
	rom := RefValue{Stage: "rom_ext", Digests: []string{"e1"}, SVN: svn(2)}
	for _, tc := range []struct {
		name string
		bl0  RefValue
		fail bool
	}{
		{"exact", RefValue{Stage: "bl0", Digests: []string{"00", "b5"}, SVN: svn(5), KeyIDs: []string{"01", "02"}}, false},
		{"no SVN, no keys", RefValue{Stage: "bl0", Digests: []string{"b5"}}, false},
		{"min SVN below", RefValue{Stage: "bl0", Digests: []string{"b5"}, SVN: svn(4), MinSVN: true}, false},
		{"min SVN above", RefValue{Stage: "bl0", Digests: []string{"b5"}, SVN: svn(6), MinSVN: true}, true},
		{"other SVN", RefValue{Stage: "bl0", Digests: []string{"b5"}, SVN: svn(4)}, true},
		{"other digest", RefValue{Stage: "bl0", Digests: []string{"b6"}}, true},
		{"other delegate", RefValue{Stage: "bl0", Digests: []string{"b5"}, KeyIDs: []string{"01", "03"}}, true},
		{"root only", RefValue{Stage: "bl0", Digests: []string{"b5"}, KeyIDs: []string{"01"}}, true},
		{"another stage's", RefValue{Stage: "rom_ext", Digests: []string{"b5"}}, true},
	} {
		s := honest()
		s.CheckPolicy([]RefValue{rom, tc.bl0}, nil)
		failed := len(s.Failures) == 1 && s.Failures[0].Status == StatusNotInReferenceValues &&
			s.Failures[0].Stage == StageBL0
		if failed != tc.fail || (!tc.fail && len(s.Failures) != 0) {
			t.Errorf("%s: %+v", tc.name, s.Failures)
		}
	}
}

func TestStageRefused(t *testing.T) {
	s := honest()
	s.Stages[1].Status = 0x1234
	s.CheckPolicy([]RefValue{}, nil)
	if len(s.Failures) != 2 || s.Failures[1].Status != "VERIFY_STAGE_REFUSED" || s.Failures[1].Stage != StageBL0 {
		t.Errorf("%+v", s.Failures)
	}
	s = honest()
	s.Stages = append(s.Stages, booted(StageBL0, 5, "b5"))
	s.CheckPolicy(nil, nil)
	if len(s.Failures) != 1 || s.Failures[0].Status != "VERIFY_STAGE_REFUSED" {
		t.Errorf("two booted BL0: %+v", s.Failures)
	}
}
