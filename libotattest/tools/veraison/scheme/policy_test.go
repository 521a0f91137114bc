// SPDX-License-Identifier: MIT

package scheme

import (
	"strings"
	"testing"
)

func TestParsePolicy(t *testing.T) {
	p, err := ParsePolicy("# fleet\nmin_svn_bl0 = 5\nallowed_root_key = " + strings.Repeat("Ab", 32) +
		"\n\nallowed_lifecycle = prod  # production only\nhybrid_required = yes\n")
	if err != nil {
		t.Fatal(err)
	}
	if p.MinSVN[StageBL0] != 5 || p.AllowedRootKeys[0] != strings.Repeat("ab", 32) ||
		p.AllowedLifecycles != 1<<LCProd || !p.HybridRequired || !p.TagPathAllowed || p.MaxDepth != 2 {
		t.Errorf("%+v", p)
	}
	// A typo must never loosen a policy: each of these is an error naming its line.
	for _, bad := range []string{
		"min_svn_bl = 5",                   // unknown key
		"min_svn_bl0 = 5\nmin_svn_bl0 = 6", // a scalar twice
		"min_svn_bl0 = 256",                // out of range
		"min_svn_bl0 = -1",
		"min_svn_bl0 = 5x",
		"max_delegation_depth = 3",
		"hybrid_required = maybe",
		"min_svn_bl0 5", // no '='
		"allowed_root_key = abcd",
		"allowed_lifecycle = production",
		"allowed_lifecycle = dev\nallowed_lifecycle = dev",
		"crl = ca.crl", // revocation is otattest-verify's
	} {
		if _, err := ParsePolicy(bad); err == nil || !strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestPolicyRules(t *testing.T) {
	p := DefaultPolicy()
	p.MinSVN[StageBL0] = 6
	p.DeniedDelegates = []string{"02"}
	p.AllowedLifecycles = 1 << LCProd
	s := honest()
	s.Lifecycle = LCDev
	s.CheckPolicy(nil, p)
	got := map[string]bool{}
	for _, f := range s.Failures {
		got[f.Status] = true
	}
	for _, want := range []string{"VERIFY_SVN_BELOW_POLICY", "VERIFY_DELEGATE_DENIED", "VERIFY_LIFECYCLE_NOT_ALLOWED"} {
		if !got[want] {
			t.Errorf("no %s in %+v", want, s.Failures)
		}
	}
	if len(s.Failures) != 3 {
		t.Errorf("%+v", s.Failures)
	}
}
