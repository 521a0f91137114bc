// SPDX-License-Identifier: MIT

package handlers

// A CA's CRL travels through Veraison's endorsement store: provisioned as
// application/pkix-crl, stored under the key id it names its CA by, found
// again through the CA the evidence chains to, and applied by the
// appraisal - a revoked identity is VERIFY_IDENTITY_REVOKED. A CRL of a
// scope the verifiers do not implement (a delta above all) is refused at
// provisioning, as otattest-verify refuses it at load.

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/veraison/services/handler"
	"github.com/veraison/services/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"otattest.org/veraison/scheme"
)

type crlCA struct {
	key  *ecdsa.PrivateKey
	cert *x509.Certificate
}

func newCRLCA(t *testing.T) *crlCA {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "CRL test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign}
	cert, err := x509.ParseCertificate(certOf(t, tmpl, tmpl, &key.PublicKey, key))
	if err != nil {
		t.Fatal(err)
	}
	return &crlCA{key, cert}
}

func (c *crlCA) crl(t *testing.T, serial int64, ext ...pkix.Extension) []byte {
	t.Helper()
	der, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{Number: big.NewInt(2),
		ThisUpdate: time.Now().Add(-time.Minute), NextUpdate: time.Now().Add(time.Hour),
		RevokedCertificateEntries: []x509.RevocationListEntry{{SerialNumber: big.NewInt(serial),
			RevocationTime: time.Now().Add(-time.Minute)}},
		ExtraExtensions: ext}, c.cert, c.key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func (c *crlCA) anchor(t *testing.T) string {
	t.Helper()
	attrs, _ := json.Marshal(taAttributes{CACert: string(pem.EncodeToMemory(
		&pem.Block{Type: "CERTIFICATE", Bytes: c.cert.Raw}))})
	b, _ := json.Marshal(handler.Endorsement{Scheme: scheme.SchemeName,
		Type: handler.EndorsementType_VERIFICATION_KEY, Attributes: attrs})
	return string(b)
}

// provisioned: the CRL as VTS stores it (Decode, then the store's keys).
func provisioned(t *testing.T, der []byte) (string, []string) {
	t.Helper()
	rsp, err := EndorsementHandler{}.Decode(der)
	if err != nil {
		t.Fatal(err)
	}
	if len(rsp.ReferenceValues) != 1 || len(rsp.TrustAnchors) != 0 {
		t.Fatalf("a CRL gives one endorsement, got %+v", rsp)
	}
	keys, err := StoreHandler{}.SynthKeysFromRefValue("0", &rsp.ReferenceValues[0])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rsp.ReferenceValues[0])
	return string(b), keys
}

func appraiseWith(t *testing.T, ca *crlCA, serial int64, endorsements []string) map[string]any {
	t.Helper()
	sum := (&scheme.Verdict{Authentic: true, Claims: &scheme.Claims{}, RevocationCA: ca.cert.Raw,
		IdentitySerial: hex.EncodeToString(big.NewInt(serial).Bytes())}).Summarize()
	m, _ := sum.ToMap()
	ev, _ := structpb.NewStruct(m)
	r, err := EvidenceHandler{}.AppraiseEvidence(&proto.EvidenceContext{Evidence: ev}, endorsements)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

func TestCRLThroughTheEndorsementStore(t *testing.T) {
	ca := newCRLCA(t)
	stored, keys := provisioned(t, ca.crl(t, 7))
	ids, err := StoreHandler{}.GetRefValueIDs("0", []string{ca.anchor(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, id := range ids {
		found = found || id == keys[0]
	}
	if len(keys) != 1 || !found {
		t.Fatalf("the CRL is stored under %v, the evidence's CA looks under %v", keys, ids)
	}
	if other, _ := (StoreHandler{}).GetRefValueIDs("0", []string{newCRLCA(t).anchor(t)}, nil); other[len(other)-1] == keys[0] {
		t.Fatal("another CA finds this CA's CRL")
	}
	for _, c := range []struct {
		serial int64
		want   string
	}{{7, "VERIFY_IDENTITY_REVOKED"}, {8, ""}} {
		ear := appraiseWith(t, ca, c.serial, []string{stored})
		bl0 := ear["submods"].(map[string]any)["bl0"].(map[string]any)
		claims, _ := json.Marshal(bl0["ear.veraison.policy-claims"])
		vec := bl0["ear.trustworthiness-vector"].(map[string]any)
		revoked := vec["instance-identity"] == float64(96)
		if revoked != (c.want != "") || (c.want != "" && !json.Valid(claims)) ||
			(c.want != "" && !containsStatus(claims, c.want)) {
			t.Errorf("serial %d: %s %v", c.serial, claims, vec)
		}
	}
}

func containsStatus(claims []byte, status string) bool {
	var pc struct {
		Failures []struct{ Status string } `json:"failures"`
	}
	_ = json.Unmarshal(claims, &pc)
	for _, f := range pc.Failures {
		if f.Status == status {
			return true
		}
	}
	return false
}

func TestScopedCRLRefusedAtProvisioning(t *testing.T) {
	ca := newCRLCA(t)
	for name, ext := range map[string]pkix.Extension{
		"delta":    {Id: asn1.ObjectIdentifier{2, 5, 29, 27}, Critical: true, Value: []byte{2, 1, 1}},
		"idp":      {Id: asn1.ObjectIdentifier{2, 5, 29, 28}, Critical: true, Value: []byte{0x30, 3, 0x81, 1, 0xff}},
		"freshest": {Id: asn1.ObjectIdentifier{2, 5, 29, 46}, Value: []byte{0x30, 0}},
	} {
		_, err := EndorsementHandler{}.Decode(ca.crl(t, 7, ext))
		if !errors.Is(err, scheme.ErrCRLScope) {
			t.Errorf("%s: want the scope refused, got %v", name, err)
		}
	}
}
