# The build itself: every part's build.mk is included strictly (parts.sh).
TEST_SUITES += tests/makefile/parts.sh
