// SPDX-License-Identifier: MIT
/* Shared pieces of the model suites; see harness.h. */
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <errno.h>

#include <otattest/flash.h>

#include "fixture.h"

void rig_join(struct rig *r)
{
	int e = devc_open(&r->dev, r->mp.socket, CONNECT_TIMEOUT_MS);

	ck_assert_msg(e == 0, "joining the model as guest failed: %d (log %s)", e, r->mp.log);
	r->joined = true;
}

void rig_leave(struct rig *r)
{
	if (r->joined)
		devc_close(&r->dev);
	r->joined = false;
}

void rig_up(struct rig *r, bool provision, const char *const *extra_args)
{
	char load_flash[256], load_otp[256];
	const char *args[32];
	unsigned n = 0;
	int e;

	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(mp_init(&r->mp), 0);
	if (provision) {
		const struct fixture *fx = fixture_get();

		ck_assert_msg(fx != NULL, "provisioning a device with otimage failed");
		snprintf(load_flash, sizeof(load_flash), "--load-flash=%s", fx->flash);
		snprintf(load_otp, sizeof(load_otp), "--load-otp=%s", fx->otp);
		args[n++] = load_flash;
		args[n++] = load_otp;
		r->provisioned = true;
	}
	for (unsigned i = 0; extra_args && extra_args[i] && n < 31; i++)
		args[n++] = extra_args[i];
	args[n] = NULL;
	e = mp_start(&r->mp, args);
	ck_assert_msg(e == 0, "model did not start (%d); log %s", e, r->mp.log);
	rig_join(r);
}

void rig_down(struct rig *r)
{
	rig_leave(r);
	mp_cleanup(&r->mp);
}

void rig_ctl_expect(struct rig *r, const char *request, const char *want_prefix)
{
	char reply[2048];

	ck_assert_int_eq(mp_ctl(&r->mp, request, reply, sizeof(reply)), 0);
	ck_assert_msg(strncmp(reply, want_prefix, strlen(want_prefix)) == 0,
		      "'%s' replied '%s', wanted '%s...'", request, reply, want_prefix);
}

void rig_ctl_ok(struct rig *r, const char *request, char *reply, size_t cap)
{
	int e = mp_ctl(&r->mp, request, reply, cap);

	ck_assert_msg(e == 0, "control '%s' failed: %d", request, e);
	ck_assert_msg(strncmp(reply, "ok", 2) == 0, "control '%s' replied '%s'", request, reply);
}

long long rig_status(struct rig *r, const char *key)
{
	long long v = mp_status_num(&r->mp, key);

	ck_assert_msg(v >= 0, "status has no numeric %s", key);
	return v;
}

void rig_wait_status(struct rig *r, const char *key, const char *value, int ms)
{
	char reply[2048], got[128] = "";

	for (int waited = 0; waited <= ms; waited += 5) {
		if (mp_ctl(&r->mp, "status", reply, sizeof(reply)) == 0 &&
		    mp_reply_value(reply, key, got, sizeof(got)) && strcmp(got, value) == 0)
			return;
		usleep(5000);
	}
	ck_abort_msg("status %s stayed '%s', wanted '%s'", key, got, value);
}

ota_status_t rig_call(struct rig *r, uint32_t command, const void *req, uint32_t req_len,
		      void *resp, uint32_t cap, uint32_t *resp_len)
{
	ota_status_t transport, status = 0;

	transport = devc_call(&r->dev, command, req, req_len, resp, cap, resp_len, &status,
			      MBOX_TIMEOUT_MS);
	ck_assert_msg(transport == OTA_OK, "mailbox command %u: transport %s", command,
		      ota_status_name(transport) ? ota_status_name(transport) : "?");
	return status;
}

uint32_t rig_record(struct rig *r, struct ota_record *out)
{
	uint32_t len = 0, gen = 0;
	ota_status_t st = devc_read_record(&r->dev, out, sizeof(*out), &len, &gen);

	ck_assert_msg(st == OTA_OK, "record region read: %s", ota_status_name(st));
	st = ota_record_validate(out, len);
	ck_assert_msg(st == OTA_OK, "record does not validate: %s", ota_status_name(st));
	return len;
}

int harness_run(Suite *s, bool needs_fixture)
{
	SRunner *sr;
	int run, failed;

	/* Built once here, before check forks: every test loads the same images. */
	if (needs_fixture && !fixture_get()) {
		fprintf(stderr, "provisioning the test device with otimage failed\n");
		printf("0 passed, 1 failed\n");
		return 1;
	}
	sr = srunner_create(s);

	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	run = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	fixture_remove();
	printf("%d passed, %d failed\n", run - failed, failed);
	return failed == 0 && run > 0 ? 0 : 1;
}

/* Region order of the test layout: slots first, then one page per record. */
static const uint32_t layout_order[OTA_REGION_TYPE_MAX] = {
	OTA_REGION_ROM_EXT_A,   OTA_REGION_ROM_EXT_B,   OTA_REGION_BL0_A,
	OTA_REGION_BL0_B,       OTA_REGION_BOOT_DATA_0, OTA_REGION_BOOT_DATA_1,
	OTA_REGION_TAG_TABLE_0, OTA_REGION_TAG_TABLE_1, OTA_REGION_OWNER_CONFIG,
	OTA_REGION_IDENTITY_CERT,
};

uint32_t layout_slot_offset(uint32_t stage, uint32_t slot, uint32_t slot_pages)
{
	uint32_t index = (stage == OTA_STAGE_ROM_EXT ? 0u : 2u) + slot;

	return OTA_FLASH_PAGE_SIZE * (1u + index * slot_pages);
}

int write_layout_only_flash(const char *path, uint32_t slot_pages)
{
	struct ota_flash_layout l;
	uint32_t off = OTA_FLASH_PAGE_SIZE;
	FILE *f;

	memset(&l, 0, sizeof(l));
	l.magic = OTA_FLASH_LAYOUT_MAGIC;
	l.version = OTA_FLASH_LAYOUT_VERSION;
	l.size = sizeof(l);
	l.page_size = OTA_FLASH_PAGE_SIZE;
	l.region_count = OTA_REGION_TYPE_MAX;
	for (unsigned i = 0; i < OTA_REGION_TYPE_MAX; i++) {
		uint32_t size = (i < 4 ? slot_pages : 1u) * OTA_FLASH_PAGE_SIZE;

		l.region[i].type = layout_order[i];
		l.region[i].offset = off;
		l.region[i].size = size;
		off += size;
	}
	l.flash_size = off;
	if (ota_flash_layout_check(&l, off) != OTA_OK)
		return -EINVAL;
	f = fopen(path, "wb");
	if (!f)
		return -errno;
	if (fwrite(&l, sizeof(l), 1, f) != 1) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) == 0 ? 0 : -EIO;
}

int shell_run(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int status;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
