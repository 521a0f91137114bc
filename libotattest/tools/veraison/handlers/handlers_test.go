// SPDX-License-Identifier: MIT

package handlers

// Lookup keys: a CA provisioned as a trust anchor is found again from the
// evidence of a device it certified (its identity certificate's authority
// key identifier), under the tenant's name only; evidence that is no
// COSE_Sign1 is bad evidence.

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/veraison/services/handler"
	"github.com/veraison/services/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"otattest.org/veraison/scheme"
)

func certOf(t *testing.T, tmpl, parent *x509.Certificate, pub any, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// fixture: a CA (PEM) and evidence whose x5chain holds an identity
// certificate it issued.
func fixture(t *testing.T) (string, []byte) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	idKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER := certOf(t, ca, ca, &caKey.PublicKey, caKey)
	caCert, _ := x509.ParseCertificate(caDER)
	id := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "identity"},
		NotBefore: ca.NotBefore, NotAfter: ca.NotAfter, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	idDER := certOf(t, id, caCert, &idKey.PublicKey, caKey)
	em, _ := cbor.CoreDetEncOptions().EncMode()
	ev, err := em.Marshal(cbor.Tag{Number: 18, Content: []any{[]byte{0xa1, 0x01, 0x26},
		map[any]any{uint64(33): []any{idDER, idDER}}, []byte{0xa0}, make([]byte, 64)}})
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})), ev
}

func TestTrustAnchorFoundFromEvidence(t *testing.T) {
	caPEM, ev := fixture(t)
	attrs, _ := json.Marshal(taAttributes{CACert: caPEM})
	var st StoreHandler
	stored, err := st.SynthKeysFromTrustAnchor("7", &handler.Endorsement{Attributes: attrs})
	if err != nil {
		t.Fatal(err)
	}
	asked, err := st.GetTrustAnchorIDs(&proto.AttestationToken{TenantId: "7", Data: ev})
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 1 || len(asked) != 1 || stored[0] != asked[0] {
		t.Fatalf("provisioned under %v, looked up under %v", stored, asked)
	}
	other, _ := st.GetTrustAnchorIDs(&proto.AttestationToken{TenantId: "8", Data: ev})
	if other[0] == stored[0] {
		t.Errorf("another tenant finds tenant 7's CA: %v", other)
	}
	otherCA, _ := fixture(t)
	attrs, _ = json.Marshal(taAttributes{CACert: otherCA})
	if k, _ := st.SynthKeysFromTrustAnchor("7", &handler.Endorsement{Attributes: attrs}); k[0] == asked[0] {
		t.Errorf("another CA is stored under this device's key %v", k)
	}
}

func TestTrustAnchorIDsOfNoCOSEIsBadEvidence(t *testing.T) {
	var st StoreHandler
	_, err := st.GetTrustAnchorIDs(&proto.AttestationToken{TenantId: "0", Data: []byte{0xd2, 0x84}})
	if !errors.Is(err, handler.BadEvidenceError{}) {
		t.Fatalf("want bad evidence, got %v", err)
	}
}

// A policy that does not parse fails the appraisal - Veraison then
// answers with an error and issues no EAR - rather than appraising with
// a looser policy than the operator wrote.
func TestBadPolicyFailsAppraisal(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "fleet.policy")
	if err := os.WriteFile(bad, []byte("min_svn_bl = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(PolicyEnv, bad)
	sum := (&scheme.Verdict{Claims: &scheme.Claims{}}).Summarize()
	m, err := sum.ToMap()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	_, err = EvidenceHandler{}.AppraiseEvidence(&proto.EvidenceContext{Evidence: ev}, nil)
	if err == nil || !strings.Contains(err.Error(), "line 1: unknown key 'min_svn_bl'") {
		t.Fatalf("want the policy's error, got %v", err)
	}
}
