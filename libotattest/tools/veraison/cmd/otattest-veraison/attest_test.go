// SPDX-License-Identifier: MIT

package main

// The fleet agent's step against a stand-in for Veraison's
// challenge-response API (net/http/httptest) and for otattestctl (a
// script): the session's nonce must reach otattestctl, the evidence it
// writes must be posted to the session with the evidence media type, and
// the session's result printed. The real services and device are in the
// veraison-fleet end-to-end scenario.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"otattest.org/veraison/scheme"
)

func TestAttestAgentStep(t *testing.T) {
	nonce := bytes.Repeat([]byte{0x5a}, 32)
	dir := t.TempDir()
	var posted []byte
	var postedType string
	mux := http.NewServeMux()
	mux.HandleFunc("/challenge-response/v1/newSession", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Query().Get("nonceSize") != "32" ||
			r.Header.Get("Accept") != sessionMediaType {
			http.Error(w, "bad newSession", http.StatusBadRequest)
			return
		}
		w.Header().Set("Location", "session/1")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{"status": "waiting", "nonce": nonce})
	})
	mux.HandleFunc("/challenge-response/v1/session/1", func(w http.ResponseWriter, r *http.Request) {
		posted, _ = io.ReadAll(r.Body)
		postedType = r.Header.Get("Content-Type")
		_ = json.NewEncoder(w).Encode(map[string]any{"status": "complete", "nonce": nonce,
			"result": "the.ear.jwt"})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	// otattestctl stand-in: writes the nonce it was given as the evidence.
	ctl := filepath.Join(dir, "otattestctl")
	script := "#!/bin/sh\n[ \"$1 $2\" = \"attest --nonce\" ] && [ \"$4\" = -o ] || exit 3\nprintf %s \"$3\" >\"$5\"\n"
	if err := os.WriteFile(ctl, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ear.jwt")
	if err := cmdAttest([]string{"--url", srv.URL, "--otattestctl", ctl, "--out", out}); err != nil {
		t.Fatal(err)
	}
	if string(posted) != hex.EncodeToString(nonce) {
		t.Errorf("posted %q, want the evidence made for the session's nonce", posted)
	}
	if postedType != scheme.EvidenceMediaType {
		t.Errorf("posted as %q", postedType)
	}
	if got, _ := os.ReadFile(out); string(got) != "the.ear.jwt\n" {
		t.Errorf("EAR written: %q", got)
	}
}

func TestAttestAgentFailsWhenOtattestctlFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "session/1")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{"nonce": bytes.Repeat([]byte{1}, 32)})
	}))
	defer srv.Close()
	if err := cmdAttest([]string{"--url", srv.URL, "--otattestctl", "/bin/false"}); err == nil {
		t.Fatal("an otattestctl that fails must fail the step")
	}
}

// A deployment with TLS: the agent trusts the services' CA given by
// --tls-ca, and without it refuses the connection.
func TestSessionOverTLSWithGivenCA(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "session/1")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{"nonce": bytes.Repeat([]byte{2}, 32)})
	}))
	defer srv.Close()
	saved := client.Transport
	defer func() { client.Transport = saved }()
	if _, _, err := newSession(srv.URL, 32, nil); err == nil {
		t.Fatal("a server whose CA is not trusted was accepted")
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE",
		Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := useTLSCA(caFile); err != nil {
		t.Fatal(err)
	}
	if _, nonce, err := newSession(srv.URL, 32, nil); err != nil || len(nonce) != 32 {
		t.Fatalf("with --tls-ca: %v", err)
	}
}
