// SPDX-License-Identifier: MIT

package scheme

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

func kid(n int) string { return strings.Repeat(fmt.Sprintf("%02x", n), KeyIDBytes) }

// everyKey sets every key of the policy file (crl is an endorsement).
var everyKey = strings.Join([]string{
	"min_svn_rom_ext = 3", "min_svn_bl0 = 6", "allowed_root_key = " + kid(1), "allowed_root_key = " + kid(9),
	"max_delegation_depth = 1", "hybrid_required = true", "tag_path_allowed = false",
	"debug_images_allowed = false", "min_epoch = 2", "allowed_lifecycle = prod", "allowed_lifecycle = prod_end",
	"denied_delegate_key = " + kid(3), "denied_delegate_key = " + kid(4),
	"require_committed = true", "allow_reverted = false", "min_revocation_sequence = 4", ""}, "\n")

// good passes everyKey.
func good() *Summary {
	run := func(stage, svn uint32, keys ...string) StageSummary {
		return StageSummary{Stage: StageName(stage), Booted: true, Status: StatusOK, Path: "signature",
			SigScheme: SigHybrid, SVN: svn, Measurement: "aa", KeyIDs: keys}
	}
	return &Summary{Authentic: true, ClaimsValid: true, DeviceID: "d1", Lifecycle: 2, Epoch: 2,
		Stages: []StageSummary{run(StageROMExt, 3, kid(1)), run(StageBL0, 6, kid(9), kid(2))},
		Update: &UpdateSummary{RevocationSeq: 4}}
}

// regoCases: each key's rule firing (the key names the case), and what
// must not change a verdict.
var regoCases = map[string]func(s *Summary){
	"pass":                 func(s *Summary) {},
	"allowed_lifecycle":    func(s *Summary) { s.Lifecycle = 1 },
	"lifecycle unknown":    func(s *Summary) { s.Lifecycle = 7 },
	"min_epoch":            func(s *Summary) { s.Epoch = 1 },
	"min_svn_rom_ext":      func(s *Summary) { s.Stages[0].SVN = 2 },
	"min_svn_bl0":          func(s *Summary) { s.Stages[1].SVN = 5 },
	"allowed_root_key":     func(s *Summary) { s.Stages[1].KeyIDs[0] = kid(5) },
	"no key ids":           func(s *Summary) { s.Stages[0].KeyIDs = nil },
	"denied_delegate_key":  func(s *Summary) { s.Stages[1].KeyIDs[1] = kid(4) },
	"max_delegation_depth": func(s *Summary) { s.Stages[1].KeyIDs = append(s.Stages[1].KeyIDs, kid(6)) },
	"hybrid_required":      func(s *Summary) { s.Stages[0].SigScheme = 1 },
	"tag_path_allowed":     func(s *Summary) { s.Stages[1].Path = "tag" },
	"debug_images_allowed": func(s *Summary) { s.Stages[0].UsageFlags = CapDebug | 1 },
	"stage refused":        func(s *Summary) { s.Stages[1].Booted = false; s.Stages[1].SVN = 0 },
	"require_committed": func(s *Summary) {
		*s.Update = UpdateSummary{State: UpdateTrial, PrimarySlot: 1, TrialBoots: 2, RevocationSeq: 4}
	},
	"allow_reverted":          func(s *Summary) { s.Update.RevertReason, s.Update.RevertedSlot = 2, 1 },
	"min_revocation_sequence": func(s *Summary) { s.Update.RevocationSeq = 3 },
	"claims invalid":       func(s *Summary) { s.ClaimsValid = false; s.Lifecycle = 1 },
	"worse already": func(s *Summary) {
		s.Stages[1].SVN = 1
		s.Failures = []Failure{{"VERIFY_TCB_MISMATCH", StageBL0, "x"}}
	},
	"everything": func(s *Summary) {
		s.Lifecycle, s.Epoch = 0, 0
		s.Stages[0] = StageSummary{Stage: "rom_ext", Booted: true, Status: StatusOK, Path: "tag", UsageFlags: CapDebug}
		s.Stages[1].SVN, s.Stages[1].KeyIDs = 0, []string{kid(7), kid(3), kid(4)}
	},
}

// appraisalOf is a submodule's result as both verifiers report it: the
// failures in the order of their text (Rego appends its failures after
// the scheme's, CheckPolicy interleaves them).
func appraisalOf(t *testing.T, s *Summary, rules string, p *Policy) map[string]string {
	r := s.Result("test", "test")
	if rules != "" {
		agent, err := RegoAgent()
		if err != nil {
			t.Fatal(err)
		}
		if err := ApplyRego(context.Background(), agent, rules, s, r); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]string{}
	for name, a := range r.Submods {
		claims := *a.VeraisonPolicyClaims
		var failures []string
		if f, ok := claims["failures"].([]any); ok {
			for _, x := range f {
				b, _ := json.Marshal(x)
				failures = append(failures, string(b))
			}
		}
		sort.Strings(failures)
		rest := map[string]any{}
		for k, v := range claims {
			if k != "failures" {
				rest[k] = v
			}
		}
		tv, _ := json.Marshal(a.TrustVector)
		other, _ := json.Marshal(rest)
		out[name] = fmt.Sprintf("status %s, tv %s, policy %s, claims %s, failures %s", a.Status, tv,
			*a.AppraisalPolicyID, other, strings.Join(failures, " "))
	}
	return out
}

func regoVersusScheme(t *testing.T, p *Policy, mutate func(*Summary), drop string) []string {
	withFile := good()
	mutate(withFile)
	withFile.CheckPolicy(nil, p)
	want := appraisalOf(t, withFile, "", nil)
	throughRego := good()
	mutate(throughRego)
	throughRego.CheckPolicy(nil, nil)
	got := appraisalOf(t, throughRego, PolicyRego(p, "test", drop), p)
	var diffs []string
	for name := range want {
		if got[name] != want[name] {
			diffs = append(diffs, fmt.Sprintf("%s:\n  scheme %s\n  rego   %s", name, want[name], got[name]))
		}
	}
	return diffs
}

// TestPolicyRegoIsCheckPolicy: through Veraison's policy agent the Rego
// gives every submodule the status, trust vector and failures the scheme
// gives it under the policy file, each key's rule firing in turn.
func TestPolicyRegoIsCheckPolicy(t *testing.T) {
	p, err := ParsePolicy(everyKey)
	if err != nil {
		t.Fatal(err)
	}
	for name, mutate := range regoCases {
		for _, d := range regoVersusScheme(t, p, mutate, "") {
			t.Errorf("%s: %s", name, d)
		}
	}
	// The default policy writes no rule and changes nothing.
	for name, mutate := range regoCases {
		for _, d := range regoVersusScheme(t, DefaultPolicy(), mutate, "") {
			t.Errorf("default policy, %s: %s", name, d)
		}
	}
}

// TestPolicyRegoMissingRuleDiffers: the planted mismatch. Rego written
// without one key's rule disagrees with the scheme where that rule fires.
func TestPolicyRegoMissingRuleDiffers(t *testing.T) {
	p, err := ParsePolicy(everyKey)
	if err != nil {
		t.Fatal(err)
	}
	keys := 0
	for _, r := range regoRules(p) {
		keys++
		if regoVersusScheme(t, p, regoCases[r.key], r.key) == nil {
			t.Errorf("Rego without %s still agrees with the scheme where %s fires", r.key, r.key)
		}
	}
	if keys != 13 {
		t.Errorf("%d rules, want one for each of the 13 keys", keys)
	}
}

// TestPolicyRegoRevertUnderRequireCommitted: require_committed alone
// refuses a reverted trial too (allow_reverted's default follows it), and
// allow_reverted = true lets it pass; the Rego agrees each time.
func TestPolicyRegoRevertUnderRequireCommitted(t *testing.T) {
	reverted := func(s *Summary) { s.Update.RevertReason, s.Update.RevertedSlot = 1, 1 }
	for text, want := range map[string]bool{
		"require_committed = true\n":                         true,
		"require_committed = true\nallow_reverted = true\n": false,
		"allow_reverted = false\n":                           true,
		"":                                                   false,
	} {
		p, err := ParsePolicy(text)
		if err != nil {
			t.Fatal(err)
		}
		s := good()
		reverted(s)
		s.CheckPolicy(nil, p)
		got := false
		for _, f := range s.Failures {
			if f.Status == "VERIFY_TRIAL_REVERTED" && f.Stage == StageBL0 {
				got = true
			}
		}
		if got != want || len(s.Failures) != map[bool]int{true: 1, false: 0}[want] {
			t.Errorf("%q: failures %v, want the revert refused: %v", text, s.Failures, want)
		}
		for _, d := range regoVersusScheme(t, p, reverted, "") {
			t.Errorf("%q: %s", text, d)
		}
	}
}
