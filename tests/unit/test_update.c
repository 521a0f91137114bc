// SPDX-License-Identifier: MIT
/*
 * A device's life through its mailbox (issue 14), driven as the update
 * agent drives it - ota_fw_command, the board's own path, resets included:
 * install into the slot not running, update reset (trial), commit, cold
 * boot stays, ratchet, the old image refused on both paths; a depth-2
 * hybrid image; a ROM_EXT activated by a warm reset; a dry run; signed
 * field revocations and their replay. Every bad input gets its named
 * status and leaves flash and OTP as they were, byte for byte. The chip
 * holds the running slots and the OTP counters against the runtime.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/shm.h>

#include "fw_run.h"
#include "fwlib.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"
#include "tu_mbox.h"

static struct tu_device dev;

static void setup(void)
{
	tu_device_boot_default(&dev);
}

static void teardown(void)
{
	tu_device_close(&dev);
}

/* ---- the mailbox, as the host sends it (tu_mbox.h) ------------------------ */

static ota_status_t install_blob(uint32_t stage, uint32_t slot, const struct tu_blob *b)
{
	return tu_install(stage, slot, b->data, (uint32_t)b->len, 0);
}

static const struct ota_record_update *update_section(void)
{
	const struct ota_record *r = tu_record();

	ck_assert(r->hdr.flags & OTA_RECORD_F_UPDATE_SECTION);
	return ota_record_update_of(r);
}

/* ---- flash and OTP, byte for byte --------------------------------------- */

struct snapshot {
	uint8_t *flash;
	uint32_t flash_len;
	uint8_t otp[sizeof(struct ota_otp)];
};

static void snap(struct snapshot *s)
{
	s->flash_len = hal_flash_size();
	s->flash = malloc(s->flash_len);
	ck_assert_ptr_nonnull(s->flash);
	ck_assert_int_eq(swhal_peek_flash(0, s->flash, s->flash_len), 0);
	ck_assert_int_eq(swhal_peek_otp(0, s->otp, sizeof(s->otp)), 0);
}

static void unchanged(struct snapshot *before, const char *what)
{
	struct snapshot now;

	snap(&now);
	ck_assert_msg(memcmp(before->flash, now.flash, now.flash_len) == 0, "%s: flash changed", what);
	ck_assert_msg(memcmp(before->otp, now.otp, sizeof(now.otp)) == 0, "%s: OTP changed", what);
	free(now.flash);
	free(before->flash);
}

#define REFUSED_UNCHANGED(call, want)                                                       \
	do {                                                                                \
		struct snapshot s_;                                                         \
		ota_status_t st_;                                                           \
		snap(&s_);                                                                  \
		st_ = (call);                                                               \
		ck_assert_msg(st_ == (want), "%s: got %s, want %s", #call,                  \
			      ota_status_name(st_), ota_status_name(want));                 \
		unchanged(&s_, #call);                                                      \
	} while (0)

static struct tu_blob bl0_versioned(uint32_t svn, const char *version)
{
	struct ota_constraints all = tu_constraints(0, OTA_SVN_LIMIT);
	struct oti_cert chain[1];
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_BL0, svn);
	chain[0] = tu_cert(TU_OWNER0, NULL, TU_LEAF, OTA_CERT_LEAF, &all, false);
	s.chain = chain;
	s.chain_len = 1;
	s.signer = TU_LEAF;
	s.version_string = version;
	return tu_image(&s);
}

/* A cold boot, and the BL0 slot it runs. */
static void cold_boot_runs(uint32_t slot)
{
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, slot);
}

/* ---- the whole life ------------------------------------------------------ */

START_TEST(test_install_trial_commit_ratchet)
{
	struct tu_blob v2 = bl0_versioned(6, "2.0.1");
	const struct ota_resp_install_finish *fin = (const void *)tu_resp;
	const struct ota_resp_boot_svc *svc = (const void *)tu_resp;
	const struct ota_record_update *u;
	uint8_t m[OTA_SHA256_BYTES], *flash;

	/* Install v2 into B: checked, written, shown as pending. */
	ck_assert_uint_eq(install_blob(OTA_STAGE_BL0, OTA_UPDATE_SLOT_OTHER, &v2), OTA_OK);
	ck_assert_uint_eq(tu_resp_len, sizeof(*fin));
	ck_assert_uint_eq(fin->slot, OTA_SLOT_B);
	ck_assert_uint_eq(fin->security_version, 6);
	ck_assert_uint_eq(fin->flags, OTA_INSTALL_RESULT_F_WRITTEN);
	ck_assert_str_eq(fin->version, "2.0.1");
	tu_measurement(&v2, m);
	ck_assert_mem_eq(fin->measurement, m, sizeof(m));
	flash = malloc(v2.len);
	ck_assert_int_eq(swhal_peek_flash(tu_slot_offset(OTI_BL0_B), flash, (uint32_t)v2.len), 0);
	ck_assert_mem_eq(flash, v2.data, v2.len);
	free(flash);
	u = update_section();
	ck_assert_uint_eq(u->update_state, OTA_UPDATE_PENDING);
	ck_assert_uint_eq(u->pending_stage, OTA_STAGE_BL0);
	ck_assert_uint_eq(u->pending_slot, OTA_SLOT_B);
	ck_assert(u->slot[ota_tag_index(OTA_STAGE_BL0, OTA_SLOT_B)].flags & OTA_RECORD_SLOT_F_PENDING);
	ck_assert_uint_eq(ota_record_validate(tu_record(), tu_record()->hdr.length), OTA_OK);

	/* Update reset: B runs on trial; A is still the primary. */
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
	u = update_section();
	ck_assert_uint_eq(u->update_state, OTA_UPDATE_TRIAL);
	ck_assert_uint_eq(u->primary_slot, OTA_SLOT_A);
	ck_assert_uint_eq(u->running_bl0_slot, OTA_SLOT_B);
	ck_assert_str_eq(u->slot[ota_tag_index(OTA_STAGE_BL0, OTA_SLOT_B)].version, "2.0.1");

	/* No commit: a cold boot returns to A. */
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
	ck_assert_uint_eq(update_section()->update_state, OTA_UPDATE_IDLE);

	/* Trial again, commit: B is the primary and a cold boot stays there. */
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(svc->booted_slot, OTA_SLOT_B);
	ck_assert_uint_eq(svc->primary_slot, OTA_SLOT_B);
	ck_assert_uint_eq(tu_boot_data().primary_slot, OTA_SLOT_B);
	ck_assert_uint_eq(update_section()->service_mask, OTA_SVC_COMMIT);
	ck_assert_uint_eq(update_section()->service_status, OTA_OK);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
	ck_assert_uint_eq(update_section()->update_state, OTA_UPDATE_IDLE);
	/* A second commit has nothing to do: answered at once, nothing written. */
	REFUSED_UNCHANGED(tu_commit(OTA_SLOT_B), OTA_OK);

	/* Ratchet the BL0 floor to what runs: the old image in A is refused... */
	/* Unforced it would leave no fallback (A holds SVN 5): refused, nothing written. */
	REFUSED_UNCHANGED(tu_ratchet(OTA_STAGE_BL0, 6), OTA_RATCHET_NO_FALLBACK);
	ck_assert_uint_eq(tu_ratchet_flags(OTA_STAGE_BL0, 6, OTA_RATCHET_F_FORCE), OTA_OK);
	ck_assert_uint_eq(svc->floor_bl0, 6);
	ck_assert_uint_eq(tu_boot_data().floor_bl0, 6);
	ck_assert_uint_eq(tu_record()->hdr.floor_bl0, 6);
	/* ...on the slow path (the update pre-check)... */
	REFUSED_UNCHANGED(tu_update_reset(OTA_SLOT_A), OTA_SVN_BELOW_FLOOR);
	/* ...and on the tag path, where its tag from the first boots still matches. */
	tu_flash_xor(tu_slot_offset(OTI_BL0_B) + 600, 0x01);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A)->status, OTA_SVN_BELOW_FLOOR);
	tu_blob_free(&v2);
}
END_TEST

/* A downgrade by update reset lowers min SVN and the stable key follows the chain. */
START_TEST(test_downgrade_lowers_min_svn)
{
	struct tu_blob v3 = bl0_versioned(3, "0.9");

	ck_assert_uint_eq(ota_boot_state()->min_svn, 5);
	ck_assert_uint_eq(install_blob(OTA_STAGE_BL0, OTA_SLOT_B, &v3), OTA_OK);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_svn, 3);
	ck_assert_uint_eq(ota_boot_state()->min_svn, 3);
	ck_assert_uint_eq(tu_record()->hdr.min_svn, 3);
	tu_blob_free(&v3);
}
END_TEST

START_TEST(test_hybrid_depth2_install)
{
	struct tu_blob h;

	/* The owner's hybrid key next to its ECDSA one (a re-provisioned device). */
	swhal_close();
	dev.owner_keys[1] = TU_OWNER_H;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	h = tu_bl0(2, 7, true);
	ck_assert_uint_eq(install_blob(OTA_STAGE_BL0, OTA_UPDATE_SLOT_OTHER, &h), OTA_OK);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->sig_scheme, OTA_SCHEME_HYBRID);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->delegation_depth, 2);
	ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
	cold_boot_runs(OTA_SLOT_B);
	tu_blob_free(&h);
}
END_TEST

/* A new ROM_EXT is written to the other slot and activated by a warm reset. */
START_TEST(test_rom_ext_update_by_warm_reset)
{
	struct tu_image_spec s;
	struct tu_blob r;

	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 2);
	s.version_string = "romext-2";
	r = tu_image(&s);
	ck_assert_uint_eq(ota_boot_state()->rom_ext_slot, OTA_SLOT_A);
	ck_assert_uint_eq(install_blob(OTA_STAGE_ROM_EXT, OTA_UPDATE_SLOT_OTHER, &r), OTA_OK);
	ck_assert_uint_eq(tu_cmd(OTA_CMD_WARM_RESET, NULL, 0), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->rom_ext_slot, OTA_SLOT_B);
	ck_assert_uint_eq(ota_boot_state()->rom_ext_svn, 2);
	ck_assert_str_eq(update_section()->slot[ota_tag_index(OTA_STAGE_ROM_EXT, OTA_SLOT_B)].version,
			 "romext-2");
	tu_blob_free(&r);
}
END_TEST

START_TEST(test_dry_run_writes_nothing)
{
	struct tu_blob v2 = bl0_versioned(6, "2.0");
	const struct ota_resp_install_finish *fin = (const void *)tu_resp;
	uint32_t gen = tu_record()->hdr.generation;

	REFUSED_UNCHANGED(tu_install(OTA_STAGE_BL0, OTA_SLOT_B, v2.data, (uint32_t)v2.len,
				  OTA_INSTALL_F_DRY_RUN),
			  OTA_OK);
	ck_assert_uint_eq(fin->flags, OTA_INSTALL_RESULT_F_DRY_RUN);
	ck_assert_uint_eq(fin->security_version, 6);
	ck_assert_uint_eq(tu_record()->hdr.generation, gen);
	tu_blob_free(&v2);
}
END_TEST

/* ---- bad input: each its named status, nothing written -------------------- */

START_TEST(test_truncated_image)
{
	struct tu_blob v2 = bl0_versioned(6, NULL);

	REFUSED_UNCHANGED(tu_install(OTA_STAGE_BL0, OTA_SLOT_B, v2.data, (uint32_t)v2.len - 100, 0),
			  OTA_MANIFEST_BAD_LENGTH);
	/* Short of even a manifest: refused at BEGIN. */
	REFUSED_UNCHANGED(tu_install_begin(OTA_STAGE_BL0, OTA_SLOT_B, 100, 0), OTA_INSTALL_BAD_LENGTH);
	/* Chunks that stop early: FINISH refuses. */
	ck_assert_uint_eq(tu_install_begin(OTA_STAGE_BL0, OTA_SLOT_B, (uint32_t)v2.len, 0), OTA_OK);
	ck_assert_uint_eq(tu_install_chunk(0, v2.data, 1000), OTA_OK);
	REFUSED_UNCHANGED(tu_install_finish(), OTA_INSTALL_INCOMPLETE);
	tu_blob_free(&v2);
}
END_TEST

START_TEST(test_oversized_image)
{
	static uint8_t big[8192];
	struct tu_blob v2 = bl0_versioned(6, NULL);

	REFUSED_UNCHANGED(tu_install_begin(OTA_STAGE_BL0, OTA_SLOT_B, dev.bl0_slot_size + 1u, 0),
			  OTA_IMAGE_TOO_LARGE);
	/* A well-formed image with bytes after it: the image is not what arrived. */
	memcpy(big, v2.data, v2.len);
	REFUSED_UNCHANGED(tu_install(OTA_STAGE_BL0, OTA_SLOT_B, big, (uint32_t)v2.len + 64, 0),
			  OTA_MANIFEST_BAD_LENGTH);
	/* A chunk past the announced length. */
	ck_assert_uint_eq(tu_install_begin(OTA_STAGE_BL0, OTA_SLOT_B, 1000, 0), OTA_OK);
	REFUSED_UNCHANGED(tu_install_chunk(0, big, 1001), OTA_INSTALL_OVERRUN);
	REFUSED_UNCHANGED(tu_install_chunk(4, big, 10), OTA_INSTALL_BAD_OFFSET);
	tu_blob_free(&v2);
}
END_TEST

START_TEST(test_wrongly_signed_image)
{
	struct tu_blob v2 = bl0_versioned(6, NULL);
	struct tu_image_spec s;
	struct tu_blob rogue;

	v2.data[10] ^= 0x40; /* the ECDSA signature */
	REFUSED_UNCHANGED(install_blob(OTA_STAGE_BL0, OTA_SLOT_B, &v2), OTA_SIG_ECDSA_INVALID);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 6);
	s.signer = TU_ROGUE;
	rogue = tu_image(&s);
	REFUSED_UNCHANGED(install_blob(OTA_STAGE_BL0, OTA_SLOT_B, &rogue), OTA_ROOT_KEY_UNKNOWN);
	tu_blob_free(&v2);
	tu_blob_free(&rogue);
}
END_TEST

START_TEST(test_wrong_device_image)
{
	struct tu_image_spec s;
	struct tu_blob other;

	tu_image_spec_init(&s, OTA_STAGE_BL0, 6);
	s.usage.device_binding = OTA_BINDING_DEVICE;
	memset(s.usage.device_id, 0x77, OTA_DEVICE_ID_BYTES);
	other = tu_image(&s);
	REFUSED_UNCHANGED(install_blob(OTA_STAGE_BL0, OTA_SLOT_B, &other), OTA_DEVICE_NOT_ALLOWED);
	tu_blob_free(&other);
}
END_TEST

START_TEST(test_install_into_running_slot)
{
	struct tu_blob v2 = bl0_versioned(6, NULL);

	REFUSED_UNCHANGED(tu_install_begin(OTA_STAGE_BL0, OTA_SLOT_A, (uint32_t)v2.len, 0),
			  OTA_INSTALL_RUNNING_SLOT);
	REFUSED_UNCHANGED(tu_install_begin(OTA_STAGE_ROM_EXT, OTA_SLOT_A, (uint32_t)v2.len, 0),
			  OTA_INSTALL_RUNNING_SLOT);
	/* Whatever the runtime does, the chip keeps the running slot (ROM_EXT's protection). */
	REFUSED_UNCHANGED(hal_flash_erase_page(tu_slot_offset(OTI_BL0_A)), OTA_HAL_FLASH_LOCKED);
	REFUSED_UNCHANGED(hal_flash_erase_page(tu_region(OTA_REGION_BOOT_DATA_0)->offset),
			  OTA_HAL_FLASH_LOCKED);
	ck_assert_uint_eq(hal_flash_erase_page(tu_slot_offset(OTI_BL0_B)), OTA_OK);
	tu_blob_free(&v2);
}
END_TEST

START_TEST(test_otp_counters_locked_for_the_runtime)
{
	uint8_t bits[OTA_OTP_FLOOR_BITS / 8];

	ota_thermometer_encode(bits, sizeof(bits), 200);
	REFUSED_UNCHANGED(hal_otp_program(offsetof(struct ota_otp, floor_bl0), bits, sizeof(bits)),
			  OTA_HAL_OTP_COUNTERS_LOCKED);
}
END_TEST

/* The session: in order, once, and nothing in between may reuse the buffer. */
START_TEST(test_install_session_rules)
{
	struct tu_blob v2 = bl0_versioned(6, NULL);
	static struct ota_req_install_chunk c;

	REFUSED_UNCHANGED(tu_install_chunk(0, v2.data, 100), OTA_INSTALL_NOT_STARTED);
	REFUSED_UNCHANGED(tu_install_finish(), OTA_INSTALL_NOT_STARTED);
	ck_assert_uint_eq(tu_install_begin(OTA_STAGE_BL0, OTA_SLOT_B, (uint32_t)v2.len, 0), OTA_OK);
	/* A chunk of no bytes, of more than 4 KiB, or with bytes after its length. */
	memset(&c, 0, sizeof(c));
	REFUSED_UNCHANGED(tu_cmd(OTA_CMD_INSTALL_CHUNK, &c, sizeof(c)), OTA_INSTALL_CHUNK_LENGTH);
	c.length = OTA_INSTALL_CHUNK_MAX + 1;
	REFUSED_UNCHANGED(tu_cmd(OTA_CMD_INSTALL_CHUNK, &c, sizeof(c)), OTA_INSTALL_CHUNK_LENGTH);
	c.length = 10;
	c.data[10] = 1;
	REFUSED_UNCHANGED(tu_cmd(OTA_CMD_INSTALL_CHUNK, &c, sizeof(c)), OTA_MBOX_RESERVED_NONZERO);
	ck_assert_uint_eq(tu_install_chunk(0, v2.data, 1000), OTA_OK);
	/* An update pre-check loads an image into the same buffer: the session is over. */
	REFUSED_UNCHANGED(tu_update_reset(OTA_SLOT_B), OTA_SLOT_EMPTY);
	REFUSED_UNCHANGED(tu_install_chunk(1000, v2.data + 1000, 100), OTA_INSTALL_ABORTED);
	REFUSED_UNCHANGED(tu_install_chunk(1000, v2.data + 1000, 100), OTA_INSTALL_NOT_STARTED);
	/* A reset ends it too. */
	ck_assert_uint_eq(tu_install_begin(OTA_STAGE_BL0, OTA_SLOT_B, (uint32_t)v2.len, 0), OTA_OK);
	ck_assert_uint_eq(tu_cmd(OTA_CMD_WARM_RESET, NULL, 0), OTA_OK);
	REFUSED_UNCHANGED(tu_install_chunk(0, v2.data, 100), OTA_INSTALL_ABORTED);
	/* Unknown flags, an unknown stage or slot. */
	REFUSED_UNCHANGED(tu_install_begin(OTA_STAGE_BL0, OTA_SLOT_B, 1000, 2), OTA_MBOX_RESERVED_NONZERO);
	REFUSED_UNCHANGED(tu_install_begin(3, OTA_SLOT_B, 1000, 0), OTA_MBOX_BAD_FIELD);
	REFUSED_UNCHANGED(tu_install_begin(OTA_STAGE_BL0, 2, 1000, 0), OTA_MBOX_BAD_FIELD);
	tu_blob_free(&v2);
}
END_TEST

START_TEST(test_ratchet_above_running)
{
	REFUSED_UNCHANGED(tu_ratchet(OTA_STAGE_BL0, 6), OTA_RATCHET_ABOVE_RUNNING);
	REFUSED_UNCHANGED(tu_ratchet(OTA_STAGE_ROM_EXT, 2), OTA_RATCHET_ABOVE_RUNNING);
	REFUSED_UNCHANGED(tu_ratchet(3, 1), OTA_MBOX_BAD_FIELD);
	REFUSED_UNCHANGED(tu_commit(OTA_SLOT_B), OTA_COMMIT_NOT_RUNNING);
	REFUSED_UNCHANGED(tu_ratchet_flags(OTA_STAGE_BL0, 5, 2), OTA_MBOX_BAD_FIELD);
	/*
	 * The floor at what runs, but slot B is empty: no fallback would be
	 * left, so the device refuses it unforced (ROM_EXT: the runtime does
	 * not look at the other slot) and takes it forced.
	 */
	REFUSED_UNCHANGED(tu_ratchet(OTA_STAGE_BL0, 5), OTA_RATCHET_NO_FALLBACK);
	ck_assert_uint_eq(update_section()->service_status, OTA_RATCHET_NO_FALLBACK);
	REFUSED_UNCHANGED(tu_ratchet(OTA_STAGE_ROM_EXT, 1), OTA_RATCHET_NO_FALLBACK);
	ck_assert_uint_eq(tu_ratchet_flags(OTA_STAGE_BL0, 5, OTA_RATCHET_F_FORCE), OTA_OK);
	ck_assert_uint_eq(tu_boot_data().floor_bl0, 5);
}
END_TEST

/*
 * A forged request left in retention RAM (a runtime that is not what it
 * should be): ROM_EXT judges it again and writes nothing.
 */
START_TEST(test_rom_ext_refuses_a_forged_request)
{
	struct ota_boot_svc_request q;
	struct ota_resp_reset out;
	struct snapshot s;

	memset(&q, 0, sizeof(q));
	q.services = OTA_SVC_RATCHET;
	q.ratchet_stage = OTA_STAGE_BL0;
	q.ratchet_floor = 200; /* above the running SVN 5: would brick */
	snap(&s);
	ck_assert_uint_eq(boot_svc_store(&q), OTA_OK);
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(update_section()->service_mask, OTA_SVC_RATCHET);
	ck_assert_uint_eq(update_section()->service_status, OTA_RATCHET_ABOVE_RUNNING);
	unchanged(&s, "forged ratchet");
}
END_TEST

/*
 * A forged request, stored where the runtime would leave it, served by the
 * warm reset that follows; the status ROM_EXT recorded for it.
 */
static ota_status_t forged(const struct ota_boot_svc_request *req)
{
	struct ota_boot_svc_request q = *req;
	struct ota_resp_reset out;

	ck_assert_uint_eq(boot_svc_store(&q), OTA_OK);
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(update_section()->service_mask, q.services & OTA_SVC_ALL);
	return update_section()->service_status;
}

/*
 * COMMIT of a slot that is not running, forged past the runtime's own
 * check: B holds a valid newer image, so a ROM_EXT that took it would make
 * an image nobody ever saw run the primary. Refused, nothing written, the
 * next cold boot still A.
 */
START_TEST(test_rom_ext_commits_only_the_running_slot)
{
	struct tu_blob v2 = bl0_versioned(6, NULL);
	struct ota_boot_svc_request q;
	struct snapshot s;

	ck_assert_uint_eq(install_blob(OTA_STAGE_BL0, OTA_SLOT_B, &v2), OTA_OK);
	memset(&q, 0, sizeof(q));
	q.services = OTA_SVC_COMMIT;
	q.commit_slot = OTA_SLOT_B;
	snap(&s);
	ck_assert_uint_eq(forged(&q), OTA_COMMIT_NOT_RUNNING);
	unchanged(&s, "forged commit of B");
	q.commit_slot = 7; /* no such slot */
	snap(&s);
	ck_assert_uint_eq(forged(&q), OTA_COMMIT_NOT_RUNNING);
	unchanged(&s, "forged commit of slot 7");
	ck_assert_uint_eq(tu_boot_data().primary_slot, OTA_SLOT_A);
	cold_boot_runs(OTA_SLOT_A);
	tu_blob_free(&v2);
}
END_TEST

/* The rest of the request, each field judged by ROM_EXT as the runtime would have. */
START_TEST(test_rom_ext_checks_every_field)
{
	struct ota_boot_svc_request q;
	struct snapshot s;

	/* A stage that does not exist (the floor itself would be harmless: 1 <= 5). */
	memset(&q, 0, sizeof(q));
	q.services = OTA_SVC_RATCHET;
	q.ratchet_stage = 3;
	q.ratchet_floor = 1;
	snap(&s);
	ck_assert_uint_eq(forged(&q), OTA_MBOX_BAD_FIELD);
	unchanged(&s, "forged ratchet of stage 3");
	/* A valid ratchet with a reserved word set, and with a service nobody defined. */
	q.ratchet_stage = OTA_STAGE_BL0;
	q.reserved[0] = 1;
	snap(&s);
	ck_assert_uint_eq(forged(&q), OTA_MBOX_RESERVED_NONZERO);
	unchanged(&s, "forged ratchet with a reserved word");
	q.reserved[0] = 0;
	q.services = OTA_SVC_RATCHET | 0x80u;
	snap(&s);
	ck_assert_uint_eq(forged(&q), OTA_MBOX_RESERVED_NONZERO);
	unchanged(&s, "forged ratchet with an unknown service");
	/* A flag nobody defined; then, without FORCE, a floor that leaves B (empty) no fallback. */
	q.services = OTA_SVC_RATCHET;
	q.ratchet_flags = 0x2u;
	snap(&s);
	ck_assert_uint_eq(forged(&q), OTA_MBOX_BAD_FIELD);
	unchanged(&s, "forged ratchet with an unknown flag");
	q.ratchet_flags = 0;
	snap(&s);
	ck_assert_uint_eq(forged(&q), OTA_RATCHET_NO_FALLBACK);
	unchanged(&s, "forged ratchet leaving no fallback");
	ck_assert_uint_eq(tu_boot_data().floor_bl0, 0);
}
END_TEST

/*
 * A ratchet keeps a fallback: with the new image in both slots the
 * unforced ratchet goes through; a fallback that fails its check (a
 * corrupted image) or is below the floor is no fallback.
 */
START_TEST(test_ratchet_keeps_a_fallback)
{
	struct tu_blob v6 = bl0_versioned(6, "2.0.1");

	ck_assert_uint_eq(install_blob(OTA_STAGE_BL0, OTA_SLOT_B, &v6), OTA_OK);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
	/* A fallback that does not pass its check is none, whatever its SVN claims. */
	tu_flash_xor(tu_slot_offset(OTI_BL0_A) + 700, 0x02);
	REFUSED_UNCHANGED(tu_ratchet(OTA_STAGE_BL0, 5), OTA_RATCHET_NO_FALLBACK);
	tu_flash_xor(tu_slot_offset(OTI_BL0_A) + 700, 0x02);
	/* A holds SVN 5: a floor of 5 keeps it, 6 does not. */
	ck_assert_uint_eq(tu_ratchet(OTA_STAGE_BL0, 5), OTA_OK);
	ck_assert_uint_eq(tu_boot_data().floor_bl0, 5);
	REFUSED_UNCHANGED(tu_ratchet(OTA_STAGE_BL0, 6), OTA_RATCHET_NO_FALLBACK);
	/* The new image into A too: then 6 keeps a fallback. */
	ck_assert_uint_eq(install_blob(OTA_STAGE_BL0, OTA_SLOT_A, &v6), OTA_OK);
	ck_assert_uint_eq(tu_ratchet(OTA_STAGE_BL0, 6), OTA_OK);
	ck_assert_uint_eq(tu_boot_data().floor_bl0, 6);
	cold_boot_runs(OTA_SLOT_B);
	tu_blob_free(&v6);
}
END_TEST

/*
 * A request is served only by the warm reset that asks for it: left in
 * retention RAM before an update reset (which the agent asked for, not
 * the services), it is dropped, not applied.
 */
START_TEST(test_rom_ext_serves_only_on_a_warm_reset)
{
	struct tu_blob v2 = bl0_versioned(6, NULL);
	struct ota_boot_svc_request q;
	const struct ota_record *r;

	ck_assert_uint_eq(install_blob(OTA_STAGE_BL0, OTA_SLOT_B, &v2), OTA_OK);
	memset(&q, 0, sizeof(q));
	q.services = OTA_SVC_RATCHET;
	q.ratchet_stage = OTA_STAGE_BL0;
	q.ratchet_floor = 5; /* valid on a warm reset */
	ck_assert_uint_eq(boot_svc_store(&q), OTA_OK);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
	r = tu_record();
	ck_assert(!(r->hdr.flags & OTA_RECORD_F_UPDATE_SECTION) ||
		  ota_record_update_of(r)->service_mask == 0);
	ck_assert_uint_eq(tu_boot_data().floor_bl0, 0);
	ck_assert_uint_eq(r->hdr.floor_bl0, 0);
	tu_blob_free(&v2);
}
END_TEST

/*
 * Every region ROM_EXT owns is locked before the runtime runs, the identity
 * certificate's too (outside manufacturing); the inactive slots are not.
 */
START_TEST(test_rom_ext_locks_what_it_owns)
{
	static const uint32_t owned[] = { OTA_REGION_BOOT_DATA_0, OTA_REGION_BOOT_DATA_1,
					  OTA_REGION_TAG_TABLE_0, OTA_REGION_TAG_TABLE_1,
					  OTA_REGION_OWNER_CONFIG, OTA_REGION_IDENTITY_CERT };
	uint32_t i;

	REFUSED_UNCHANGED(hal_flash_erase_page(0), OTA_HAL_FLASH_LOCKED); /* the layout */
	for (i = 0; i < sizeof(owned) / sizeof(owned[0]); i++)
		REFUSED_UNCHANGED(hal_flash_erase_page(tu_region(owned[i])->offset),
				  OTA_HAL_FLASH_LOCKED);
	REFUSED_UNCHANGED(hal_flash_erase_page(tu_slot_offset(OTI_ROM_EXT_A)), OTA_HAL_FLASH_LOCKED);
	REFUSED_UNCHANGED(hal_flash_erase_page(tu_slot_offset(OTI_BL0_A)), OTA_HAL_FLASH_LOCKED);
	ck_assert_uint_eq(hal_flash_erase_page(tu_slot_offset(OTI_ROM_EXT_B)), OTA_OK);
	ck_assert_uint_eq(hal_flash_erase_page(tu_slot_offset(OTI_BL0_B)), OTA_OK);
}
END_TEST

/* ---- field revocation ----------------------------------------------------- */

/* A has a delegate that may sign up to SVN 10; B runs under another one, SVN 20. */
static void delegate_device(void)
{
	struct ota_constraints low = tu_constraints(0, 10), high = tu_constraints(0, 50);
	struct oti_cert chain[1];
	struct tu_image_spec s;

	swhal_close();
	tu_blob_free(&dev.slot[OTI_BL0_B]);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 20);
	chain[0] = tu_cert(TU_OWNER0, NULL, TU_INTER, OTA_CERT_LEAF, &high, false);
	s.chain = chain;
	s.chain_len = 1;
	s.signer = TU_INTER;
	dev.slot[OTI_BL0_B] = tu_image(&s);
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 8);
	chain[0] = tu_cert(TU_OWNER0, NULL, TU_LEAF, OTA_CERT_LEAF, &low, false);
	s.chain = chain;
	s.chain_len = 1;
	s.signer = TU_LEAF;
	dev.slot[OTI_BL0_A] = tu_image(&s);
	tu_device_power_on(&dev);
	/* A boots first (and is tagged), then B by an update reset: what runs is SVN 20. */
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
}

START_TEST(test_revocation_of_a_delegate)
{
	const struct ota_resp_boot_svc *svc = (const void *)tu_resp;
	struct ota_revocation r;
	const struct ota_record_update *u;

	delegate_device();
	r = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 11, 1, dev.device_id);
	ck_assert_uint_eq(tu_revoke(&r), OTA_OK);
	/* Bound to this device: its own series; the response's is the fleet's. */
	ck_assert_uint_eq(svc->revocation_sequence, 0);
	ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 11);
	u = update_section();
	ck_assert_uint_eq(u->service_mask, OTA_SVC_REVOKE);
	ck_assert_uint_eq(u->revocation_action, OTA_REVOKE_RAISE_FLOOR);
	ck_assert_uint_eq(u->revocation_value, 11);
	ck_assert_uint_eq(u->revocation_sequence, 0);
	ck_assert_uint_eq(u->revocation_sequence_device, 1);
	/* A's delegate is revoked on the slow path (the update pre-check)... */
	REFUSED_UNCHANGED(tu_update_reset(OTA_SLOT_A), OTA_DELEG_REVOKED_BY_FLOOR);
	/* ...and on a cold boot, where A is the primary with a tag from its first boot. */
	tu_flash_xor(tu_slot_offset(OTI_BL0_B) + 600, 0x01);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(tu_tag_table().entry[ota_tag_index(OTA_STAGE_BL0, OTA_SLOT_A)].state,
			  OTA_TAG_STATE_VALID);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A)->status, OTA_DELEG_REVOKED_BY_FLOOR);
}
END_TEST

START_TEST(test_revocation_replayed_and_bad)
{
	struct ota_revocation r, bad;
	uint8_t other[OTA_DEVICE_ID_BYTES];

	delegate_device();
	r = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 11, 1, NULL);
	ck_assert_uint_eq(tu_revoke(&r), OTA_OK); /* fleet-wide */
	REFUSED_UNCHANGED(tu_revoke(&r), OTA_REVOKE_REPLAYED);
	/* An older command after a newer one: replayed too. */
	bad = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 12, 1, NULL);
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_REPLAYED);
	/* Signed by a key this device does not hold. */
	bad = tu_revocation(TU_ROGUE, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 12, 2, NULL);
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_UNKNOWN_SIGNER);
	/* Naming the owner key, signed by another. */
	bad = tu_revocation(TU_ROGUE, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 12, 2, NULL);
	memcpy(bad.signer_key_id, tu_key(TU_OWNER0)->key_id, OTA_KEY_ID_BYTES);
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_SIG_INVALID);
	/* For another device. */
	memset(other, 0x42, sizeof(other));
	bad = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 12, 2, other);
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_WRONG_DEVICE);
	/* An owner may not touch ROM_EXT's floor or the creator keys. */
	bad = tu_revocation(TU_OWNER0, OTA_REVOKE_CREATOR_KEY, 1, 0, 2, NULL);
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_NOT_AUTHORIZED);
	/* Nothing that would leave the device unbootable. */
	bad = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 21, 2, NULL);
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_FLOOR_ABOVE_RUNNING);
	bad = tu_revocation(TU_CREATOR1, OTA_REVOKE_CREATOR_KEY, 0, 0, 2, NULL);
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_KEY_IN_USE);
	bad = tu_revocation(TU_OWNER0, OTA_REVOKE_OWNER_KEY, 0, 0, 2, NULL);
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_KEY_IN_USE);
	/* A creator key revokes an unused creator key; the epoch moves. */
	bad = tu_revocation(TU_CREATOR0, OTA_REVOKE_CREATOR_KEY, 1, 0, 2, NULL);
	ck_assert_uint_eq(tu_revoke(&bad), OTA_OK);
	ck_assert(ota_boot_state()->otp.creator_key_revoked[1]);
	bad = tu_revocation(TU_CREATOR0, OTA_REVOKE_BUMP_EPOCH, 0, 1, 3, dev.device_id);
	ck_assert_uint_eq(tu_revoke(&bad), OTA_OK);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.epoch, 1);
	/* Two fleet-wide commands applied; the epoch's was bound to this device: its own series. */
	ck_assert_uint_eq(update_section()->revocation_sequence, 2);
	ck_assert_uint_eq(update_section()->revocation_sequence_device, 3);
}
END_TEST

START_TEST(test_revocation_malformed)
{
	struct ota_revocation r, bad;

	delegate_device();
	r = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 11, 1, NULL);
	bad = r;
	bad.magic ^= 1;
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_MALFORMED);
	bad = r;
	bad.reserved[3] = 1;
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_MBOX_RESERVED_NONZERO);
	bad = r;
	bad.action = 9;
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_MALFORMED);
	bad = r;
	bad.sequence = OTA_REVOCATION_SEQ_MAX + 1;
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_SEQUENCE_EXHAUSTED);
	/* A floor already in force: nothing to do, nothing done. */
	bad = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 0, 1, NULL);
	REFUSED_UNCHANGED(tu_revoke(&bad), OTA_REVOKE_NOT_RAISED);
	/* A request of the wrong length never reaches the check. */
	REFUSED_UNCHANGED(tu_cmd(OTA_CMD_REVOKE, &r, sizeof(r) - 4), OTA_MBOX_BAD_LENGTH);
}
END_TEST

/*
 * Fleet-wide and device-bound commands are numbered in two series (the
 * fleet's signer cannot know each device's, and the other way round): a
 * device-bound command applied first leaves every pending fleet-wide one
 * applicable, and the other way round. Each series still refuses its own
 * replays and older numbers.
 */
START_TEST(test_revocations_interleave_in_either_order)
{
	struct ota_revocation fleet, mine;
	const struct ota_record_update *u;

	/* Device-bound 3 first, then fleet-wide 1. */
	delegate_device();
	mine = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 9, 3, dev.device_id);
	fleet = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 10, 1, NULL);
	ck_assert_uint_eq(tu_revoke(&mine), OTA_OK);
	ck_assert_uint_eq(tu_revoke(&fleet), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 10);
	u = update_section();
	ck_assert_uint_eq(u->revocation_sequence, 1);
	ck_assert_uint_eq(u->revocation_sequence_device, 3);
	REFUSED_UNCHANGED(tu_revoke(&mine), OTA_REVOKE_REPLAYED);
	REFUSED_UNCHANGED(tu_revoke(&fleet), OTA_REVOKE_REPLAYED);
	mine = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 11, 2, dev.device_id);
	REFUSED_UNCHANGED(tu_revoke(&mine), OTA_REVOKE_REPLAYED); /* older in its own series */

	/* Fleet-wide 4 first, then device-bound 1, on a fresh device. */
	tu_device_close(&dev);
	tu_device_boot_default(&dev);
	delegate_device();
	fleet = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 9, 4, NULL);
	mine = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 10, 1, dev.device_id);
	ck_assert_uint_eq(tu_revoke(&fleet), OTA_OK);
	ck_assert_uint_eq(tu_revoke(&mine), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 10);
	u = update_section();
	ck_assert_uint_eq(u->revocation_sequence, 4);
	ck_assert_uint_eq(u->revocation_sequence_device, 1);
	/* The series survive a cold boot (they are OTP). */
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(update_section()->revocation_sequence, 4);
	ck_assert_uint_eq(update_section()->revocation_sequence_device, 1);
}
END_TEST

static struct ota_otp otp_now(void)
{
	struct ota_otp otp;

	ck_assert_int_eq(swhal_peek_otp(0, &otp, sizeof(otp)), 0);
	return otp;
}

static uint32_t otp_thermometer(const uint8_t *bits, uint32_t nbytes)
{
	uint32_t v = 0;

	ck_assert_uint_eq(ota_thermometer_decode(bits, nbytes, &v), OTA_OK);
	return v;
}

#define OTP_COUNTER(field)                                                             \
	({                                                                             \
		struct ota_otp o_ = otp_now();                                         \
		otp_thermometer(o_.field, sizeof(o_.field));                           \
	})

/*
 * Tag key version exhaustion (issue 28 item 3): the version lives in an
 * OTP thermometer of OTA_OTP_TAG_KEY_VERSION_BITS, one bit a rotation.
 * When it is full a rotation is refused with TAG_KEY_VERSION_OTP_FULL -
 * by the runtime before any reset, and by ROM for a request that gets
 * past it (ROM starts no re-tagging) - and changes nothing, while
 * commits in both directions and ratchets (the floor thermometers, not
 * this one) still work and the device boots. No rotation spends an
 * anchor bit. On the old code every rotation spent an anchor bit and
 * the version had no OTP thermometer.
 */
/* A BL0 under a leaf of the owner key (tu_bl0's depth 1) that takes every key version OTP allows. */
static struct tu_blob bl0_many_versions(uint32_t svn)
{
	struct ota_constraints all = tu_constraints(0, OTA_SVN_LIMIT);
	struct oti_cert chain[1];
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_BL0, svn);
	s.max_key_version = 2 * OTA_OTP_TAG_KEY_VERSION_BITS;
	chain[0] = tu_cert(TU_OWNER0, NULL, TU_LEAF, OTA_CERT_LEAF, &all, false);
	s.signer = TU_LEAF;
	s.chain = chain;
	s.chain_len = 1;
	return tu_image(&s);
}

/* The default device, with images that take more key versions than OTP holds. */
static void setup_many_versions(void)
{
	struct tu_image_spec s;

	tu_device_init(&dev);
	tu_blob_free(&dev.slot[OTI_ROM_EXT_A]);
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 1);
	s.max_key_version = 2 * OTA_OTP_TAG_KEY_VERSION_BITS;
	dev.slot[OTI_ROM_EXT_A] = tu_image(&s);
	dev.slot[OTI_BL0_A] = bl0_many_versions(5);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
}

START_TEST(test_tag_key_version_exhaustion_refuses_rotations_and_keeps_commits)
{
	struct tu_blob v2 = bl0_many_versions(6);
	struct ota_resp_rotate out;
	uint32_t a0 = OTP_COUNTER(boot_data_anchor), n = 0, gen;
	const struct boot_rotation *rot;
	uint64_t w;
	ota_status_t st;

	ck_assert_uint_ge(a0, 1);
	/* Rotations until the thermometer is full: each spends one bit of it and no anchor bit. */
	while ((st = ota_fw_rotate_tags(&out)) == OTA_OK) {
		n++;
		ck_assert_uint_eq(OTP_COUNTER(tag_key_version), n);
		ck_assert_uint_eq(out.new_key_version, n);
		ck_assert_uint_le(n, OTA_OTP_TAG_KEY_VERSION_BITS);
	}
	ck_assert_msg(st == OTA_TAG_KEY_VERSION_OTP_FULL, "rotation %u: %s", n + 1,
		      ota_status_name(st));
	ck_assert_uint_eq(n, OTA_OTP_TAG_KEY_VERSION_BITS);
	ck_assert_uint_eq(OTP_COUNTER(boot_data_anchor), a0);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, n);
	printf("tag key version: %u rotations, then TAG_KEY_VERSION_OTP_FULL; anchor %u -> %u\n", n,
	       a0, OTP_COUNTER(boot_data_anchor));

	/* Commits still work: B on trial, committed, a cold boot stays there; then back to A. */
	ck_assert_uint_eq(install_blob(OTA_STAGE_BL0, OTA_SLOT_B, &v2), OTA_OK);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
	ck_assert_uint_eq(ota_boot_state()->boot_data.primary_slot, OTA_SLOT_B);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_A), OTA_OK);
	ck_assert_uint_eq(tu_commit(OTA_SLOT_A), OTA_OK);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);

	/* A ratchet needs no bit of this thermometer: it lands. */
	ck_assert_uint_eq(tu_ratchet_flags(OTA_STAGE_BL0, 5, OTA_RATCHET_F_FORCE), OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.floor_bl0, 5);
	ck_assert_uint_eq(OTP_COUNTER(floor_bl0), 5);

	/* Another rotation: refused by the runtime, before any reset. */
	gen = tu_record()->hdr.generation;
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_TAG_KEY_VERSION_OTP_FULL);
	ck_assert_uint_eq(out.new_key_version, n);
	ck_assert_uint_eq(tu_record()->hdr.generation, gen);
	/* A request that gets past the runtime: ROM refuses it and re-tags nothing. */
	ck_assert_uint_eq(boot_request_store(OTA_NEXT_SLOT_NONE, true), OTA_OK);
	w = swhal_flash_writes();
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	st = ota_fw_boot(OTA_RESET_WARM);
	ck_assert_msg(st == OTA_OK, "warm boot: %s", ota_status_name(st));
	rot = boot_last_rotation();
	ck_assert(rot->ran);
	ck_assert(!rot->committed);
	ck_assert_uint_eq(rot->status, OTA_TAG_KEY_VERSION_OTP_FULL);
	ck_assert_uint_eq(rot->retagged, 0);
	ck_assert_uint_eq(swhal_flash_writes(), w);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, n);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, n);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(tu_record()->hdr.floor_bl0, 5);
	tu_blob_free(&v2);
}
END_TEST

/*
 * One series per signer (issue 27, issue 28 item 3): the owner's commands
 * and the silicon creator's are numbered apart, in each scope, so a
 * command one signer numbers high spends none of the other's numbers.
 * On the old layout (one fleet-wide series for both) the creator's
 * fleet-wide 1 after the owner's 5 was REVOKE_REPLAYED.
 */
START_TEST(test_each_signer_numbers_its_own_revocations)
{
	struct ota_revocation owner, creator;
	const struct ota_otp_info *otp;

	delegate_device();
	owner = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 9, 5, NULL);
	creator = tu_revocation(TU_CREATOR0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 10, 1, NULL);
	ck_assert_uint_eq(tu_revoke(&owner), OTA_OK);
	ck_assert_uint_eq(tu_revoke(&creator), OTA_OK);
	otp = &ota_boot_state()->otp;
	ck_assert_uint_eq(otp->floor_bl0, 10);
	ck_assert_uint_eq(otp->revocation_seq_owner, 5);
	ck_assert_uint_eq(otp->revocation_seq, 1);
	ck_assert_uint_eq(otp->revocation_seq_device, 0);
	ck_assert_uint_eq(otp->revocation_seq_owner_device, 0);
	/* The record shows each scope's highest. */
	ck_assert_uint_eq(update_section()->revocation_sequence, 5);
	/* Each series still refuses its own replays and older numbers. */
	REFUSED_UNCHANGED(tu_revoke(&owner), OTA_REVOKE_REPLAYED);
	REFUSED_UNCHANGED(tu_revoke(&creator), OTA_REVOKE_REPLAYED);
	owner = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 11, 4, NULL);
	REFUSED_UNCHANGED(tu_revoke(&owner), OTA_REVOKE_REPLAYED);
	/* The creator's 2 is above its own 1, though below the owner's 5. */
	creator = tu_revocation(TU_CREATOR0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 11, 2, NULL);
	ck_assert_uint_eq(tu_revoke(&creator), OTA_OK);
	otp = &ota_boot_state()->otp;
	ck_assert_uint_eq(otp->revocation_seq, 2);
	ck_assert_uint_eq(otp->revocation_seq_owner, 5);
	/* Device-bound: the owner's 1 after the creator's 3. */
	creator = tu_revocation(TU_CREATOR0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 12, 3,
				dev.device_id);
	owner = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 13, 1, dev.device_id);
	ck_assert_uint_eq(tu_revoke(&creator), OTA_OK);
	ck_assert_uint_eq(tu_revoke(&owner), OTA_OK);
	otp = &ota_boot_state()->otp;
	ck_assert_uint_eq(otp->revocation_seq_device, 3);
	ck_assert_uint_eq(otp->revocation_seq_owner_device, 1);
	ck_assert_uint_eq(otp->floor_bl0, 13);
	ck_assert_uint_eq(update_section()->revocation_sequence_device, 3);
	/* OTP keeps them across a cold boot. */
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	otp = &ota_boot_state()->otp;
	ck_assert_uint_eq(otp->revocation_seq, 2);
	ck_assert_uint_eq(otp->revocation_seq_owner, 5);
}
END_TEST

/*
 * A hybrid owner (issue 28 item 4): an owner config that requires SLH-DSA,
 * or an owner key that is hybrid, admits no revocation signed with the
 * ECDSA half alone - neither at the runtime's check nor at ROM_EXT's, when
 * a compromised runtime leaves the command in retention RAM itself. The
 * creator's ECDSA-only keys (the creator anchors require hybrid only of a
 * hybrid key, as for ROM_EXT images) still revoke.
 */
static void hybrid_owner_device(uint32_t owner_flags)
{
	struct tu_blob h = tu_bl0(0, 7, true);

	swhal_close();
	dev.owner_keys[0] = TU_OWNER_H;
	dev.owner_key_count = 1;
	dev.owner_flags = owner_flags;
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = h;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->sig_scheme, OTA_SCHEME_HYBRID);
}

START_TEST(test_hybrid_owner_refuses_ecdsa_only_revocations)
{
	static const uint32_t flags[] = { OTA_OWNER_F_DIRECT_BOOT | OTA_OWNER_F_HYBRID_REQUIRED,
					  OTA_OWNER_F_DIRECT_BOOT };
	struct ota_boot_svc_request q;
	struct ota_revocation r;
	struct ota_resp_reset out;
	struct snapshot s;

	hybrid_owner_device(flags[_i]);
	r = tu_revocation(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, NULL);
	REFUSED_UNCHANGED(tu_revoke(&r), OTA_REVOKE_HYBRID_REQUIRED);
	r = tu_revocation(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, dev.device_id);
	REFUSED_UNCHANGED(tu_revoke(&r), OTA_REVOKE_HYBRID_REQUIRED);
	/* Left in retention RAM by the runtime itself: ROM_EXT refuses it as well. */
	memset(&q, 0, sizeof(q));
	q.services = OTA_SVC_REVOKE;
	q.revocation = r;
	snap(&s);
	ck_assert_uint_eq(boot_svc_store(&q), OTA_OK);
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(update_section()->service_mask, OTA_SVC_REVOKE);
	ck_assert_uint_eq(update_section()->service_status, OTA_REVOKE_HYBRID_REQUIRED);
	unchanged(&s, "ECDSA-only revocation left for ROM_EXT");
	ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 0);
	ck_assert_uint_eq(update_section()->revocation_sequence, 0);
	ck_assert_uint_eq(update_section()->revocation_sequence_device, 0);
	/* The creator's ECDSA-only key still may. */
	r = tu_revocation(TU_CREATOR0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, NULL);
	ck_assert_uint_eq(tu_revoke(&r), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 3);
}
END_TEST

/*
 * A hybrid command (both signatures, 8000 bytes) is what a hybrid owner
 * revokes with: checked by the runtime, staged in the layout's revocation
 * region (it does not fit retention RAM), checked whole again by ROM_EXT
 * from there and applied; fleet-wide and device-bound in their own series.
 */
START_TEST(test_hybrid_owner_applies_hybrid_revocations)
{
	static struct ota_revocation_hybrid h, back;
	const struct ota_flash_region *reg = tu_region(OTA_REGION_REVOCATION);
	const struct ota_record_update *u;

	hybrid_owner_device(OTA_OWNER_F_DIRECT_BOOT | OTA_OWNER_F_HYBRID_REQUIRED);
	tu_revocation_hybrid(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, NULL, &h);
	ck_assert_uint_eq(h.cmd.version, OTA_REVOCATION_VERSION_HYBRID);
	ck_assert_uint_eq(tu_revoke_hybrid(&h), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 3);
	u = update_section();
	ck_assert_uint_eq(u->service_mask, OTA_SVC_REVOKE);
	ck_assert_uint_eq(u->service_status, OTA_OK);
	ck_assert_uint_eq(u->revocation_sequence, 1);
	ck_assert_uint_eq(u->revocation_sequence_device, 0);
	ck_assert_int_eq(swhal_peek_flash(reg->offset, &back, sizeof(back)), 0);
	ck_assert_mem_eq(&back, &h, sizeof(h));
	/* Its replay, and a device-bound one in the other series. */
	REFUSED_UNCHANGED(tu_revoke_hybrid(&h), OTA_REVOKE_REPLAYED);
	tu_revocation_hybrid(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 5, 1, dev.device_id,
			     &h);
	ck_assert_uint_eq(tu_revoke_hybrid(&h), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 5);
	ck_assert_uint_eq(update_section()->revocation_sequence_device, 1);
}
END_TEST

/* Each half must hold, and neither can be cut off or moved to the other command. */
START_TEST(test_hybrid_revocation_needs_both_halves)
{
	static struct ota_revocation_hybrid h, bad;
	struct ota_revocation r;

	hybrid_owner_device(OTA_OWNER_F_DIRECT_BOOT | OTA_OWNER_F_HYBRID_REQUIRED);
	tu_revocation_hybrid(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, NULL, &h);
	bad = h;
	bad.spx_signature[100] ^= 0x01;
	REFUSED_UNCHANGED(tu_revoke_hybrid(&bad), OTA_REVOKE_SPX_INVALID);
	bad = h;
	bad.cmd.signature[5] ^= 0x01;
	REFUSED_UNCHANGED(tu_revoke_hybrid(&bad), OTA_REVOKE_SIG_INVALID);
	/* The SLH-DSA half of another command. */
	tu_revocation_hybrid(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 4, 1, NULL, &bad);
	memcpy(bad.spx_signature, h.spx_signature, sizeof(h.spx_signature));
	REFUSED_UNCHANGED(tu_revoke_hybrid(&bad), OTA_REVOKE_SPX_INVALID);
	/*
	 * Cut down to 144 bytes: as version 2 it is no whole command; as
	 * version 1 an ECDSA-only command of a hybrid key, whose signature
	 * would not hold either (it covers the version).
	 */
	r = h.cmd;
	REFUSED_UNCHANGED(tu_revoke(&r), OTA_REVOKE_MALFORMED);
	r.version = OTA_REVOCATION_VERSION;
	r.size = sizeof(r);
	REFUSED_UNCHANGED(tu_revoke(&r), OTA_REVOKE_HYBRID_REQUIRED);
	/* A version-1 command in the hybrid frame. */
	bad = h;
	bad.cmd = tu_revocation(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, NULL);
	REFUSED_UNCHANGED(tu_revoke_hybrid(&bad), OTA_REVOKE_MALFORMED);
	ck_assert_uint_eq(tu_revoke_hybrid(&h), OTA_OK);
}
END_TEST

/* An ECDSA-only key has no SLH-DSA half to check a hybrid command's against. */
START_TEST(test_hybrid_revocation_from_an_ecdsa_key)
{
	static struct ota_revocation_hybrid h;
	struct oti_revocation_params p = { OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, NULL };
	struct oti_diag d;

	/* otimage will not make one; a hand-made one is refused by the device. */
	ck_assert_uint_ne(oti_revocation_build_hybrid(&p, tu_key(TU_OWNER0), &h, &d), OTA_OK);
	tu_revocation_hybrid(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, NULL, &h);
	h.cmd = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, NULL);
	h.cmd.version = OTA_REVOCATION_VERSION_HYBRID;
	h.cmd.size = sizeof(h);
	{
		uint8_t digest[OTA_SHA256_BYTES];

		ota_revocation_digest(&h.cmd, digest);
		ck_assert_uint_eq(oti_ecdsa_sign(tu_key(TU_OWNER0), digest, h.cmd.signature), OTA_OK);
	}
	REFUSED_UNCHANGED(tu_revoke_hybrid(&h), OTA_REVOKE_SPX_INVALID);
}
END_TEST

/*
 * ROM_EXT judges the staged copy itself: one changed in flash after the
 * runtime's check (or a request naming a command flash does not hold) is
 * refused at the boot, nothing applied.
 */
START_TEST(test_rom_ext_checks_the_staged_hybrid_revocation)
{
	static struct ota_revocation_hybrid h, other;
	const struct ota_flash_region *reg = tu_region(OTA_REGION_REVOCATION);
	struct ota_boot_svc_request q;
	struct ota_resp_reset out;
	uint8_t otp[sizeof(struct ota_otp)], now[sizeof(struct ota_otp)];

	hybrid_owner_device(OTA_OWNER_F_DIRECT_BOOT | OTA_OWNER_F_HYBRID_REQUIRED);
	tu_revocation_hybrid(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, NULL, &h);
	tu_revocation_hybrid(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 4, 2, NULL, &other);
	ck_assert_int_eq(swhal_peek_otp(0, otp, sizeof(otp)), 0);
	memset(&q, 0, sizeof(q));
	q.services = OTA_SVC_REVOKE;
	q.revocation = h.cmd;
	/* Its SLH-DSA half torn in flash. */
	h.spx_signature[7000] ^= 0x40;
	ck_assert_int_eq(swhal_poke_flash(reg->offset, &h, sizeof(h)), 0);
	ck_assert_uint_eq(boot_svc_store(&q), OTA_OK);
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(update_section()->service_status, OTA_REVOKE_SPX_INVALID);
	/* Another valid command staged than the request names. */
	ck_assert_int_eq(swhal_poke_flash(reg->offset, &other, sizeof(other)), 0);
	ck_assert_uint_eq(boot_svc_store(&q), OTA_OK);
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(update_section()->service_status, OTA_REVOKE_MALFORMED);
	ck_assert_int_eq(swhal_peek_otp(0, now, sizeof(now)), 0);
	ck_assert_mem_eq(otp, now, sizeof(otp));
	ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 0);
}
END_TEST

/* A forged revocation in retention RAM: ROM_EXT checks the signature itself. */
START_TEST(test_rom_ext_checks_the_revocation_itself)
{
	struct ota_boot_svc_request q;
	struct ota_resp_reset out;
	struct snapshot s;

	delegate_device();
	memset(&q, 0, sizeof(q));
	q.services = OTA_SVC_REVOKE;
	q.revocation = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 11, 1, NULL);
	q.revocation.value = 15; /* changed after signing */
	snap(&s);
	ck_assert_uint_eq(boot_svc_store(&q), OTA_OK);
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(update_section()->service_status, OTA_REVOKE_SIG_INVALID);
	unchanged(&s, "forged revocation");
}
END_TEST

static Suite *update_suite(void)
{
	Suite *su = suite_create("update");
	TCase *life = tcase_create("life");
	TCase *bad = tcase_create("bad_input");
	TCase *rev = tcase_create("revocation");
	TCase *anchor = tcase_create("anchor");

	tcase_add_checked_fixture(life, setup, teardown);
	tcase_set_timeout(life, 120);
	tcase_add_test(life, test_install_trial_commit_ratchet);
	tcase_add_test(life, test_downgrade_lowers_min_svn);
	tcase_add_test(life, test_hybrid_depth2_install);
	tcase_add_test(life, test_rom_ext_update_by_warm_reset);
	tcase_add_test(life, test_dry_run_writes_nothing);
	suite_add_tcase(su, life);

	tcase_add_checked_fixture(bad, setup, teardown);
	tcase_set_timeout(bad, 120);
	tcase_add_test(bad, test_truncated_image);
	tcase_add_test(bad, test_oversized_image);
	tcase_add_test(bad, test_wrongly_signed_image);
	tcase_add_test(bad, test_wrong_device_image);
	tcase_add_test(bad, test_install_into_running_slot);
	tcase_add_test(bad, test_otp_counters_locked_for_the_runtime);
	tcase_add_test(bad, test_install_session_rules);
	tcase_add_test(bad, test_ratchet_above_running);
	tcase_add_test(bad, test_ratchet_keeps_a_fallback);
	tcase_add_test(bad, test_rom_ext_refuses_a_forged_request);
	tcase_add_test(bad, test_rom_ext_commits_only_the_running_slot);
	tcase_add_test(bad, test_rom_ext_checks_every_field);
	tcase_add_test(bad, test_rom_ext_serves_only_on_a_warm_reset);
	tcase_add_test(bad, test_rom_ext_locks_what_it_owns);
	suite_add_tcase(su, bad);

	tcase_add_checked_fixture(rev, setup, teardown);
	tcase_set_timeout(rev, 120);
	tcase_add_test(rev, test_revocation_of_a_delegate);
	tcase_add_test(rev, test_revocation_replayed_and_bad);
	tcase_add_test(rev, test_revocation_malformed);
	tcase_add_test(rev, test_rom_ext_checks_the_revocation_itself);
	tcase_add_test(rev, test_revocations_interleave_in_either_order);
	tcase_add_test(rev, test_each_signer_numbers_its_own_revocations);
	tcase_add_loop_test(rev, test_hybrid_owner_refuses_ecdsa_only_revocations, 0, 2);
	tcase_add_test(rev, test_hybrid_owner_applies_hybrid_revocations);
	tcase_add_test(rev, test_hybrid_revocation_needs_both_halves);
	tcase_add_test(rev, test_hybrid_revocation_from_an_ecdsa_key);
	tcase_add_test(rev, test_rom_ext_checks_the_staged_hybrid_revocation);
	suite_add_tcase(su, rev);

	/* About 1000 rotations, each a reset that re-tags every slot. */
	tcase_add_checked_fixture(anchor, setup_many_versions, teardown);
	tcase_set_timeout(anchor, 600);
	tcase_add_test(anchor, test_tag_key_version_exhaustion_refuses_rotations_and_keeps_commits);
	suite_add_tcase(su, anchor);
	return su;
}

OTA_TEST_MAIN(update_suite)
