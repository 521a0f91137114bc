// SPDX-License-Identifier: MIT

package scheme

// Well-formed CBOR as otattest's verifiers take it (docs/verifier.md,
// check 1): every head in its shortest form, definite lengths, strings,
// containers and nesting within the format's bounds, text valid UTF-8,
// map keys integers or text and none twice, only the tags the format
// uses, no simple values but false, true and null, nothing after the
// item. Each fault has its own status, named in the order a reader meets
// them, so a malformed evidence is refused here for the reason
// libotattest gives it.

import (
	"bytes"
	"unicode/utf8"
)

// cborLimits bounds one format's CBOR (struct ota_cbor_limits).
type cborLimits struct {
	maxDepth  int
	maxString uint64
	maxCount  uint64
	tags      []uint64 // tags allowed anywhere
}

// cborMaxMapPairs is OTA_CBOR_MAX_MAP_PAIRS.
const cborMaxMapPairs = 64

var (
	// The evidence: the larger of the claims and a certificate; COSE_Sign1's tag.
	evidenceLimits = cborLimits{6, 1536, 8, []uint64{18}}
	claimsLimits   = cborLimits{6, 256, 32, []uint64{18}}
	// A measured component (bstr .cbor): id, digest, up to three key ids.
	componentLimits = cborLimits{4, 64, MaxDelegationDepth + 1, []uint64{18}}
)

type cborChecker struct {
	buf []byte
	pos int
	lim *cborLimits
}

func (c *cborChecker) head() (major byte, ai byte, arg uint64, status string) {
	if c.pos >= len(c.buf) {
		return 0, 0, 0, "CBOR_TRUNCATED"
	}
	ib := c.buf[c.pos]
	c.pos++
	major, ai = ib>>5, ib&0x1f
	if ai < 24 {
		return major, ai, uint64(ai), ""
	}
	if ai == 31 {
		return 0, 0, 0, "CBOR_INDEFINITE" // also a stray "break"
	}
	if ai > 27 {
		return 0, 0, 0, "CBOR_UNSUPPORTED" // reserved additional information
	}
	n := 1 << (ai - 24)
	if len(c.buf)-c.pos < n {
		return 0, 0, 0, "CBOR_TRUNCATED"
	}
	for i := 0; i < n; i++ {
		arg = arg<<8 | uint64(c.buf[c.pos+i])
	}
	c.pos += n
	if major == 7 {
		return major, ai, arg, "" // floats and 1-byte simple values: judged by the caller
	}
	if (n == 1 && arg < 24) || (n == 2 && arg <= 0xff) || (n == 4 && arg <= 0xffff) ||
		(n == 8 && arg <= 0xffffffff) {
		return 0, 0, 0, "CBOR_NONCANONICAL"
	}
	return major, ai, arg, ""
}

func (c *cborChecker) item(depth int) string {
	if depth > c.lim.maxDepth {
		return "CBOR_DEPTH"
	}
	major, ai, arg, st := c.head()
	if st != "" {
		return st
	}
	left := uint64(len(c.buf) - c.pos)
	switch major {
	case 0, 1:
		return ""
	case 2, 3:
		if arg > c.lim.maxString {
			return "CBOR_OVERSIZE"
		}
		if left < arg {
			return "CBOR_TRUNCATED"
		}
		if major == 3 && !utf8.Valid(c.buf[c.pos:c.pos+int(arg)]) {
			return "CBOR_BAD_UTF8"
		}
		c.pos += int(arg)
		return ""
	case 4:
		if arg > c.lim.maxCount {
			return "CBOR_OVERSIZE"
		}
		if arg > left {
			return "CBOR_TRUNCATED" // every item is at least one byte
		}
		for i := uint64(0); i < arg; i++ {
			if st := c.item(depth + 1); st != "" {
				return st
			}
		}
		return ""
	case 5:
		if arg > c.lim.maxCount || arg > cborMaxMapPairs {
			return "CBOR_OVERSIZE"
		}
		if arg > left/2 {
			return "CBOR_TRUNCATED"
		}
		var keys [][]byte
		for i := uint64(0); i < arg; i++ {
			start := c.pos
			if st := c.item(depth + 1); st != "" {
				return st
			}
			if k := c.buf[start] >> 5; k != 0 && k != 1 && k != 3 {
				return "CBOR_UNSUPPORTED" // keys are integers or text
			}
			key := c.buf[start:c.pos]
			for _, prev := range keys {
				if bytes.Equal(prev, key) {
					return "CBOR_DUPLICATE_KEY"
				}
			}
			keys = append(keys, key)
			if st := c.item(depth + 1); st != "" {
				return st
			}
		}
		return ""
	case 6:
		allowed := false
		for _, t := range c.lim.tags {
			allowed = allowed || t == arg
		}
		if !allowed {
			return "CBOR_UNSUPPORTED"
		}
		return c.item(depth + 1)
	}
	if ai >= 20 && ai <= 22 {
		return "" // false, true, null
	}
	return "CBOR_UNSUPPORTED"
}

// wellFormed returns "" for well-formed CBOR within lim, else the status.
func wellFormed(buf []byte, lim *cborLimits) string {
	if len(buf) == 0 {
		return "CBOR_TRUNCATED"
	}
	c := &cborChecker{buf: buf, lim: lim}
	if st := c.item(1); st != "" {
		return st
	}
	if c.pos != len(buf) {
		return "CBOR_TRAILING"
	}
	return ""
}
