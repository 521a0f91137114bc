// SPDX-License-Identifier: MIT
/*
 * The device itself: the software HAL (qemu-model/chip, the same emulated
 * hardware the unit tests use) with the firmware running on it. This file
 * is the only one that knows about either; the rest of the model sees
 * power, commands, flash and OTP through model.h.
 *
 * The firmware runs synchronously on the event loop's thread: a mailbox
 * command that resets the device (rotation, update or warm reset) runs
 * the whole reset before it returns, publishing states, progress and
 * records through the host ops as it goes, exactly as a single-hart
 * device would while the host waits for its doorbell.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otattest/flash.h>
#include <otattest/otp.h>
#include <otu/file.h>

#include "core.h"
#include "firmware.h"
#include "fw_run.h"
#include "hal.h"
#include "model.h"
#include "swhal.h"

/* ---- what the device publishes --------------------------------------- */

static void on_record(void *ctx, const struct ota_record_header *rec, uint32_t len)
{
	model_publish_record(ctx, rec, len);
}

static void on_state(void *ctx, uint32_t state, uint32_t detail)
{
	model_publish_state(ctx, state, detail);
}

static void on_progress(void *ctx, uint32_t done, uint32_t total)
{
	model_publish_progress(ctx, done, total);
}

/*
 * The die-at-flash-write fault fired: the HAL left the page torn and
 * persisted it. Die the way a power cut kills a device, with no cleanup,
 * so the harness sees exactly what a SIGKILL leaves behind.
 */
static void on_power_loss(void *ctx)
{
	struct swhal_tear_report t;

	(void)ctx;
	/* Which write tore and how much of it landed: the moment of the cut. */
	if (swhal_last_tear(&t))
		log_error("fault-power-loss",
			  "flash-writes=%llu write=%s addr=0x%x length=%u landed=%u changed=%u "
			  "of=%u action=sigkill",
			  (unsigned long long)swhal_flash_writes(), t.erase ? "erase" : "program",
			  t.addr, t.len, t.landed, t.changed, t.would_change);
	else
		log_error("fault-power-loss", "flash-writes=%llu action=sigkill",
			  (unsigned long long)swhal_flash_writes());
	raise(SIGKILL);
	_exit(137); /* not reached */
}

/* ---- lifecycle ------------------------------------------------------- */

/* A whole image file of at most max bytes: libotattest-util's bounded read. */
static int read_file(const char *path, uint8_t **out, uint32_t max, uint32_t *len)
{
	size_t n;
	int r = otu_read_file(path, max, out, &n);

	if (r == 0)
		*len = (uint32_t)n;
	return r;
}

static int factory_load(const char *what, const char *path, uint32_t max,
			int (*load)(const void *, uint32_t))
{
	uint8_t *image = NULL;
	uint32_t len = 0;
	int r;

	r = read_file(path, &image, max, &len);
	if (r == 0)
		r = load(image, len);
	free(image);
	if (r < 0)
		log_error("factory-load-failed", "what=%s path=\"%s\" errno=%d", what, path, -r);
	else
		log_info("factory-load", "what=%s path=\"%s\" bytes=%u", what, path, len);
	return r;
}

int device_open(struct model *m)
{
	struct swhal_options opt = {
		.flash_size = m->opt.flash_size,
		.no_fsync = m->opt.no_fsync,
	};
	struct swhal_host_ops ops = {
		.record = on_record,
		.state = on_state,
		.progress = on_progress,
		.power_loss = on_power_loss,
	};
	int r;

	if (mkdir(m->opt.state_dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	r = swhal_open(m->opt.state_dir, &opt);
	if (r < 0) {
		log_error("state-open-failed", "state-dir=%s errno=%d", m->opt.state_dir, -r);
		return r;
	}
	m->device.open = true;
	swhal_set_host_ops(&ops, m);
	if (m->opt.load_flash &&
	    (r = factory_load("flash", m->opt.load_flash, SWHAL_MAX_FLASH_SIZE, swhal_load_flash)) < 0)
		return r;
	if (m->opt.load_otp &&
	    (r = factory_load("otp", m->opt.load_otp, sizeof(struct ota_otp), swhal_load_otp)) < 0)
		return r;
	log_info("state-open", "state-dir=%s flash-size=%u", m->opt.state_dir, hal_flash_size());
	if (m->opt.core_rv32) {
		r = ota_fw_core_open(m->opt.rom_image);
		if (r < 0) {
			log_error("core-open-failed", "rom-image=\"%s\" errno=%d", m->opt.rom_image, -r);
			return r;
		}
		log_info("core-open", "core=rv32 rom-image=\"%s\"", m->opt.rom_image);
	}
	return 0;
}

/*
 * The board's trace of a run on the core: instructions retired in each
 * stage's window and the first PC fetched there (0: the stage never ran
 * an instruction), how the run ended.
 */
static void log_core_run(enum log_level level, const char *what, const struct core_result *r)
{
	static const char *const stops[] = {
		[CORE_STOP_RETURNED] = "returned", [CORE_STOP_FAULT] = "fault",
		[CORE_STOP_LIMIT] = "limit",       [CORE_STOP_WAIT] = "wait",
	};
	const char *stop = r->stop < sizeof(stops) / sizeof(stops[0]) && stops[r->stop]
				   ? stops[r->stop] : "none";

	log_event(level, what,
		 "stop=%s pc=0x%08x insns=%llu rom-insns=%llu rom-first-pc=0x%08x "
		 "rom-ext-insns=%llu rom-ext-first-pc=0x%08x bl0-insns=%llu bl0-first-pc=0x%08x "
		 "svc-calls=%u fault=%s fault-addr=0x%08x device-cycles=%llu host-ns=%llu",
		 stop, r->pc, (unsigned long long)r->insns,
		 (unsigned long long)r->window_insns[OTA_FW_CORE_ROM], r->window_first_pc[OTA_FW_CORE_ROM],
		 (unsigned long long)r->window_insns[OTA_FW_CORE_ROM_EXT],
		 r->window_first_pc[OTA_FW_CORE_ROM_EXT],
		 (unsigned long long)r->window_insns[OTA_FW_CORE_BL0], r->window_first_pc[OTA_FW_CORE_BL0],
		 r->svc_calls, r->fault ? status_str(r->fault) : "none", r->fault_addr,
		 (unsigned long long)r->cycles, (unsigned long long)r->host_ns);
}

void device_close(struct model *m)
{
	if (!m->device.open)
		return;
	ota_fw_core_close();
	swhal_set_host_ops(&(struct swhal_host_ops){ 0 }, NULL);
	swhal_close();
	m->device.open = false;
}

ota_status_t device_power_cycle(struct model *m)
{
	ota_status_t st;

	mbox_cancel_pending(m);
	if (swhal_powered()) {
		swhal_power_off();
		model_publish_state(m, OTA_DEV_OFF, OTA_OK);
	}
	if (swhal_power_on() < 0) {
		log_error("power-on-failed", "state-dir=%s", m->opt.state_dir);
		model_publish_state(m, OTA_DEV_FAILED, OTA_HAL_POWER_LOST);
		m->device.boot_status = OTA_HAL_POWER_LOST;
		return OTA_HAL_POWER_LOST;
	}
	m->device.boots++;
	st = ota_fw_boot(OTA_RESET_COLD);
	m->device.boot_status = st;
	m->device.flash_writes = swhal_flash_writes();
	log_info("cold-boot", "boot=%u status=%s flash-writes=%llu", m->device.boots,
		 status_str(st), (unsigned long long)m->device.flash_writes);
	if (m->opt.core_rv32)
		log_core_run(LOG_LVL_INFO, "core-boot", ota_fw_core_boot_result());
	return st;
}

ota_status_t device_command(struct model *m, uint32_t command, const uint8_t *req,
			    uint32_t req_len, uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len)
{
	const struct core_result *boot = m->opt.core_rv32 ? ota_fw_core_boot_result() : NULL;
	uint64_t boot_insns = boot ? boot->insns : 0;
	ota_status_t st = ota_fw_command(command, req, req_len, resp, resp_cap, resp_len);

	m->device.flash_writes = swhal_flash_writes();
	if (boot) {
		/* A request that reset the device: the boot that answered it, from ROM. */
		if (boot->insns != boot_insns)
			log_core_run(LOG_LVL_INFO, "core-boot", boot);
		if (log_enabled(LOG_LVL_DEBUG))
			log_core_run(LOG_LVL_DEBUG, "core-request", ota_fw_core_request_result());
	}
	/* BL0's loop goes on after each request: a long one costs no bite. */
	if (!device_runtime_hung(m))
		ota_fw_idle();
	return st;
}

/* The BL0 slot that runs, from the record the firmware last published (either core). */
static uint32_t running_bl0_slot(const struct model *m)
{
	const struct ota_record_header *h = (const struct ota_record_header *)m->shm.record;

	if (!m->shm.have_record || m->shm.record_len < sizeof(*h) ||
	    ota_record_validate(h, m->shm.record_len) != OTA_OK || h->boot_status != OTA_OK ||
	    !(h->flags & OTA_RECORD_F_UPDATE_SECTION))
		return OTA_RECORD_NO_SLOT;
	return ota_record_update_of(h)->running_bl0_slot;
}

bool device_runtime_hung(const struct model *m)
{
	uint32_t slot = running_bl0_slot(m);

	return swhal_powered() && slot < OTA_SLOT_COUNT && (m->device.hang_slots & (1u << slot));
}

void device_watchdog_tick(struct model *m)
{
	ota_status_t st;

	if (!m->device.open || !swhal_powered())
		return;
	if (!device_runtime_hung(m))
		ota_fw_idle();
	if (!swhal_wdog_due())
		return;
	log_warn("watchdog-bite", "bl0-slot=%u hung=%s", running_bl0_slot(m),
		 device_runtime_hung(m) ? "yes" : "no");
	mbox_cancel_pending(m);
	m->device.bites++;
	st = swhal_wdog_bite();
	if (st == OTA_OK)
		st = ota_fw_boot(OTA_RESET_WARM);
	m->device.boot_status = st;
	m->device.boots++;
	m->device.flash_writes = swhal_flash_writes();
	log_info("watchdog-boot", "boot=%u status=%s bl0-slot=%u", m->device.boots, status_str(st),
		 running_bl0_slot(m));
}

void device_set_flash_fault(struct model *m, uint64_t nth)
{
	(void)m;
	if (nth > UINT32_MAX)
		nth = UINT32_MAX;
	swhal_fault_flash((uint32_t)nth, nth ? SWHAL_FAULT_POWER_LOSS : SWHAL_FAULT_NONE);
}

void device_set_flash_latency(struct model *m)
{
	swhal_set_flash_latency(m->faults.flash_latency_us);
}

void device_set_flash_tear(struct model *m)
{
	static const enum swhal_tear_kind kinds[] = {
		[FAULT_TEAR_HALF] = SWHAL_TEAR_HALF,
		[FAULT_TEAR_BYTES] = SWHAL_TEAR_BYTES,
		[FAULT_TEAR_ALL_BUT_WORD] = SWHAL_TEAR_ALL_BUT_WORD,
		[FAULT_TEAR_ALL] = SWHAL_TEAR_ALL,
	};
	struct swhal_tear how = { .kind = kinds[m->faults.flash_tear],
				  .bytes = m->faults.flash_tear_bytes };

	swhal_fault_flash_tear(&how);
}

/* ---- flash and OTP, as an update agent and a fuse programmer would ---- */

static ota_status_t slot_region(uint32_t stage, uint32_t slot, struct ota_flash_region *out)
{
	struct ota_flash_layout layout;
	const struct ota_flash_region *r;

	OTA_TRY(hal_flash_read(0, &layout, sizeof(layout)));
	OTA_TRY(ota_flash_layout_check(&layout, hal_flash_size()));
	r = ota_flash_layout_region(&layout, ota_region_for_slot(stage, slot));
	*out = *r;
	return OTA_OK;
}

/* Whether a flash page reads all 0xff. */
static ota_status_t page_blank(uint32_t addr, uint32_t page, bool *blank)
{
	uint8_t buf[OTA_FLASH_PAGE_SIZE];

	*blank = false;
	if (page > sizeof(buf))
		return OTA_OK; /* not a page size we know: just erase it */
	OTA_TRY(hal_flash_read(addr, buf, page));
	*blank = true;
	for (uint32_t i = 0; i < page; i++)
		if (buf[i] != 0xff)
			*blank = false;
	return OTA_OK;
}

ota_status_t device_install(struct model *m, uint32_t stage, uint32_t slot, const char *path,
			    uint32_t *written)
{
	struct ota_flash_region region;
	uint32_t page = hal_flash_page_size(), len = 0, off;
	uint8_t *image = NULL;
	ota_status_t st;
	int r;

	OTA_TRY(slot_region(stage, slot, &region));
	r = read_file(path, &image, region.size, &len);
	if (r == -EFBIG)
		return OTA_MODEL_IMAGE_TOO_LARGE;
	if (r < 0) {
		log_warn("install-read-failed", "path=\"%s\" errno=%d", path, -r);
		return OTA_HOST_IO;
	}
	/*
	 * Erase the slot, then program the image page by page. Pages that
	 * are already blank are skipped, as flash drivers do: an erase is the
	 * slow, wearing operation, and skipping blank ones leaves the same
	 * contents.
	 */
	st = OTA_OK;
	/* Like a lab programmer on the flash: the boot stages' write protection is not for it. */
	swhal_external_programmer(true);
	for (off = 0; off < region.size && st == OTA_OK; off += page) {
		bool blank;

		st = page_blank(region.offset + off, page, &blank);
		if (st == OTA_OK && !blank)
			st = hal_flash_erase_page(region.offset + off);
	}
	for (off = 0; off < len && st == OTA_OK; off += page)
		st = hal_flash_program(region.offset + off, image + off,
				       len - off < page ? len - off : page);
	swhal_external_programmer(false);
	free(image);
	m->device.flash_writes = swhal_flash_writes();
	if (st != OTA_OK)
		return st;
	*written = len;
	log_info("install", "stage=%u slot=%u offset=0x%x bytes=%u", stage, slot, region.offset,
		 len);
	return OTA_OK;
}

/* Read-modify-program of a thermometer counter: it may only go up. */
/*
 * The fuse programmer is outside the chip: the lock ROM_EXT puts on the
 * OTP counters (hal_otp_lock_counters) holds firmware back, not it.
 */
static ota_status_t fuse(uint32_t offset, const void *buf, uint32_t len)
{
	ota_status_t st;

	swhal_external_programmer(true);
	st = hal_otp_program(offset, buf, len);
	swhal_external_programmer(false);
	return st;
}

static ota_status_t raise_counter(uint32_t offset, uint32_t nbytes, uint32_t value)
{
	uint8_t bits[OTA_OTP_FLOOR_BITS / 8];
	uint32_t current;

	if (nbytes > sizeof(bits) || value > nbytes * 8u)
		return OTA_HOST_BAD_ARGUMENT;
	OTA_TRY(hal_otp_read(offset, bits, nbytes));
	OTA_TRY(ota_thermometer_decode(bits, nbytes, &current));
	if (value < current)
		return OTA_OTP_CLEARS_BITS;
	ota_thermometer_encode(bits, nbytes, value);
	return fuse(offset, bits, nbytes);
}

ota_status_t device_otp_floor(struct model *m, uint32_t stage, uint32_t value)
{
	uint32_t off = stage == OTA_STAGE_ROM_EXT ? offsetof(struct ota_otp, floor_rom_ext)
						  : offsetof(struct ota_otp, floor_bl0);
	ota_status_t st = raise_counter(off, OTA_OTP_FLOOR_BITS / 8u, value);

	(void)m;
	if (st == OTA_OK)
		log_info("otp-floor", "stage=%u floor=%u", stage, value);
	return st;
}

ota_status_t device_otp_epoch(struct model *m, uint32_t value)
{
	ota_status_t st = raise_counter(offsetof(struct ota_otp, epoch), OTA_OTP_EPOCH_BITS / 8u,
					value);

	(void)m;
	if (st == OTA_OK)
		log_info("otp-epoch", "epoch=%u", value);
	return st;
}

/*
 * Leave manufacturing: program the lifecycle transition word, the one move
 * otp.h allows (ota_otp_lifecycle_move decides, as for otimage fuse).
 */
ota_status_t device_otp_lifecycle(struct model *m, uint32_t lifecycle)
{
	uint32_t provisioned, transition, next;
	ota_status_t st;

	(void)m;
	OTA_TRY(hal_otp_read(offsetof(struct ota_otp, lifecycle), &provisioned, 4));
	OTA_TRY(hal_otp_read(offsetof(struct ota_otp, lifecycle_transition), &transition, 4));
	OTA_TRY(ota_otp_lifecycle_move(provisioned, transition, lifecycle, &next));
	if (next == transition)
		return OTA_OK; /* already there */
	st = fuse(offsetof(struct ota_otp, lifecycle_transition), &next, 4);
	if (st == OTA_OK)
		log_info("otp-lifecycle", "lifecycle=%s", ota_lifecycle_name(lifecycle));
	return st;
}

ota_status_t device_otp_revoke(struct model *m, bool creator, uint32_t index)
{
	uint32_t word = OTA_OTP_REVOKED;
	uint32_t off = (creator ? offsetof(struct ota_otp, creator_key_revoked)
				: offsetof(struct ota_otp, owner_key_revoked)) +
		       index * (uint32_t)sizeof(uint32_t);
	ota_status_t st;

	(void)m;
	if (index >= 4u)
		return OTA_HOST_BAD_ARGUMENT;
	st = fuse(off, &word, sizeof(word));
	if (st == OTA_OK)
		log_info("otp-revoke", "kind=%s index=%u", creator ? "creator" : "owner", index);
	return st;
}
