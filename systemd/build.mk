# systemd/: the units (service and its netlink socket), D-Bus policy and activation file, udev rule,
# sysusers.d, polkit action and rules, the journal catalog; and `make install` for everything
# a Debian package would ship (the daemon and CLI, the library, its
# headers and pkg-config file, otattest-verify). DESTDIR and PREFIX work
# as usual: `make install PREFIX=/usr DESTDIR=debian/tmp`.
SYSTEMD_UNIT := $(B)/systemd/otattestd.service
LIBEXECDIR ?= $(PREFIX)/libexec
SYSTEMD_UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
SYSTEMD_CATALOGDIR ?= $(PREFIX)/lib/systemd/catalog
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
DBUS_SYSTEM_CONFDIR ?= $(PREFIX)/share/dbus-1/system.d
DBUS_SYSTEM_SERVICEDIR ?= $(PREFIX)/share/dbus-1/system-services
POLKIT_ACTIONDIR ?= $(PREFIX)/share/polkit-1/actions
POLKIT_RULESDIR ?= $(PREFIX)/share/polkit-1/rules.d
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
# Configuration an admin edits lives in /etc whatever PREFIX is: the
# programs look for /etc/otattest/key-names.
SYSCONFDIR ?= /etc
# The key names file to install (docs/keynames.md), e.g. the one the
# factory line's `otimage keygen --names-file` wrote. Without it a
# commented template is installed, and only where no file is yet: a
# reinstall never overwrites the admin's names.
KEY_NAMES ?=

# The units name the installed programs' paths, so they are rebuilt
# whenever LIBEXECDIR or BINDIR (or PREFIX) changes: the stamp file holds
# the values they were made with and is rewritten only when those differ.
SYSTEMD_STAMP := $(B)/systemd/libexecdir.stamp
$(shell mkdir -p $(B)/systemd; [ "$$(cat $(SYSTEMD_STAMP) 2>/dev/null)" = "$(LIBEXECDIR) $(BINDIR)" ] || \
	echo "$(LIBEXECDIR) $(BINDIR)" > $(SYSTEMD_STAMP))
$(SYSTEMD_UNIT): systemd/otattestd.service.in systemd/build.mk $(SYSTEMD_STAMP)
	@mkdir -p $(dir $@)
	sed 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' $< > $@
ALL_TARGETS += $(SYSTEMD_UNIT)

# The metrics timer's service (otattestctl metrics into the node exporter's
# textfile directory); the timer itself needs no paths.
METRICS_UNIT := $(B)/systemd/otattest-metrics.service
$(METRICS_UNIT): systemd/otattest-metrics.service.in systemd/build.mk $(SYSTEMD_STAMP)
	@mkdir -p $(dir $@)
	sed 's|@BINDIR@|$(BINDIR)|g' $< > $@
ALL_TARGETS += $(METRICS_UNIT)

# Man pages as installed: docs/man/NAME.SECTION with the version number
# (mk/common.mk) in place of @VERSION@ in the .TH line.
MAN_PAGES := $(patsubst docs/man/%,$(B)/man/%,$(wildcard docs/man/*.[1-8]))
$(B)/man/%: docs/man/% $(VERSION_STAMP)
	@mkdir -p $(dir $@)
	sed 's/@VERSION@/$(OTATTEST_VERSION)/g' $< > $@
ALL_TARGETS += $(MAN_PAGES)

.PHONY: install-systemd install-lib
install-systemd: $(SYSTEMD_UNIT) $(METRICS_UNIT)
	install -D -m 0644 $(SYSTEMD_UNIT) $(DESTDIR)$(SYSTEMD_UNITDIR)/otattestd.service
	install -D -m 0644 $(METRICS_UNIT) $(DESTDIR)$(SYSTEMD_UNITDIR)/otattest-metrics.service
	install -D -m 0644 systemd/otattest-metrics.timer $(DESTDIR)$(SYSTEMD_UNITDIR)/otattest-metrics.timer
	install -D -m 0644 systemd/otattestd.socket $(DESTDIR)$(SYSTEMD_UNITDIR)/otattestd.socket
	install -D -m 0644 systemd/otattest.sysusers $(DESTDIR)$(SYSUSERSDIR)/otattest.conf
	install -D -m 0644 systemd/otattest.catalog $(DESTDIR)$(SYSTEMD_CATALOGDIR)/otattest.catalog
	install -D -m 0644 systemd/otattest-alerts.yml \
		$(DESTDIR)$(PREFIX)/share/otattest/prometheus/otattest-alerts.yml
	install -D -m 0644 systemd/99-otattest.rules $(DESTDIR)$(UDEVRULESDIR)/99-otattest.rules
	install -D -m 0644 systemd/org.otattest.BootAttest1.conf \
		$(DESTDIR)$(DBUS_SYSTEM_CONFDIR)/org.otattest.BootAttest1.conf
	install -D -m 0644 systemd/org.otattest.BootAttest1.service \
		$(DESTDIR)$(DBUS_SYSTEM_SERVICEDIR)/org.otattest.BootAttest1.service
	install -D -m 0644 systemd/org.otattest.BootAttest1.policy \
		$(DESTDIR)$(POLKIT_ACTIONDIR)/org.otattest.BootAttest1.policy
	install -D -m 0644 systemd/50-otattest.rules $(DESTDIR)$(POLKIT_RULESDIR)/50-otattest.rules
	if [ -n "$(KEY_NAMES)" ] || [ ! -e $(DESTDIR)$(SYSCONFDIR)/otattest/key-names ]; then \
		install -D -m 0644 $(or $(KEY_NAMES),systemd/key-names) \
			$(DESTDIR)$(SYSCONFDIR)/otattest/key-names; fi

# The library as other projects link it: libotattest.so.N (its SONAME,
# libotattest/build.mk) with the usual symlinks, the public headers and
# otattest.pc (from libotattest/build.mk).
install-lib: $(LIBOTA_SO) $(OTA_PC) $(OTA_VERIFY) $(B)/man/otattest-verify.1
	install -D -m 0755 $(LIBOTA_SO) $(DESTDIR)$(LIBDIR)/$(LIBOTA_SONAME).0
	ln -sf $(LIBOTA_SONAME).0 $(DESTDIR)$(LIBDIR)/$(LIBOTA_SONAME)
	ln -sf $(LIBOTA_SONAME) $(DESTDIR)$(LIBDIR)/libotattest.so
	install -D -m 0644 $(OTA_PC) $(DESTDIR)$(LIBDIR)/pkgconfig/otattest.pc
	install -d $(DESTDIR)$(INCLUDEDIR)/otattest
	install -m 0644 libotattest/include/otattest/*.h $(DESTDIR)$(INCLUDEDIR)/otattest/
	install -D -m 0755 $(OTA_VERIFY) $(DESTDIR)$(BINDIR)/otattest-verify
	install -D -m 0644 $(B)/man/otattest-verify.1 $(DESTDIR)$(PREFIX)/share/man/man1/otattest-verify.1

# The host tools beside otattest-verify: otimage, otattest-veraison (Go,
# `make veraison-tools`, modules from go.sum only), their man pages, and
# bash completion for otattestctl, otimage and otattest-verify (one file,
# scripts/completion/otattest, the other names links to it).
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
.PHONY: install-tools install-dkms
install-tools: $(OTIMAGE) veraison-tools $(B)/man/otimage.1 $(B)/man/otattest-veraison.1
	install -D -m 0755 $(OTIMAGE) $(DESTDIR)$(BINDIR)/otimage
	install -D -m 0755 $(VERAISON_OUT)/bin/otattest-veraison $(DESTDIR)$(BINDIR)/otattest-veraison
	install -D -m 0644 $(B)/man/otimage.1 $(DESTDIR)$(PREFIX)/share/man/man1/otimage.1
	install -D -m 0644 $(B)/man/otattest-veraison.1 $(DESTDIR)$(PREFIX)/share/man/man1/otattest-veraison.1
	install -D -m 0644 scripts/completion/otattest $(DESTDIR)$(BASHCOMPDIR)/otattestctl
	ln -sf otattestctl $(DESTDIR)$(BASHCOMPDIR)/otimage
	ln -sf otattestctl $(DESTDIR)$(BASHCOMPDIR)/otattest-verify

# The module's source as DKMS builds it (debian/otattest-dkms.dkms):
# kernel/'s sources and Kbuild, the wire-format headers in uapi/otattest/
# (OTATTEST_INCLUDE, and <uapi/otattest/genl.h> through -I$(src)).
DKMS_SRCDIR ?= $(PREFIX)/src/otattest-$(OTATTEST_VERSION)
install-dkms:
	install -d $(DESTDIR)$(DKMS_SRCDIR)/uapi/otattest
	install -m 0644 $(wildcard kernel/*.c kernel/*.h) kernel/Kbuild $(DESTDIR)$(DKMS_SRCDIR)/
	install -m 0644 libotattest/include/otattest/*.h $(DESTDIR)$(DKMS_SRCDIR)/uapi/otattest/

install: install-daemon install-systemd install-lib install-tools install-rauc

# RAUC's otattest backend, install handler and rauc.service drop-in
# (docs/update-agents.md); the example system.conf beside them.
RAUCLIBDIR ?= $(LIBEXECDIR)/otattest/rauc
.PHONY: install-rauc
install-rauc:
	install -D -m 0755 systemd/rauc/otattest-rauc-backend $(DESTDIR)$(RAUCLIBDIR)/otattest-rauc-backend
	install -D -m 0755 systemd/rauc/otattest-rauc-install $(DESTDIR)$(RAUCLIBDIR)/otattest-rauc-install
	install -D -m 0755 systemd/rauc/otattest-rauc-service $(DESTDIR)$(RAUCLIBDIR)/otattest-rauc-service
	install -D -m 0644 systemd/rauc/otattest-rauc.tmpfiles $(DESTDIR)$(PREFIX)/lib/tmpfiles.d/otattest-rauc.conf
	install -d $(DESTDIR)$(SYSTEMD_UNITDIR)/rauc.service.d $(DESTDIR)$(PREFIX)/share/otattest/rauc
	sed 's|@RAUCLIBDIR@|$(RAUCLIBDIR)|g' systemd/rauc/otattest-rauc.conf \
		>$(DESTDIR)$(SYSTEMD_UNITDIR)/rauc.service.d/otattest-rauc.conf
	sed 's|@RAUCLIBDIR@|$(RAUCLIBDIR)|g' systemd/rauc/system.conf \
		>$(DESTDIR)$(PREFIX)/share/otattest/rauc/system.conf

# otattest.pc (libotattest/build.mk) holds PREFIX too: rebuild it with the unit.
$(OTA_PC): $(SYSTEMD_STAMP)
