// SPDX-License-Identifier: MIT

// otattest-veraison: the host side of fleet verification on Veraison
// (docs/veraison.md). Its subcommands make what Veraison's services need
// from otattest (the EAR signing key, CoRIMs of the manufacturer CA and of
// reference values), submit them to the provisioning API, run the fleet
// agent's step against the verification API, and appraise evidence with
// the scheme in-process (the agreement test and the benchmark).
package main

import (
	"fmt"
	"os"
)

type command struct {
	name, args, what string
	run              func(args []string) error
}

var commands = []command{
	{"ear-key", "--out FILE [--pub FILE]", "make an ES256 key (JWK) for Veraison's EAR signer", cmdEARKey},
	{"ta-corim", "--ca FILE --out FILE", "the manufacturer CA as a trust-anchor CoRIM", cmdTACorim},
	{"refval-corim", "--out FILE STAGE:DIGEST[:SVN]...", "reference values as a CoRIM", cmdRefvalCorim},
	{"provision", "--url URL [--corim-key PUB] FILE...", "submit CoRIMs to Veraison's provisioning API", cmdProvision},
	{"attest", "--url URL [--otattestctl PATH] [--device N] [--out FILE]",
		"fleet agent step: session, otattestctl attest --nonce, post, print the EAR", cmdAttest},
	{"session", "--url URL [--nonce-size N | --nonce HEX]", "open a session: print its URL and nonce (hex)", cmdSession},
	{"submit", "--session URL EVIDENCE", "post evidence to a session: print the EAR", cmdSubmit},
	{"bench", "--url URL --nonce HEX [--n N] [--clients C] EVIDENCE",
		"throughput of a running Veraison: sessions and appraisals of one evidence", cmdBench},
	{"appraise", "--ca FILE... [--corim FILE... --corim-key PUB] (--nonce HEX | --no-nonce) EVIDENCE...",
		"appraise evidence with the scheme in-process; one JSON line each", cmdAppraise},
	{"policy-rego", "POLICY-FILE", "otattest-verify's policy file as a Veraison policy (Rego), on stdout", cmdPolicyRego},
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: otattest-veraison COMMAND [OPTIONS]")
	for _, c := range commands {
		if c.run != nil {
			fmt.Fprintf(os.Stderr, "  %-13s %s\n  %-13s   %s\n", c.name, c.args, "", c.what)
		}
	}
}

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	for _, c := range commands {
		if c.name == os.Args[1] && c.run != nil {
			if err := c.run(os.Args[2:]); err != nil {
				fmt.Fprintf(os.Stderr, "otattest-veraison %s: %v\n", c.name, err)
				if _, ok := err.(usageError); ok {
					os.Exit(2)
				}
				os.Exit(1)
			}
			return
		}
	}
	usage()
	os.Exit(2)
}

type usageError string

func (e usageError) Error() string { return string(e) }
