# Command-line tests of the host tools.
#  otimage.sh   every otimage subcommand: --help, --json through jq, one-line
#               errors naming file and field, exit codes, nothing written on
#               failure. OTIMAGE=build/asan/otimage runs it on the ASan build.
# `make $(TEST_SUITES)` builds what each suite runs.
tests/tools/otimage.sh: $(OTIMAGE)

TEST_SUITES += tests/tools/otimage.sh
