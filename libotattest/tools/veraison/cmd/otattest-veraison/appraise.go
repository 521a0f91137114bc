// SPDX-License-Identifier: MIT

package main

// The scheme in-process, without the services: the same verdict and
// appraisal the plugin makes, printed as one JSON line per evidence, for
// the agreement test against otattest-verify and for the benchmark.

import (
	"context"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/veraison/ear"
	"github.com/veraison/services/policy"

	"otattest.org/veraison/scheme"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

type appraisalJSON struct {
	Status      string           `json:"ear.status"`
	TrustVector map[string]int   `json:"ear.trustworthiness-vector"`
	Failures    []scheme.Failure `json:"failures"`
}

// regoAppraisal is a submodule of the EAR after Veraison's policy agent,
// in appraise's output form.
func regoAppraisal(a *ear.Appraisal) appraisalJSON {
	out := appraisalJSON{Status: a.Status.String(), TrustVector: map[string]int{}}
	for k, v := range a.TrustVector.AsMap() {
		if v != 0 {
			out.TrustVector[k] = int(v)
		}
	}
	if a.VeraisonPolicyClaims == nil {
		return out
	}
	list, _ := (*a.VeraisonPolicyClaims)["failures"].([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		status, _ := m["status"].(string)
		name, _ := m["stage"].(string)
		detail, _ := m["detail"].(string)
		stage := uint32(scheme.NoStage)
		for st := uint32(scheme.StageROMExt); st <= scheme.StageBL0; st++ {
			if scheme.StageName(st) == name {
				stage = st
			}
		}
		out.Failures = append(out.Failures, scheme.Failure{Status: status, Stage: uint32(stage), Detail: detail})
	}
	return out
}

func cmdAppraise(args []string) error {
	fs := flag.NewFlagSet("appraise", flag.ContinueOnError)
	var cas, corims, crlFiles multi
	fs.Var(&cas, "ca", "a manufacturer CA (PEM); repeatable")
	fs.Var(&crlFiles, "crl", "the CA's CRLs (PEM), as Veraison's store holds them; repeatable")
	fs.Var(&corims, "corim", "reference values (a CoRIM signed by --corim-key); repeatable")
	corimKey := fs.String("corim-key", "", "the release key (PEM) every --corim is signed with")
	policyFile := fs.String("policy", "", "otattest-verify's policy file (no crl lines)")
	regoFile := fs.String("rego", "", "a Veraison policy (Rego) applied by Veraison's policy agent instead of --policy")
	nonceHex := fs.String("nonce", "", "the nonce the evidence must carry")
	noNonce := fs.Bool("no-nonce", false, "no freshness check")
	repeat := fs.Int("repeat", 1, "appraise each evidence this many times (benchmark)")
	if err := fs.Parse(args); err != nil || len(cas) == 0 || fs.NArg() == 0 ||
		(*nonceHex == "") == !*noNonce || *repeat < 1 || (len(corims) > 0) != (*corimKey != "") ||
		(*policyFile != "" && *regoFile != "") {
		return usageError("appraise --ca FILE... [--crl FILE]... [--corim FILE... --corim-key PUB] [--policy FILE | --rego FILE] (--nonce HEX | --no-nonce) EVIDENCE...")
	}
	var nonce []byte
	if !*noNonce {
		var err error
		if nonce, err = hex.DecodeString(*nonceHex); err != nil {
			return usageError("--nonce is not hex")
		}
	}
	var certs []*x509.Certificate
	for _, f := range cas {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		c, err := scheme.ParseCAPEM(b)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		certs = append(certs, c)
	}
	var refs []scheme.RefValue
	if *corimKey != "" {
		pub, err := loadP256(*corimKey)
		if err != nil {
			return err
		}
		for _, f := range corims {
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			payload, err := scheme.VerifySignedCorim(b, pub)
			if err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			c, err := scheme.ReadCorim(payload)
			if err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			refs = append(refs, c.RefValues...)
		}
	}
	if corims == nil {
		refs = nil
	}
	var crls []*x509.RevocationList
	for _, f := range crlFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		list, err := scheme.ParseCRLsPEM(b)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		crls = append(crls, list...)
	}
	var pol *scheme.Policy
	if *policyFile != "" {
		b, err := os.ReadFile(*policyFile)
		if err != nil {
			return err
		}
		if pol, err = scheme.ParsePolicy(string(b)); err != nil {
			return fmt.Errorf("%s: %w", *policyFile, err)
		}
	}
	var rules string
	var agent policy.IAgent
	if *regoFile != "" {
		b, err := os.ReadFile(*regoFile)
		if err != nil {
			return err
		}
		rules = string(b)
		if agent, err = scheme.RegoAgent(); err != nil {
			return err
		}
	}
	trust := scheme.NewTrust(certs)
	enc := json.NewEncoder(os.Stdout)
	start, count := time.Now(), 0
	failed := false
	for _, f := range fs.Args() {
		ev, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var sum *scheme.Summary
		var viaRego *ear.AttestationResult
		for i := 0; i < *repeat; i++ {
			sum = scheme.Verify(ev, trust, nonce).Summarize()
			sum.CheckRevocation(crls, time.Now())
			sum.CheckPolicy(refs, pol)
			if agent != nil {
				viaRego = sum.Result("", "")
				if err := scheme.ApplyRego(context.Background(), agent, rules, sum, viaRego); err != nil {
					return fmt.Errorf("%s: %w", f, err)
				}
			}
			count++
		}
		out := map[string]any{"file": f}
		subs := map[string]appraisalJSON{}
		if viaRego != nil {
			for name, a := range viaRego.Submods {
				sub := regoAppraisal(a)
				subs[name] = sub
				failed = failed || sub.Status != "affirming"
			}
		}
		for name, a := range sum.Appraise() {
			if viaRego != nil {
				break
			}
			tv := map[string]int{}
			for k, v := range a.TrustVector.AsMap() {
				if v != 0 {
					tv[k] = int(v)
				}
			}
			subs[name] = appraisalJSON{a.Status.String(), tv, a.Failures}
			failed = failed || a.Status.String() != "affirming"
		}
		out["submods"] = subs
		if err := enc.Encode(out); err != nil {
			return err
		}
	}
	el := time.Since(start)
	fmt.Fprintf(os.Stderr, "%d appraisals in %.3f s: %.0f evidences/s\n", count, el.Seconds(),
		float64(count)/el.Seconds())
	if failed {
		return errors.New("not every evidence was affirmed")
	}
	return nil
}
