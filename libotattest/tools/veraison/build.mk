# Fleet verification on Veraison (docs/veraison.md): `make veraison` builds
# Veraison's services at the version pinned in go.mod/go.sum (tool lines)
# and otattest's scheme plugin and command into build/veraison/. Go's own
# cache decides what to rebuild, so the target always runs `go build`.
# GOFLAGS=-mod=readonly: nothing but go.mod and go.sum says what is built.
VERAISON_DIR := libotattest/tools/veraison
VERAISON_OUT := build/veraison
VERAISON_SERVICES := vts/cmd/vts-service provisioning/cmd/provisioning-service \
	verification/cmd/verification-service management/cmd/management-service
VERAISON_VERSION = $(shell cd $(VERAISON_DIR) && go list -m -f '{{.Version}}' github.com/veraison/services)
VERAISON_GO := cd $(VERAISON_DIR) && GOFLAGS=-mod=readonly go
# The EAR's ear.verifier-id.build names the Veraison release.
VERAISON_LDFLAGS = -ldflags "-X github.com/veraison/services/config.Version=$(VERAISON_VERSION)"

.PHONY: veraison veraison-gen veraison-tools veraison-test
veraison: veraison-tools
	$(VERAISON_GO) build -trimpath -o $(CURDIR)/$(VERAISON_OUT)/bin/ $(VERAISON_LDFLAGS) \
		$(addprefix github.com/veraison/services/,$(VERAISON_SERVICES))

# otattest's own part alone: the plugin and otattest-veraison. First the
# limits and refusal table the scheme takes from libotattest's headers
# (gen/headers.c, compiled and run: scheme/headers_gen.go, not committed).
VERAISON_GEN := $(VERAISON_DIR)/scheme/headers_gen.go
veraison-gen:
	@command -v go >/dev/null || { echo "make veraison: no Go toolchain (go.mod wants $$(sed -n 's/^go //p' $(VERAISON_DIR)/go.mod))"; exit 1; }
	@mkdir -p $(VERAISON_OUT)/bin $(VERAISON_OUT)/plugins
	$(CC) $(CFLAGS_COMMON) $(CPPFLAGS_COMMON) -o $(VERAISON_OUT)/gen-headers $(VERAISON_DIR)/gen/headers.c
	$(VERAISON_OUT)/gen-headers >$(VERAISON_OUT)/headers_gen.go.tmp
	gofmt $(VERAISON_OUT)/headers_gen.go.tmp >$(VERAISON_OUT)/headers_gen.go.fmt
	cmp -s $(VERAISON_OUT)/headers_gen.go.fmt $(VERAISON_GEN) || mv $(VERAISON_OUT)/headers_gen.go.fmt $(VERAISON_GEN)

veraison-tools: veraison-gen
	$(VERAISON_GO) build -trimpath -o $(CURDIR)/$(VERAISON_OUT)/plugins/scheme-otattest.plugin $(VERAISON_LDFLAGS) ./plugin
	$(VERAISON_GO) build -trimpath -o $(CURDIR)/$(VERAISON_OUT)/bin/otattest-veraison ./cmd/otattest-veraison

# The scheme's Go unit tests. Those that need the firmware's evidence
# read evidence_tool's output from OTATTEST_EVIDENCE_DIR and skip without
# it; tests/interop/veraison-agree.sh gives it and fails on a skip.
veraison-test: veraison-gen
	$(VERAISON_GO) vet ./...
	$(VERAISON_GO) test $(VERAISON_TEST_FLAGS) ./...
