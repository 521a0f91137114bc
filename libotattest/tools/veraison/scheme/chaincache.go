// SPDX-License-Identifier: MIT

package scheme

// Chains that verified, remembered. A device sends the same x5chain with
// every evidence until its firmware changes, and reading and validating
// it (three ECDSA verifications, two certificate decodings) is most of an
// evidence's cost - as libotattest's chain cache (verifier.md, "Cost:
// chains are remembered") remembers it. Only chains that verified are
// kept, under the SHA-256 of the anchors and of the chain's bytes, so
// nothing a sender makes up gets in and a remembered chain gives the
// verdict a fresh check would; an entry is used only inside the validity
// of every certificate of the chain; the table is bounded.

import (
	"crypto/sha256"
	"sync"
	"time"
)

const chainCacheMax = 4096

type cachedChain struct {
	facts               *chainFacts
	notBefore, notAfter time.Time
}

var chainCache = struct {
	sync.Mutex
	m map[[32]byte]*cachedChain
}{m: map[[32]byte]*cachedChain{}}

func chainKey(t *Trust, certs [][]byte) [32]byte {
	h := sha256.New()
	h.Write(t.id[:])
	for _, c := range certs {
		var n [4]byte
		n[0], n[1], n[2], n[3] = byte(len(c)>>24), byte(len(c)>>16), byte(len(c)>>8), byte(len(c))
		h.Write(n[:])
		h.Write(c)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// chainOf reads the certificates and validates the chain (check 3), or
// takes both from a chain this trust store verified before.
func chainOf(t *Trust, certs [][]byte) (*chainFacts, error) {
	key := chainKey(t, certs)
	now := time.Now()
	chainCache.Lock()
	e := chainCache.m[key]
	chainCache.Unlock()
	if e != nil && now.After(e.notBefore) && now.Before(e.notAfter) {
		return e.facts, nil
	}
	f := readFacts(certs)
	chain, err := verifyChain(t, f, certs)
	if err != nil {
		return f, err
	}
	// What a CRL is checked against (crl.go): the CA path validation
	// ended at, and the certificate it issued - the identity certificate,
	// as libotattest's not_revoked picks it.
	f.root = chain[len(chain)-1]
	f.revocable = chain[0]
	if len(chain) >= 3 {
		f.revocable = chain[1]
	}
	// The validity of every certificate path validation used, the CA's too.
	e = &cachedChain{facts: f}
	for i, c := range chain {
		if i == 0 || c.NotBefore.After(e.notBefore) {
			e.notBefore = c.NotBefore
		}
		if i == 0 || c.NotAfter.Before(e.notAfter) {
			e.notAfter = c.NotAfter
		}
	}
	chainCache.Lock()
	if len(chainCache.m) >= chainCacheMax {
		chainCache.m = map[[32]byte]*cachedChain{}
	}
	chainCache.m[key] = e
	chainCache.Unlock()
	return f, nil
}
