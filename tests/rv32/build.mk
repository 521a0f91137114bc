# The firmware and libotattest core as the device would carry them: built
# for rv32imc -Os with no C library (make size), held to their rules.
#  freestanding.sh  every object compiles for rv32imc; nothing outside the
#                   objects is called but hal.h and compiler helpers; the
#                   delegation verifier stays within its 2048-byte budget
RV32_CHECK := tests/rv32/freestanding.sh

# The objects the check reads, one per line (the list `make size` builds).
.PHONY: rv32-objs
rv32-objs:
	@printf '%s\n' $(RV32_OBJS)

# `make $(TEST_SUITES)` builds what each suite runs.
$(RV32_CHECK): $(RV32_OBJS)

TEST_SUITES += $(RV32_CHECK)

# An image for the emulated core (qemu-model/core): the firmware's start-up
# code and ROM linker script (firmware/base/), the drivers of the converted
# blocks, and tests/rv32/core_probe.c; tests/unit/test_core runs it on
# Unicorn against the chip. Not among RV32_OBJS: an image links what the
# objects leave open.
CORE_PROBE := $(B)/rv32/core_probe.elf
CORE_PROBE_OBJS := $(B)/rv32/firmware/base/crt0.o $(B)/rv32/tests/rv32/core_probe.o \
	$(B)/rv32/firmware/drivers/rom_ctrl.o $(B)/rv32/firmware/drivers/rstmgr.o \
	$(B)/rv32/firmware/drivers/rv_timer.o $(B)/rv32/firmware/lib/rv32_libc.o
$(B)/rv32/%.o: %.S
	@mkdir -p $(dir $@)
	$(RV32_CC) $(RV32_FLAGS) -MMD -MP -c -o $@ $<
$(CORE_PROBE): $(CORE_PROBE_OBJS) firmware/base/rom.ld $(FW_STAGE_LDS)
	$(RV32_LD) -T firmware/base/rom.ld -o $@ $(CORE_PROBE_OBJS) -lgcc

$(B)/tests/unit/test_core.o: CPPFLAGS += -DOTA_CORE_PROBE='"$(abspath $(CORE_PROBE))"' \
	-DOTA_ROM_ELF='"$(abspath $(FW_ROM_ELF))"' -DOTA_ROM_EXT_ELF='"$(abspath $(FW_ROM_EXT_ELF))"' \
	-DOTA_BL0_ELF='"$(abspath $(FW_BL0_ELF))"' -DOTA_BL0_V2_ELF='"$(abspath $(FW_BL0_V2_ELF))"' \
	-Iqemu-model/core -Itests/rv32 -Iqemu-model/board
$(B)/tests/unit/test_core: $(B)/tests/unit/test_core.o $(B)/qemu-model/board/fw_core.o $(CORE_A) \
	$(UNIT_LINK) | $(CORE_PROBE) $(FW_ROM_ELF) $(FW_ROM_EXT_ELF) $(FW_BL0_ELF) $(FW_BL0_V2_ELF)
	$(CC) $(LDFLAGS) -o $@ $< $(B)/qemu-model/board/fw_core.o $(CORE_A) $(UNIT_LINK) $(PKG_OPENSSL) \
		$(PKG_JSONC) $(PKG_CHECK) $(PKG_UNICORN) -lelf
ALL_TARGETS += $(CORE_PROBE)

# A compromised BL0 (issue 27, tests/rv32/hostile/): BL0's own objects and
# hostile.c, which takes the attacker's orders over the mailbox and runs
# each attack against the chip's registers, memory and service calls;
# linked as BL0 is (firmware/base/bl0.ld). tests/unit/test_hostile signs it
# with a valid owner key and boots it behind the real ROM and ROM_EXT.
HOSTILE_BL0 := $(B)/rv32/hostile-bl0.elf
HOSTILE_OBJS := $(B)/rv32/tests/rv32/hostile/hostile.o
$(HOSTILE_BL0): $(FW_BASE_OBJS) $(FW_COMMON_OBJS) $(FW_BL0_OBJS) $(HOSTILE_OBJS) firmware/base/bl0.ld \
		$(FW_STAGE_LDS)
	$(call fw_stage_link,firmware/base/bl0.ld,hostile_bl0_start,$(FW_BL0_OBJS) $(HOSTILE_OBJS))
ALL_TARGETS += $(HOSTILE_BL0)

$(B)/tests/unit/test_hostile.o: CPPFLAGS += -DOTA_ROM_ELF='"$(abspath $(FW_ROM_ELF))"' \
	-DOTA_ROM_EXT_ELF='"$(abspath $(FW_ROM_EXT_ELF))"' \
	-DOTA_HOSTILE_BL0_ELF='"$(abspath $(HOSTILE_BL0))"' \
	-Iqemu-model/core -Itests/rv32/hostile -Iqemu-model/board
$(B)/tests/unit/test_hostile: $(B)/tests/unit/test_hostile.o $(B)/qemu-model/board/fw_core.o $(CORE_A) \
	$(UNIT_LINK) | $(FW_ROM_ELF) $(FW_ROM_EXT_ELF) $(HOSTILE_BL0)
	$(CC) $(LDFLAGS) -o $@ $< $(B)/qemu-model/board/fw_core.o $(CORE_A) $(UNIT_LINK) $(PKG_OPENSSL) \
		$(PKG_JSONC) $(PKG_CHECK) $(PKG_UNICORN) -lelf

# The hostile BL0 run by the fuzzer (tests/fuzz/fuzz_hostile_bl0.c): the
# evidence fixture's device (check, the software HAL, otimage) plus the
# core and the board's core runner; the images it boots are built first.
FUZZ_SRCS_fuzz_hostile_bl0 = $(FUZZ_SRCS_fuzz_evidence_claims) $(CORE_SRCS) qemu-model/board/fw_core.c
FUZZ_LDLIBS_fuzz_hostile_bl0 = $(FUZZ_LDLIBS_fuzz_evidence_claims) -Iqemu-model/core -Itests/rv32/hostile \
	-DOTA_ROM_ELF='"$(abspath $(FW_ROM_ELF))"' -DOTA_ROM_EXT_ELF='"$(abspath $(FW_ROM_EXT_ELF))"' \
	-DOTA_HOSTILE_BL0_ELF='"$(abspath $(HOSTILE_BL0))"' $(PKG_UNICORN) -lelf
$(FUZZ_B)/obj/hosted/qemu-model/board/fw_core.o: FUZZ_HOSTED_FLAGS += -Iqemu-model/core
$(FUZZ_B)/fuzz_hostile_bl0: $(FUZZ_SRCS_fuzz_hostile_bl0) tests/rv32/hostile/hostile.h | $(FW_ROM_ELF) \
	$(FW_ROM_EXT_ELF) $(HOSTILE_BL0)
