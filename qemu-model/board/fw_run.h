/* SPDX-License-Identifier: MIT */
/*
 * The board running the firmware on the emulated chip, as the CPU and the
 * reset manager would: the stages in order at every reset, and mailbox
 * requests with the resets they ask for. The model's device process and
 * the unit tests drive the firmware through these calls only.
 */
#ifndef OTATTEST_BOARD_FW_RUN_H
#define OTATTEST_BOARD_FW_RUN_H

#include <otattest/shm.h>
#include <otattest/status.h>

/*
 * Run the stages after a reset the caller performed (swhal_power_on for a
 * cold boot): ROM, then ROM_EXT when ROM hands off. Returns the boot
 * status (OTA_OK when a runtime runs).
 */
ota_status_t ota_fw_boot(uint32_t reset_reason);

/*
 * One mailbox request to the runtime. When it asks for a reset, perform
 * it, boot, and return the response the runtime that booted gives.
 */
ota_status_t ota_fw_command(uint32_t command, const uint8_t *req, uint32_t req_len,
			    uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);

/*
 * The runtime's main loop between requests, which the board runs as a
 * timer would wake it (every 100 ms, watchdog.c, and after each request):
 * BL0's idle step, which pets the watchdog ROM_EXT armed. With the core,
 * the image's own loop runs (the core resumed from its wait until it
 * waits again); a core that faulted or spun past its limit runs nothing,
 * so nothing pets and the watchdog bites.
 */
void ota_fw_idle(void);

/* The reset commands as one call each, for tests and benchmarks. */
ota_status_t ota_fw_rotate_tags(struct ota_resp_rotate *out);
ota_status_t ota_fw_update_reset(uint32_t slot, struct ota_resp_reset *out);
ota_status_t ota_fw_warm_reset(struct ota_resp_reset *out);

/*
 * Who runs the firmware: NULL (the default) for the stages compiled into
 * the board; the emulated core registers its own (fw_core.c) when opened.
 */
struct ota_fw_runner {
	ota_status_t (*boot)(uint32_t reset_reason);
	ota_status_t (*command)(uint32_t command, const uint8_t *req, uint32_t req_len,
				uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);
	void (*idle)(void);
};
void ota_fw_set_runner(const struct ota_fw_runner *r);

/*
 * The stage images on the emulated core (fw_core.c; otattest-model
 * --core=rv32, docs/model.md): open loads the mask ROM image (an rv32
 * ELF executable, build/rv32/rom.elf) into the core's ROM; from then on
 * ota_fw_boot and ota_fw_command run the core instead of the stages
 * compiled into the board: every reset starts it at ROM's entry, ROM and
 * ROM_EXT jump to what they verified, BL0 serves the mailbox over the
 * mbox registers. 0 or a negative errno (ENOEXEC: not an rv32 executable
 * for this memory map).
 */
int ota_fw_core_open(const char *rom_elf);
void ota_fw_core_close(void);

/* The watch windows of the board's core: each stage's code (core.h, core_watch). */
enum { OTA_FW_CORE_ROM = 0, OTA_FW_CORE_ROM_EXT = 1, OTA_FW_CORE_BL0 = 2 };

/* The core's last boot run (from ROM's entry), and the last request's run (core.h). */
struct core_result;
const struct core_result *ota_fw_core_boot_result(void);
const struct core_result *ota_fw_core_request_result(void);
/* The board's core itself, for tests that read its memory (core_mem_read); NULL when not open. */
struct core *ota_fw_core(void);
/*
 * The most instructions a request may run before the board halts the
 * core (as for a fault: the device answers nothing until the next reset);
 * 0 restores the default, more than any request takes. A fuzzer that
 * runs attacker code sets a small one so that a spin ends.
 */
void ota_fw_core_set_request_limit(uint64_t max_insns);

#endif /* OTATTEST_BOARD_FW_RUN_H */
