// SPDX-License-Identifier: MIT

package scheme

// From a verdict and the provisioned reference values to an EAR: one
// submodule per stage (docs/verifier.md, "Verdicts as EAR"), each failure
// setting the AR4SI claim its refusal row names, in the stage's submodule
// or, for a failure of the whole device, in every one.

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/veraison/ear"
)

// StageSummary is what the appraisal needs of one attempt.
type StageSummary struct {
	Stage       string   `json:"stage"`
	Booted      bool     `json:"booted"`
	Status      uint32   `json:"status"`
	Path        string   `json:"path"`
	SigScheme   uint32   `json:"sig-scheme"`
	SVN         uint32   `json:"svn"`
	Measurement string   `json:"measurement,omitempty"`
	KeyIDs      []string `json:"key-ids,omitempty"`
}

// Summary is the verdict as it travels from ExtractClaims to
// AppraiseEvidence inside Veraison (the evidence context is a JSON-like
// structure) and as OPA policies see it.
type Summary struct {
	Failures    []Failure      `json:"failures"`
	Authentic   bool           `json:"authentic"`
	ClaimsValid bool           `json:"claims-valid"`
	DeviceID    string         `json:"device-id,omitempty"`
	Lifecycle   uint32         `json:"lifecycle"`
	Epoch       uint32         `json:"epoch"`
	Stages      []StageSummary `json:"stages,omitempty"`
}

// Summarize keeps what the appraisal and a policy read.
func (v *Verdict) Summarize() *Summary {
	s := &Summary{Failures: v.Failures, Authentic: v.Authentic, ClaimsValid: v.Claims != nil}
	if s.Failures == nil {
		s.Failures = []Failure{}
	}
	c := v.Claims
	if c == nil {
		return s
	}
	s.DeviceID = hex.EncodeToString(c.DeviceID)
	s.Lifecycle, s.Epoch = c.Lifecycle, c.Epoch
	for _, a := range c.Attempts {
		st := StageSummary{Stage: StageName(a.Stage), Booted: a.Flags&StageFlagBooted != 0,
			Status: a.Status, Path: pathNames[a.Path], SigScheme: a.SigScheme}
		if a.Component != nil {
			st.SVN = a.Component.SVN
			st.Measurement = hex.EncodeToString(a.Component.Digest)
			for _, k := range a.Component.Authorities {
				st.KeyIDs = append(st.KeyIDs, hex.EncodeToString(k))
			}
		}
		s.Stages = append(s.Stages, st)
	}
	return s
}

// ToMap is the summary as Veraison's claims map.
func (s *Summary) ToMap() (map[string]any, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}

// SummaryFromMap reads the claims map back.
func SummaryFromMap(m map[string]any) (*Summary, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("the evidence context is not an otattest summary: %w", err)
	}
	return &s, nil
}

// RefValue is one reference value: a measurement a stage may have, with
// the SVN and signer key ids it comes with when the CoRIM names them.
type RefValue struct {
	Stage  string   `json:"stage"`
	Digest string   `json:"digest"`
	SVN    *uint32  `json:"svn,omitempty"`
	KeyIDs []string `json:"key-ids,omitempty"`
}

func (r *RefValue) matches(s *StageSummary) bool {
	if r.Stage != s.Stage || r.Digest != s.Measurement {
		return false
	}
	if r.SVN != nil && *r.SVN != s.SVN {
		return false
	}
	if len(r.KeyIDs) > 0 {
		if len(r.KeyIDs) != len(s.KeyIDs) {
			return false
		}
		for i := range r.KeyIDs {
			if r.KeyIDs[i] != s.KeyIDs[i] {
				return false
			}
		}
	}
	return true
}

// CheckPolicy adds the rules a Veraison appraisal applies after the
// evidence checks: each stage has exactly one accepted image (the policy
// rule every otattest policy has), and that image is in the reference
// values (nil: no reference values are consulted).
func (s *Summary) CheckPolicy(refvals []RefValue) {
	if !s.ClaimsValid {
		return
	}
	for stage := uint32(StageROMExt); stage <= StageBL0; stage++ {
		name := StageName(stage)
		var run *StageSummary
		booted := 0
		for i := range s.Stages {
			if s.Stages[i].Stage == name && s.Stages[i].Booted {
				booted++
				run = &s.Stages[i]
			}
		}
		if booted != 1 || run.Status != StatusOK {
			s.Failures = append(s.Failures, Failure{"VERIFY_STAGE_REFUSED", stage,
				fmt.Sprintf("evidence shows no single accepted %s image", name)})
			continue
		}
		if refvals == nil {
			continue
		}
		found := false
		for i := range refvals {
			if refvals[i].matches(run) {
				found = true
				break
			}
		}
		if !found {
			s.Failures = append(s.Failures, Failure{StatusNotInReferenceValues, stage,
				fmt.Sprintf("%s measurement %s (SVN %d) is not in the reference values", name,
					run.Measurement, run.SVN)})
		}
	}
}

func setClaim(tv *ear.TrustVector, claim string, value int) {
	v := ear.TrustClaim(value)
	switch claim {
	case InstanceIdentity:
		tv.InstanceIdentity = v
	case Configuration:
		tv.Configuration = v
	case Executables:
		tv.Executables = v
	case FileSystem:
		tv.FileSystem = v
	case Hardware:
		tv.Hardware = v
	case RuntimeOpaque:
		tv.RuntimeOpaque = v
	case StorageOpaque:
		tv.StorageOpaque = v
	case SourcedData:
		tv.SourcedData = v
	}
}

func getClaim(tv *ear.TrustVector, claim string) int {
	return int(tv.AsMap()[claim])
}

// worse reports whether value a is a worse verdict than b (tier first,
// then the larger value within a tier).
func worse(a, b int) bool {
	ra, rb := tierRank(Tier(a)), tierRank(Tier(b))
	if ra != rb {
		return ra > rb
	}
	return a > b
}

// Appraisal is one submodule's result, as both verifiers report it.
type Appraisal struct {
	Status      ear.TrustTier
	TrustVector ear.TrustVector
	Failures    []Failure
}

// Appraise turns the summary's failures into one appraisal per stage.
func (s *Summary) Appraise() map[string]*Appraisal {
	out := map[string]*Appraisal{}
	decodeFailed := !s.ClaimsValid
	for stage := uint32(StageROMExt); stage <= StageBL0; stage++ {
		a := &Appraisal{Status: ear.TrustTierAffirming}
		if !decodeFailed {
			// What an accepted device is: a recognized instance on
			// genuine hardware, its boot configuration approved and
			// only approved images booted.
			a.TrustVector.InstanceIdentity = ValueAffirmed
			a.TrustVector.Hardware = ValueAffirmed
			a.TrustVector.Configuration = ValueAffirmed
			a.TrustVector.Executables = ValueApprovedBoot
		}
		refused := map[string]bool{}
		for _, f := range s.Failures {
			if f.Stage != NoStage && f.Stage != stage {
				continue
			}
			row, ok := Refusals[f.Status]
			if !ok {
				row = Refusal{InstanceIdentity, ValueVerifierMalfunction}
			}
			a.Failures = append(a.Failures, f)
			// The first refusal of a claim replaces what an accepted
			// device would get; a second one only makes it worse.
			if !refused[row.Claim] || worse(row.Value, getClaim(&a.TrustVector, row.Claim)) {
				setClaim(&a.TrustVector, row.Claim, row.Value)
				refused[row.Claim] = true
			}
			if tierRank(Tier(row.Value)) > tierRank(a.Status) {
				a.Status = Tier(row.Value)
			}
		}
		out[StageName(stage)] = a
	}
	return out
}

// Result makes the EAR Veraison signs.
func (s *Summary) Result(build, developer string) *ear.AttestationResult {
	r := ear.NewAttestationResult(SchemeName, build, developer)
	delete(r.Submods, SchemeName)
	for name, a := range s.Appraise() {
		status := a.Status
		tv := a.TrustVector
		policy := "policy:" + SchemeName
		var failures []any
		for _, f := range a.Failures {
			failures = append(failures, map[string]any{"status": f.Status, "stage": StageName(f.Stage),
				"detail": f.Detail})
		}
		claims := map[string]any{"device-id": s.DeviceID, "failures": failures}
		r.Submods[name] = &ear.Appraisal{Status: &status, TrustVector: &tv, AppraisalPolicyID: &policy,
			AppraisalExtensions: ear.AppraisalExtensions{VeraisonPolicyClaims: &claims}}
	}
	return r
}
