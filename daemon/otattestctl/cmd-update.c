// SPDX-License-Identifier: MIT
/*
 * The update agent's commands (docs/dbus-api.md, "Updates"): warm-reset
 * activates a ROM_EXT; install, check, commit, ratchet and revoke drive
 * the device's update life cycle. All privileged (root, group
 * otattest-update, or polkit).
 */
#include <stdio.h>
#include <string.h>

#include "ctl.h"

int cmd_warm_reset(struct ctl *c, int argc, char **argv)
{
	sd_bus_message *reply = NULL;
	char path[160];
	int r;

	if (argc > 1) {
		fprintf(stderr, "otattestctl: warm-reset takes no arguments (use -d DEVICE)\n");
		return OTA_EXIT_USAGE;
	}
	r = ctl_device_path(c, path, sizeof(path));
	if (r)
		return r;
	r = ctl_admin_call(c, path, "WarmReset", NULL, NULL, NULL, &reply, NULL);
	if (r)
		return r;
	return ctl_reset_result(c, "warm reset", reply);
}
