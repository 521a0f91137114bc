// SPDX-License-Identifier: MIT

// Package handlers plugs the otattest scheme into Veraison's services: an
// endorsement handler (CoRIM in), a store handler (lookup keys) and an
// evidence handler (evidence to EAR), written as Veraison's own schemes
// are (scheme/psa-iot, scheme/riot in veraison/services).
package handlers

import (
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"

	"github.com/veraison/ear"
	"github.com/veraison/services/config"
	"github.com/veraison/services/handler"
	"github.com/veraison/services/proto"

	"otattest.org/veraison/scheme"
)

// taAttributes is a trust anchor as the stores keep it.
type taAttributes struct {
	CACert string `json:"ca-cert"`
}

// Lookup keys: a manufacturer CA under its subject key identifier, which
// a device's identity certificate names as its authority key identifier
// (Veraison's VTS hands a scheme exactly one trust anchor per key), and
// reference values under their stage.
func taKey(tenant string, ski []byte) string {
	return (&url.URL{Scheme: scheme.SchemeName, Host: tenant,
		Path: "/" + scheme.CAModel + "/" + hex.EncodeToString(ski)}).String()
}

func refValKey(tenant, stage string) string {
	return (&url.URL{Scheme: scheme.SchemeName, Host: tenant, Path: "/stage/" + stage}).String()
}

// ---- endorsements ------------------------------------------------------

// EndorsementHandler decodes otattest CoRIMs.
type EndorsementHandler struct{}

func (EndorsementHandler) Init(handler.EndorsementHandlerParams) error { return nil }
func (EndorsementHandler) Close() error                                { return nil }
func (EndorsementHandler) GetName() string                             { return "otattest-corim" }
func (EndorsementHandler) GetAttestationScheme() string                { return scheme.SchemeName }
func (EndorsementHandler) GetSupportedMediaTypes() []string {
	return []string{scheme.EndorsementMediaType}
}

// Decode reads an unsigned CoRIM: otimage's reference values (whose
// signature the provisioning client checked with the release key) or the
// manufacturer CA's trust anchor (otattest-veraison ta-corim).
func (EndorsementHandler) Decode(data []byte) (*handler.EndorsementHandlerResponse, error) {
	c, err := scheme.ReadCorim(data)
	if err != nil {
		return nil, err
	}
	rsp := &handler.EndorsementHandlerResponse{}
	for _, r := range c.RefValues {
		attrs, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		rsp.ReferenceValues = append(rsp.ReferenceValues, handler.Endorsement{Scheme: scheme.SchemeName,
			Type: handler.EndorsementType_REFERENCE_VALUE, SubType: r.Stage, Attributes: attrs})
	}
	for _, kt := range c.CAs {
		attrs, err := json.Marshal(taAttributes{CACert: kt.VerifKeys[0].String()})
		if err != nil {
			return nil, err
		}
		rsp.TrustAnchors = append(rsp.TrustAnchors, handler.Endorsement{Scheme: scheme.SchemeName,
			Type: handler.EndorsementType_VERIFICATION_KEY, Attributes: attrs})
	}
	return rsp, nil
}

// ---- stores ------------------------------------------------------------

// StoreHandler names where trust anchors and reference values live.
type StoreHandler struct{}

func (StoreHandler) GetName() string                  { return "otattest-store" }
func (StoreHandler) GetAttestationScheme() string     { return scheme.SchemeName }
func (StoreHandler) GetSupportedMediaTypes() []string { return nil }

func (StoreHandler) SynthKeysFromRefValue(tenant string, rv *handler.Endorsement) ([]string, error) {
	var r scheme.RefValue
	if err := json.Unmarshal(rv.Attributes, &r); err != nil {
		return nil, err
	}
	return []string{refValKey(tenant, r.Stage)}, nil
}

func (StoreHandler) SynthKeysFromTrustAnchor(tenant string, ta *handler.Endorsement) ([]string, error) {
	var attrs taAttributes
	if err := json.Unmarshal(ta.Attributes, &attrs); err != nil {
		return nil, err
	}
	ca, err := scheme.ParseCAPEM([]byte(attrs.CACert))
	if err != nil {
		return nil, err
	}
	if len(ca.SubjectKeyId) == 0 {
		return nil, errors.New("the CA certificate has no subject key identifier")
	}
	return []string{taKey(tenant, ca.SubjectKeyId)}, nil
}

// GetTrustAnchorIDs names the CA the evidence's identity certificate says
// issued it. Evidence that is no COSE_Sign1 is bad evidence; evidence
// without a readable identity certificate names no CA, so the lookup
// finds none and Veraison refuses it as it refuses another CA's device.
func (StoreHandler) GetTrustAnchorIDs(token *proto.AttestationToken) ([]string, error) {
	s, err := scheme.DecodeSign1(token.Data)
	if err != nil {
		return nil, handler.BadEvidence(err)
	}
	aki := []byte("none")
	if len(s.Certs) >= 2 {
		if id, err := x509.ParseCertificate(s.Certs[1]); err == nil && len(id.AuthorityKeyId) > 0 {
			aki = id.AuthorityKeyId
		}
	}
	return []string{taKey(token.TenantId, aki)}, nil
}

func (StoreHandler) GetRefValueIDs(tenant string, _ []string, _ map[string]any) ([]string, error) {
	var ids []string
	for s := uint32(scheme.StageROMExt); s <= scheme.StageBL0; s++ {
		ids = append(ids, refValKey(tenant, scheme.StageName(s)))
	}
	return ids, nil
}

// ---- evidence ----------------------------------------------------------

// PolicyEnv names the otattest-verify policy file the scheme applies
// (docs/veraison.md): Veraison v0.0.2501 gives a scheme no configuration
// of its own, and the plugin inherits the environment of the vts that
// starts it. Unset: the default policy. A policy that does not parse, or
// names CRLs, fails every appraisal (Veraison answers with an error and
// no EAR) rather than letting a typo loosen it.
const PolicyEnv = "OTATTEST_POLICY"

var (
	policyOnce sync.Once
	policyVal  *scheme.Policy
	policyErr  error
)

func policy() (*scheme.Policy, error) {
	policyOnce.Do(func() {
		path := os.Getenv(PolicyEnv)
		if path == "" {
			return
		}
		b, err := os.ReadFile(path)
		if err != nil {
			policyErr = err
			return
		}
		if policyVal, err = scheme.ParsePolicy(string(b)); err != nil {
			policyErr = fmt.Errorf("%s: %w", path, err)
		}
	})
	return policyVal, policyErr
}

// EvidenceHandler appraises otattest evidence.
type EvidenceHandler struct{}

func (EvidenceHandler) GetName() string              { return "otattest-evidence" }
func (EvidenceHandler) GetAttestationScheme() string { return scheme.SchemeName }
func (EvidenceHandler) GetSupportedMediaTypes() []string {
	return []string{scheme.EvidenceMediaType}
}

func trustFrom(anchors []string) (*scheme.Trust, error) {
	var cas []*x509.Certificate
	for i, s := range anchors {
		var e handler.Endorsement
		var ta taAttributes
		if err := json.Unmarshal([]byte(s), &e); err != nil {
			return nil, fmt.Errorf("trust anchor %d: %w", i, err)
		}
		if err := json.Unmarshal(e.Attributes, &ta); err != nil {
			return nil, fmt.Errorf("trust anchor %d: %w", i, err)
		}
		ca, err := scheme.ParseCAPEM([]byte(ta.CACert))
		if err != nil {
			return nil, fmt.Errorf("trust anchor %d: %w", i, err)
		}
		cas = append(cas, ca)
	}
	return scheme.NewTrust(cas), nil
}

// ExtractClaims runs every check of the evidence itself (chain, signature,
// claims, certified claims, nonce) and hands the verdict on as the claims:
// as in Veraison's RIOT scheme, the chain is verified while extracting, so
// a failed check becomes an appraisal with its own AR4SI value rather
// than one "bad evidence" for all.
func (EvidenceHandler) ExtractClaims(token *proto.AttestationToken, anchors []string) (map[string]any, error) {
	trust, err := trustFrom(anchors)
	if err != nil {
		return nil, err
	}
	return scheme.Verify(token.Data, trust, token.Nonce).Summarize().ToMap()
}

// ValidateEvidenceIntegrity has nothing left to do: ExtractClaims checked
// the chain and the signature, and their failures are in the claims.
func (EvidenceHandler) ValidateEvidenceIntegrity(*proto.AttestationToken, []string, []string) error {
	return nil
}

func (EvidenceHandler) AppraiseEvidence(ec *proto.EvidenceContext, endorsements []string) (*ear.AttestationResult, error) {
	sum, err := scheme.SummaryFromMap(ec.Evidence.AsMap())
	if err != nil {
		return nil, err
	}
	// No reference values provisioned: none consulted, as otattest-verify
	// without --corim; once any are, a stage must be among them.
	var refs []scheme.RefValue
	for i, s := range endorsements {
		var e handler.Endorsement
		var r scheme.RefValue
		if err := json.Unmarshal([]byte(s), &e); err != nil {
			return nil, fmt.Errorf("reference value %d: %w", i, err)
		}
		if err := json.Unmarshal(e.Attributes, &r); err != nil {
			return nil, fmt.Errorf("reference value %d: %w", i, err)
		}
		refs = append(refs, r)
	}
	pol, err := policy()
	if err != nil {
		return nil, err
	}
	sum.CheckPolicy(refs, pol)
	return sum.Result(config.Version, config.Developer), nil
}
