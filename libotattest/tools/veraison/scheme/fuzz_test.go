// SPDX-License-Identifier: MIT

package scheme

// Evidence is hostile: whatever bytes arrive, Verify and the appraisal
// must answer without panicking, and nothing but the one genuine evidence
// may pass - the signature covers the claims, path validation the
// x5chain, and the strict decoding every other byte, so an evidence that
// passes with other bytes would be a malleability to fix. The seed is
// evidence the firmware's runtime signed (evidence_tool; testdata/).

import (
	"bytes"
	"crypto/x509"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

func testTrust(t testing.TB) (*Trust, []byte, []byte) {
	t.Helper()
	ev, err := os.ReadFile("testdata/evidence.cose")
	if err != nil {
		t.Fatal(err)
	}
	caPEM, err := os.ReadFile("testdata/ca.pem")
	if err != nil {
		t.Fatal(err)
	}
	ca, err := ParseCAPEM(caPEM)
	if err != nil {
		t.Fatal(err)
	}
	nh, _ := os.ReadFile("testdata/nonce.hex")
	nonce, err := hex.DecodeString(strings.TrimSpace(string(nh)))
	if err != nil {
		t.Fatal(err)
	}
	return NewTrust([]*x509.Certificate{ca}), ev, nonce
}

func TestSeedEvidencePasses(t *testing.T) {
	trust, ev, nonce := testTrust(t)
	v := Verify(ev, trust, nonce)
	if len(v.Failures) != 0 || !v.Authentic {
		t.Fatalf("the genuine evidence fails: %+v", v.Failures)
	}
}

func FuzzVerify(f *testing.F) {
	trust, ev, nonce := testTrust(f)
	f.Add(ev)
	f.Add(ev[:len(ev)/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		v := Verify(data, trust, nonce)
		s := v.Summarize()
		s.CheckPolicy([]RefValue{}, nil)
		_ = s.Appraise()
		if len(v.Failures) == 0 && !bytes.Equal(data, ev) {
			t.Fatalf("evidence other than the genuine one passes: %x", data)
		}
	})
}
