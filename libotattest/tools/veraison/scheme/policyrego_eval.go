// SPDX-License-Identifier: MIT

package scheme

// A Rego policy applied to the scheme's EAR in-process by Veraison's own
// policy agent (github.com/veraison/services/policy, the OPA backend the
// verification service runs), the way the service applies it: once per
// submodule with the summary as the evidence context, then each
// submodule's status from its trust vector. otattest-veraison appraise
// --rego and the tests use it to hold a generated policy to CheckPolicy.

import (
	"context"
	"fmt"

	"github.com/spf13/viper"
	"github.com/veraison/ear"
	"github.com/veraison/services/log"
	"github.com/veraison/services/policy"
	"github.com/veraison/services/proto"
	"go.uber.org/zap"
	"google.golang.org/protobuf/types/known/structpb"
)

// RegoAgent is Veraison's policy agent with its default (OPA) backend.
func RegoAgent() (policy.IAgent, error) {
	// Its OPA backend logs each compilation at debug level, through
	// Veraison's global logger: warnings and worse only, on stderr.
	lv := viper.New()
	lv.Set("level", "warn")
	lv.Set("output-paths", []string{"stderr"})
	if err := log.Init(lv, nil); err != nil {
		return nil, err
	}
	v := viper.New()
	agent, err := policy.CreateAgent(v, zap.NewNop().Sugar())
	if err != nil {
		return nil, err
	}
	return agent, agent.Init(v)
}

// ApplyRego evaluates rules on every submodule of r, which the scheme made
// from s.
func ApplyRego(ctx context.Context, agent policy.IAgent, rules string, s *Summary, r *ear.AttestationResult) error {
	m, err := s.ToMap()
	if err != nil {
		return err
	}
	st, err := structpb.NewStruct(m)
	if err != nil {
		return err
	}
	ec := &proto.EvidenceContext{Evidence: st}
	pol := &policy.Policy{Rules: rules}
	session := map[string]any{"nonce": r.Nonce}
	for name, a := range r.Submods {
		out, err := agent.Evaluate(ctx, session, SchemeName, pol, name, a, ec, nil)
		if err != nil {
			return fmt.Errorf("submodule %s: %w", name, err)
		}
		r.Submods[name] = out
	}
	r.UpdateStatusFromTrustVector()
	return nil
}
