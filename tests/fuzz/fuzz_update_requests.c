// SPDX-License-Identifier: MIT
/*
 * The update commands (install, commit, ratchet, revoke: mailbox 10-15)
 * on hostile requests, through the board's own path (ota_fw_command, so
 * the resets they ask for happen and ROM_EXT judges what is left for it).
 * Each input is a sequence of requests - a byte for the command (taken
 * modulo the six), a u16 (LE) whose low 15 bits say how many body bytes
 * follow and whose top bit asks for the command's exact length (the body
 * zero-padded or cut) rather than the body's own, then the body - on a
 * device booted once at start-up and put back before every input. Properties:
 *  - nothing crashes or reads out of bounds;
 *  - a refused request leaves flash and OTP exactly as they were;
 *  - no revocation is ever applied (the fuzzer holds no key of the device);
 *  - the published record validates after every request.
 * Installs do succeed when the fuzzer streams a whole signed image (the
 * unit tests' BL0 at SVN 6 is the seed), so that path is reached too.
 * FUZZ_UPDATE_WRITE_SEED=<file> writes that seed.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/file.h>

#include "fw_run.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t commands[] = { OTA_CMD_INSTALL_BEGIN, OTA_CMD_INSTALL_CHUNK,
				     OTA_CMD_INSTALL_FINISH, OTA_CMD_COMMIT,
				     OTA_CMD_RATCHET, OTA_CMD_REVOKE };
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static struct tu_device dev;
static uint8_t *flash0, *flash_before;
static uint32_t flash_len;
static struct ota_otp otp0, otp_before;
static uint8_t ret0[HAL_RETENTION_BYTES];
static uint8_t req[OTA_MBOX_REQUEST_MAX_ANY], resp[OTA_MBOX_RESPONSE_MAX_ANY];

static void die(const char *why)
{
	fprintf(stderr, "fuzz_update_requests: %s\n", why);
	abort();
}

static void snapshot(uint8_t *flash, struct ota_otp *otp)
{
	if (swhal_peek_flash(0, flash, flash_len) != 0 || swhal_peek_otp(0, otp, sizeof(*otp)) != 0)
		die("peek");
}

#define EXACT_LENGTH 0x8000u

/* One request of the seed: the command index, its body length with EXACT_LENGTH, the body. */
static size_t seed_put(uint8_t *out, uint32_t index, const void *body, size_t len)
{
	uint32_t h = (uint32_t)len | EXACT_LENGTH;

	out[0] = (uint8_t)index;
	out[1] = (uint8_t)h;
	out[2] = (uint8_t)(h >> 8);
	memcpy(out + 3, body, len);
	return len + 3;
}

/* BEGIN, the chunks and FINISH of the unit tests' BL0 v2 into B: a whole install. */
static void write_seed(const char *path)
{
	struct tu_blob img = tu_bl0(1, 6, false);
	static uint8_t seed[1u << 20];
	struct ota_req_install_begin b = { OTA_STAGE_BL0, OTA_SLOT_B, (uint32_t)img.len, 0 };
	struct ota_req_install_finish f = { 0, 0 };
	static struct ota_req_install_chunk c;
	size_t n = 0, off, k;

	n += seed_put(seed + n, 0, &b, sizeof(b));
	for (off = 0; off < img.len; off += k) {
		k = img.len - off < OTA_INSTALL_CHUNK_MAX ? img.len - off : OTA_INSTALL_CHUNK_MAX;
		memset(&c, 0, sizeof(c));
		c.offset = (uint32_t)off;
		c.length = (uint32_t)k;
		memcpy(c.data, img.data + off, k);
		/* Trailing zeros of a chunk are the padding the exact length adds back. */
		n += seed_put(seed + n, 1, &c, 8 + k);
	}
	n += seed_put(seed + n, 2, &f, sizeof(f));
	if (otu_write_file_atomic(path, seed, n, 0644, OTU_WRITE_NO_SYNC) != 0)
		die("cannot write the seed");
	tu_blob_free(&img);
}

static const char *seed_path;

/* The fixture asserts with check: set the device up as one test, in this process. */
START_TEST(boot_device)
{
	tu_keys_warm(false);
	tu_device_init(&dev);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	flash_len = hal_flash_size();
	flash0 = malloc(flash_len);
	flash_before = malloc(flash_len);
	ck_assert(flash0 && flash_before);
	snapshot(flash0, &otp0);
	ck_assert_int_eq(swhal_peek_retention(0, ret0, sizeof(ret0)), 0);
	if (seed_path)
		write_seed(seed_path);
}
END_TEST

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	seed_path = getenv("FUZZ_UPDATE_WRITE_SEED");
	if (tu_run_in_process("fuzz_update_requests", boot_device) != 0)
		abort();
	if (seed_path)
		exit(0);
	return 0;
}

/* Back to the state after start-up: flash, OTP, retention, and a cold boot. */
static void restore(void)
{
	if (swhal_load_flash(flash0, flash_len) != 0 || swhal_load_otp(&otp0, sizeof(otp0)) != 0 ||
	    swhal_power_on() != 0 || swhal_poke_retention(0, ret0, sizeof(ret0)) != 0)
		die("restore");
	if (ota_fw_boot(OTA_RESET_COLD) != OTA_OK)
		die("the restored device does not boot");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t pos = 0;

	restore();
	while (pos + 3 <= size) {
		uint32_t command = commands[data[pos] % N_COMMANDS];
		const struct ota_mbox_command_desc *d = ota_mbox_command(command);
		uint32_t h = (uint32_t)data[pos + 1] | (uint32_t)data[pos + 2] << 8;
		size_t avail = size - pos - 3, take = h & 0x7fffu;
		uint32_t resp_len = 0, len;
		static struct ota_record rec;
		uint32_t rec_len;
		ota_status_t st;

		take = take < avail ? take : avail;
		take = take < sizeof(req) ? take : sizeof(req);
		len = (h & EXACT_LENGTH) ? d->request_len : (uint32_t)take;
		memset(req, 0, sizeof(req));
		memcpy(req, data + pos + 3, take);
		pos += 3 + take;

		snapshot(flash_before, &otp_before);
		st = ota_fw_command(command, req, len, resp, sizeof(resp), &resp_len);
		if (st != OTA_OK) {
			uint8_t *now = malloc(flash_len);
			struct ota_otp otp_now;

			if (!now)
				die("out of memory");
			snapshot(now, &otp_now);
			/* A failed install write may have touched the slot it was writing; nothing else. */
			if (memcmp(&otp_now, &otp_before, sizeof(otp_now)) != 0)
				die("a refused request changed OTP");
			if (st != OTA_HAL_FLASH_WRITE_FAILED && memcmp(now, flash_before, flash_len) != 0)
				die("a refused request changed flash");
			free(now);
		}
		if (command == OTA_CMD_REVOKE && st == OTA_OK)
			die("a revocation nobody signed was applied");
		if (resp_len > d->response_max)
			die("response longer than the command table allows");
		rec_len = swhal_last_record(&rec, sizeof(rec));
		if (ota_record_validate(&rec, rec_len) != OTA_OK)
			die("the published record does not validate");
		if (!ota_boot_state() || ota_boot_state()->boot_status != OTA_OK)
			die("a request left the device without a runtime");
	}
	return 0;
}
