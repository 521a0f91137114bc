// SPDX-License-Identifier: MIT
/*
 * otattest-recdump FILE: decode a boot record with libotattest's record.h
 * and print what the driver's sysfs files must show for it, one
 * "path=value" line per file (paths relative to otattestN/), in the
 * formats kernel/ABI/testing/sysfs-class-otattest documents.
 *
 * The kernel-sysfs scenario compares these lines, made on the host from
 * the bytes the device exported, with the files the guest's driver
 * shows: two independent renderings of the same record must agree.
 *
 * Exit status: 0 printed; 1 the record is invalid (the status is
 * printed); 2 usage; 3 the file cannot be read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/record.h>
#include <otu/file.h>
#include <otu/hex.h>

static void hex(const char *key, const uint8_t *p, size_t n)
{
	printf("%s=", key);
	otu_hex_fprint(stdout, p, n);
	putchar('\n');
}

static void stage(unsigned int m, const struct ota_stage_record *s)
{
	char key[64];

	printf("stage%u/stage=%s\n", m, ota_stage_name(s->stage));
	printf("stage%u/slot=%s\n", m, s->slot == OTA_SLOT_A ? "a" : "b");
	printf("stage%u/status=0x%08" PRIx32 "\n", m, s->status);
	printf("stage%u/path=%s\n", m, ota_path_name(s->path));
	printf("stage%u/scheme=%s\n", m, ota_scheme_name(s->sig_scheme));
	printf("stage%u/delegation_depth=%" PRIu32 "\n", m, s->delegation_depth);
	printf("stage%u/svn=%" PRIu32 "\n", m, s->security_version);
	printf("stage%u/tag_key_version=%" PRIu32 "\n", m, s->tag_key_version);
	snprintf(key, sizeof(key), "stage%u/measurement", m);
	hex(key, s->measurement, sizeof(s->measurement));
	printf("stage%u/key_ids=", m);
	for (uint32_t k = 0; k <= s->delegation_depth; k++) {
		printf("%s", k ? " " : "");
		otu_hex_fprint(stdout, s->key_ids[k], OTA_KEY_ID_BYTES);
	}
	putchar('\n');
	printf("stage%u/verify_time_ns=%" PRIu64 "\n", m, s->verify_time_ns);
	printf("stage%u/verify_cycles=%" PRIu64 "\n", m, s->verify_cycles);
	printf("stage%u/booted=%d\n", m, (s->flags & OTA_STAGE_F_BOOTED) ? 1 : 0);
	printf("stage%u/fallback=%d\n", m, (s->flags & OTA_STAGE_F_FALLBACK) ? 1 : 0);
	printf("stage%u/path_reason=%s\n", m, ota_path_reason_name(s->path_reason));
	printf("stage%u/debug=%d\n", m, (s->effective.usage.flags & OTA_CAP_DEBUG) ? 1 : 0);
}

static const char *slot_label(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "none";
}

/* update/ and slot_<stage>_<a|b>/: the record's update section. */
static void update(const struct ota_record_update *u)
{
	printf("update/state=%s\n", ota_update_state_name(u->update_state));
	printf("update/primary_slot=%s\n", slot_label(u->primary_slot));
	printf("update/running_rom_ext_slot=%s\n", slot_label(u->running_rom_ext_slot));
	printf("update/running_bl0_slot=%s\n", slot_label(u->running_bl0_slot));
	if (u->pending_stage)
		printf("update/pending=%s %s\n", ota_stage_name(u->pending_stage),
		       slot_label(u->pending_slot));
	else
		printf("update/pending=none\n");
	printf("update/revocation_sequence=%" PRIu32 "\n", u->revocation_sequence);
	printf("update/trial_boots=%" PRIu32 "\n", u->trial_boots);
	printf("update/revert_reason=%s\n", ota_revert_reason_name(u->revert_reason));
	printf("update/reverted_slot=%s\n",
	       u->revert_reason == OTA_REVERT_NONE ? "none" : slot_label(u->reverted_slot));
	for (uint32_t i = 0; i < OTA_STAGE_COUNT * OTA_SLOT_COUNT; i++) {
		const struct ota_record_slot *s = &u->slot[i];
		const char *dir;
		const char *sep = "";

		/* An entry the device did not report reads no data in sysfs. */
		if (!s->stage)
			continue;
		dir = ota_stage_name(i / OTA_SLOT_COUNT + 1u);
		printf("slot_%s_%s/svn=%" PRIu32 "\n", dir, slot_label(i % OTA_SLOT_COUNT),
		       s->security_version);
		printf("slot_%s_%s/version=%.*s\n", dir, slot_label(i % OTA_SLOT_COUNT),
		       (int)OTA_VERSION_STRING_BYTES, s->version);
		printf("slot_%s_%s/flags=", dir, slot_label(i % OTA_SLOT_COUNT));
		for (uint32_t bit = 1; bit & OTA_RECORD_SLOT_F_ALL; bit <<= 1)
			if (s->flags & bit) {
				printf("%s%s", sep, ota_record_slot_flag_name(bit));
				sep = " ";
			}
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	static struct ota_record rec;
	const struct ota_record_header *h = &rec.hdr;
	ota_status_t st;
	uint8_t *buf;
	size_t len;
	int r;

	if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"Usage: otattest-recdump FILE\n\n"
			"Print the sysfs values (path=value, relative to otattestN/) the\n"
			"otattest driver must show for the boot record in FILE.\n"
			"Exit: 0 ok, 1 invalid record, 2 usage, 3 unreadable file.\n");
		return argc == 2 ? 0 : 2;
	}
	r = otu_read_file(argv[1], sizeof(rec), &buf, &len);
	if (r == -EFBIG) {
		printf("invalid=longer than any record (%zu bytes)\n", len);
		return 1;
	}
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(-r));
		return 3;
	}
	memcpy(&rec, buf, len);
	free(buf);
	st = ota_record_validate(&rec, (uint32_t)len);
	if (st != OTA_OK) {
		printf("invalid=%s\n", ota_status_name(st));
		return 1;
	}

	hex("device_id", h->device_id, sizeof(h->device_id));
	printf("lifecycle=%s\n", ota_lifecycle_name(h->lifecycle));
	printf("reset_reason=%s\n", ota_reset_reason_name(h->reset_reason));
	printf("epoch=%" PRIu32 "\n", h->epoch);
	printf("min_svn=%" PRIu32 "\n", h->min_svn);
	printf("chain_max_svn=%" PRIu32 "\n", h->chain_max_svn);
	printf("floor_rom_ext=%" PRIu32 "\n", h->floor_rom_ext);
	printf("floor_bl0=%" PRIu32 "\n", h->floor_bl0);
	printf("tag_boot_enabled=%d\n", (h->flags & OTA_RECORD_F_TAG_BOOT_ENABLED) ? 1 : 0);
	printf("tag_key_version=%" PRIu32 "\n", h->tag_key_version);
	printf("generation=%" PRIu32 "\n", h->generation);
	printf("boot_status=0x%08" PRIx32 "\n", h->boot_status);
	printf("boot_data_counter=%" PRIu32 "\n", h->boot_data_counter);
	printf("boot_time_ns=%" PRIu64 "\n", h->boot_time_ns);
	hex("rom_identity", h->rom_identity, sizeof(h->rom_identity));
	printf("stage_count=%" PRIu32 "\n", h->stage_count);
	for (uint32_t m = 0; m < h->stage_count; m++)
		stage(m, &rec.stage[m]);
	if (h->flags & OTA_RECORD_F_UPDATE_SECTION)
		update(ota_record_update_of(&rec));
	return 0;
}
