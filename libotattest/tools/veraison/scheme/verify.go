// SPDX-License-Identifier: MIT

package scheme

// Every check ota_verify_evidence runs (docs/verifier.md, "Checks, in
// order"), in the same order and with the same stop rules: decoding
// failures (checks 1, 2 and 5) end the run, the others are collected so
// one verdict names every failure. Check 7 (the host's boot record) has no
// place here: a fleet agent posts evidence alone.

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
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
	var f *chainFacts
	var chainErr error
	if len(s.Handovers) > 0 {
		f, chainErr = handoverChain(t, s.Certs, s.Handovers)
	} else {
		f, chainErr = chainOf(t, s.Certs)
	}
	var hf *handoverFail
	if errors.As(chainErr, &hf) {
		v.add(hf.status, NoStage, "%s", hf.msg)
	} else if chainErr != nil {
		v.add("VERIFY_CHAIN_UNTRUSTED", NoStage,
			"certificate chain does not lead to the trusted CA: %v", chainErr)
		if len(s.Handovers) == 0 && handoverMissing(t, s.Certs) {
			v.add("VERIFY_HANDOVER_GAP", NoStage,
				"the alias certificate was issued by another identity of this device than the one the CA certified, and the evidence carries no hand-over")
		}
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

// identityAlone verifies the identity certificate to the trust store on
// its own and the alias certificate as an end entity in its name.
func identityAlone(t *Trust, certs [][]byte) (alias, id *x509.Certificate, chain []*x509.Certificate, err error) {
	if len(certs) != 2 {
		return nil, nil, nil, errors.New("an alias and an identity certificate are needed")
	}
	if alias, err = x509.ParseCertificate(certs[0]); err != nil {
		return nil, nil, nil, err
	}
	if id, err = x509.ParseCertificate(certs[1]); err != nil {
		return nil, nil, nil, err
	}
	chains, err := id.Verify(x509.VerifyOptions{Roots: t.Roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("identity certificate: %w", err)
	}
	if !id.IsCA || !bytes.Equal(alias.RawIssuer, id.RawSubject) {
		return nil, nil, nil, errors.New("the alias certificate is not in the identity certificate's name")
	}
	if alias.IsCA || alias.KeyUsage&x509.KeyUsageDigitalSignature == 0 {
		return nil, nil, nil, errors.New("the alias certificate is not an end entity with digitalSignature")
	}
	return alias, id, chains[0], nil
}

// rawP256 is a certificate's P-256 key as x || y.
func rawP256(c *x509.Certificate) []byte {
	k, ok := c.PublicKey.(*ecdsa.PublicKey)
	if !ok || k.Curve != elliptic.P256() {
		return nil
	}
	out := make([]byte, 64)
	k.X.FillBytes(out[:32])
	k.Y.FillBytes(out[32:])
	return out
}

// handoverChain is ota_chain_verify_handovers: the identity certificate to
// the CA, the hand-overs from its key, the alias certificate signed by the
// key the last one leads to.
func handoverChain(t *Trust, certs [][]byte, hs [][]byte) (*chainFacts, error) {
	f := readFacts(certs)
	if !f.usable || f.identity == nil {
		return f, errors.New("a certificate is not valid DER X.509 or the leaf key is not P-256")
	}
	alias, id, chain, err := identityAlone(t, certs)
	if err != nil {
		return f, err
	}
	certified := rawP256(id)
	last := hs[len(hs)-1]
	issuer := last[handoverOffToKey:handoverOffReserved]
	if certified == nil || f.aliasDevice == nil {
		return f, errors.New("the certificates' keys or names are not the device's")
	}
	if _, err := walkHandovers(certified, issuer, f.aliasDevice, hs); err != nil {
		return f, err
	}
	pub := p256Key(issuer)
	digest := sha256.Sum256(alias.RawTBSCertificate)
	if pub == nil || !ecdsa.VerifyASN1(pub, digest[:], alias.Signature) {
		return f, &handoverFail{"VERIFY_HANDOVER_GAP", "the alias certificate is not signed by the identity the hand-overs lead to"}
	}
	f.issuedAlias = true
	f.root, f.revocable = chain[len(chain)-1], id
	return f, nil
}

// handoverMissing: the identity certificate verifies on its own, the alias
// certificate is in its name but names another issuer key and is not
// signed by the identity's key (ota_chain_handover_missing).
func handoverMissing(t *Trust, certs [][]byte) bool {
	alias, id, _, err := identityAlone(t, certs)
	if err != nil || len(alias.AuthorityKeyId) == 0 || len(id.SubjectKeyId) == 0 ||
		bytes.Equal(alias.AuthorityKeyId, id.SubjectKeyId) {
		return false
	}
	return alias.CheckSignatureFrom(id) != nil
}
