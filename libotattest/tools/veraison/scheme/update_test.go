// SPDX-License-Identifier: MIT

package scheme

// The update state (issue 28): the rules require_committed,
// allow_reverted and min_revocation_sequence, each passing and refusing
// with the tier of its refusal row, and check 5b catching a runtime that
// claims another update state than ROM_EXT certified.

import (
	"testing"

	"github.com/veraison/ear"
)

func withUpdate(u UpdateSummary) *Summary {
	s := honest()
	s.Update = &u
	return s
}

func TestUpdateRules(t *testing.T) {
	trial := UpdateSummary{State: UpdateTrial, PrimarySlot: 1, TrialBoots: 2, RevocationSeq: 3}
	reverted := UpdateSummary{RevertReason: 2, RevertedSlot: 1, RevocationSeq: 3}
	committed := UpdateSummary{RevocationSeq: 3}
	for _, c := range []struct {
		name, policy string
		update       UpdateSummary
		status       string // "" passes
		stage        uint32
		claim        string
	}{
		{"trial, no rule", "", trial, "", 0, ""},
		{"trial, require_committed", "require_committed = true", trial, "VERIFY_NOT_COMMITTED", StageBL0, Configuration},
		{"committed, require_committed", "require_committed = true\nallow_reverted = false", committed, "", 0, ""},
		{"reverted, no rule", "", reverted, "", 0, ""},
		{"reverted, require_committed", "require_committed = true", reverted, "VERIFY_TRIAL_REVERTED", StageBL0, Configuration},
		{"reverted, require_committed, allowed", "require_committed = true\nallow_reverted = true", reverted, "", 0, ""},
		{"reverted, allow_reverted = false", "allow_reverted = false", reverted, "VERIFY_TRIAL_REVERTED", StageBL0, Configuration},
		{"revocation 3 >= 3", "min_revocation_sequence = 3", committed, "", 0, ""},
		{"revocation 3 < 4", "min_revocation_sequence = 4", committed, "VERIFY_REVOCATION_BELOW_POLICY", NoStage, Executables},
	} {
		p, err := ParsePolicy(c.policy)
		if err != nil {
			t.Fatal(err)
		}
		s := withUpdate(c.update)
		s.CheckPolicy(nil, p)
		if c.status == "" {
			if len(s.Failures) != 0 {
				t.Errorf("%s: %v", c.name, s.Failures)
			}
			continue
		}
		if len(s.Failures) != 1 || s.Failures[0].Status != c.status || s.Failures[0].Stage != c.stage {
			t.Errorf("%s: %v, want %s stage %d", c.name, s.Failures, c.status, c.stage)
			continue
		}
		for name, a := range s.Appraise() {
			hit := c.stage == NoStage || name == StageName(c.stage)
			tv := map[string]ear.TrustClaim{Configuration: a.TrustVector.Configuration,
				Executables: a.TrustVector.Executables}[c.claim]
			if hit && (a.Status != ear.TrustTierWarning || tv != ValueUnsafe) {
				t.Errorf("%s: %s is %v with %s %d, want warning %d", c.name, name, a.Status, c.claim, tv, ValueUnsafe)
			}
			if !hit && a.Status != ear.TrustTierAffirming {
				t.Errorf("%s: %s is %v, want affirming", c.name, name, a.Status)
			}
		}
	}
}

func TestUpdatePolicyKeys(t *testing.T) {
	for _, bad := range []string{"require_committed = 1", "allow_reverted = perhaps",
		"min_revocation_sequence = 257", "min_revocation_sequence = -1",
		"min_revocation_sequence = 1\nmin_revocation_sequence = 2"} {
		if _, err := ParsePolicy(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	p, err := ParsePolicy("require_committed = yes\nallow_reverted = no\nmin_revocation_sequence = 256")
	if err != nil || !p.RequireCommitted || !p.AllowRevertedGiven || p.AllowReverted || p.MinRevocationSeq != 256 {
		t.Errorf("%+v %v", p, err)
	}
	if d := DefaultPolicy(); d.RequireCommitted || !d.RevertedAllowed() || d.MinRevocationSeq != 0 {
		t.Errorf("default %+v", d)
	}
}

// A runtime that claims another update state than the certificate's: each
// differing field one VERIFY_STATE_MISMATCH of the device.
func TestUpdateStateLieIsCaught(t *testing.T) {
	cert := CertDevice{Update: UpdateClaims{ResetReason: 2, PrimarySlot: 1, State: UpdateTrial, TrialBoots: 3,
		RevocationSeq: 3, RevertReason: 0, RefusedCount: 1, RefusedSlots: 8}}
	claims := &Claims{Update: cert.Update}
	v := &Verdict{}
	checkState(&cert, claims, v)
	if len(v.Failures) != 0 {
		t.Fatalf("the truth: %v", v.Failures)
	}
	lies := []func(u *UpdateClaims){
		func(u *UpdateClaims) { u.State, u.PrimarySlot = UpdateCommitted, 0 },
		func(u *UpdateClaims) { u.RevocationSeq = 9 },
		func(u *UpdateClaims) { u.RefusedCount, u.RefusedSlots = 0, 0 },
		func(u *UpdateClaims) { u.RevertReason, u.RevertedSlot = 1, 1 },
		func(u *UpdateClaims) { u.ResetReason = 1 },
		func(u *UpdateClaims) { u.TrialBoots = 1 },
	}
	want := []int{2, 1, 2, 2, 1, 1}
	for i, lie := range lies {
		c := &Claims{Update: cert.Update}
		lie(&c.Update)
		v := &Verdict{}
		checkState(&cert, c, v)
		if len(v.Failures) != want[i] {
			t.Errorf("lie %d: %v", i, v.Failures)
		}
		for _, f := range v.Failures {
			if f.Status != "VERIFY_STATE_MISMATCH" || f.Stage != NoStage {
				t.Errorf("lie %d: %v", i, f)
			}
		}
	}
	// pending-update is the runtime's own: never compared.
	c := &Claims{Update: cert.Update}
	c.Update.PendingStage, c.Update.PendingSlot = StageBL0, 1
	v = &Verdict{}
	checkState(&cert, c, v)
	if len(v.Failures) != 0 {
		t.Errorf("pending: %v", v.Failures)
	}
}
