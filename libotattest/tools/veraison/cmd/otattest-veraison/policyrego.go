// SPDX-License-Identifier: MIT

package main

// policy-rego: otattest-verify's policy file as the Veraison policy (Rego)
// an operator gives Veraison's policy management (docs/veraison.md).

import (
	"fmt"
	"os"

	"otattest.org/veraison/scheme"
)

func cmdPolicyRego(args []string) error {
	if len(args) != 1 || args[0] == "" || args[0][0] == '-' {
		return usageError("policy-rego POLICY-FILE")
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	p, err := scheme.ParsePolicy(string(b))
	if err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	_, err = os.Stdout.WriteString(scheme.PolicyRego(p, args[0], ""))
	return err
}
