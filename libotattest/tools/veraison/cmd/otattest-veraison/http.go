// SPDX-License-Identifier: MIT

package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"time"
)

// Answers are bounded: the services are on the operator's side, but a
// wrong URL must not make the agent read without end.
const maxAnswer = 1 << 20

var client = &http.Client{Timeout: 60 * time.Second}

// tlsFlag adds --tls-ca: the CA bundle (PEM) a Veraison deployment's
// TLS certificates chain to, when it is not one the system trusts.
func tlsFlag(fs *flag.FlagSet) *string {
	return fs.String("tls-ca", "", "CA certificates (PEM) for the services' TLS, beside the system's")
}

// useTLSCA makes the client trust the bundle (nothing to do for "").
func useTLSCA(path string) error {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(b) {
		return fmt.Errorf("%s: no PEM certificate", path)
	}
	client.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}
	return nil
}

// post sends body and decodes a JSON answer of one of the wanted codes.
func post(u, contentType, accept string, body []byte, want []int, out any) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", accept)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, err
	}
	ok := false
	for _, w := range want {
		ok = ok || resp.StatusCode == w
	}
	if !ok {
		return nil, fmt.Errorf("%s: %s: %s", u, resp.Status, bytes.TrimSpace(b))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return nil, fmt.Errorf("%s: the answer is not the JSON expected: %w", u, err)
		}
	}
	return resp, nil
}

// resolve makes a Location header absolute against the request's URL.
func resolve(base, loc string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	l, err := url.Parse(loc)
	if err != nil {
		return "", err
	}
	return b.ResolveReference(l).String(), nil
}
