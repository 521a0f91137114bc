# Firmware: freestanding boot stages and runtime, in the order they run,
# against firmware/include/hal.h (the chip) and firmware/include/firmware.h
# (what the board calls). Each folder uses only the folders before it:
#  drivers/  hal.h over the chip's registers (qemu-model/regs), one file per
#            block, through firmware/include/mmio.h: volatile accesses on
#            rv32, the model's bus on the host (docs/hal.md); the blocks not
#            converted yet are still implemented by qemu-model/chip
#  lib/      the shared checks: stage check (manifest, policy, tag fast path,
#            delegation, signatures), tag table, boot data, slots, retention,
#            and the handoff state one stage leaves for the next
#  rom/      ROM: the reset entry; verifies ROM_EXT with the creator keys in OTP
#  rom_ext/  ROM_EXT: verifies BL0, commits rotations, the SVN key chain, the
#            identity and alias keys and their certificates
#  runtime/  BL0: mailbox commands, attestation, stable keys, reset requests
FW_DIRS := drivers lib rom rom_ext runtime
FW_SRCS := $(foreach d,$(FW_DIRS),$(wildcard firmware/$(d)/*.c))
FW_OBJS := $(FW_SRCS:%.c=$(B)/%.o)
FW_A := $(B)/libotafw.a
$(foreach d,$(FW_DIRS),$(eval EXTRA_CFLAGS_firmware_$(d)_ := $(FREESTANDING_FLAGS)))

$(FW_A): $(FW_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(FW_A)
RV32_OBJS += $(FW_SRCS:%.c=$(B)/rv32/%.o)

# The delegation verifier with its containment check (seed 001 budgets
# about 2.0 KB of ROM_EXT): certificate signatures, chain structure and
# containment, certificate parsing and the constraint checks it calls
# (usage.o): libotattest core's, shared with otimage (stage_check.h). Hash
# and signature primitives are shared with every path and not counted.
DELEG_VERIFIER_OBJS := $(B)/rv32/libotattest/src/core/deleg_verify.o \
	$(B)/rv32/libotattest/src/core/deleg.o $(B)/rv32/libotattest/src/core/dlgc.o \
	$(B)/rv32/libotattest/src/core/usage.o

# Counted honestly, the delegation verifier also needs its policy checks
# (ota_policy_check: root key, depth, direct boot, hybrid, containment,
# revocation by floor) and the parsing of DLGC and DLGS out of the image's
# extension table (ota_manifest_ext_walk). Both are one function each in
# the -Os build, and both also serve images with no delegation, so this is
# an upper bound; the budget held is 3.5 KiB (docs/boot-flow.md).
DELEG_FULL_OBJS := $(DELEG_VERIFIER_OBJS) $(B)/rv32/libotattest/src/core/stage_policy.o \
	$(B)/rv32/libotattest/src/core/manifest_ext.o

.PHONY: size
size: $(RV32_OBJS)
	@scripts/size-report.sh $(B)/rv32 $(RV32_OBJS)
	@scripts/size-budget.sh "delegation verifier (deleg_verify+deleg+dlgc+usage)" 2048 $(DELEG_VERIFIER_OBJS)
	@scripts/size-budget.sh "delegation with policy and parsing (+stage_policy+manifest_ext)" 3584 $(DELEG_FULL_OBJS)

# Stage images for the emulated core (qemu-model/core; docs/hal.md, "Stage
# images"): the start-up code and linker scripts of firmware/base/, the
# stage's objects, lib and the drivers, and the libotattest core
# (--gc-sections keeps what the stage reaches), and firmware/base/hal_svc.c,
# the service calls for the blocks not behind registers yet. Every image
# links lib's objects in the same order, so the hand-off state (stage.ld)
# lies at the same addresses in each. ROM is the mask ROM the board loads
# at power-on; ROM_EXT runs from SRAM.
RV32_LD := $(RV32_CC) -march=rv32imc -mabi=ilp32 -nostdlib -nostartfiles -static \
	-Wl,--gc-sections -Wl,--no-warn-rwx-segments -Lqemu-model/regs -Lfirmware/base
FW_BASE_OBJS := $(B)/rv32/firmware/base/crt0.o $(B)/rv32/firmware/base/jump.o \
	$(B)/rv32/firmware/base/hal_svc.o
FW_STAGE_LDS := firmware/base/stage.ld qemu-model/regs/top_memory.ld
FW_COMMON_OBJS := $(filter $(B)/rv32/firmware/drivers/% $(B)/rv32/firmware/lib/% \
	$(B)/rv32/libotattest/%,$(RV32_OBJS))
# $(call fw_stage_link,linker script,entry function,stage objects)
fw_stage_link = $(RV32_LD) -T $(1) -Wl,--defsym=stage_main=$(2) -o $@ $(FW_BASE_OBJS) \
	-Wl,--start-group $(FW_COMMON_OBJS) $(3) -Wl,--end-group -lgcc

FW_ROM_ELF := $(B)/rv32/rom.elf
FW_ROM_OBJS := $(filter $(B)/rv32/firmware/rom/%,$(RV32_OBJS))
$(FW_ROM_ELF): $(FW_BASE_OBJS) $(FW_COMMON_OBJS) $(FW_ROM_OBJS) firmware/base/rom.ld $(FW_STAGE_LDS)
	$(call fw_stage_link,firmware/base/rom.ld,ota_rom_start,$(FW_ROM_OBJS))

FW_ROM_EXT_ELF := $(B)/rv32/rom_ext.elf
FW_ROM_EXT_OBJS := $(filter $(B)/rv32/firmware/rom_ext/%,$(RV32_OBJS))
$(FW_ROM_EXT_ELF): $(FW_BASE_OBJS) $(FW_COMMON_OBJS) $(FW_ROM_EXT_OBJS) firmware/base/rom_ext.ld \
		$(FW_STAGE_LDS)
	$(call fw_stage_link,firmware/base/rom_ext.ld,ota_rom_ext_start,$(FW_ROM_EXT_OBJS))

# BL0, the runtime: serves the mailbox over the mbox registers (serve.c).
FW_BL0_ELF := $(B)/rv32/bl0.elf
FW_BL0_OBJS := $(filter $(B)/rv32/firmware/runtime/%,$(RV32_OBJS))
$(FW_BL0_ELF): $(FW_BASE_OBJS) $(FW_COMMON_OBJS) $(FW_BL0_OBJS) firmware/base/bl0.ld $(FW_STAGE_LDS)
	$(call fw_stage_link,firmware/base/bl0.ld,ota_bl0_start,$(FW_BL0_OBJS))

# BL0 v2: the same sources, its version string (GET_INFO, runtime/info.c)
# the one difference, so an update to it changes the code that answers.
FW_BL0_V2_ELF := $(B)/rv32/bl0-v2.elf
FW_BL0_V2_OBJS := $(filter-out %/runtime/info.o,$(FW_BL0_OBJS)) $(B)/rv32/firmware/runtime/info-v2.o
$(B)/rv32/firmware/runtime/info-v2.o: firmware/runtime/info.c
	@mkdir -p $(dir $@)
	$(RV32_CC) $(RV32_FLAGS) -DOTA_BL0_VERSION='"2.0.0"' -MMD -MP -c -o $@ $<
$(FW_BL0_V2_ELF): $(FW_BASE_OBJS) $(FW_COMMON_OBJS) $(FW_BL0_V2_OBJS) firmware/base/bl0.ld \
		$(FW_STAGE_LDS)
	$(call fw_stage_link,firmware/base/bl0.ld,ota_bl0_start,$(FW_BL0_V2_OBJS))

ALL_TARGETS += $(FW_ROM_ELF) $(FW_ROM_EXT_ELF) $(FW_BL0_ELF) $(FW_BL0_V2_ELF)
