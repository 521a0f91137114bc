# Shared build settings. Every directory's build.mk adds to the lists at
# the bottom; the top-level Makefile turns them into targets.

B ?= build

# The one version number: debian/changelog's upstream version (the part
# before the Debian revision). The tools' --version, D-Bus's Version,
# otattest.pc, the packages and the man pages all take it from here;
# tests/tools/version.sh holds them to it. A change rebuilds what prints it
# ($(VERSION_STAMP) is rewritten only when the number differs).
OTATTEST_VERSION := $(shell sed -n '1s/^[^ ]* (\(.*\)-[^-]*).*/\1/p' debian/changelog)
ifeq ($(OTATTEST_VERSION),)
$(error debian/changelog: no upstream version on its first line)
endif
VERSION_CPPFLAGS := -DOTATTEST_VERSION='"$(OTATTEST_VERSION)"'
VERSION_STAMP := $(B)/version.stamp
$(shell mkdir -p $(B); [ "$$(cat $(VERSION_STAMP) 2>/dev/null)" = "$(OTATTEST_VERSION)" ] || \
	echo "$(OTATTEST_VERSION)" > $(VERSION_STAMP))
PREFIX ?= /usr/local
DESTDIR ?=

CC ?= cc
CLANG ?= clang
RV32_CC ?= riscv64-unknown-elf-gcc
RV32_SIZE ?= riscv64-unknown-elf-size

WARN := -Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wvla -Werror
CPPFLAGS_COMMON := -Ilibotattest/include -Iqemu-model/regs -Ifirmware/include -D_GNU_SOURCE
CFLAGS_COMMON := -std=gnu11 -O2 -g -fPIC $(WARN)

ifeq ($(SANITIZE),1)
CFLAGS_COMMON += -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS_COMMON += -fsanitize=address,undefined
endif

CPPFLAGS += $(CPPFLAGS_COMMON)
CFLAGS += $(CFLAGS_COMMON)
LDFLAGS += $(LDFLAGS_COMMON)

PKG_OPENSSL := $(shell pkg-config --cflags --libs libcrypto 2>/dev/null || echo -lcrypto)
PKG_CHECK := $(shell pkg-config --cflags --libs check 2>/dev/null || echo -lcheck)
PKG_SYSTEMD := $(shell pkg-config --cflags --libs libsystemd 2>/dev/null || echo -lsystemd)
PKG_MNL := $(shell pkg-config --cflags --libs libmnl 2>/dev/null || echo -lmnl)
PKG_UNICORN := $(shell pkg-config --cflags --libs unicorn 2>/dev/null || echo -lunicorn)
PKG_LIBELF := $(shell pkg-config --cflags --libs libelf 2>/dev/null || echo -lelf)

# Freestanding code (libotattest core, firmware) must not use libc beyond
# mem*/str*: it is also built for rv32imc with no libc at all. Debian's
# riscv64-unknown-elf-gcc ships no C library headers; picolibc's specs file
# supplies <string.h> for the mem*/str* declarations (objects only, no libc
# is linked).
FREESTANDING_FLAGS := -DOTA_FREESTANDING
RV32_FLAGS := --specs=picolibc.specs -march=rv32imc -mabi=ilp32 -Os -ffreestanding -fno-builtin \
	-nostdlib -ffunction-sections -fdata-sections -std=gnu11 $(WARN) \
	-Ilibotattest/include -Iqemu-model/regs -Ifirmware/include -DOTA_FREESTANDING

# Generic object rule: build/<path>.o from <path>.c, with dependency files.
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS_$(subst /,_,$(dir $<))) -MMD -MP -c -o $@ $<

# rv32 objects for `make size`, with dependency files like every object (a
# header change rebuilds them; tests/rv32/freestanding.sh checks).
$(B)/rv32/%.o: %.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(RV32_FLAGS) -MMD -MP -c -o $@ $<

# Lists each build.mk appends to.
ALL_TARGETS :=
UNIT_TESTS :=        # check-based test binaries (run plain and under ASan+UBSan)
TEST_SUITES :=       # other suites: executables printing "N passed, N failed"
TEST_SUITES_ALONE := # those of them that use every CPU or rewrite shared build
                     # files: run with nothing beside them (scripts/run-suites.sh)
FUZZ_TARGETS :=      # libFuzzer binaries
RV32_OBJS :=         # freestanding objects measured by `make size`
INSTALL_TARGETS :=
