// SPDX-License-Identifier: MIT

package main

import (
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"otattest.org/veraison/scheme"
)

func cmdTACorim(args []string) error {
	fs := flag.NewFlagSet("ta-corim", flag.ContinueOnError)
	ca := fs.String("ca", "", "the manufacturer CA certificate (PEM)")
	out := fs.String("out", "", "the CoRIM (unsigned, CBOR)")
	if err := fs.Parse(args); err != nil || *ca == "" || *out == "" || fs.NArg() != 0 {
		return usageError("ta-corim --ca FILE --out FILE")
	}
	pemBytes, err := os.ReadFile(*ca)
	if err != nil {
		return err
	}
	b, err := scheme.TrustAnchorCorim(pemBytes)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, b, 0o644)
}

func cmdRefvalCorim(args []string) error {
	fs := flag.NewFlagSet("refval-corim", flag.ContinueOnError)
	out := fs.String("out", "", "the CoRIM (unsigned, CBOR)")
	id := fs.String("id", "otattest-reference-values", "the CoRIM's id")
	if err := fs.Parse(args); err != nil || *out == "" || fs.NArg() == 0 {
		return usageError("refval-corim --out FILE STAGE:DIGEST[:SVN]...")
	}
	var refs []scheme.RefValue
	for _, a := range fs.Args() {
		parts := strings.Split(a, ":")
		if len(parts) < 2 || len(parts) > 3 {
			return usageError(fmt.Sprintf("%q is not STAGE:DIGEST[:SVN]", a))
		}
		if d, err := hex.DecodeString(parts[1]); err != nil || len(d) != 32 {
			return usageError(fmt.Sprintf("%q: the digest is not 64 hex digits", a))
		}
		r := scheme.RefValue{Stage: parts[0], Digests: []string{strings.ToLower(parts[1])}}
		if len(parts) == 3 {
			n, err := strconv.ParseUint(parts[2], 10, 8)
			if err != nil {
				return usageError(fmt.Sprintf("%q: the SVN is not 0..255", a))
			}
			v := uint32(n)
			r.SVN = &v
		}
		refs = append(refs, r)
	}
	b, err := scheme.RefValueCorim(*id, refs)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, b, 0o644)
}
