// SPDX-License-Identifier: MIT

package main

import (
	"crypto/ecdsa"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"

	"otattest.org/veraison/scheme"
)

const provisioningSession = "application/vnd.veraison.provisioning-session+json"

// cmdProvision submits each CoRIM to the provisioning API; a CoRIM the
// service refuses (its status "failed") fails the command, naming why.
func cmdProvision(args []string) error {
	fs := flag.NewFlagSet("provision", flag.ContinueOnError)
	base := fs.String("url", "", "the provisioning service, e.g. http://127.0.0.1:8888")
	tlsCA := tlsFlag(fs)
	mt := fs.String("media-type", scheme.EndorsementMediaType, "the CoRIMs' media type")
	keyFile := fs.String("corim-key", "", "the release key (PEM) the CoRIMs are signed with: "+
		"each signature is checked and the unsigned CoRIM inside submitted")
	if err := fs.Parse(args); err != nil || *base == "" || fs.NArg() == 0 {
		return usageError("provision --url [--tls-ca PEM] URL [--corim-key PUB] FILE...")
	}
	if err := useTLSCA(*tlsCA); err != nil {
		return err
	}
	var pub *ecdsa.PublicKey
	if *keyFile != "" {
		var err error
		if pub, err = loadP256(*keyFile); err != nil {
			return err
		}
	}
	u := strings.TrimRight(*base, "/") + "/endorsement-provisioning/v1/submit"
	for _, f := range fs.Args() {
		body, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		// Veraison v0.0.2501 takes unsigned CoRIMs only: the release's
		// signature is the operator's to check, here, before submitting.
		if pub != nil {
			if body, err = scheme.VerifySignedCorim(body, pub); err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
		}
		var answer struct {
			Status        string  `json:"status"`
			FailureReason *string `json:"failure-reason"`
		}
		if _, err := post(u, *mt, provisioningSession, body, []int{http.StatusOK}, &answer); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if answer.Status != "success" {
			why := ""
			if answer.FailureReason != nil {
				why = *answer.FailureReason
			}
			return fmt.Errorf("%s: provisioning %s: %s", f, answer.Status, why)
		}
		fmt.Printf("%s: provisioned\n", f)
	}
	return nil
}
