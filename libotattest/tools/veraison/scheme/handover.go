// SPDX-License-Identifier: MIT

package scheme

// The identity hand-overs evidence carries after a creator key change
// (docs/keychain.md, "Identity hand-over"; handover.h): walked from the
// identity the CA certified to the key that issued the alias certificate,
// as ota_handover_chain_check does, each fault under the same status.

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/big"
)

// handoverFail is a refused walk: the status name and why.
type handoverFail struct {
	status string
	msg    string
}

func (e *handoverFail) Error() string { return e.msg }

func p256Key(raw []byte) *ecdsa.PublicKey {
	x, y := new(big.Int).SetBytes(raw[:32]), new(big.Int).SetBytes(raw[32:64])
	if !elliptic.P256().IsOnCurve(x, y) {
		return nil
	}
	return &ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}
}

// handoverFields is ota_handover_check_fields.
func handoverFields(h []byte) bool {
	le := binary.LittleEndian
	if len(h) != HandoverBytes || le.Uint32(h) != HandoverMagic ||
		le.Uint16(h[handoverOffVersion:]) != HandoverVersion ||
		le.Uint16(h[handoverOffSize:]) != HandoverBytes {
		return false
	}
	for _, b := range h[handoverOffReserved:handoverOffSignature] {
		if b != 0 {
			return false
		}
	}
	from, to := le.Uint32(h[handoverOffFrom:]), le.Uint32(h[handoverOffTo:])
	return from < HandoverMax && to == from+1
}

// walkHandovers is ota_handover_chain_check: certified and issuer are raw
// P-256 points x || y. It returns the identity version reached.
func walkHandovers(certified, issuer, device []byte, hs [][]byte) (uint32, error) {
	le := binary.LittleEndian
	reached := certified
	var at uint32
	if len(hs) > HandoverMax {
		return 0, &handoverFail{"VERIFY_HANDOVER_MALFORMED", fmt.Sprintf("%d identity hand-overs, at most %d", len(hs), HandoverMax)}
	}
	for i, h := range hs {
		if !handoverFields(h) {
			return 0, &handoverFail{"VERIFY_HANDOVER_MALFORMED", fmt.Sprintf("identity hand-over %d is malformed", i+1)}
		}
		if !bytes.Equal(h[handoverOffDevice:handoverOffFromKey], device) {
			return 0, &handoverFail{"VERIFY_IDENTITY_MISMATCH", fmt.Sprintf("identity hand-over %d is another device's", i+1)}
		}
		from, to := le.Uint32(h[handoverOffFrom:]), le.Uint32(h[handoverOffTo:])
		if i > 0 && from != at {
			return 0, &handoverFail{"VERIFY_HANDOVER_OUT_OF_ORDER", fmt.Sprintf("identity hand-over %d goes from version %d, the one before ended at %d", i+1, from, at)}
		}
		fromKey := h[handoverOffFromKey:handoverOffToKey]
		if !bytes.Equal(fromKey, reached) {
			return 0, &handoverFail{"VERIFY_HANDOVER_GAP", fmt.Sprintf("identity hand-over %d is not from the key reached so far", i+1)}
		}
		digest := sha256.Sum256(h[:HandoverSignedBytes])
		sig := h[handoverOffSignature:]
		pub := p256Key(fromKey)
		if pub == nil || !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:64])) {
			return 0, &handoverFail{"VERIFY_HANDOVER_FORGED", fmt.Sprintf("identity hand-over %d (version %d to %d) is not signed by the key it hands over from", i+1, from, to)}
		}
		reached = h[handoverOffToKey:handoverOffReserved]
		at = to
	}
	if !bytes.Equal(reached, issuer) {
		return 0, &handoverFail{"VERIFY_HANDOVER_GAP", "the identity hand-overs do not lead to the key that issued the alias certificate"}
	}
	return at, nil
}
