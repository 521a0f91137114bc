// SPDX-License-Identifier: MIT

package scheme

// Every check ota_verify_evidence runs (docs/verifier.md, "Checks, in
// order"), in the same order and with the same stop rules: decoding
// failures (checks 1, 2 and 5) end the run, the others are collected so
// one verdict names every failure. Check 7 (the host's boot record) has no
// place here: a fleet agent posts evidence alone.

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
)

// NoStage marks a failure that concerns the whole device.
const NoStage = 0

// Failure is one failed check: a status name of status.h (refusal.go maps
// it to its AR4SI claim), the stage it concerns, and a detail.
type Failure struct {
	Status string `json:"status"`
	Stage  uint32 `json:"stage"`
	Detail string `json:"detail"`
}

// Verdict is what Verify found.
type Verdict struct {
	Failures  []Failure
	Authentic bool
	Claims    *Claims // nil when the claims did not decode
	// When the chain verified: its CA (DER) and the serial number of the
	// certificate the CA issued, for the CRL check (crl.go).
	RevocationCA   []byte
	IdentitySerial string
}

func (v *Verdict) add(status string, stage uint32, format string, a ...any) {
	v.Failures = append(v.Failures, Failure{status, stage, fmt.Sprintf(format, a...)})
}

// Trust is the manufacturer CAs evidence must chain to. id names the set
// of CAs (SHA-256 over their DER), so chains verified against it are
// remembered across Trust values built from the same anchors, as the
// plugin builds one per appraisal (chaincache.go).
type Trust struct {
	Roots *x509.CertPool
	id    [32]byte
}

// NewTrust makes a trust store of CA certificates.
func NewTrust(cas []*x509.Certificate) *Trust {
	pool := x509.NewCertPool()
	h := sha256.New()
	for _, ca := range cas {
		pool.AddCert(ca)
		h.Write(ca.Raw)
	}
	t := &Trust{Roots: pool}
	h.Sum(t.id[:0])
	return t
}

// chainFacts is what the two certificates say, read whether or not the
// chain verified (the leaf key is checked either way: report both).
type chainFacts struct {
	// usable: every certificate decodes and the leaf's key is P-256, as
	// libotattest needs before it checks the chain or the signature.
	usable          bool
	alias, identity *certFacts
	aliasInfo       *AliasInfo
	aliasErr        error
	aliasDevice     []byte
	issuerDevice    []byte
	identityDevice  []byte
	issuedAlias     bool
	// Set when the chain verified: the trusted CA it ends at and the
	// certificate that CA issued (the identity certificate).
	root, revocable *x509.Certificate
}

func readFacts(certs [][]byte) *chainFacts {
	f := &chainFacts{}
	var err error
	if f.alias, err = readCert(certs[0]); err != nil {
		f.alias = nil
		return f
	}
	f.aliasInfo, f.aliasErr = aliasInfo(f.alias.Extensions)
	f.aliasDevice, _ = deviceFromCN(f.alias.SubjectCN, CNAlias)
	f.issuerDevice, _ = deviceFromCN(f.alias.IssuerCN, CNIdentity)
	f.usable = f.alias.p256Key() != nil
	for i, der := range certs[1:] {
		c, err := readCert(der)
		if err != nil {
			f.usable = false
			continue
		}
		if i == 0 {
			f.identity = c
		}
	}
	if f.identity != nil {
		f.identityDevice, _ = deviceFromCN(f.identity.SubjectCN, CNIdentity)
		f.issuedAlias = bytes.Equal(f.alias.RawIssuer, f.identity.RawSubject) && signed(f.identity, f.alias)
	}
	return f
}

// verifyChain is check 3: alias -> identity -> a trusted CA, the leaf an
// end entity with digitalSignature and a P-256 key.
func verifyChain(t *Trust, f *chainFacts, certs [][]byte) ([]*x509.Certificate, error) {
	if !f.usable {
		return nil, errors.New("a certificate is not valid DER X.509 or the leaf key is not P-256")
	}
	if len(certs) < 2 {
		return nil, errors.New("no identity certificate in the evidence")
	}
	alias, err := x509.ParseCertificate(certs[0])
	if err != nil {
		return nil, err
	}
	inter := x509.NewCertPool()
	for _, der := range certs[1:] {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, fmt.Errorf("an intermediate certificate does not parse: %w", err)
		}
		inter.AddCert(c)
	}
	// The current time, as OpenSSL's X509_verify_cert uses: the device's
	// certificates never expire (notAfter 99991231235959Z), a CA may.
	chains, err := alias.Verify(x509.VerifyOptions{
		Roots:         t.Roots,
		Intermediates: inter,
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageAny},
	})
	if err != nil {
		return nil, err
	}
	if alias.IsCA || alias.KeyUsage&x509.KeyUsageDigitalSignature == 0 {
		return nil, errors.New("the alias certificate is not an end entity with digitalSignature")
	}
	return chains[0], nil
}

// Verify runs the checks on one evidence against the trust store and the
// nonce the verifier issued (nil: no freshness check, for stored evidence).
func Verify(evidence []byte, t *Trust, nonce []byte) *Verdict {
	v := &Verdict{}
	s, err := DecodeSign1(evidence)
	if err != nil {
		var de *decodeError
		status := "COSE_BAD_HEADER"
		if errors.As(err, &de) {
			status = de.status
		}
		v.add(status, NoStage, "evidence is not a valid COSE_Sign1: %v", err)
		return v
	}
	f, chainErr := chainOf(t, s.Certs)
	if chainErr != nil {
		v.add("VERIFY_CHAIN_UNTRUSTED", NoStage,
			"certificate chain does not lead to the trusted CA: %v", chainErr)
	}
	sigOK := false
	if !f.usable {
		v.add("VERIFY_SIGNATURE_INVALID", NoStage, "no usable signing key in the certificate chain")
	} else if err := s.Verify(f.alias.p256Key()); err != nil {
		v.add("VERIFY_SIGNATURE_INVALID", NoStage, "evidence signature does not verify with the alias key")
	} else {
		sigOK = true
	}
	v.Authentic = chainErr == nil && sigOK
	if chainErr == nil && f.root != nil {
		v.RevocationCA = f.root.Raw
		v.IdentitySerial = hex.EncodeToString(f.revocable.SerialNumber.Bytes())
	}
	c, err := DecodeClaims(s.Payload)
	if err != nil {
		v.add("VERIFY_CLAIMS_INVALID", NoStage, "claims set is malformed: %v", err)
		return v
	}
	v.Claims = c
	checkCertified(s, f, c, v)
	if nonce != nil && (len(nonce) != len(c.Nonce) || subtle.ConstantTimeCompare(nonce, c.Nonce) != 1) {
		v.add("VERIFY_NONCE_MISMATCH", NoStage,
			"evidence nonce (%d bytes) is not the expected nonce (%d bytes)", len(c.Nonce), len(nonce))
	}
	return v
}
