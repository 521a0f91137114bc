# The device model, in two layers around the firmware:
#  chip/   the emulated chip (below the firmware): the one implementation of
#          firmware/include/hal.h (OpenSSL 3 engines, keys in XOR shares,
#          flash/OTP/retention RAM as files). Unit tests and the board link it.
#  board/  otattest-model (above the firmware): ivshmem server and device
#          peer (one process, or split in a server and a device process),
#          mailbox, resets, control socket, fault injection (docs/model.md).
# Both take hex, numbers, files and JSON from libotattest-util (UTIL_A).
SWHAL_SRCS := $(wildcard qemu-model/chip/*.c)
SWHAL_A := $(B)/libswhal.a
MODEL_SRCS := $(wildcard qemu-model/board/*.c)
MODEL := $(B)/otattest-model

# The board drives the chip through its control header, swhal.h.
EXTRA_CFLAGS_qemu-model_board_ := -Iqemu-model/chip -Ifirmware/lib -Iqemu-model/core

# The board's firmware runner (fw_run.c) alone, for unit tests and benchmarks.
BOARD_FW_A := $(B)/libboardfw.a
$(BOARD_FW_A): $(B)/qemu-model/board/fw_run.o
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SWHAL_A): $(SWHAL_SRCS:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(MODEL): $(MODEL_SRCS:%.c=$(B)/%.o) $(B)/libcore.a $(FW_A) $(SWHAL_A) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) $(UTIL_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_OPENSSL) $(PKG_SYSTEMD) $(PKG_JSONC) $(PKG_UNICORN) -lelf

ALL_TARGETS += $(SWHAL_A) $(BOARD_FW_A)
ifneq ($(MODEL_SRCS),)
ALL_TARGETS += $(MODEL)
endif

# The register map (docs/registers.md): one description per block in
# qemu-model/regs/<block>.yaml and the chip's in top.yaml generate the
# firmware's <block>_regs.h, top_regs.h, the model's tables (chip/regs_gen.c)
# and docs/registers.md. regs-gen rewrites the committed files;
# qemu-model/regs/check-gen.sh, a suite of `make test`, fails when they
# differ from what the descriptions generate.
.PHONY: regs-gen regs-gen-check
regs-gen:
	/usr/bin/python3 qemu-model/regs/regtool.py write
regs-gen-check:
	B=$(B) qemu-model/regs/check-gen.sh
TEST_SUITES += qemu-model/regs/check-gen.sh

# The emulated rv32imc core (qemu-model/core/, docs/model.md): Unicorn's
# RISC-V CPU with the chip's memory map, register blocks as MMIO into the
# chip's bus, ELF loading with libelf. Not in the model's boot path yet;
# tests/unit/test_core runs an image on it.
CORE_SRCS := $(wildcard qemu-model/core/*.c)
CORE_A := $(B)/libcore.a
EXTRA_CFLAGS_qemu-model_core_ := -Iqemu-model/chip
$(CORE_A): $(CORE_SRCS:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
ALL_TARGETS += $(CORE_A)
