// SPDX-License-Identifier: MIT

package main

// The fleet agent's step (docs/veraison.md): Veraison's challenge-response
// API hands out a nonce with a session; otattestd signs evidence with it
// (otattestctl attest --nonce); the evidence goes back to the session and
// the answer is the EAR Veraison signed.

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"otattest.org/veraison/scheme"
)

const sessionMediaType = "application/vnd.veraison.challenge-response-session+json"

type session struct {
	Status string  `json:"status"`
	Nonce  []byte  `json:"nonce"`
	Result *string `json:"result"`
}

// newSession opens a session with a nonce of n bytes Veraison draws, or
// with the nonce given (a verifier that issued its own); it returns the
// session's URL and nonce.
func newSession(base string, n int, given []byte) (string, []byte, error) {
	u := fmt.Sprintf("%s/challenge-response/v1/newSession?nonceSize=%d", strings.TrimRight(base, "/"), n)
	if given != nil {
		u = fmt.Sprintf("%s/challenge-response/v1/newSession?nonce=%s", strings.TrimRight(base, "/"),
			base64.URLEncoding.EncodeToString(given))
	}
	var s session
	resp, err := post(u, "", sessionMediaType, nil, []int{http.StatusCreated}, &s)
	if err != nil {
		return "", nil, err
	}
	if len(s.Nonce) < scheme.NonceMin || len(s.Nonce) > scheme.NonceMax {
		return "", nil, fmt.Errorf("the session's nonce is %d bytes", len(s.Nonce))
	}
	loc := resp.Header.Get("Location")
	if loc == "" {
		return "", nil, errors.New("the new session has no Location")
	}
	at, err := resolve(u, loc)
	return at, s.Nonce, err
}

// submit posts evidence to a session and returns the EAR (a JWT).
func submit(at string, evidence []byte) (string, error) {
	var s session
	if _, err := post(at, scheme.EvidenceMediaType, sessionMediaType, evidence, []int{http.StatusOK}, &s); err != nil {
		return "", err
	}
	if s.Status != "complete" || s.Result == nil {
		return "", fmt.Errorf("the session is %s, with no result", s.Status)
	}
	return *s.Result, nil
}

func cmdAttest(args []string) error {
	fs := flag.NewFlagSet("attest", flag.ContinueOnError)
	base := fs.String("url", "", "the verification service, e.g. http://127.0.0.1:8080")
	tlsCA := tlsFlag(fs)
	ctl := fs.String("otattestctl", "otattestctl", "the otattestctl to run")
	device := fs.String("device", "", "the device (otattestctl --device)")
	evidenceOut := fs.String("evidence", "", "keep the evidence in this file")
	out := fs.String("out", "", "write the EAR here (default: standard output)")
	if err := fs.Parse(args); err != nil || *base == "" || fs.NArg() != 0 {
		return usageError("attest --url [--tls-ca PEM] URL [--otattestctl PATH] [--device N] [--evidence FILE] [--out FILE]")
	}
	if err := useTLSCA(*tlsCA); err != nil {
		return err
	}
	at, nonce, err := newSession(*base, 32, nil)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "otattest-veraison-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	evFile := *evidenceOut
	if evFile == "" {
		evFile = filepath.Join(dir, "evidence.cose")
	}
	cmd := []string{}
	if *device != "" {
		cmd = append(cmd, "--device", *device)
	}
	cmd = append(cmd, "attest", "--nonce", hex.EncodeToString(nonce), "-o", evFile)
	run := exec.Command(*ctl, cmd...)
	run.Stdout, run.Stderr = os.Stderr, os.Stderr
	if err := run.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", *ctl, strings.Join(cmd, " "), err)
	}
	evidence, err := os.ReadFile(evFile)
	if err != nil {
		return err
	}
	ear, err := submit(at, evidence)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = fmt.Println(ear)
		return err
	}
	return os.WriteFile(*out, []byte(ear+"\n"), 0o644)
}
