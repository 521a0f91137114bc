// SPDX-License-Identifier: MIT

package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"os"

	"github.com/lestrrat-go/jwx/v2/jwk"
)

// cmdEARKey makes the EAR signing key: a JWK, which is what Veraison's
// ear-signer loads, and optionally its public half in PEM for relying
// parties (the verification API also serves it as a JWK).
func cmdEARKey(args []string) error {
	fs := flag.NewFlagSet("ear-key", flag.ContinueOnError)
	out := fs.String("out", "", "the private key, a JWK (written 0600)")
	pub := fs.String("pub", "", "the public key in PEM")
	if err := fs.Parse(args); err != nil || *out == "" || fs.NArg() != 0 {
		return usageError("ear-key --out FILE [--pub FILE]")
	}
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	key, err := jwk.FromRaw(priv)
	if err != nil {
		return err
	}
	if err := key.Set(jwk.AlgorithmKey, "ES256"); err != nil {
		return err
	}
	b, err := json.Marshal(key)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o600); err != nil {
		return err
	}
	if *pub != "" {
		der, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
		if err != nil {
			return err
		}
		return os.WriteFile(*pub, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644)
	}
	return nil
}

// loadP256 reads a P-256 public key in PEM (otimage keygen --pub).
func loadP256(path string) (*ecdsa.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, fmt.Errorf("%s: not PEM", path)
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pub, ok := k.(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P256() {
		return nil, fmt.Errorf("%s: not a P-256 public key", path)
	}
	return pub, nil
}
