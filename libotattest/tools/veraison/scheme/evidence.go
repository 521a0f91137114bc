// SPDX-License-Identifier: MIT

package scheme

// The COSE_Sign1 around the claims (docs/evidence.md, "Layout"): tag 18,
// the protected header exactly {1: -7}, the unprotected header exactly
// {33: x5chain}, a 64-byte ES256 signature. go-cose checks the signature;
// the strict shape is checked here first, as libotattest's
// ota_cose_sign1_decode does, so both refuse the same evidence.

import (
	"bytes"
	"crypto/ecdsa"
	"errors"

	"github.com/fxamacker/cbor/v2"
	cose "github.com/veraison/go-cose"
)

var protectedES256 = []byte{0xa1, 0x01, 0x26}

// protectedLimits bounds a protected header judged for its algorithm.
var protectedLimits = cborLimits{4, 64, 8, []uint64{18}}

// coseMaxCerts is OTA_COSE_MAX_CERTS: an x5chain of at most four.
const coseMaxCerts = 4

// EvidenceMaxBytes bounds what is decoded at all (OTA_EVIDENCE_MAX_BYTES
// is smaller; the CBOR check refuses what lies between).
const EvidenceMaxBytes = 8192

// Sign1 is the decoded COSE_Sign1.
type Sign1 struct {
	Certs     [][]byte // x5chain: alias, then identity
	Handovers [][]byte // identity hand-overs (COSEHdrHandovers), oldest first; nil: none
	Payload   []byte
	msg       *cose.Sign1Message
}

func coseFail(status, msg string) error { return &decodeError{status, errors.New(msg)} }

// DecodeSign1 checks the shape of the evidence.
func DecodeSign1(evidence []byte) (*Sign1, error) {
	if len(evidence) > EvidenceMaxBytes {
		return nil, coseFail("CBOR_OVERSIZE", "evidence is larger than any otattest evidence")
	}
	v, err := strictDecode(coseDecMode, &evidenceLimits, evidence)
	if err != nil {
		return nil, err
	}
	tag, ok := v.(cbor.Tag)
	if !ok || tag.Number != 18 {
		return nil, coseFail("COSE_BAD_HEADER", "not a tagged COSE_Sign1")
	}
	arr, ok := tag.Content.([]any)
	if !ok || len(arr) != 4 {
		return nil, coseFail("COSE_BAD_HEADER", "COSE_Sign1 is not four elements")
	}
	prot, ok := arr[0].([]byte)
	if !ok {
		return nil, coseFail("COSE_BAD_HEADER", "protected header is not a byte string")
	}
	if !bytes.Equal(prot, protectedES256) {
		if h, err := strictDecode(coseDecMode, &protectedLimits, prot); err == nil {
			if m, ok := intMap(h); ok && len(m) == 1 {
				if _, ok := m[1]; ok {
					return nil, coseFail("COSE_BAD_ALG", "algorithm is not ES256")
				}
			}
		}
		return nil, coseFail("COSE_BAD_HEADER", "protected header is not {1: -7}")
	}
	unprot, ok := intMap(arr[1])
	if !ok || len(unprot) < 1 || len(unprot) > 2 {
		return nil, coseFail("COSE_BAD_HEADER", "unprotected header is not {33: x5chain}")
	}
	s := &Sign1{}
	if len(unprot) == 2 {
		hs, ok := unprot[COSEHdrHandovers].([]any)
		if !ok || len(hs) < 1 || len(hs) > HandoverMax {
			return nil, coseFail("COSE_BAD_HEADER", "unprotected header is not {33: x5chain, -65537: hand-overs}")
		}
		for _, h := range hs {
			b, ok := h.([]byte)
			if !ok || len(b) != HandoverBytes {
				return nil, coseFail("COSE_BAD_HEADER", "an identity hand-over is not a byte string of its size")
			}
			s.Handovers = append(s.Handovers, b)
		}
	}
	switch x := unprot[33].(type) {
	case []byte:
		s.Certs = [][]byte{x}
	case []any:
		if len(x) < 2 || len(x) > coseMaxCerts {
			return nil, coseFail("COSE_BAD_HEADER", "x5chain array of fewer than two or more than four certificates")
		}
		for _, c := range x {
			b, ok := c.([]byte)
			if !ok {
				return nil, coseFail("COSE_BAD_HEADER", "x5chain entry is not a byte string")
			}
			s.Certs = append(s.Certs, b)
		}
	default:
		return nil, coseFail("COSE_BAD_HEADER", "unprotected header is not {33: x5chain}")
	}
	if s.Payload, ok = arr[2].([]byte); !ok {
		return nil, coseFail("COSE_BAD_HEADER", "payload is not a byte string")
	}
	if sig, ok := arr[3].([]byte); !ok || len(sig) != 64 {
		return nil, coseFail("COSE_SIG_INVALID", "signature is not 64 bytes")
	}
	s.msg = cose.NewSign1Message()
	if err := s.msg.UnmarshalCBOR(evidence); err != nil {
		return nil, coseFail("COSE_BAD_HEADER", err.Error())
	}
	return s, nil
}

// Verify checks the ES256 signature with the alias certificate's key.
func (s *Sign1) Verify(pub *ecdsa.PublicKey) error {
	verifier, err := cose.NewVerifier(cose.AlgorithmES256, pub)
	if err != nil {
		return err
	}
	return s.msg.Verify(nil, verifier)
}
