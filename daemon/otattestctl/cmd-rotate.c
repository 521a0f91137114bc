// SPDX-License-Identifier: MIT
/*
 * otattestctl rotate: RotateTags, with progress from the RotationProgress
 * signals while the call runs. otattestctl update-reset: UpdateReset.
 * Both are privileged (root, group otattest-update, or polkit).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/shm.h>
#include <otu/json.h>

#include "ctl.h"

static int on_progress(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
	struct ctl *c = userdata;
	uint32_t done, total;

	if (sd_bus_message_read(m, "uu", &done, &total) < 0)
		return 0;
	if (c->json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "event", "progress");
		otu_json_add_u64(doc, "done", done);
		otu_json_add_u64(doc, "total", total);
		otu_json_emit(stdout, doc);
		fflush(stdout);
	} else if (!c->quiet) {
		/* Said once it runs (the first progress), not before the call was allowed. */
		if (!c->progress_shown)
			printf("rotating boot tags...\n");
		c->progress_shown = true;
		printf("re-tagged %u of %u stage(s)\n", done, total);
		fflush(stdout);
	}
	return 0;
}

int cmd_rotate(struct ctl *c, int argc, char **argv)
{
	sd_bus_message *reply = NULL;
	uint32_t old_kv, new_kv, retagged;
	char path[160];
	int r;

	if (argc > 1) {
		fprintf(stderr, "otattestctl: rotate takes no arguments (use -d DEVICE)\n");
		return OTA_EXIT_USAGE;
	}
	r = ctl_device_path(c, path, sizeof(path));
	if (r)
		return r;
	r = ctl_admin_call(c, path, "RotateTags", "RotationProgress", on_progress, c, &reply, NULL);
	if (r)
		return r;
	r = sd_bus_message_read(reply, "uuu", &old_kv, &new_kv, &retagged);
	sd_bus_message_unref(reply);
	if (r < 0)
		return ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to RotateTags");
	if (c->json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "event", "finished");
		otu_json_add_u64(doc, "old_key_version", old_kv);
		otu_json_add_u64(doc, "new_key_version", new_kv);
		otu_json_add_u64(doc, "stages_retagged", retagged);
		otu_json_emit(stdout, doc);
	} else {
		printf("tag key version %u -> %u, %u stage(s) re-tagged\n", old_kv, new_kv, retagged);
	}
	return 0;
}

int cmd_update_reset(struct ctl *c, int argc, char **argv)
{
	uint32_t slot = OTA_UPDATE_SLOT_OTHER;
	sd_bus_message *reply = NULL;
	char path[160];
	int r;

	r = ctl_parse_slot_args(argc, argv, "s:", true, &slot);
	if (!r)
		r = ctl_device_path(c, path, sizeof(path));
	if (r)
		return r;
	r = ctl_admin_call(c, path, "UpdateReset", NULL, NULL, NULL, &reply, "u", slot);
	if (r)
		return r;
	return ctl_reset_result(c, "update reset", reply);
}
