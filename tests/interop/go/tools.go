//go:build tools

// SPDX-License-Identifier: MIT

// The tools this module pins: `go build github.com/veraison/corim/cocli`
// builds Veraison's cocli at the version go.mod names.
package tools

import _ "github.com/veraison/corim/cocli"
