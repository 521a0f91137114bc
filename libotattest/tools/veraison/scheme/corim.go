// SPDX-License-Identifier: MIT

package scheme

// otattest in CoRIM (docs/veraison.md): an environment is a class with
// vendor "otattest" and a model - a stage name for reference values,
// "manufacturer-ca" for the trust anchor. A reference-value triple lists
// the measurements a stage may have (SHA-256 digest, SVN); an
// attester-verification-key triple carries the manufacturer CA's
// certificate, to which every device's x5chain leads.

import (
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/veraison/corim/comid"
	"github.com/veraison/corim/corim"
	"github.com/veraison/swid"
)

// Vendor and CAModel name otattest's environments.
const (
	Vendor  = "otattest"
	CAModel = "manufacturer-ca"
)

// sha256AlgID is the Named Information Hash Algorithm id of SHA-256.
const sha256AlgID = 1

func envModel(env *comid.Environment) (string, error) {
	if env.Class == nil || env.Class.Vendor == nil || *env.Class.Vendor != Vendor || env.Class.Model == nil {
		return "", errors.New(`environment is not an otattest class (vendor "otattest" and a model)`)
	}
	return *env.Class.Model, nil
}

// RefValuesFromTriple reads one reference-value triple; keyIDs are the
// signer key ids of each of its measurements (cryptokeys, mval key 13,
// which this corim library does not decode: rawKeyIDs reads them).
func RefValuesFromTriple(t *comid.ValueTriple, keyIDs [][]string) ([]RefValue, error) {
	model, err := envModel(&t.Environment)
	if err != nil {
		return nil, err
	}
	if stageByName(model) == 0 {
		return nil, fmt.Errorf("reference values for %q, which is no stage", model)
	}
	var out []RefValue
	for i, m := range t.Measurements.Values {
		if m.Val.Digests == nil {
			return nil, fmt.Errorf("%s measurement %d has no digest", model, i)
		}
		r := RefValue{Stage: model}
		if m.Val.SVN != nil {
			var v uint64
			switch x := m.Val.SVN.Value.(type) {
			case *comid.TaggedSVN:
				v = uint64(*x)
			case *comid.TaggedMinSVN:
				v, r.MinSVN = uint64(*x), true
			default:
				return nil, fmt.Errorf("%s measurement %d: SVN of an unknown kind", model, i)
			}
			if v > SVNLimit {
				return nil, fmt.Errorf("%s measurement %d: SVN %d is above 255", model, i, v)
			}
			n := uint32(v)
			r.SVN = &n
		}
		if i < len(keyIDs) {
			r.KeyIDs = keyIDs[i]
		}
		for _, d := range *m.Val.Digests {
			if d.HashAlgID == sha256AlgID && len(d.HashValue) == 32 {
				r.Digests = append(r.Digests, hex.EncodeToString(d.HashValue))
			}
		}
		if len(r.Digests) == 0 {
			return nil, fmt.Errorf("%s measurement %d: no SHA-256 digest", model, i)
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no measurements for %s", model)
	}
	return out, nil
}

// CAFromTriple reads the manufacturer CA from an attester-verification-key
// triple: exactly one key, a PEM certificate of a CA.
func CAFromTriple(t *comid.KeyTriple) (*x509.Certificate, error) {
	model, err := envModel(&t.Environment)
	if err != nil {
		return nil, err
	}
	if model != CAModel {
		return nil, fmt.Errorf("a trust anchor for %q, not %q", model, CAModel)
	}
	if len(t.VerifKeys) != 1 {
		return nil, errors.New("the trust anchor is not exactly one certificate")
	}
	return ParseCAPEM([]byte(t.VerifKeys[0].String()))
}

// ParseCAPEM reads one CA certificate in PEM.
func ParseCAPEM(b []byte) (*x509.Certificate, error) {
	block, rest := pem.Decode(b)
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, errors.New("the trust anchor is not a PEM certificate")
	}
	if len(pem.EncodeToMemory(block)) == 0 || len(rest) != 0 && len(firstNonSpace(rest)) != 0 {
		return nil, errors.New("the trust anchor holds more than one PEM block")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, err
	}
	if !cert.IsCA {
		return nil, errors.New("the trust anchor is not a CA certificate")
	}
	return cert, nil
}

func firstNonSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == '\n' || b[0] == '\r' || b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

func otattestClass(model string) *comid.Class {
	v, m := Vendor, model
	return &comid.Class{Vendor: &v, Model: &m}
}

// TrustAnchorCorim is the unsigned CoRIM provisioning a manufacturer CA.
func TrustAnchorCorim(caPEM []byte) ([]byte, error) {
	if _, err := ParseCAPEM(caPEM); err != nil {
		return nil, err
	}
	key, err := comid.NewPKIXBase64Cert(string(caPEM))
	if err != nil {
		return nil, err
	}
	c := comid.NewComid().
		SetTagIdentity("otattest-manufacturer-ca", 0).
		AddAttestVerifKey(comid.KeyTriple{
			Environment: comid.Environment{Class: otattestClass(CAModel)},
			VerifKeys:   comid.CryptoKeys{key},
		})
	if c == nil {
		return nil, errors.New("cannot build the trust anchor CoMID")
	}
	return wrapCorim("otattest-manufacturer-ca", c)
}

// RefValueCorim is an unsigned CoRIM of reference values (for tests and
// for fleets that list measurements by hand; otimage emits the release's).
func RefValueCorim(id string, refs []RefValue) ([]byte, error) {
	c := comid.NewComid().SetTagIdentity(id, 0)
	for _, r := range refs {
		m, err := comid.NewUintMeasurement(uint64(stageByName(r.Stage)))
		if err != nil {
			return nil, err
		}
		for _, d := range r.Digests {
			digest, err := hex.DecodeString(d)
			if err != nil || len(digest) != 32 {
				return nil, fmt.Errorf("%s digest is not 32 bytes of hex", r.Stage)
			}
			m.AddDigest(swid.Sha256, digest)
		}
		if r.SVN != nil {
			m.SetSVN(uint64(*r.SVN))
		}
		ms := comid.NewMeasurements().Add(m)
		c.AddReferenceValue(comid.ValueTriple{
			Environment:  comid.Environment{Class: otattestClass(r.Stage)},
			Measurements: *ms,
		})
	}
	return wrapCorim(id, c)
}

func wrapCorim(id string, c *comid.Comid) ([]byte, error) {
	if err := c.Valid(); err != nil {
		return nil, fmt.Errorf("CoMID: %w", err)
	}
	uc := corim.NewUnsignedCorim().SetID(id).SetProfile(CorimProfile)
	if uc == nil || uc.AddComid(*c) == nil {
		return nil, errors.New("cannot build the CoRIM")
	}
	if err := uc.Valid(); err != nil {
		return nil, fmt.Errorf("CoRIM: %w", err)
	}
	return uc.ToCBOR()
}
