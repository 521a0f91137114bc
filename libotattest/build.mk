# libotattest: one definition of every wire format.
#  src/core/  freestanding logic shared by firmware and host (no heap, no libc
#             beyond mem*/str*); also built for rv32 by `make size`.
#  src/host/  host-only code: OpenSSL 3 glue, evidence verification, client API.
#  util/      the private host utility library, never installed: hex, strict
#             integers, bounded file reads, atomic file writes, and JSON
#             through json-c. For the host library (linked into
#             libotattest.so with its symbols hidden), the daemon, the host
#             tools, the model (board, and the chip's state files) and the
#             tests; never for src/core or firmware/ (freestanding). It
#             includes nothing of the project but include/.
# Headers: <otu/*.h>. Only programs that print JSON need $(PKG_JSONC).
UTIL_SRCS := $(wildcard libotattest/util/*.c)
UTIL_A := $(B)/libotattest-util.a
PKG_JSONC := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
CPPFLAGS_COMMON += -Ilibotattest/util/include

$(UTIL_A): $(UTIL_SRCS:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(UTIL_A)

LIBOTA_CORE_SRCS := $(wildcard libotattest/src/core/*.c)
LIBOTA_HOST_SRCS := $(wildcard libotattest/src/host/*.c)
LIBOTA_CORE_OBJS := $(LIBOTA_CORE_SRCS:%.c=$(B)/%.o)
LIBOTA_HOST_OBJS := $(LIBOTA_HOST_SRCS:%.c=$(B)/%.o)
LIBOTA_CORE_A := $(B)/libotattest-core.a
LIBOTA_HOST_A := $(B)/libotattest-host.a
LIBOTA_SO := $(B)/libotattest.so

EXTRA_CFLAGS_libotattest_src_core_ := $(FREESTANDING_FLAGS)

$(LIBOTA_CORE_A): $(LIBOTA_CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBOTA_HOST_A): $(LIBOTA_HOST_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The private utility library goes in with its symbols hidden: the shared
# library exports its own API (ota_*) and nothing of libotattest-util.
# json-c: the EAR (ear_claims.c) is a JSON document.
# libotattest.sym names what it exports (the installed headers' API, in
# the version node OTATTEST_1); everything else is local.
# LIBOTA_SOVERSION: the SONAME's number, libotattest.so.N, and the runtime
# package's, libotattestN (debian/). It goes up with every incompatible
# change to the public ABI (a struct's layout, a function's signature, a
# removed function); libotattest/abi/libotattest.so.N.abi is that ABI as
# abidw describes it, and tests/tools/lib-abi.sh holds the library to it
# (docs/packaging.md, "The library's ABI"). `make abi-baseline` rewrites it.
LIBOTA_SOVERSION := 2
LIBOTA_SONAME := libotattest.so.$(LIBOTA_SOVERSION)
LIBOTA_SYM := libotattest/libotattest.sym
$(LIBOTA_SO): $(LIBOTA_HOST_OBJS) $(LIBOTA_CORE_OBJS) $(UTIL_A) $(LIBOTA_SYM) libotattest/build.mk
	$(CC) -shared -Wl,-soname,$(LIBOTA_SONAME) -Wl,--exclude-libs,libotattest-util.a \
		-Wl,--version-script=$(LIBOTA_SYM) -Wl,--no-undefined $(LDFLAGS) \
		-o $@ $(LIBOTA_HOST_OBJS) $(LIBOTA_CORE_OBJS) $(UTIL_A) $(PKG_OPENSSL) $(PKG_JSONC)

ALL_TARGETS += $(LIBOTA_CORE_A) $(LIBOTA_HOST_A) $(LIBOTA_SO)

# The ABI baseline (abidw's description of $(LIBOTA_SONAME)'s public
# types and functions): rewritten from the build after a deliberate change.
# scripts/lib-abi.sh refuses an incompatible change under the same SONAME.
.PHONY: abi-baseline
abi-baseline: $(LIBOTA_SO)
	scripts/lib-abi.sh update $(LIBOTA_SO)
# *_x86.c are the x86-64 backends (SHA-256 with the CPU's SHA extensions and
# multi-buffer lanes, sha256_backend.h): the device build carries the
# portable code alone.
RV32_OBJS += $(patsubst %.c,$(B)/rv32/%.o,$(filter-out %_x86.c,$(LIBOTA_CORE_SRCS)))

# The host tools beside the library, linked against the static host
# library (the shared one is for other projects and the daemon):
#  tools/verify/   otattest-verify: evidence against a trust store and policy
#  tools/otimage/  the signing and provisioning tool; every file but main.c
#                  forms libotimage.a, which tests link
OTA_VERIFY := $(B)/otattest-verify
OTA_VERIFY_SRCS := $(wildcard libotattest/tools/verify/*.c)
$(OTA_VERIFY): $(OTA_VERIFY_SRCS:%.c=$(B)/%.o) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) $(UTIL_A)
	$(CC) $(LDFLAGS) -pthread -o $@ $^ $(PKG_OPENSSL) $(PKG_JSONC)
ALL_TARGETS += $(OTA_VERIFY)
# --version (otattest-verify, otimage): the one version number (mk/common.mk).
EXTRA_CFLAGS_libotattest_tools_verify_ += $(VERSION_CPPFLAGS)
EXTRA_CFLAGS_libotattest_tools_otimage_ += $(VERSION_CPPFLAGS)
$(B)/libotattest/tools/verify/otattest-verify.o $(B)/libotattest/tools/otimage/main.o: $(VERSION_STAMP)
INSTALL_TARGETS += $(OTA_VERIFY)

# pkg-config file for libotattest.so: `pkg-config --cflags --libs otattest`.
OTA_PC := $(B)/otattest.pc
$(OTA_PC): libotattest/build.mk $(VERSION_STAMP)
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include' 'libdir=$${prefix}/lib' '' \
		'Name: otattest' 'Description: otattest boot attestation: wire formats and evidence verification' \
		'Version: $(OTATTEST_VERSION)' 'Requires.private: libcrypto json-c' \
		'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lotattest' > $@
ALL_TARGETS += $(OTA_PC)

OTIMAGE_LIB_SRCS := $(filter-out libotattest/tools/otimage/main.c,$(wildcard libotattest/tools/otimage/*.c))
OTIMAGE_LIB_A := $(B)/libotimage.a
OTIMAGE := $(B)/otimage

$(OTIMAGE_LIB_A): $(OTIMAGE_LIB_SRCS:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# No part of the emulated chip: the host never computes a device key. The
# identity certificate comes from the device's own CSR (otimage ca-sign).
$(OTIMAGE): $(B)/libotattest/tools/otimage/main.o $(OTIMAGE_LIB_A) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) \
		$(UTIL_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_OPENSSL) $(PKG_JSONC) $(PKG_LIBELF)
ALL_TARGETS += $(OTIMAGE)

# docs/otimage.md's exit code table, derived from status.h (every status
# otimage can return under its class's exit code); tests/tools/otimage-docs.sh
# fails when the committed table is not the current one.
.PHONY: otimage-exits
otimage-exits:
	scripts/otimage-exits.py --write docs/otimage.md

# The otattest scheme for Veraison and Veraison's services (Go): make veraison.
include libotattest/tools/veraison/build.mk
