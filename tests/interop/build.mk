# Interop: otattest's SLH-DSA against an independent implementation
# (@noble/post-quantum, pinned in package-lock.json; `make deps` installs it).
#  slhdsa_tool.c   otattest's keygen/sign/verify on files
#  slhdsa_noble.mjs  the same three commands through noble
#  slhdsa.sh       the suite: prints "N passed, N failed"
SLHDSA_TOOL := $(B)/tests/interop/slhdsa_tool

$(SLHDSA_TOOL): $(B)/tests/interop/slhdsa_tool.o $(LIBOTA_CORE_A) $(UTIL_A)
	$(CC) $(LDFLAGS) -o $@ $^

# `make $(TEST_SUITES)` builds what each suite runs.
tests/interop/slhdsa.sh: $(SLHDSA_TOOL)

TEST_SUITES += tests/interop/slhdsa.sh

# Evidence: the runtime's evidence on the software HAL (evidence_tool),
# checked with python3-cbor2/python3-cryptography and `openssl verify`.
EVIDENCE_TOOL := $(B)/tests/interop/evidence_tool
$(B)/tests/interop/evidence_tool.o: EXTRA_CFLAGS_tests_interop_ += -Ifirmware/lib -Ifirmware/rom_ext -Ifirmware/runtime -Iqemu-model/chip -Iqemu-model/board -Itests/unit/lib -Ilibotattest/tools/otimage
$(EVIDENCE_TOOL): $(B)/tests/interop/evidence_tool.o $(UNIT_LINK)
	$(CC) $(LDFLAGS) -o $@ $< $(UNIT_LINK) $(PKG_OPENSSL) $(PKG_JSONC) $(PKG_CHECK)
tests/interop/evidence.sh: $(EVIDENCE_TOOL) $(OTA_VERIFY) $(OTIMAGE)
TEST_SUITES += tests/interop/evidence.sh

# CoRIM: otimage's reference values read by Veraison's corim library and
# cocli (tests/interop/go, pinned in its go.mod/go.sum; corim.sh builds
# them with the Go toolchain), and otattest-verify judging evidence_tool's
# evidence against them (corim_tool: the CoRIM of a record's booted stages).
CORIM_TOOL := $(B)/tests/interop/corim_tool
$(B)/tests/interop/corim_tool.o: EXTRA_CFLAGS_tests_interop_ += -Ilibotattest/tools/otimage
$(CORIM_TOOL): $(B)/tests/interop/corim_tool.o $(OTIMAGE_LIB_A) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) $(UTIL_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_OPENSSL) $(PKG_JSONC)
tests/interop/corim.sh: $(CORIM_TOOL) $(EVIDENCE_TOOL) $(OTA_VERIFY) $(OTIMAGE)
TEST_SUITES += tests/interop/corim.sh

# EAR: otattest-verify --ear's signed verdicts verified by npm jose
# (ear_jose.mjs) and PyPI PyJWT (ear_check.py, python3.11), per refusal.
tests/interop/ear.sh: $(EVIDENCE_TOOL) $(OTA_VERIFY) $(OTIMAGE) $(B)/tests/interop/corim_tool
TEST_SUITES += tests/interop/ear.sh

# Evidence profile v2 against npm @auth0/cose + cborg (evidence_cose.mjs)
# and PyPI cwt (evidence_cwt.py, python3.11): signature, x5chain, strict
# CBOR and every registered claim's RFC 9711 type.
tests/interop/eat.sh: $(EVIDENCE_TOOL)
TEST_SUITES += tests/interop/eat.sh
# The otattest scheme for Veraison (Go, libotattest/tools/veraison) against
# otattest-verify on the evidence suite's corpus, and its Go unit tests.
tests/interop/veraison-agree.sh: $(EVIDENCE_TOOL) $(OTA_VERIFY) $(OTIMAGE) $(CORIM_TOOL)
TEST_SUITES += tests/interop/veraison-agree.sh

# The consistency tables of docs/evidence.md against ota_attempt_check
# (attempt_rules prints every combination; consistency_doc.py reads the doc).
ATTEMPT_RULES := $(B)/tests/interop/attempt_rules
$(ATTEMPT_RULES): $(B)/tests/interop/attempt_rules.o
	$(CC) $(LDFLAGS) -o $@ $^
tests/interop/consistency-doc.sh: $(ATTEMPT_RULES)
TEST_SUITES += tests/interop/consistency-doc.sh

# Grammars: evidence, CoRIM and EAR against the specifications' own CDDL
# (tests/interop/cddl/, vendored; cddl_check.py with PyPI cddl-verifier).
tests/interop/cddl.sh: $(EVIDENCE_TOOL) $(OTA_VERIFY) $(CORIM_TOOL)
TEST_SUITES += tests/interop/cddl.sh

# Veraison's arc (the EAR tool), pinned in tests/interop/arc/go.mod and
# go.sum, built once into /var/cache/otattest/arc (scripts/arc-build.sh);
# the e2e veraison-fleet scenario verifies both verifiers' EARs with it.
.PHONY: arc
arc:
	@scripts/arc-build.sh

# A fleet of 1,000 devices (evidence_tool --fleet), some revoked by a CRL,
# some below the policy: otattest-verify --batch and the Veraison scheme
# give every device the same verdict (fleet_agree.py).
tests/interop/fleet-agree.sh: $(EVIDENCE_TOOL) $(OTA_VERIFY)
TEST_SUITES += tests/interop/fleet-agree.sh
