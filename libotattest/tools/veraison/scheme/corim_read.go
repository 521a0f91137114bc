// SPDX-License-Identifier: MIT

package scheme

// otimage's signed CoRIM (docs/corim.md): its ES256 signature checked with
// the release key the operator names (go-cose), its payload read with
// Veraison's corim library - and the signer key ids (cryptokeys, mval
// key 13), which that library version drops, read from the same bytes.

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/fxamacker/cbor/v2"
	"github.com/veraison/corim/comid"
	"github.com/veraison/corim/corim"
	cose "github.com/veraison/go-cose"
)

// CorimMaxBytes bounds a CoRIM file (OTA_CORIM_MAX_BYTES).
const CorimMaxBytes = 16384

const thumbprintTag = 557

// VerifySignedCorim checks a signed CoRIM's signature and returns its
// payload, the unsigned CoRIM.
func VerifySignedCorim(b []byte, pub *ecdsa.PublicKey) ([]byte, error) {
	if len(b) > CorimMaxBytes {
		return nil, errors.New("the CoRIM is larger than 16 KiB")
	}
	msg := cose.NewSign1Message()
	if err := msg.UnmarshalCBOR(b); err != nil {
		return nil, fmt.Errorf("not a signed CoRIM: %w", err)
	}
	if alg, err := msg.Headers.Protected.Algorithm(); err != nil || alg != cose.AlgorithmES256 {
		return nil, errors.New("the CoRIM is not signed with ES256")
	}
	verifier, err := cose.NewVerifier(cose.AlgorithmES256, pub)
	if err != nil {
		return nil, err
	}
	if err := msg.Verify(nil, verifier); err != nil {
		return nil, fmt.Errorf("the CoRIM's signature does not verify with the release key: %w", err)
	}
	return msg.Payload, nil
}

// rawKeyIDs reads each reference triple's measurements' cryptokeys: the
// thumbprints [1, key id] in order, as hex.
func rawKeyIDs(comidBytes []byte) ([][][]string, error) {
	var v any
	if err := cbor.Unmarshal(comidBytes, &v); err != nil {
		return nil, err
	}
	m, ok := intMap(v)
	if !ok {
		return nil, errors.New("a CoMID is not a map")
	}
	triples, ok := intMap(m[4])
	if !ok {
		return nil, errors.New("a CoMID has no triples")
	}
	refs, _ := triples[0].([]any)
	out := make([][][]string, len(refs))
	for i, t := range refs {
		pair, ok := t.([]any)
		if !ok || len(pair) != 2 {
			return nil, errors.New("a reference triple is not [environment, measurements]")
		}
		ms, _ := pair[1].([]any)
		out[i] = make([][]string, len(ms))
		for j, meas := range ms {
			mm, ok := intMap(meas)
			if !ok {
				return nil, errors.New("a measurement is not a map")
			}
			mval, ok := intMap(mm[1])
			if !ok {
				return nil, errors.New("a measurement has no values")
			}
			keys, present := mval[13]
			if !present {
				continue
			}
			list, ok := keys.([]any)
			if !ok || len(list) == 0 || len(list) > MaxDelegationDepth+1 {
				return nil, errors.New("cryptokeys is not 1..3 keys")
			}
			for _, k := range list {
				tag, ok := k.(cbor.Tag)
				pair, ok2 := tag.Content.([]any)
				if !ok || !ok2 || tag.Number != thumbprintTag || len(pair) != 2 {
					return nil, errors.New("a cryptokey is not a key thumbprint")
				}
				alg, ok1 := asUint32(pair[0])
				id, ok2 := pair[1].([]byte)
				if !ok1 || !ok2 || alg != sha256AlgID || len(id) != KeyIDBytes {
					return nil, errors.New("a key thumbprint is not a SHA-256 key id")
				}
				out[i][j] = append(out[i][j], hex.EncodeToString(id))
			}
		}
	}
	return out, nil
}

// CorimContents is what an unsigned CoRIM of this scheme provisions.
type CorimContents struct {
	RefValues []RefValue
	CAs       []*comid.KeyTriple
}

// unsignedCorimTag is tagged-unsigned-corim-map; comidTagNumber is
// tagged-concise-mid-tag (OTA_CORIM_TAG_UNSIGNED, OTA_CORIM_TAG_COMID).
const (
	unsignedCorimTag = 501
	comidTagNumber   = 506
	corimKeyTags     = 1
)

// asLibraryReadsTags gives an unsigned CoRIM's tags the form Veraison's
// corim library (v1.1, the version pinned) reads, a byte string holding
// 506(CoMID). The draft's CDDL has tag 506 around a byte string holding
// the CoMID, which otimage writes by default and the library refuses
// (docs/corim.md, "Where Veraison and the draft differ"); entries already
// in the library's form are kept. Only the tags array changes.
func asLibraryReadsTags(payload []byte) ([]byte, error) {
	body, tagged := payload, false
	var top cbor.RawTag
	if err := cbor.Unmarshal(payload, &top); err == nil {
		if top.Number != unsignedCorimTag {
			return nil, fmt.Errorf("the payload's tag is %d, not unsigned-corim-map (501)", top.Number)
		}
		body, tagged = top.Content, true
	}
	var m map[int]cbor.RawMessage
	if err := cbor.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("not an unsigned CoRIM: %w", err)
	}
	var entries []cbor.RawMessage
	if err := cbor.Unmarshal(m[corimKeyTags], &entries); err != nil {
		return nil, fmt.Errorf("the CoRIM's tags are not an array: %w", err)
	}
	changed := false
	for i, e := range entries {
		var t cbor.RawTag
		if cbor.Unmarshal(e, &t) != nil {
			continue // a byte string: the library's own form
		}
		var inner []byte
		if t.Number != comidTagNumber || cbor.Unmarshal(t.Content, &inner) != nil {
			return nil, fmt.Errorf("tag %d is not a CoMID as 506(<< CoMID >>)", i)
		}
		b, err := cbor.Marshal(append(append([]byte{}, corim.ComidTag...), inner...))
		if err != nil {
			return nil, err
		}
		entries[i], changed = b, true
	}
	if !changed {
		return payload, nil
	}
	var err error
	if m[corimKeyTags], err = cbor.Marshal(entries); err != nil {
		return nil, err
	}
	out, err := cbor.Marshal(m)
	if err != nil || !tagged {
		return out, err
	}
	return cbor.Marshal(cbor.RawTag{Number: unsignedCorimTag, Content: out})
}

// ReadCorim reads an unsigned CoRIM: otimage's (tag 501, no profile) or
// one with this scheme's profile; any other profile is refused. Its CoMIDs
// may be in the draft's form or in Veraison's (asLibraryReadsTags).
func ReadCorim(payload []byte) (*CorimContents, error) {
	if len(payload) > CorimMaxBytes {
		return nil, errors.New("the CoRIM is larger than 16 KiB")
	}
	payload, err := asLibraryReadsTags(payload)
	if err != nil {
		return nil, err
	}
	var uc corim.UnsignedCorim
	if err := uc.FromCBOR(payload); err != nil {
		return nil, fmt.Errorf("not an unsigned CoRIM: %w", err)
	}
	if uc.Profile != nil {
		p, err := uc.Profile.Get()
		if err != nil || p != CorimProfile {
			return nil, fmt.Errorf("CoRIM profile is not %s", CorimProfile)
		}
	}
	out := &CorimContents{}
	for i, tag := range uc.Tags {
		if len(tag) < 4 || !bytes.Equal(tag[:3], corim.ComidTag) {
			return nil, fmt.Errorf("tag %d is not a CoMID", i)
		}
		var c comid.Comid
		if err := c.FromCBOR(tag[3:]); err != nil {
			return nil, fmt.Errorf("CoMID %d: %w", i, err)
		}
		if c.Triples.ReferenceValues != nil {
			keyIDs, err := rawKeyIDs(tag[3:])
			if err != nil {
				return nil, fmt.Errorf("CoMID %d: %w", i, err)
			}
			for j := range c.Triples.ReferenceValues.Values {
				var ids [][]string
				if j < len(keyIDs) {
					ids = keyIDs[j]
				}
				refs, err := RefValuesFromTriple(&c.Triples.ReferenceValues.Values[j], ids)
				if err != nil {
					return nil, fmt.Errorf("CoMID %d: %w", i, err)
				}
				out.RefValues = append(out.RefValues, refs...)
			}
		}
		if c.Triples.AttestVerifKeys != nil {
			for j := range *c.Triples.AttestVerifKeys {
				kt := (*c.Triples.AttestVerifKeys)[j]
				if _, err := CAFromTriple(&kt); err != nil {
					return nil, fmt.Errorf("CoMID %d: %w", i, err)
				}
				out.CAs = append(out.CAs, &kt)
			}
		}
	}
	if len(out.RefValues) == 0 && len(out.CAs) == 0 {
		return nil, errors.New("the CoRIM holds no reference values and no trust anchor")
	}
	return out, nil
}
