// SPDX-License-Identifier: MIT

package main

// Throughput of a running Veraison with the otattest scheme: N appraisals
// of the evidences given, in turn, each a session opened with the nonce and
// the evidence posted to it (the two requests a fleet agent makes), from C
// clients at once, with each appraisal's latency (its two requests): p50
// and p99. Every EAR must carry the expected status in each submodule
// (--want for all, or per evidence the statuses `otattest-veraison
// appraise` printed for it, --expect), so a fast wrong answer does not
// count. tests/bench/veraison.sh and tests/bench/fleet.sh run it beside
// otattest-verify on the same evidence.

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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

// expectedStatuses reads `otattest-veraison appraise`'s JSON lines: for
// each evidence (by base name) the ear.status of each submodule.
func expectedStatuses(path string) (map[string]map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var a struct {
			File    string `json:"file"`
			Submods map[string]struct {
				Status string `json:"ear.status"`
			} `json:"submods"`
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		st := map[string]string{}
		for n, s := range a.Submods {
			st[n] = s.Status
		}
		out[filepath.Base(a.File)] = st
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
	expect := fs.String("expect", "", "otattest-veraison appraise's output: each evidence's statuses")
	if err := fs.Parse(args); err != nil || *base == "" || *nonceHex == "" || fs.NArg() < 1 ||
		*n < 1 || *clients < 1 {
		return usageError("bench --url [--tls-ca PEM] URL --nonce HEX [--n N] [--clients C] [--want STATUS | --expect JSONL] EVIDENCE...")
	}
	if err := useTLSCA(*tlsCA); err != nil {
		return err
	}
	nonce, err := hex.DecodeString(*nonceHex)
	if err != nil {
		return usageError("--nonce is not hex")
	}
	var expected map[string]map[string]string
	if *expect != "" {
		if expected, err = expectedStatuses(*expect); err != nil {
			return err
		}
	}
	evidences := make([][]byte, fs.NArg())
	wants := make([]map[string]string, fs.NArg())
	for i, f := range fs.Args() {
		if evidences[i], err = os.ReadFile(f); err != nil {
			return err
		}
		if expected != nil {
			if wants[i] = expected[filepath.Base(f)]; wants[i] == nil {
				return fmt.Errorf("%s: not in %s", f, *expect)
			}
		}
	}
	latency := make([]time.Duration, *n)
	var next, bad atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < *clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := next.Add(1) - 1
				if k >= int64(*n) {
					return
				}
				i := int(k) % len(evidences)
				t0 := time.Now()
				at, _, err := newSession(*base, 0, nonce)
				if err == nil {
					var ear string
					if ear, err = submit(at, evidences[i]); err == nil {
						latency[k] = time.Since(t0)
						var st map[string]string
						if st, err = earStatuses(ear); err == nil {
							err = statusesAsExpected(st, wants[i], *want)
						}
					}
				}
				if err != nil {
					bad.Add(1)
					once.Do(func() { firstErr = fmt.Errorf("%s: %w", fs.Arg(i), err) })
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	sort.Slice(latency, func(a, b int) bool { return latency[a] < latency[b] })
	p := func(q float64) float64 { return float64(latency[int(q*float64(*n-1))].Microseconds()) / 1000 }
	fmt.Printf("veraison: %d appraisals of %d evidences, %d clients, %.3f s: %.1f evidences/s, p50 %.2f ms, p99 %.2f ms\n",
		*n, len(evidences), *clients, el.Seconds(), float64(*n)/el.Seconds(), p(0.50), p(0.99))
	if bad.Load() > 0 {
		return fmt.Errorf("%d appraisals failed, the first: %v", bad.Load(), firstErr)
	}
	return nil
}

// statusesAsExpected: each submodule's status is the expected one (want
// names every submodule's statuses; without it, each must be all).
func statusesAsExpected(got, want map[string]string, all string) error {
	if want == nil {
		for name, s := range got {
			if s != all {
				return fmt.Errorf("submodule %s is %s, not %s", name, s, all)
			}
		}
		return nil
	}
	if len(got) != len(want) {
		return fmt.Errorf("submodules %v, expected %v", got, want)
	}
	for name, s := range want {
		if got[name] != s {
			return fmt.Errorf("submodule %s is %s, not %s", name, got[name], s)
		}
	}
	return nil
}
