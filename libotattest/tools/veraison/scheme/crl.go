// SPDX-License-Identifier: MIT

package scheme

// Revocation of a device's identity certificate by its CA's CRL, as
// libotattest's trust store checks it (docs/verifier.md, "Policy"): with
// CRLs, the certificate the CA issued is checked against the CA's CRL the
// way OpenSSL's X509_verify_cert with X509_V_FLAG_CRL_CHECK checks it -
// listed (other than removeFromCRL) is VERIFY_IDENTITY_REVOKED and the
// evidence is not authentic; a CA without a current CRL, or a CRL with an
// unhandled critical extension, fails the chain. A CRL of a scope neither
// verifier implements (delta, freshestCRL, issuing distribution point,
// indirect entries) is refused when it is read, as ota_trust_add_crl_pem
// refuses it: never half-read.

import (
	"bytes"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"time"
)

// CRLMediaType is how provisioning receives a CA's CRL (RFC 2585, DER).
const CRLMediaType = "application/pkix-crl"

var (
	oidAuthorityKeyID   = asn1.ObjectIdentifier{2, 5, 29, 35}
	oidCRLNumber        = asn1.ObjectIdentifier{2, 5, 29, 20}
	oidDeltaCRL         = asn1.ObjectIdentifier{2, 5, 29, 27}
	oidIssuingDistPoint = asn1.ObjectIdentifier{2, 5, 29, 28}
	oidFreshestCRL      = asn1.ObjectIdentifier{2, 5, 29, 46}
	oidCertIssuer       = asn1.ObjectIdentifier{2, 5, 29, 29}
	oidReasonCode       = asn1.ObjectIdentifier{2, 5, 29, 21}
	oidInvalidityDate   = asn1.ObjectIdentifier{2, 5, 29, 24}
)

// ErrCRLScope is a CRL of a scope the verifiers refuse (X509_CRL_UNSUPPORTED).
var ErrCRLScope = errors.New("the CRL has a scope this verifier does not implement " +
	"(delta, issuing distribution point, freshest CRL, indirect entries)")

// ParseCRL reads one DER CRL and refuses the scopes libotattest refuses.
func ParseCRL(der []byte) (*x509.RevocationList, error) {
	crl, err := x509.ParseRevocationList(der)
	if err != nil {
		return nil, err
	}
	for _, e := range crl.Extensions {
		if e.Id.Equal(oidDeltaCRL) || e.Id.Equal(oidIssuingDistPoint) || e.Id.Equal(oidFreshestCRL) {
			return nil, ErrCRLScope
		}
	}
	for _, r := range crl.RevokedCertificateEntries {
		for _, e := range r.Extensions {
			if e.Id.Equal(oidCertIssuer) {
				return nil, ErrCRLScope
			}
		}
	}
	return crl, nil
}

// ParseCRLsPEM reads every CRL of a PEM file (otattest-verify's --crl);
// one refused refuses the file.
func ParseCRLsPEM(b []byte) ([]*x509.RevocationList, error) {
	var out []*x509.RevocationList
	for {
		var block *pem.Block
		block, b = pem.Decode(b)
		if block == nil {
			break
		}
		if block.Type != "X509 CRL" {
			continue
		}
		crl, err := ParseCRL(block.Bytes)
		if err != nil {
			return nil, err
		}
		out = append(out, crl)
	}
	if len(out) == 0 {
		return nil, errors.New("no CRL in it")
	}
	return out, nil
}

// CRLKeyID is the authority key identifier a CRL names its CA by: the
// provisioned CRL is stored under it, found by the CA's subject key id.
func CRLKeyID(crl *x509.RevocationList) ([]byte, error) {
	if len(crl.AuthorityKeyId) == 0 {
		return nil, errors.New("the CRL has no authority key identifier: its CA cannot be found")
	}
	return crl.AuthorityKeyId, nil
}

func criticalUnhandled(exts []pkix.Extension, known ...asn1.ObjectIdentifier) bool {
	for _, e := range exts {
		handled := !e.Critical
		for _, k := range known {
			handled = handled || e.Id.Equal(k)
		}
		if !handled {
			return true
		}
	}
	return false
}

// crlCritical: a critical extension OpenSSL does not handle, in the CRL or
// an entry, fails revocation (X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION).
func crlCritical(crl *x509.RevocationList) bool {
	if criticalUnhandled(crl.Extensions, oidAuthorityKeyID, oidCRLNumber) {
		return true
	}
	for _, r := range crl.RevokedCertificateEntries {
		if criticalUnhandled(r.Extensions, oidReasonCode, oidInvalidityDate) {
			return true
		}
	}
	return false
}

const reasonRemoveFromCRL = 8

// CheckRevocation is the CRL half of check 3, after the chain verified
// (RevocationCA set): no CRLs, no check. Of the CA's CRLs (its name, its
// signature), the one OpenSSL picks - a current one before others, then
// the latest thisUpdate - decides.
func (s *Summary) CheckRevocation(crls []*x509.RevocationList, now time.Time) {
	if len(crls) == 0 || len(s.RevocationCA) == 0 {
		return
	}
	untrusted := func(why string) {
		s.Authentic = false
		s.Failures = append([]Failure{{"VERIFY_CHAIN_UNTRUSTED", NoStage,
			"certificate chain does not lead to the trusted CA: revocation: " + why}}, s.Failures...)
	}
	ca, err := x509.ParseCertificate(s.RevocationCA)
	if err != nil {
		untrusted("the CA does not parse")
		return
	}
	current := func(c *x509.RevocationList) bool {
		return !now.Before(c.ThisUpdate) && (c.NextUpdate.IsZero() || now.Before(c.NextUpdate))
	}
	var best *x509.RevocationList
	for _, c := range crls {
		if !bytes.Equal(c.RawIssuer, ca.RawSubject) || c.CheckSignatureFrom(ca) != nil {
			continue
		}
		if best == nil || current(c) && !current(best) ||
			current(c) == current(best) && c.ThisUpdate.After(best.ThisUpdate) {
			best = c
		}
	}
	switch {
	case best == nil:
		untrusted("unable to get certificate CRL")
		return
	case now.Before(best.ThisUpdate):
		untrusted("CRL is not yet valid")
		return
	case !current(best):
		untrusted("CRL has expired")
		return
	case crlCritical(best):
		untrusted("unhandled critical CRL extension")
		return
	}
	serial, err := hex.DecodeString(s.IdentitySerial)
	if err != nil {
		untrusted("no serial number")
		return
	}
	for _, r := range best.RevokedCertificateEntries {
		if !bytes.Equal(r.SerialNumber.Bytes(), serial) || r.SerialNumber.Sign() <= 0 {
			continue
		}
		if r.ReasonCode == reasonRemoveFromCRL {
			return
		}
		s.Authentic = false
		s.Failures = append([]Failure{{"VERIFY_IDENTITY_REVOKED", NoStage, fmt.Sprintf(
			"the identity certificate is revoked by its CA's CRL (serial %s)", s.IdentitySerial)}},
			s.Failures...)
		return
	}
}
