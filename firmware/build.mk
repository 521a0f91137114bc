# Firmware: freestanding boot stages and runtime against firmware/include/hal.h.
#  boot/     the stage check shared by ROM and ROM_EXT (manifest, policy, tag
#            fast path, delegation, signatures), tag table, boot data, slots
#  rom/      ROM: verifies ROM_EXT with the creator keys in OTP
#  rom_ext/  ROM_EXT: verifies BL0 with the owner config and delegation chain
#  runtime/  BL0: SVN key chain, evidence, certificates, mailbox commands
#  otimage/  the host signing tool (OpenSSL); lib*.c is also linked by tests
FW_SRCS := $(wildcard firmware/boot/*.c firmware/rom/*.c firmware/rom_ext/*.c firmware/runtime/*.c)
FW_OBJS := $(FW_SRCS:%.c=$(B)/%.o)
FW_A := $(B)/libotafw.a
EXTRA_CFLAGS_firmware_boot_ := $(FREESTANDING_FLAGS)
EXTRA_CFLAGS_firmware_rom_ := $(FREESTANDING_FLAGS)
EXTRA_CFLAGS_firmware_rom_ext_ := $(FREESTANDING_FLAGS)
EXTRA_CFLAGS_firmware_otimage_ += -Iqemu-model/hal
EXTRA_CFLAGS_firmware_runtime_ := $(FREESTANDING_FLAGS)

$(FW_A): $(FW_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

OTIMAGE_LIB_SRCS := $(filter-out firmware/otimage/main.c,$(wildcard firmware/otimage/*.c))
OTIMAGE_LIB_A := $(B)/libotimage.a
OTIMAGE := $(B)/otimage

$(OTIMAGE_LIB_A): $(OTIMAGE_LIB_SRCS:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# libswhal: provision computes the identity public key with the key manager's code.
$(OTIMAGE): $(B)/firmware/otimage/main.o $(OTIMAGE_LIB_A) $(B)/libswhal.a $(LIBOTA_HOST_A) $(LIBOTA_CORE_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_OPENSSL)

ALL_TARGETS += $(FW_A)
ifneq ($(wildcard firmware/otimage/main.c),)
ALL_TARGETS += $(OTIMAGE)
endif
RV32_OBJS += $(FW_SRCS:%.c=$(B)/rv32/%.o)

# The delegation verifier with its containment check (seed 001 budgets
# about 2.0 KB of ROM_EXT): certificate signatures, chain structure and
# containment, certificate parsing and the constraint checks it calls
# (usage.o). Hash and signature primitives are shared with every path and
# not counted.
DELEG_VERIFIER_OBJS := $(B)/rv32/firmware/boot/deleg_verify.o \
	$(B)/rv32/libotattest/src/core/deleg.o $(B)/rv32/libotattest/src/core/dlgc.o \
	$(B)/rv32/libotattest/src/core/usage.o

.PHONY: size
size: $(RV32_OBJS)
	@scripts/size-report.sh $(B)/rv32 $(RV32_OBJS)
	@scripts/size-budget.sh "delegation verifier (deleg_verify+deleg+dlgc+usage)" 2048 $(DELEG_VERIFIER_OBJS)
