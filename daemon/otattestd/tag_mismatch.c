// SPDX-License-Identifier: MIT
/*
 * A boot tag that did not match its image. The device then verified the
 * image's signatures and booted it (or refused it), so nothing failed - but
 * a tag of the current key version made for this very image (its
 * measurement hint) stands for exactly what the device verified when it
 * made it, and only a tag altered behind the device's back breaks that (a
 * slot rewritten since is image-changed, not this). Ops need to alert on
 * it: each such attempt raises one journal entry with its
 * own MESSAGE_ID (explained in the journal catalog), a TagMismatch signal
 * and the device's TagMismatches counter, which `otattestctl metrics`
 * exports as otattest_tag_mismatches_total.
 *
 * Once per boot: a record that changes for another reason (a later
 * generation of the same boot) repeats its stage records unchanged, and
 * those are not reported again; nor is a record the boot history already
 * held when otattestd (re)started or the device came back (device_link.c).
 * The counter restarts with the daemon, as Prometheus counters may.
 */
#include <stdio.h>
#include <string.h>

#include <otu/hex.h>

#include "log.h"
#include "manager.h"

static void report(struct device *d, const struct ota_record *rec, const struct ota_stage_record *s)
{
	char f_gen[48], f_stage[48], f_slot[32], f_kv[48], f_meas[96], f_path[64], f_status[96];
	char hex[2 * OTA_SHA256_BYTES + 1];
	const char *slot = s->slot == OTA_SLOT_A ? "a" : "b"; /* validated < 2 */
	const char *fields[] = { f_gen, f_stage, f_slot, f_kv, f_meas, f_path, f_status, NULL };

	otu_hex_encode(hex, s->measurement, sizeof(s->measurement));
	snprintf(f_gen, sizeof(f_gen), "OTATTEST_GENERATION=%u", rec->hdr.generation);
	snprintf(f_stage, sizeof(f_stage), "OTATTEST_STAGE=%s", ota_stage_name(s->stage));
	snprintf(f_slot, sizeof(f_slot), "OTATTEST_SLOT=%s", slot);
	snprintf(f_kv, sizeof(f_kv), "OTATTEST_TAG_KEY_VERSION=%u", s->tag_key_version);
	snprintf(f_meas, sizeof(f_meas), "OTATTEST_MEASUREMENT=%s", hex);
	snprintf(f_path, sizeof(f_path), "OTATTEST_PATH=%s", ota_path_name(s->path));
	snprintf(f_status, sizeof(f_status), "OTATTEST_STATUS=%s",
		 ota_status_name(s->status) ?: "unknown");
	log_event_fields(LOG_WARNING, MID_TAG_MISMATCH, d->name, fields,
			 "boot tag of %s slot %s did not match its image (tag key version %u); %s",
			 ota_stage_name(s->stage), slot, s->tag_key_version,
			 s->status == OTA_OK ? "booted on the signature path"
					     : "the image was then refused");
	d->tag_mismatches++;
	bus_emit_tag_mismatch(d, rec->hdr.generation, s);
}

void device_report_tag_mismatches(struct device *d, const struct ota_record *old, bool had_old,
				  const struct ota_record *rec)
{
	uint64_t before = d->tag_mismatches;
	uint32_t i;

	if (had_old && history_same_boot(old, rec))
		return;
	for (i = 0; i < rec->hdr.stage_count && i < OTA_RECORD_MAX_STAGES; i++)
		if (rec->stage[i].path_reason == OTA_REASON_TAG_MISMATCH)
			report(d, rec, &rec->stage[i]);
	if (d->tag_mismatches != before)
		bus_emit_properties_changed(d);
}
