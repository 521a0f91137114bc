//go:build tools

// SPDX-License-Identifier: MIT

// The tool this module pins: `go build github.com/veraison/ear/arc` builds
// Veraison's arc (the EAR command-line tool) at the version go.mod names,
// for tests/interop/arc.sh. Its own module, so that arc's dependencies
// do not move cocli's (tests/interop/go).
package tools

import _ "github.com/veraison/ear/arc"
