// SPDX-License-Identifier: MIT

package scheme

// What the verifier reads from the two certificates, decoded as far as a
// DER reader must and no further - as OpenSSL's d2i_X509, which
// libotattest reads them with, does. Path validation (verifyChain, Go's
// crypto/x509) is where the rest of X.509's rules apply: a certificate
// that decodes here but breaks them makes the chain untrusted, while its
// names and keys still tell which other checks fail, as in libotattest.

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"math/big"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// certFacts is a certificate read leniently.
type certFacts struct {
	RawTBS, RawIssuer, RawSubject []byte
	IssuerCN, SubjectCN           string
	PublicKey                     any
	Extensions                    []pkix.Extension
	Signature                     []byte
}

var errCertDER = errors.New("not a DER X.509 certificate")

func commonName(raw []byte) string {
	var rdn pkix.RDNSequence
	if rest, err := asn1.Unmarshal(raw, &rdn); err != nil || len(rest) != 0 {
		return ""
	}
	var n pkix.Name
	n.FillFromRDNSequence(&rdn)
	return n.CommonName
}

// readTime reads a UTCTime or GeneralizedTime.
func readTime(s *cryptobyte.String, t *time.Time) bool {
	if s.PeekASN1Tag(cbasn1.UTCTime) {
		return s.ReadASN1UTCTime(t)
	}
	return s.ReadASN1GeneralizedTime(t)
}

// names reports whether a Name decodes, its strings valid for their types
// (which is also where OpenSSL's decoding refuses most flipped bytes).
func names(raw []byte) bool {
	var rdn pkix.RDNSequence
	rest, err := asn1.Unmarshal(raw, &rdn)
	return err == nil && len(rest) == 0
}

// readCert decodes a certificate's structure, names, key and extensions.
func readCert(der []byte) (*certFacts, error) {
	in := cryptobyte.String(der)
	var cert, tbs, sigAlg cryptobyte.String
	var sig asn1.BitString
	f := &certFacts{}
	if !in.ReadASN1(&cert, cbasn1.SEQUENCE) || !in.Empty() ||
		!cert.ReadASN1Element((*cryptobyte.String)(&f.RawTBS), cbasn1.SEQUENCE) ||
		!cert.ReadASN1(&sigAlg, cbasn1.SEQUENCE) || !cert.ReadASN1BitString(&sig) || !cert.Empty() {
		return nil, errCertDER
	}
	f.Signature = sig.RightAlign()
	tbs = cryptobyte.String(f.RawTBS)
	// Each field decoded as a DER decoder must (OpenSSL's d2i_X509
	// refuses a certificate whose serial, algorithm, names or times do
	// not decode): the values themselves are path validation's to judge.
	var body, alg, validity, spki cryptobyte.String
	var serial big.Int
	var oid asn1.ObjectIdentifier
	var notBefore, notAfter time.Time
	if !tbs.ReadASN1(&body, cbasn1.SEQUENCE) ||
		!body.SkipOptionalASN1(cbasn1.Tag(0).Constructed().ContextSpecific()) ||
		!body.ReadASN1Integer(&serial) || !body.ReadASN1(&alg, cbasn1.SEQUENCE) ||
		!alg.ReadASN1ObjectIdentifier(&oid) ||
		!body.ReadASN1Element((*cryptobyte.String)(&f.RawIssuer), cbasn1.SEQUENCE) ||
		!body.ReadASN1(&validity, cbasn1.SEQUENCE) || !readTime(&validity, &notBefore) ||
		!readTime(&validity, &notAfter) || !validity.Empty() ||
		!body.ReadASN1Element((*cryptobyte.String)(&f.RawSubject), cbasn1.SEQUENCE) ||
		!body.ReadASN1Element(&spki, cbasn1.SEQUENCE) {
		return nil, errCertDER
	}
	if !names(f.RawIssuer) || !names(f.RawSubject) {
		return nil, errCertDER
	}
	pub, err := x509.ParsePKIXPublicKey(spki)
	if err != nil {
		return nil, err
	}
	f.PublicKey = pub
	f.IssuerCN, f.SubjectCN = commonName(f.RawIssuer), commonName(f.RawSubject)
	// issuerUniqueID [1], subjectUniqueID [2]: never written, skipped if there.
	_ = body.SkipOptionalASN1(cbasn1.Tag(1).ContextSpecific())
	_ = body.SkipOptionalASN1(cbasn1.Tag(2).ContextSpecific())
	var exts, list cryptobyte.String
	var has bool
	if !body.ReadOptionalASN1(&exts, &has, cbasn1.Tag(3).Constructed().ContextSpecific()) {
		return nil, errCertDER
	}
	if has {
		if !exts.ReadASN1(&list, cbasn1.SEQUENCE) {
			return nil, errCertDER
		}
		for !list.Empty() {
			var e cryptobyte.String
			var ext pkix.Extension
			if !list.ReadASN1(&e, cbasn1.SEQUENCE) || !e.ReadASN1ObjectIdentifier(&ext.Id) {
				return nil, errCertDER
			}
			// critical BOOLEAN DEFAULT FALSE (read by hand: this
			// cryptobyte's optional-boolean reader refuses TRUE).
			if e.PeekASN1Tag(cbasn1.BOOLEAN) {
				var b cryptobyte.String
				if !e.ReadASN1(&b, cbasn1.BOOLEAN) || len(b) != 1 || (b[0] != 0 && b[0] != 0xff) {
					return nil, errCertDER
				}
				ext.Critical = b[0] == 0xff
			}
			if !e.ReadASN1Bytes(&ext.Value, cbasn1.OCTET_STRING) || !e.Empty() {
				return nil, errCertDER
			}
			f.Extensions = append(f.Extensions, ext)
		}
	}
	return f, nil
}

// p256Key is the certificate's key when it is an uncompressed P-256 key.
func (f *certFacts) p256Key() *ecdsa.PublicKey {
	pub, ok := f.PublicKey.(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P256() {
		return nil
	}
	return pub
}

// signed reports whether issuer's key made child's ES256 signature.
func signed(issuer, child *certFacts) bool {
	pub := issuer.p256Key()
	if pub == nil {
		return false
	}
	digest := sha256.Sum256(child.RawTBS)
	return ecdsa.VerifyASN1(pub, digest[:], child.Signature)
}
