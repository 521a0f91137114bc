// SPDX-License-Identifier: MIT

package scheme

import (
	"reflect"
	"testing"
)

// A remembered chain changes no verdict: the genuine evidence passes
// again from the cache, and for every byte of it flipped the verdict with
// its chain remembered equals the one a store that never saw it gives.
func TestChainCacheChangesNoVerdict(t *testing.T) {
	trust, ev, nonce := testTrust(t)
	chainCache.Lock()
	chainCache.m = map[[32]byte]*cachedChain{}
	chainCache.Unlock()
	if v := Verify(ev, trust, nonce); len(v.Failures) != 0 {
		t.Fatalf("%+v", v.Failures)
	}
	if len(chainCache.m) != 1 {
		t.Fatalf("the verified chain is not remembered: %d entries", len(chainCache.m))
	}
	if v := Verify(ev, trust, nonce); len(v.Failures) != 0 || !v.Authentic {
		t.Fatalf("from the cache: %+v", v.Failures)
	}
	for i := range ev {
		bad := append([]byte(nil), ev...)
		bad[i] ^= 0x01
		cached := Verify(bad, trust, nonce)
		chainCache.Lock()
		saved := chainCache.m
		chainCache.m = map[[32]byte]*cachedChain{}
		chainCache.Unlock()
		fresh := Verify(bad, trust, nonce)
		chainCache.Lock()
		chainCache.m = saved
		chainCache.Unlock()
		if !reflect.DeepEqual(cached.Failures, fresh.Failures) || cached.Authentic != fresh.Authentic {
			t.Fatalf("byte %d: cached %+v, fresh %+v", i, cached.Failures, fresh.Failures)
		}
		if len(cached.Failures) == 0 {
			t.Fatalf("byte %d flipped passes", i)
		}
	}
}
