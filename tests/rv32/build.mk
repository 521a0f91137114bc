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
