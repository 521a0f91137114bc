# daemon/: otattestd (the D-Bus service) and otattestctl (its CLI).
#  common/      shared by both: D-Bus names, error mapping
#  otattestd/   every file but main.c forms libotattestd.a (unit tests link it)
#  otattestctl/ every file but main.c forms libotattestctl.a
# Hex, numbers, files and JSON (json-c) come from libotattest-util.

DAEMON_COMMON_SRCS := $(wildcard daemon/common/*.c)
OTATTESTD_SRCS := $(filter-out daemon/otattestd/main.c,$(wildcard daemon/otattestd/*.c))
OTATTESTCTL_SRCS := $(filter-out daemon/otattestctl/main.c,$(wildcard daemon/otattestctl/*.c))

DAEMON_COMMON_A := $(B)/libotattest-daemon-common.a
OTATTESTD_A := $(B)/libotattestd.a
OTATTESTCTL_A := $(B)/libotattestctl.a
OTATTESTD := $(B)/otattestd
OTATTESTCTL := $(B)/otattestctl

# -Wno-unused-parameter, as systemd builds its own daemons: sd-bus, sd-event
# and libmnl callbacks have fixed signatures whose arguments a callback
# often does not need, and a (void) cast per argument says nothing.
DAEMON_CFLAGS := $(VERSION_CPPFLAGS) -Wno-unused-parameter \
	$(shell pkg-config --cflags libsystemd libmnl 2>/dev/null)
EXTRA_CFLAGS_daemon_common_ := $(DAEMON_CFLAGS)
EXTRA_CFLAGS_daemon_otattestd_ := $(DAEMON_CFLAGS) -pthread
EXTRA_CFLAGS_daemon_otattestctl_ := $(DAEMON_CFLAGS)

# otattestctl's `verify` and `attest --verify` use the library verifier (verify.c).
CTL_VERIFY_LIBS := $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) $(UTIL_A) $(PKG_OPENSSL)
CTL_VERIFY_DEPS := $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) $(UTIL_A)

$(DAEMON_COMMON_A): $(DAEMON_COMMON_SRCS:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(OTATTESTD_A): $(OTATTESTD_SRCS:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(OTATTESTCTL_A): $(OTATTESTCTL_SRCS:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# libotattest-core for SHA-256 (the boot history's entry digests).
$(OTATTESTD): $(B)/daemon/otattestd/main.o $(OTATTESTD_A) $(DAEMON_COMMON_A) $(LIBOTA_CORE_A) $(UTIL_A)
	$(CC) $(LDFLAGS) -pthread -o $@ $^ $(PKG_SYSTEMD) $(PKG_MNL) $(PKG_JSONC)

$(OTATTESTCTL): $(B)/daemon/otattestctl/main.o $(OTATTESTCTL_A) $(DAEMON_COMMON_A) $(CTL_VERIFY_DEPS) $(UTIL_A)
	$(CC) $(LDFLAGS) -o $@ $(B)/daemon/otattestctl/main.o $(OTATTESTCTL_A) $(DAEMON_COMMON_A) \
		$(CTL_VERIFY_LIBS) $(UTIL_A) $(PKG_SYSTEMD) $(PKG_JSONC)

# Unit tests of the daemon and CLI: the generic rule in tests/build.mk does
# not know our archives or libsystemd/libmnl, so these more specific
# patterns take over for test_daemon* and test_ctl*. From tests/unit/lib they
# take OTA_TEST_MAIN, the JSON reader and a record maker, not the device fixtures.
# tests/unit/bus: a private dbus-daemon, and the fixture of the
# test_daemon_bus_*.c suites (one per topic): the fake kernel, the server
# process, the client helpers. An archive: a test links what it uses.
TESTBUS_A := $(B)/libtestbus.a
EXTRA_CFLAGS_tests_unit_bus_ = $(EXTRA_CFLAGS_tests_unit_)
$(TESTBUS_A): $(patsubst %.c,$(B)/%.o,$(wildcard tests/unit/bus/*.c))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
DAEMON_TEST_LINK := $(TESTBUS_A) $(OTATTESTD_A) $(OTATTESTCTL_A) $(DAEMON_COMMON_A) $(CTL_VERIFY_DEPS) \
	$(B)/tests/unit/lib/tu_main.o $(B)/tests/unit/lib/tu_json.o $(B)/tests/unit/lib/tu_record.o $(UTIL_A)
DAEMON_TEST_LIBS := $(CTL_VERIFY_LIBS) $(UTIL_A) $(PKG_SYSTEMD) $(PKG_MNL) $(PKG_JSONC) $(PKG_CHECK)
$(B)/tests/unit/test_daemon%: $(B)/tests/unit/test_daemon%.o $(DAEMON_TEST_LINK)
	$(CC) $(LDFLAGS) -pthread -o $@ $< $(DAEMON_TEST_LINK) $(DAEMON_TEST_LIBS)
$(B)/tests/unit/test_ctl%: $(B)/tests/unit/test_ctl%.o $(DAEMON_TEST_LINK)
	$(CC) $(LDFLAGS) -pthread -o $@ $< $(DAEMON_TEST_LINK) $(DAEMON_TEST_LIBS)
EXTRA_CFLAGS_tests_unit_ += $(DAEMON_CFLAGS)

ALL_TARGETS += $(OTATTESTD) $(OTATTESTCTL)
# The files that print the version (--version, D-Bus Version).
$(B)/daemon/otattestd/main.o $(B)/daemon/otattestd/bus.o $(B)/daemon/otattestctl/main.o: $(VERSION_STAMP)

.PHONY: install-daemon
install-daemon: $(OTATTESTD) $(OTATTESTCTL) $(B)/man/otattestd.8 $(B)/man/otattestctl.8
	install -D -m 0755 $(OTATTESTD) $(DESTDIR)$(LIBEXECDIR)/otattestd
	install -D -m 0755 $(OTATTESTCTL) $(DESTDIR)$(BINDIR)/otattestctl
	install -D -m 0644 daemon/org.otattest.BootAttest1.xml \
		$(DESTDIR)$(PREFIX)/share/dbus-1/interfaces/org.otattest.BootAttest1.xml
	install -D -m 0644 $(B)/man/otattestd.8 $(DESTDIR)$(PREFIX)/share/man/man8/otattestd.8
	install -D -m 0644 $(B)/man/otattestctl.8 $(DESTDIR)$(PREFIX)/share/man/man8/otattestctl.8
INSTALL_TARGETS += install-daemon

# A FUSE file system whose reads never answer (tests/unit/fuse/fuse-stuck.c,
# on Debian's libfuse3): test_daemon_bus_update hands its file to InstallImage.
FUSE_STUCK := $(B)/tests/unit/fuse-stuck
$(FUSE_STUCK): tests/unit/fuse/fuse-stuck.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags fuse3) -o $@ $< $(LDFLAGS) $(shell pkg-config --libs fuse3)
$(B)/tests/unit/test_daemon_bus_update: $(FUSE_STUCK)

# test_daemon_units checks the units as built and the binaries they name.
$(B)/tests/unit/test_daemon_units: $(B)/systemd/otattestd.service $(OTATTESTD) \
	$(B)/systemd/otattest-metrics.service $(OTATTESTCTL)

# libFuzzer target for otattestd's netlink parser (tests/fuzz/fuzz_daemon_genl.c).
FUZZ_SRCS_fuzz_daemon_genl := daemon/otattestd/genl-parse.c
FUZZ_LDLIBS_fuzz_daemon_genl := $(PKG_MNL)
build/fuzz/fuzz_daemon_genl: $(FUZZ_SRCS_fuzz_daemon_genl)

# fwupd with the otattest plugin (daemon/fwupd/otattest) built in, from
# Debian's fwupd source, cached under /var/cache/otattest/fwupd by version and
# plugin digest (scripts/fwupd-build.sh; the first build takes minutes).
# `make cab IMAGE=signed.img [CAB=out.cab]`: a cabinet fwupdmgr installs.
.PHONY: fwupd cab
fwupd:
	scripts/fwupd-build.sh
CAB ?= $(basename $(IMAGE)).cab
cab: $(OTIMAGE)
	@[ -n "$(IMAGE)" ] || { echo "make cab IMAGE=signed.img [CAB=out.cab]" >&2; exit 2; }
	OTIMAGE=$(OTIMAGE) scripts/fwupd-cab.sh $(IMAGE) $(CAB)
