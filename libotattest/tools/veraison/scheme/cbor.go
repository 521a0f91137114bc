// SPDX-License-Identifier: MIT

package scheme

// Strict CBOR, as libotattest's decoder reads it (docs/verifier.md, check
// 1): definite lengths, no duplicate keys, valid UTF-8, bounded depth, no
// trailing bytes, and the deterministic encoding the device writes
// (RFC 8949 section 4.2.1) - checked by encoding what was decoded again
// with fxamacker/cbor's core deterministic options and comparing bytes,
// so an item that decodes but is not in its shortest, sorted form is
// refused as the C decoder refuses it.

import (
	"bytes"
	"errors"
	"io"

	"github.com/fxamacker/cbor/v2"
)

// decodeError carries the status libotattest names for a decoding failure.
type decodeError struct {
	status string
	err    error
}

func (e *decodeError) Error() string { return e.status + ": " + e.err.Error() }

func strictDecMode(depth int) cbor.DecMode {
	m, err := cbor.DecOptions{
		DupMapKey:        cbor.DupMapKeyEnforcedAPF,
		IndefLength:      cbor.IndefLengthForbidden,
		MaxNestedLevels:  max(depth, 4),
		UTF8:             cbor.UTF8RejectInvalid,
		DefaultMapType:   nil,
		IntDec:           cbor.IntDecConvertNone,
		MaxArrayElements: 1024,
		MaxMapPairs:      1024,
	}.DecMode()
	if err != nil {
		panic(err)
	}
	return m
}

var (
	coseDecMode   = strictDecMode(6)
	claimsDecMode = strictDecMode(5)
	detEncMode    = func() cbor.EncMode {
		m, err := cbor.CoreDetEncOptions().EncMode()
		if err != nil {
			panic(err)
		}
		return m
	}()
)

// strictDecode decodes one item from data, which must hold nothing else
// and be well formed within lim (wellformed.go: the status of the first
// fault); fxamacker/cbor then decodes it and, encoding it again with the
// deterministic options, holds map keys to their sorted order too.
func strictDecode(dm cbor.DecMode, lim *cborLimits, data []byte) (any, error) {
	if st := wellFormed(data, lim); st != "" {
		return nil, &decodeError{st, errors.New("not well-formed CBOR within the format's bounds")}
	}
	var v any
	rest, err := dm.UnmarshalFirst(data, &v)
	if err != nil {
		var dup *cbor.DupMapKeyError
		var depth *cbor.MaxNestedLevelError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return nil, &decodeError{"CBOR_TRUNCATED", err}
		case errors.As(err, &dup):
			return nil, &decodeError{"CBOR_DUPLICATE_KEY", err}
		case errors.As(err, &depth):
			return nil, &decodeError{"CBOR_DEPTH", err}
		}
		return nil, &decodeError{"CBOR_UNSUPPORTED", err}
	}
	if len(rest) != 0 {
		return nil, &decodeError{"CBOR_TRAILING", errors.New("bytes after the item")}
	}
	if err := onlyPlainTypes(v, 0); err != nil {
		return nil, &decodeError{"CBOR_UNSUPPORTED", err}
	}
	again, err := detEncMode.Marshal(v)
	if err != nil || !bytes.Equal(again, data) {
		return nil, &decodeError{"CBOR_NONCANONICAL", errors.New("not in deterministic encoding")}
	}
	return v, nil
}

// onlyPlainTypes refuses what the format never uses: floats, simple values
// other than booleans and null, tags other than 18 at the top, and map keys
// other than integers and text.
func onlyPlainTypes(v any, depth int) error {
	switch t := v.(type) {
	case uint64, int64, []byte, string, bool, nil:
		return nil
	case []any:
		for _, e := range t {
			if err := onlyPlainTypes(e, depth+1); err != nil {
				return err
			}
		}
		return nil
	case map[any]any:
		for k, e := range t {
			switch k.(type) {
			case uint64, int64, string:
			default:
				return errors.New("a map key that is not an integer or text")
			}
			if err := onlyPlainTypes(e, depth+1); err != nil {
				return err
			}
		}
		return nil
	case cbor.Tag:
		if depth != 0 || t.Number != 18 {
			return errors.New("a tag other than COSE_Sign1's")
		}
		return onlyPlainTypes(t.Content, depth+1)
	}
	return errors.New("a CBOR type the format does not use")
}

// asInt returns the integer a CBOR map key or value holds, if it is one.
func asInt(v any) (int64, bool) {
	switch t := v.(type) {
	case uint64:
		if t > 1<<62 {
			return 0, false
		}
		return int64(t), true
	case int64:
		return t, true
	}
	return 0, false
}

func asUint32(v any) (uint32, bool) {
	t, ok := v.(uint64)
	if !ok || t > 0xffffffff {
		return 0, false
	}
	return uint32(t), true
}

// intMap turns a CBOR map with integer keys into map[int64]any.
func intMap(v any) (map[int64]any, bool) {
	m, ok := v.(map[any]any)
	if !ok {
		return nil, false
	}
	out := make(map[int64]any, len(m))
	for k, e := range m {
		ik, ok := asInt(k)
		if !ok {
			return nil, false
		}
		out[ik] = e
	}
	return out, true
}
