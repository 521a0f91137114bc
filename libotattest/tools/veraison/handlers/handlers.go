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
	"time"

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

// A CA's CRLs live with the reference values (VTS hands AppraiseEvidence
// every endorsement under the keys GetRefValueIDs names, none when there
// are none; a trust anchor key must hold exactly one), under the key id
// the CRL names its CA by.
func crlKey(tenant string, aki []byte) string {
	return (&url.URL{Scheme: scheme.SchemeName, Host: tenant,
		Path: "/" + crlSubType + "/" + hex.EncodeToString(aki)}).String()
}

// crlSubType marks a CRL among the reference-value endorsements.
const crlSubType = "crl"

// crlAttributes is a provisioned CRL as the stores keep it.
type crlAttributes struct {
	DER []byte `json:"crl"`
}

// ---- endorsements ------------------------------------------------------

// EndorsementHandler decodes otattest CoRIMs.
type EndorsementHandler struct{}

func (EndorsementHandler) Init(handler.EndorsementHandlerParams) error { return nil }
func (EndorsementHandler) Close() error                                { return nil }
func (EndorsementHandler) GetName() string                             { return "otattest-corim" }
func (EndorsementHandler) GetAttestationScheme() string                { return scheme.SchemeName }
func (EndorsementHandler) GetSupportedMediaTypes() []string {
	return []string{scheme.EndorsementMediaType, scheme.CRLMediaType}
}

// Decode reads an unsigned CoRIM: otimage's reference values (whose
// signature the provisioning client checked with the release key) or the
// manufacturer CA's trust anchor (otattest-veraison ta-corim); or a CA's
// CRL (application/pkix-crl). Veraison hands Decode the bytes without
// their media type, so the first byte tells: a DER SEQUENCE (0x30) is a
// CRL, which no CoRIM (a CBOR tag or map) begins with.
func (EndorsementHandler) Decode(data []byte) (*handler.EndorsementHandlerResponse, error) {
	if len(data) > 0 && data[0] == 0x30 {
		return decodeCRL(data)
	}
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

// decodeCRL refuses a CRL of a scope the verifiers do not implement, or
// one that does not name its CA, as otattest-verify refuses it at load.
func decodeCRL(der []byte) (*handler.EndorsementHandlerResponse, error) {
	crl, err := scheme.ParseCRL(der)
	if err != nil {
		return nil, fmt.Errorf("CRL: %w", err)
	}
	if _, err := scheme.CRLKeyID(crl); err != nil {
		return nil, err
	}
	attrs, err := json.Marshal(crlAttributes{DER: der})
	if err != nil {
		return nil, err
	}
	return &handler.EndorsementHandlerResponse{ReferenceValues: []handler.Endorsement{{
		Scheme: scheme.SchemeName, Type: handler.EndorsementType_REFERENCE_VALUE,
		SubType: crlSubType, Attributes: attrs}}}, nil
}

// ---- stores ------------------------------------------------------------

// StoreHandler names where trust anchors and reference values live.
type StoreHandler struct{}

func (StoreHandler) GetName() string                  { return "otattest-store" }
func (StoreHandler) GetAttestationScheme() string     { return scheme.SchemeName }
func (StoreHandler) GetSupportedMediaTypes() []string { return nil }

func (StoreHandler) SynthKeysFromRefValue(tenant string, rv *handler.Endorsement) ([]string, error) {
	if rv.SubType == crlSubType {
		crl, err := crlOf(rv.Attributes)
		if err != nil {
			return nil, err
		}
		aki, err := scheme.CRLKeyID(crl)
		if err != nil {
			return nil, err
		}
		return []string{crlKey(tenant, aki)}, nil
	}
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

// GetRefValueIDs names each stage's reference values and the CRLs of the
// CA the evidence chains to (none provisioned: no revocation check, as
// otattest-verify without --crl).
func (StoreHandler) GetRefValueIDs(tenant string, anchors []string, _ map[string]any) ([]string, error) {
	var ids []string
	for s := uint32(scheme.StageROMExt); s <= scheme.StageBL0; s++ {
		ids = append(ids, refValKey(tenant, scheme.StageName(s)))
	}
	cas, err := anchorCAs(anchors)
	if err != nil {
		return nil, err
	}
	for _, ca := range cas {
		if len(ca.SubjectKeyId) > 0 {
			ids = append(ids, crlKey(tenant, ca.SubjectKeyId))
		}
	}
	return ids, nil
}

func crlOf(attributes []byte) (*x509.RevocationList, error) {
	var attrs crlAttributes
	if err := json.Unmarshal(attributes, &attrs); err != nil {
		return nil, err
	}
	return scheme.ParseCRL(attrs.DER)
}

// ---- evidence ----------------------------------------------------------

// PolicyEnv names the otattest-verify policy file the scheme applies: the
// developer fallback (docs/veraison.md); a fleet gives the same file to
// Veraison's policy management as Rego (otattest-veraison policy-rego).
// Veraison v0.0.2501 gives a scheme no configuration
// of its own, and the plugin inherits the environment of the vts that
// starts it. Unset: the default policy. A policy that does not parse, or
// names CRLs, fails every appraisal (Veraison answers with an error and
// no EAR) rather than letting a typo loosen it.
const PolicyEnv = "OTATTEST_POLICY"

// The policy read, remembered for the path it was read from (the
// environment is the vts's, fixed for the plugin's life; a test sets
// another).
var policyCache struct {
	sync.Mutex
	read bool
	path string
	val  *scheme.Policy
	err  error
}

func policy() (*scheme.Policy, error) {
	path := os.Getenv(PolicyEnv)
	c := &policyCache
	c.Lock()
	defer c.Unlock()
	if c.read && c.path == path {
		return c.val, c.err
	}
	c.read, c.path, c.val, c.err = true, path, nil, nil
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		c.err = err
		return nil, err
	}
	if c.val, err = scheme.ParsePolicy(string(b)); err != nil {
		c.err = fmt.Errorf("%s: %w", path, err)
	}
	return c.val, c.err
}

// EvidenceHandler appraises otattest evidence.
type EvidenceHandler struct{}

func (EvidenceHandler) GetName() string              { return "otattest-evidence" }
func (EvidenceHandler) GetAttestationScheme() string { return scheme.SchemeName }
func (EvidenceHandler) GetSupportedMediaTypes() []string {
	return []string{scheme.EvidenceMediaType}
}

func trustFrom(anchors []string) (*scheme.Trust, error) {
	cas, err := anchorCAs(anchors)
	if err != nil {
		return nil, err
	}
	return scheme.NewTrust(cas), nil
}

func anchorCAs(anchors []string) ([]*x509.Certificate, error) {
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
	return cas, nil
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
	var crls []*x509.RevocationList
	for i, s := range endorsements {
		var e handler.Endorsement
		var r scheme.RefValue
		if err := json.Unmarshal([]byte(s), &e); err != nil {
			return nil, fmt.Errorf("reference value %d: %w", i, err)
		}
		if e.SubType == crlSubType {
			crl, err := crlOf(e.Attributes)
			if err != nil {
				return nil, fmt.Errorf("CRL %d: %w", i, err)
			}
			crls = append(crls, crl)
			continue
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
	sum.CheckRevocation(crls, time.Now())
	sum.CheckPolicy(refs, pol)
	return sum.Result(config.Version, config.Developer), nil
}
