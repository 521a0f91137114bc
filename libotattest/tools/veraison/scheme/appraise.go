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
	UsageFlags  uint32   `json:"usage-flags"`
	SVN         uint32   `json:"svn"`
	Measurement string   `json:"measurement,omitempty"`
	KeyIDs      []string `json:"key-ids,omitempty"`
}

// UpdateSummary is the update state the update rules judge (issue 28),
// certified by ROM_EXT (check 5b).
type UpdateSummary struct {
	State         uint32 `json:"state"`
	PrimarySlot   uint32 `json:"primary-slot"`
	BootedSlot    uint32 `json:"booted-slot"`
	TrialBoots    uint32 `json:"trial-boots"`
	RevertReason  uint32 `json:"revert-reason"`
	RevertedSlot  uint32 `json:"reverted-slot"`
	RevocationSeq uint32 `json:"revocation-sequence"`
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
	Update      *UpdateSummary `json:"update,omitempty"`
	// The chain's CA (DER) and the identity certificate's serial (hex),
	// for CheckRevocation; empty when the chain did not verify.
	RevocationCA   []byte `json:"revocation-ca,omitempty"`
	IdentitySerial string `json:"identity-serial,omitempty"`
}

// Summarize keeps what the appraisal and a policy read.
func (v *Verdict) Summarize() *Summary {
	s := &Summary{Failures: v.Failures, Authentic: v.Authentic, ClaimsValid: v.Claims != nil,
		RevocationCA: v.RevocationCA, IdentitySerial: v.IdentitySerial}
	if s.Failures == nil {
		s.Failures = []Failure{}
	}
	c := v.Claims
	if c == nil {
		return s
	}
	s.DeviceID = hex.EncodeToString(c.DeviceID)
	s.Lifecycle, s.Epoch = c.Lifecycle, c.Epoch
	u := &c.Update
	s.Update = &UpdateSummary{State: u.State, PrimarySlot: u.PrimarySlot, BootedSlot: u.BootedSlot,
		TrialBoots: u.TrialBoots, RevertReason: u.RevertReason, RevertedSlot: u.RevertedSlot,
		RevocationSeq: u.RevocationSeq}
	for _, a := range c.Attempts {
		st := StageSummary{Stage: StageName(a.Stage), Booted: a.Flags&StageFlagBooted != 0,
			Status: a.Status, Path: pathNames[a.Path], SigScheme: a.SigScheme, UsageFlags: a.UsageFlags}
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

// RefValue is one reference measurement of a stage (docs/corim.md): the
// digests it may have, the SVN it comes with (exactly, or at least when
// MinSVN), and the signer key ids when the CoRIM names them.
type RefValue struct {
	Stage   string   `json:"stage"`
	Digests []string `json:"digests"`
	SVN     *uint32  `json:"svn,omitempty"`
	MinSVN  bool     `json:"min-svn,omitempty"`
	KeyIDs  []string `json:"key-ids,omitempty"`
}

func (r *RefValue) digestListed(m string) bool {
	for _, d := range r.Digests {
		if d == m {
			return true
		}
	}
	return false
}

func (r *RefValue) svnOK(svn uint32) bool {
	return r.SVN == nil || *r.SVN == svn || (r.MinSVN && svn >= *r.SVN)
}

func (r *RefValue) keysOK(s *StageSummary) bool {
	if len(r.KeyIDs) == 0 {
		return true
	}
	if len(r.KeyIDs) != len(s.KeyIDs) {
		return false
	}
	for i := range r.KeyIDs {
		if r.KeyIDs[i] != s.KeyIDs[i] {
			return false
		}
	}
	return true
}

// checkRefValues is libotattest's ota_refvals_check: the booted stage's
// measurement, SVN and signer key ids are one reference of its stage.
func (s *Summary) checkRefValues(refvals []RefValue, stage uint32, run *StageSummary) {
	name := StageName(stage)
	var sameDigest *RefValue
	listed := 0
	for i := range refvals {
		r := &refvals[i]
		if r.Stage != name {
			continue
		}
		listed++
		if !r.digestListed(run.Measurement) {
			continue
		}
		if r.svnOK(run.SVN) && r.keysOK(run) {
			return
		}
		sameDigest = r
	}
	half := run.Measurement
	if len(half) > 32 {
		half = half[:32]
	}
	var detail string
	switch {
	case listed == 0:
		detail = fmt.Sprintf("the reference values list no %s measurement", name)
	case sameDigest == nil:
		detail = fmt.Sprintf("%s measurement %s... is not in the reference values", name, half)
	case !sameDigest.svnOK(run.SVN):
		min := ""
		if sameDigest.MinSVN {
			min = ">= "
		}
		detail = fmt.Sprintf("%s measurement %s... is listed with SVN %s%d, the evidence shows %d",
			name, half, min, *sameDigest.SVN, run.SVN)
	default:
		detail = fmt.Sprintf("%s measurement %s... is listed with other signer key ids", name, half)
	}
	s.Failures = append(s.Failures, Failure{StatusNotInReferenceValues, stage, detail})
}

// CheckPolicy adds what ota_policy_evaluate adds after the evidence
// checks: the lifecycle and epoch rules, then for each stage exactly one
// accepted image, the policy's rules on it and the reference values (nil:
// none consulted). A nil policy is the default one: everything allowed.
func (s *Summary) CheckPolicy(refvals []RefValue, p *Policy) {
	if !s.ClaimsValid {
		return
	}
	if p == nil {
		p = DefaultPolicy()
	}
	if p.AllowedLifecycles != 0 && (s.Lifecycle >= LCCount || p.AllowedLifecycles&(1<<s.Lifecycle) == 0) {
		name := "unknown"
		if s.Lifecycle < LCCount {
			name = lifecycleNames[s.Lifecycle]
		}
		s.Failures = append(s.Failures, Failure{"VERIFY_LIFECYCLE_NOT_ALLOWED", NoStage,
			fmt.Sprintf("lifecycle %s is not in allowed_lifecycle", name)})
	}
	if s.Epoch < p.MinEpoch {
		s.Failures = append(s.Failures, Failure{"VERIFY_EPOCH_BELOW_POLICY", NoStage,
			fmt.Sprintf("identity epoch %d is below the policy minimum %d", s.Epoch, p.MinEpoch)})
	}
	s.checkUpdate(p)
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
		s.checkStage(p, stage, run)
		if refvals != nil {
			s.checkRefValues(refvals, stage, run)
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

// worse: a later tier, or in the same tier the higher value (AR4SI orders
// within tiers); anything is worse than no claim.
func worse(value, than int) bool {
	if than == ValueNoClaim {
		return true
	}
	a, b := tierRank(Tier(value)), tierRank(Tier(than))
	if a != b {
		return a > b
	}
	return value > than
}

// Appraisal is one submodule's result, as both verifiers report it.
type Appraisal struct {
	Status      ear.TrustTier
	TrustVector ear.TrustVector
	Failures    []Failure
}

// Appraise turns the summary's failures into one appraisal per stage, as
// libotattest's ota_ear_appraise does: what passing checks affirm only
// for authentic evidence whose claims decoded, then each failure of the
// stage or of the whole device sets its claim where it makes it worse.
func (s *Summary) Appraise() map[string]*Appraisal {
	out := map[string]*Appraisal{}
	for stage := uint32(StageROMExt); stage <= StageBL0; stage++ {
		a := &Appraisal{Status: ear.TrustTierAffirming}
		if s.Authentic && s.ClaimsValid {
			a.TrustVector.InstanceIdentity = ValueAffirmed
			a.TrustVector.Hardware = ValueAffirmed
			a.TrustVector.Executables = ValueApprovedBoot
			a.TrustVector.Configuration = ValueAffirmed
		}
		for _, f := range s.Failures {
			if f.Stage != NoStage && f.Stage != stage {
				continue
			}
			row, ok := Refusals[f.Status]
			if !ok {
				// A reason with no row: the verifier's own fault.
				row = Refusal{InstanceIdentity, ValueVerifierMalfunction}
			}
			a.Failures = append(a.Failures, f)
			if worse(row.Value, getClaim(&a.TrustVector, row.Claim)) {
				setClaim(&a.TrustVector, row.Claim, row.Value)
			}
			tier := Tier(row.Value)
			if tier == ear.TrustTierAffirming {
				tier = ear.TrustTierNone // a refusal affirms nothing
			}
			if tierRank(tier) > tierRank(a.Status) {
				a.Status = tier
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
		// "submodule" tells a Veraison policy which submodule it is
		// evaluating (Veraison's policy input does not; PolicyRego).
		claims := map[string]any{"device-id": s.DeviceID, "failures": failures, "submodule": name}
		r.Submods[name] = &ear.Appraisal{Status: &status, TrustVector: &tv, AppraisalPolicyID: &policy,
			AppraisalExtensions: ear.AppraisalExtensions{VeraisonPolicyClaims: &claims}}
	}
	return r
}
