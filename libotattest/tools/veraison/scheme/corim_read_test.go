// SPDX-License-Identifier: MIT

package scheme

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"github.com/veraison/corim/corim"
)

// draftForm rewrites a CoRIM the library wrote (tags as << 506(CoMID) >>)
// into the draft's CDDL form, 506(<< CoMID >>), as otimage writes it.
func draftForm(t *testing.T, payload []byte) []byte {
	t.Helper()
	var top cbor.RawTag
	body := payload
	if cbor.Unmarshal(payload, &top) == nil {
		body = top.Content
	}
	var m map[int]cbor.RawMessage
	if err := cbor.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	var entries [][]byte
	if err := cbor.Unmarshal(m[corimKeyTags], &entries); err != nil {
		t.Fatal(err)
	}
	var out []cbor.RawMessage
	for _, e := range entries {
		if !bytes.HasPrefix(e, corim.ComidTag) {
			t.Fatalf("the library did not write << 506(...) >>: % x", e[:4])
		}
		b, err := cbor.Marshal(cbor.Tag{Number: comidTagNumber, Content: e[len(corim.ComidTag):]})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	var err error
	if m[corimKeyTags], err = cbor.Marshal(out); err != nil {
		t.Fatal(err)
	}
	b, err := cbor.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The draft's form and the library's carry the same reference values;
// the library alone refuses the draft's form; a 506 that holds no byte
// string is refused.
func TestReadCorimTakesTheDraftsAndTheLibrarysForm(t *testing.T) {
	svn := uint32(7)
	lib, err := RefValueCorim("release-7", []RefValue{{Stage: "bl0", Digests: []string{strings.Repeat("ab", 32)},
		SVN: &svn, KeyIDs: nil}})
	if err != nil {
		t.Fatal(err)
	}
	draft := draftForm(t, lib)
	// The library decodes the draft's form but drops tag 506 (its Tag is a
	// byte string), so it cannot tell a CoMID from any other tag.
	var uc corim.UnsignedCorim
	if err := uc.FromCBOR(draft); err == nil {
		for i, tag := range uc.Tags {
			if bytes.HasPrefix(tag, corim.ComidTag) {
				t.Errorf("tag %d: the library now keeps 506: docs/corim.md says it drops it", i)
			}
		}
	}
	a, err := ReadCorim(lib)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadCorim(draft)
	if err != nil {
		t.Fatalf("the draft's form: %v", err)
	}
	if len(a.RefValues) != 1 || !reflect.DeepEqual(a.RefValues, b.RefValues) {
		t.Errorf("library form %+v, draft form %+v", a.RefValues, b.RefValues)
	}
	bad := bytes.Replace(draft, []byte{0xd9, 0x01, 0xfa, 0x58}, []byte{0xd9, 0x01, 0xfa, 0x78}, 1)
	if bytes.Equal(bad, draft) {
		t.Fatal("no 506(bytes) to break")
	}
	if _, err := ReadCorim(bad); err == nil {
		t.Error("a 506 around a text string was read")
	}
}
