// SPDX-License-Identifier: MIT

package scheme

// otattest-verify's policy file as a Veraison policy: Rego for the OPA
// engine of Veraison's policy management (docs/veraison.md, "The policy
// in Veraison"). Veraison evaluates a scheme's policy once per submodule
// of the scheme's EAR, with `evidence` the scheme's Summary (ToMap) and
// `result` the submodule's appraisal; the policy may make trust-vector
// claims worse and replace ear.veraison.policy-claims. The Rego written
// here does what CheckPolicy does with the same Policy after the scheme
// appraised the evidence under the default policy: each rule adds the
// failure CheckPolicy adds (status, stage, detail), and each failure sets
// the claim its refusal row (Refusals) names where that makes the claim
// worse, exactly as Appraise folds them. The submodule being evaluated is
// the `submodule` policy claim (Result); Veraison gives a policy no other
// way to know it.

import (
	"fmt"
	"sort"
	"strings"
)

// regoRule is one rule of the policy file as Rego; key is the policy
// file's key it comes from, status the failure it adds.
type regoRule struct {
	key, status, body string
}

func regoStrings(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "{" + strings.Join(q, ", ") + "}"
}

// regoRules are the rules p sets, in the order CheckPolicy applies them;
// a key at its default value writes none (it would never fire).
func regoRules(p *Policy) []regoRule {
	var r []regoRule
	add := func(key, status, cond, stage, format, args string) {
		r = append(r, regoRule{key, status, fmt.Sprintf(
			"failures[f] {\n\tvalid\n%s\tf := {\"status\": %q, \"stage\": %s, \"detail\": sprintf(%q, [%s])}\n}\n",
			cond, status, stage, format, args)})
	}
	if p.AllowedLifecycles != 0 {
		var allowed []string
		for lc := range lifecycleNames {
			if p.AllowedLifecycles&(1<<lc) != 0 {
				allowed = append(allowed, fmt.Sprint(lc))
			}
		}
		add("allowed_lifecycle", "VERIFY_LIFECYCLE_NOT_ALLOWED",
			fmt.Sprintf("\tnot evidence.lifecycle in {%s}\n", strings.Join(allowed, ", ")),
			fmt.Sprintf("%q", StageName(NoStage)), "lifecycle %s is not in allowed_lifecycle", "lifecycle_name")
	}
	if p.MinEpoch != 0 {
		add("min_epoch", "VERIFY_EPOCH_BELOW_POLICY", fmt.Sprintf("\tevidence.epoch < %d\n", p.MinEpoch),
			fmt.Sprintf("%q", StageName(NoStage)), "identity epoch %d is below the policy minimum %d",
			fmt.Sprintf("evidence.epoch, %d", p.MinEpoch))
	}
	// The update state, in checkUpdate's order (issue 28).
	if p.RequireCommitted {
		add("require_committed", "VERIFY_NOT_COMMITTED",
			fmt.Sprintf("\tsubmodule == %q\n\tevidence.update.state != %d\n", StageName(StageBL0), UpdateCommitted),
			fmt.Sprintf("%q", StageName(StageBL0)),
			"bl0 runs slot %s on trial (boot %d of %d), the primary is %s; require_committed is true",
			fmt.Sprintf("slot_names[evidence.update[\"booted-slot\"]], evidence.update[\"trial-boots\"], %d, "+
				"slot_names[evidence.update[\"primary-slot\"]]", TrialMaxBoots))
	}
	if !p.RevertedAllowed() {
		add("allow_reverted", "VERIFY_TRIAL_REVERTED",
			fmt.Sprintf("\tsubmodule == %q\n\tevidence.update[\"revert-reason\"] != 0\n", StageName(StageBL0)),
			fmt.Sprintf("%q", StageName(StageBL0)),
			"bl0 trial of slot %s was reverted (%s); allow_reverted is false",
			"slot_names[evidence.update[\"reverted-slot\"]], revert_names[evidence.update[\"revert-reason\"]]")
	}
	if p.MinRevocationSeq != 0 {
		add("min_revocation_sequence", "VERIFY_REVOCATION_BELOW_POLICY",
			fmt.Sprintf("\tevidence.update[\"revocation-sequence\"] < %d\n", p.MinRevocationSeq),
			fmt.Sprintf("%q", StageName(NoStage)), "revocation sequence %d is below the policy minimum %d",
			fmt.Sprintf("evidence.update[\"revocation-sequence\"], %d", p.MinRevocationSeq))
	}
	// The rules on the submodule's stage, in checkStage's order.
	for _, st := range []struct {
		key   string
		stage uint32
	}{{"min_svn_rom_ext", StageROMExt}, {"min_svn_bl0", StageBL0}} {
		if m := p.MinSVN[st.stage]; m != 0 {
			add(st.key, "VERIFY_SVN_BELOW_POLICY",
				fmt.Sprintf("\tsubmodule == %q\n\trun.svn < %d\n", StageName(st.stage), m),
				"submodule", "%s SVN %d is below the policy minimum %d", fmt.Sprintf("submodule, run.svn, %d", m))
		}
	}
	if len(p.AllowedRootKeys) > 0 {
		add("allowed_root_key", "VERIFY_ROOT_KEY_NOT_ALLOWED",
			fmt.Sprintf("\trun\n\tnot %s[root_key]\n", regoStrings(p.AllowedRootKeys)),
			"submodule", "%s root key %s is not in allowed_root_key", "submodule, root_key")
	}
	if len(p.DeniedDelegates) > 0 {
		add("denied_delegate_key", "VERIFY_DELEGATE_DENIED",
			fmt.Sprintf("\tsome i\n\tk := key_ids[i]\n\ti > 0\n\tk in %s\n", regoStrings(p.DeniedDelegates)),
			"submodule", "%s delegate %d key %s is in denied_delegate_key", "submodule, i, k")
	}
	if p.MaxDepth != MaxDelegationDepth {
		add("max_delegation_depth", "VERIFY_DEPTH_EXCEEDED",
			fmt.Sprintf("\trun\n\tdepth := max([count(key_ids) - 1, 0])\n\tdepth > %d\n", p.MaxDepth),
			"submodule", "%s delegation depth %d is above the policy maximum %d",
			fmt.Sprintf("submodule, depth, %d", p.MaxDepth))
	}
	if !p.TagPathAllowed {
		add("tag_path_allowed", "VERIFY_TAG_PATH_FORBIDDEN", fmt.Sprintf("\trun.path == %q\n", pathNames[PathTag]),
			"submodule", "%s booted on the tag path; the policy requires a signature check", "submodule")
	}
	if p.HybridRequired {
		add("hybrid_required", "VERIFY_HYBRID_MISSING", fmt.Sprintf("\trun[\"sig-scheme\"] != %d\n", SigHybrid),
			"submodule", "%s was not verified with the hybrid scheme the policy requires", "submodule")
	}
	if !p.DebugImagesAllowed {
		add("debug_images_allowed", "VERIFY_DEBUG_IMAGE",
			fmt.Sprintf("\tbits.and(run[\"usage-flags\"], %d) != 0\n", CapDebug),
			"submodule", "%s image carries the DEBUG usage flag; debug_images_allowed is false", "submodule")
	}
	return r
}

// regoCommon is what every generated policy shares: the submodule and its
// stage's single accepted run (CheckPolicy's "exactly one accepted image";
// without one the scheme has already refused the stage), and the fold of
// the new failures into the submodule's trust vector, status and claims.
const regoCommon = `import future.keywords.in

otattest := object.get(result, "ear.veraison.policy-claims", {})
submodule := otattest.submodule

# CheckPolicy applies no rule to evidence whose claims did not decode.
valid {
	evidence["claims-valid"] == true
}

lifecycle_names := %s

slot_names := ["A", "B"]

revert_names := %s

lifecycle_name = n {
	n := lifecycle_names[evidence.lifecycle]
} else = "unknown" {
	true
}

runs := [r | r := evidence.stages[_]; r.stage == submodule; r.booted == true]

run := runs[0] {
	count(runs) == 1
	runs[0].status == %d
}

key_ids := object.get(run, "key-ids", [])

root_key = k {
	k := key_ids[0]
} else = "" {
	true
}

# Tiers ordered as the scheme orders them (tierRank): affirming, none,
# warning, contraindicated; within a tier the higher value is worse.
tier(v) = 96 {
	v >= 96
} else = 32 {
	v >= 32
} else = 2 {
	v >= 2
} else = 0 {
	true
}

tier_rank(t) = 0 {
	t == 2
} else = 1 {
	t == 0
} else = 2 {
	t == 32
} else = 3 {
	true
}

severity(v) = (tier_rank(tier(v)) * 1000) + v + 500

worst(values) = w {
	top := max({severity(v) | v := values[_]})
	w := [v | v := values[_]; severity(v) == top][0]
}

tv := object.get(result, "ear.trustworthiness-vector", {})

# A claim the new failures set: the worst of their values and the
# submodule's own (no claim counts as nothing).
claim_value(claim) = v {
	raised := {x | f := failures[_]; refusals[f.status][0] == claim; x := refusals[f.status][1]}
	count(raised) > 0
	own := {x | x := object.get(tv, claim, 0); x != 0}
	v := worst(raised | own)
}

instance_identity = v { v := claim_value("instance-identity") }
configuration = v { v := claim_value("configuration") }
executables = v { v := claim_value("executables") }
file_system = v { v := claim_value("file-system") }
hardware = v { v := claim_value("hardware") }
runtime_opaque = v { v := claim_value("runtime-opaque") }
storage_opaque = v { v := claim_value("storage-opaque") }
sourced_data = v { v := claim_value("sourced-data") }

tier_names := {"none": 0, "affirming": 2, "warning": 32, "contraindicated": 96}

own_status = s {
	s := tier_names[result["ear.status"]]
} else = s {
	s := result["ear.status"]
}

# A refusal affirms nothing: an affirming value counts as tier none.
refused_tier(v) = 0 {
	tier(v) == 2
} else = t {
	t := tier(v)
}

status = s {
	tiers := {refused_tier(refusals[f.status][1]) | f := failures[_]} | {own_status}
	top := max({tier_rank(t) | t := tiers[_]})
	s := [t | t := tiers[_]; tier_rank(t) == top][0]
}

own_failures = f {
	f := otattest.failures
	f != null
} else = [] {
	true
}

new_failures := [f | f := failures[_]]

added_claims = c {
	count(new_failures) > 0
	c := object.union(otattest, {"failures": array.concat(own_failures, new_failures)})
} else = otattest {
	true
}
`

// PolicyRego writes p as a Veraison Rego policy (package policy, after
// the preamble of Veraison's OPA engine). source names the policy file in
// the header; drop, if not empty, leaves out the rule of that policy key
// (the test's planted mismatch; the command never drops one).
func PolicyRego(p *Policy, source, drop string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# otattest's policy file %s as a Veraison policy for scheme %s,\n", source, SchemeName)
	b.WriteString("# written by `otattest-veraison policy-rego` (docs/veraison.md); do not edit.\n")
	b.WriteString("package policy\n\n")
	q := make([]string, len(lifecycleNames))
	for i, n := range lifecycleNames {
		q[i] = fmt.Sprintf("%q", n)
	}
	rq := make([]string, len(revertNames))
	for i, n := range revertNames {
		rq[i] = fmt.Sprintf("%q", n)
	}
	fmt.Fprintf(&b, regoCommon, "["+strings.Join(q, ", ")+"]", "["+strings.Join(rq, ", ")+"]", StatusOK)
	rules := regoRules(p)
	statuses := map[string]bool{}
	for _, r := range rules {
		statuses[r.status] = true
	}
	var names []string
	for s := range statuses {
		names = append(names, s)
	}
	sort.Strings(names)
	b.WriteString("\n# The claim and value each failure sets (the refusal table, docs/verifier.md).\nrefusals := {")
	for i, s := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: [%q, %d]", s, Refusals[s].Claim, Refusals[s].Value)
	}
	b.WriteString("}\n")
	written := 0
	for _, r := range rules {
		if r.key == drop {
			continue
		}
		fmt.Fprintf(&b, "\n# %s\n%s", r.key, r.body)
		written++
	}
	if written == 0 {
		b.WriteString("\n# No rule: no failure.\nfailures[f] {\n\tf := {\"status\": \"\"}\n\tfalse\n}\n")
	}
	return b.String()
}
