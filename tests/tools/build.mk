# Command-line tests of the host tools.
#  otimage.sh   every otimage subcommand: --help, --json through jq, one-line
#               errors naming file and field, exit codes, nothing written on
#               failure. OTIMAGE=build/asan/otimage runs it on the ASan build.
#  otimage-docs.sh  docs/otimage.md's exit table is status.h's and its
#               examples print what the page shows.
#  install.sh   `make install` with DESTDIR and PREFIX (/usr, /opt/otattest):
#               the file list, nothing outside DESTDIR, the unit's ExecStart,
#               otattest.pc, a program built against the staged library.
#  demo.sh      `make demo` (scripts/demo.sh, guest part included) in a scratch
#               directory: exit 0 and every part of its story in its output.
#  verify-batch.sh  otattest-verify --batch: inputs, order, side files, JSON
#               Lines, errors, exit codes. VERIFY=build/asan/otattest-verify
#               runs it on the ASan build.
#  verify-names.sh  otattest-verify with a key names file: names in the
#               verdict, key_chain in --json, refusals with their line.
#  man-pages.sh the man pages against --help (otattest-verify: both ways).
#  version.sh   every tool's --version, otattest.pc and the man pages say
#               debian/changelog's version (the one version number).
#  completion.sh the bash completion (scripts/completion/otattest) as
#               bash-completion runs it, against the man pages.
#  deb.sh       the Debian packages (scripts/deb-build.sh --cached --upgrade):
#               lintian, contents, dpkg-gensymbols, debhelper's scripts only.
#  deps-chroot.sh  scripts/deps.sh on a minimal Debian 12 (debootstrap,
#               cached in /var/cache/otattest/deps-chroot/): its messages.
#  lib-symbols.sh  libotattest.so exports its public headers' API alone,
#               in version node OTATTEST_1, as debian/libotattest2.symbols lists.
#  lib-abi.sh   libotattest.so's ABI (struct layouts, signatures) is its
#               committed libabigail baseline, libotattest/abi/ (make
#               abi-baseline), and the SONAME and package name go with it.
# `make $(TEST_SUITES)` builds what each suite runs.
tests/tools/otimage.sh: $(OTIMAGE) $(EVIDENCE_TOOL)

TEST_SUITES += tests/tools/otimage.sh
tests/tools/otimage-docs.sh: $(OTIMAGE)
TEST_SUITES += tests/tools/otimage-docs.sh
tests/tools/verify-batch.sh: $(OTA_VERIFY) $(EVIDENCE_TOOL)
TEST_SUITES += tests/tools/verify-batch.sh
tests/tools/verify-names.sh: $(OTA_VERIFY) $(EVIDENCE_TOOL)
TEST_SUITES += tests/tools/verify-names.sh
tests/tools/man-pages.sh: $(OTA_VERIFY) $(OTATTESTCTL)
TEST_SUITES += tests/tools/man-pages.sh
TEST_SUITES += tests/tools/install.sh
TEST_SUITES_ALONE += tests/tools/install.sh # make install rewrites $(B)/otattest.pc
TEST_SUITES += tests/tools/prometheus-rules.sh
tests/tools/demo.sh: $(OTIMAGE) $(MODEL) $(MODEL_PEER)
TEST_SUITES += tests/tools/demo.sh
tests/tools/version.sh: $(OTATTESTCTL) $(OTATTESTD) $(OTA_VERIFY) $(OTIMAGE) $(OTA_PC) $(MAN_PAGES)
TEST_SUITES += tests/tools/version.sh
tests/tools/lib-symbols.sh: $(LIBOTA_SO) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A)
TEST_SUITES += tests/tools/lib-symbols.sh
tests/tools/lib-abi.sh: $(LIBOTA_SO)
TEST_SUITES += tests/tools/lib-abi.sh
tests/tools/completion.sh: $(OTATTESTCTL) $(OTIMAGE) $(OTA_VERIFY)
TEST_SUITES += tests/tools/completion.sh
TEST_SUITES += tests/tools/deb.sh
TEST_SUITES += tests/tools/deps-chroot.sh
