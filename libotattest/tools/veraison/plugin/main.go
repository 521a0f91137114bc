// SPDX-License-Identifier: MIT

// The otattest scheme as a Veraison go-plugin binary: the services load it
// from their plugin directory (plugin.go-plugin.dir in config.yaml).
package main

import (
	"github.com/veraison/services/handler"
	"github.com/veraison/services/plugin"

	"otattest.org/veraison/handlers"
)

func main() {
	handler.RegisterEndorsementHandler(&handlers.EndorsementHandler{})
	handler.RegisterEvidenceHandler(&handlers.EvidenceHandler{})
	handler.RegisterStoreHandler(&handlers.StoreHandler{})
	plugin.Serve()
}
