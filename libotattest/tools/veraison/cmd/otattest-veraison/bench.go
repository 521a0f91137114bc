// SPDX-License-Identifier: MIT

package main

// Throughput of a running Veraison with the otattest scheme: N appraisals
// of one evidence, each a session opened with the evidence's nonce and the
// evidence posted to it (the two requests a fleet agent makes), from C
// clients at once. Every EAR must carry the expected status in each
// submodule, so a fast wrong answer does not count. tests/bench/veraison.sh
// runs it beside otattest-verify on the same evidence.

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// earStatuses reads the submodules' ear.status of an EAR without
// verifying it (the benchmark measures; the tests verify).
func earStatuses(token string) (map[string]string, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, errors.New("not a JWT")
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, err
	}
	var c struct {
		Submods map[string]struct {
			Status string `json:"ear.status"`
		} `json:"submods"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for n, s := range c.Submods {
		out[n] = s.Status
	}
	return out, nil
}

func cmdBench(args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	base := fs.String("url", "", "the verification service")
	tlsCA := tlsFlag(fs)
	nonceHex := fs.String("nonce", "", "the evidence's nonce (hex)")
	n := fs.Int("n", 200, "appraisals")
	clients := fs.Int("clients", 4, "clients at once")
	want := fs.String("want", "affirming", "the ear.status every submodule must have")
	if err := fs.Parse(args); err != nil || *base == "" || *nonceHex == "" || fs.NArg() != 1 ||
		*n < 1 || *clients < 1 {
		return usageError("bench --url [--tls-ca PEM] URL --nonce HEX [--n N] [--clients C] [--want STATUS] EVIDENCE")
	}
	if err := useTLSCA(*tlsCA); err != nil {
		return err
	}
	nonce, err := hex.DecodeString(*nonceHex)
	if err != nil {
		return usageError("--nonce is not hex")
	}
	evidence, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	var next, bad atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < *clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(*n) {
				at, _, err := newSession(*base, 0, nonce)
				if err == nil {
					var ear string
					if ear, err = submit(at, evidence); err == nil {
						var st map[string]string
						if st, err = earStatuses(ear); err == nil {
							for name, s := range st {
								if s != *want {
									err = fmt.Errorf("submodule %s is %s, not %s", name, s, *want)
								}
							}
						}
					}
				}
				if err != nil {
					bad.Add(1)
					once.Do(func() { firstErr = err })
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	fmt.Printf("veraison: %d appraisals, %d clients, %.3f s: %.1f evidences/s\n", *n, *clients,
		el.Seconds(), float64(*n)/el.Seconds())
	if bad.Load() > 0 {
		return fmt.Errorf("%d appraisals failed, the first: %v", bad.Load(), firstErr)
	}
	return nil
}
