// SPDX-License-Identifier: MIT

// corimcheck: otimage's signed CoRIM read by Veraison's corim library,
// code nobody in otattest wrote. It checks the COSE signature (go-cose,
// through corim.SignedCorim.Verify) with the release key's PEM public
// key, validates each CoMID as the library does, and prints one line per
// reference value for tests/interop/corim.sh to compare with what the
// images are:
//
//	stage=bl0 vendor=otattest layer=2 class=<uuid> svn=5 sha256=<hex> keys=<hex>,<hex>
//
// The signer key ids (measurement-values-map key 13, cryptokeys) are read
// with fxamacker/cbor, the library's own decoder: corim v1.1.2 has no
// field for them and steps over the key.
package main

import (
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"strings"

	cbor "github.com/fxamacker/cbor/v2"
	"github.com/veraison/corim/comid"
	"github.com/veraison/corim/corim"
)

// The reference triples as plain CBOR, for the keys the library skips.
type rawComid struct {
	Triples struct {
		Ref []struct {
			_       struct{} `cbor:",toarray"`
			Env     cbor.RawMessage
			Measure []struct {
				Mval struct {
					Keys []cbor.Tag `cbor:"13,keyasint,omitempty"`
				} `cbor:"1,keyasint"`
			}
		} `cbor:"0,keyasint"`
	} `cbor:"4,keyasint"`
}

func die(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "corimcheck: "+format+"\n", args...)
	os.Exit(1)
}

func keyIDs(tags []cbor.Tag) string {
	var ids []string
	for _, t := range tags {
		d, ok := t.Content.([]any)
		if t.Number != 557 || !ok || len(d) != 2 {
			die("cryptokeys: not a thumbprint (tag 557): %v", t)
		}
		b, ok := d[1].([]byte)
		if !ok {
			die("cryptokeys: thumbprint value is not bytes")
		}
		ids = append(ids, hex.EncodeToString(b))
	}
	return strings.Join(ids, ",")
}

func main() {
	if len(os.Args) != 3 {
		die("usage: corimcheck SIGNED_CORIM PUBKEY.pem")
	}
	buf, err := os.ReadFile(os.Args[1])
	if err != nil {
		die("%v", err)
	}
	pemBytes, err := os.ReadFile(os.Args[2])
	if err != nil {
		die("%v", err)
	}
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		die("%s: no PEM block", os.Args[2])
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		die("%s: %v", os.Args[2], err)
	}

	var s corim.SignedCorim
	if err := s.FromCOSE(buf); err != nil {
		die("decoding the signed CoRIM: %v", err)
	}
	if err := s.Verify(pub); err != nil {
		die("signature: %v", err)
	}
	fmt.Printf("corim-id=%s signer=%s tags=%d\n", s.UnsignedCorim.ID.String(), s.Meta.Signer.Name,
		len(s.UnsignedCorim.Tags))
	for i, tag := range s.UnsignedCorim.Tags {
		if len(tag) < 4 || tag[0] != 0xd9 || tag[1] != 0x01 || tag[2] != 0xfa {
			die("tags[%d]: not a tagged CoMID (506)", i)
		}
		var c comid.Comid
		if err := c.FromCBOR(tag[3:]); err != nil {
			die("tags[%d]: %v", i, err)
		}
		if err := c.Valid(); err != nil {
			die("tags[%d]: invalid CoMID: %v", i, err)
		}
		var raw rawComid
		if err := cbor.Unmarshal(tag[3:], &raw); err != nil {
			die("tags[%d]: %v", i, err)
		}
		if c.Triples.ReferenceValues == nil {
			die("tags[%d]: no reference values", i)
		}
		for j, rv := range *c.Triples.ReferenceValues {
			cl := rv.Environment.Class
			if cl == nil || cl.Vendor == nil || cl.Model == nil || cl.Layer == nil || cl.ClassID == nil {
				die("tags[%d]: reference %d: class without id, vendor, model or layer", i, j)
			}
			for k, m := range rv.Measurements {
				if m.Val.SVN == nil || m.Val.Digests == nil {
					die("tags[%d]: measurement %d: no SVN or digests", i, k)
				}
				svn, ok := m.Val.SVN.Value.(*comid.TaggedSVN)
				if !ok {
					die("tags[%d]: measurement %d: SVN is not an exact value (%T)", i, k, m.Val.SVN.Value)
				}
				var digests []string
				for _, d := range *m.Val.Digests {
					if d.HashAlgID != 1 {
						die("tags[%d]: digest algorithm %d, not sha-256", i, d.HashAlgID)
					}
					digests = append(digests, hex.EncodeToString(d.HashValue))
				}
				fmt.Printf("stage=%s vendor=%s layer=%d class=%s svn=%d sha256=%s keys=%s\n",
					*cl.Model, *cl.Vendor, *cl.Layer, cl.ClassID.String(), uint64(*svn),
					strings.Join(digests, ","), keyIDs(raw.Triples.Ref[j].Measure[k].Mval.Keys))
			}
		}
	}
}
