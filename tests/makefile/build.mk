# The build itself: every part's build.mk is included strictly (parts.sh);
# make test's runners run suites and unit binaries side by side (runners.sh).
TEST_SUITES += tests/makefile/parts.sh
TEST_SUITES += tests/makefile/runners.sh
