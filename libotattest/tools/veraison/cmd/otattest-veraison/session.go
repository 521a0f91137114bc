// SPDX-License-Identifier: MIT

package main

// The agent's step split in two, for a host that is not the attester (the
// end-to-end test, an agent that relays a device's evidence): open a
// session and print its URL and nonce; post evidence to a session.

import (
	"encoding/hex"
	"flag"
	"fmt"
	"os"
)

func cmdSession(args []string) error {
	fs := flag.NewFlagSet("session", flag.ContinueOnError)
	base := fs.String("url", "", "the verification service")
	tlsCA := tlsFlag(fs)
	size := fs.Int("nonce-size", 32, "nonce bytes, 16..64")
	nonceHex := fs.String("nonce", "", "the session's nonce (hex) instead of one Veraison draws")
	if err := fs.Parse(args); err != nil || *base == "" || fs.NArg() != 0 {
		return usageError("session --url [--tls-ca PEM] URL [--nonce-size N | --nonce HEX]")
	}
	if err := useTLSCA(*tlsCA); err != nil {
		return err
	}
	var given []byte
	if *nonceHex != "" {
		var err error
		if given, err = hex.DecodeString(*nonceHex); err != nil {
			return usageError("--nonce is not hex")
		}
	}
	at, nonce, err := newSession(*base, *size, given)
	if err != nil {
		return err
	}
	_, err = fmt.Printf("%s %s\n", at, hex.EncodeToString(nonce))
	return err
}

func cmdSubmit(args []string) error {
	fs := flag.NewFlagSet("submit", flag.ContinueOnError)
	at := fs.String("session", "", "the session's URL, as session printed it")
	tlsCA := tlsFlag(fs)
	if err := fs.Parse(args); err != nil || *at == "" || fs.NArg() != 1 {
		return usageError("submit --session [--tls-ca PEM] URL EVIDENCE")
	}
	if err := useTLSCA(*tlsCA); err != nil {
		return err
	}
	evidence, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	ear, err := submit(*at, evidence)
	if err != nil {
		return err
	}
	_, err = fmt.Println(ear)
	return err
}
