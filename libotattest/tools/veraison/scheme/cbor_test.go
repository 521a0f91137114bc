// SPDX-License-Identifier: MIT

package scheme

import (
	"errors"
	"testing"
)

func TestStrictDecode(t *testing.T) {
	for _, tc := range []struct {
		name, status string
		in           []byte
	}{
		{"shortest", "", []byte{0xa1, 0x01, 0x02}},
		{"a longer head than needed", "CBOR_NONCANONICAL", []byte{0x18, 0x01}},
		{"keys out of order", "CBOR_NONCANONICAL", []byte{0xa2, 0x02, 0x00, 0x01, 0x00}},
		{"duplicate keys", "CBOR_DUPLICATE_KEY", []byte{0xa2, 0x01, 0x00, 0x01, 0x00}},
		{"indefinite length", "CBOR_INDEFINITE", []byte{0x9f, 0x01, 0xff}},
		{"a string longer than the format's", "CBOR_OVERSIZE", append([]byte{0x59, 0x01, 0x01}, make([]byte, 257)...)},
		{"a reserved head", "CBOR_UNSUPPORTED", []byte{0x1c}},
		{"a map with an array key", "CBOR_UNSUPPORTED", []byte{0xa1, 0x80, 0x01}},
		{"too deep", "CBOR_DEPTH", []byte{0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x01}},
		{"truncated", "CBOR_TRUNCATED", []byte{0x82, 0x01}},
		{"trailing", "CBOR_TRAILING", []byte{0x01, 0x01}},
		{"a float", "CBOR_UNSUPPORTED", []byte{0xf9, 0x3c, 0x00}},
		{"a tag inside", "CBOR_UNSUPPORTED", []byte{0x81, 0xd2, 0x01}},
		{"invalid UTF-8", "CBOR_BAD_UTF8", []byte{0x61, 0xff}},
	} {
		_, err := strictDecode(claimsDecMode, &claimsLimits, tc.in)
		var de *decodeError
		switch {
		case tc.status == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.status != "" && (!errors.As(err, &de) || de.status != tc.status):
			t.Errorf("%s: want %s, got %v", tc.name, tc.status, err)
		}
	}
}
