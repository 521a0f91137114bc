// SPDX-License-Identifier: MIT

package scheme

// Evidence is hostile: whatever bytes arrive, Verify and the appraisal
// must answer without panicking, and nothing but the one genuine evidence
// may pass - the signature covers the claims, path validation the
// x5chain, and the strict decoding every other byte, so an evidence that
// passes with other bytes would be a malleability to fix. The seed is
// evidence the firmware's runtime signed, made by evidence_tool in the
// directory OTATTEST_EVIDENCE_DIR names (tests/interop/veraison-agree.sh
// makes it and runs these tests): the format changes with the firmware,
// so a copy kept here would test the scheme against a format gone by.

import (
	"bytes"
	"crypto/x509"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testTrust(t testing.TB) (*Trust, []byte, []byte) {
	t.Helper()
	dir := os.Getenv("OTATTEST_EVIDENCE_DIR")
	if dir == "" {
		t.Skip("OTATTEST_EVIDENCE_DIR names no evidence_tool output (tests/interop/veraison-agree.sh sets it)")
	}
	ev, err := os.ReadFile(filepath.Join(dir, "evidence.cose"))
	if err != nil {
		t.Fatal(err)
	}
	caPEM, err := os.ReadFile(filepath.Join(dir, "ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	ca, err := ParseCAPEM(caPEM)
	if err != nil {
		t.Fatal(err)
	}
	nh, _ := os.ReadFile(filepath.Join(dir, "nonce.hex"))
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
