# Interop: otattest's SLH-DSA against an independent implementation
# (@noble/post-quantum, pinned in package-lock.json; `make deps` installs it).
#  slhdsa_tool.c   otattest's keygen/sign/verify on files
#  slhdsa_noble.mjs  the same three commands through noble
#  slhdsa.sh       the suite: prints "N passed, N failed"
SLHDSA_TOOL := $(B)/tests/interop/slhdsa_tool

$(SLHDSA_TOOL): $(B)/tests/interop/slhdsa_tool.o $(LIBOTA_CORE_A)
	$(CC) $(LDFLAGS) -o $@ $^

# `make $(TEST_SUITES)` builds what each suite runs.
tests/interop/slhdsa.sh: $(SLHDSA_TOOL)

TEST_SUITES += tests/interop/slhdsa.sh
