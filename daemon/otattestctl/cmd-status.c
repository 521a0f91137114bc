// SPDX-License-Identifier: MIT
/* otattestctl status [DEVICE...]: every (or each named, or -d's) device's state and boot summary. */
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

int cmd_status(struct ctl *c, int argc, char **argv)
{
	struct ctl_device *devs = NULL;
	char **paths = NULL;
	size_t n = 0, i, cap = 0;
	int r;

	if (argc > 1) {
		/* Named devices, each resolved through GetDevice (errors name it). */
		for (i = 1; i < (size_t)argc; i++)
			cap++;
		paths = calloc(cap + 1, sizeof(char *));
		if (!paths)
			return ctl_fail(OTA_CLASS_INTERNAL, "out of memory");
		for (i = 1; i < (size_t)argc; i++) {
			char path[160];

			c->device = argv[i];
			r = ctl_device_path(c, path, sizeof(path));
			if (r) {
				ctl_strv_free(paths);
				return r;
			}
			paths[i - 1] = strdup(path);
		}
	} else if (c->device) {
		/* -d NAME: that device, as `status NAME` (it named the first one). */
		char path[160];

		r = ctl_device_path(c, path, sizeof(path));
		if (r)
			return r;
		paths = calloc(2, sizeof(char *));
		if (!paths || !(paths[0] = strdup(path))) {
			free(paths);
			return ctl_fail(OTA_CLASS_INTERNAL, "out of memory");
		}
	} else {
		r = ctl_list_devices(c, &paths);
		if (r)
			return r;
	}
	r = ctl_get_devices(c, paths, &devs, &n);
	if (r)
		return r;

	if (c->json) {
		ctl_print_status_json(stdout, devs, n);
	} else if (n == 0) {
		printf("no otattest devices\n");
	} else {
		for (i = 0; i < n; i++) {
			if (i)
				putchar('\n');
			ctl_print_status(stdout, &devs[i], c->color);
		}
	}
	/*
	 * Scripts and monitoring can rely on the exit code: no device (16),
	 * one not ready (19), else one whose last boot needs an operator
	 * (CTL_EXIT_ATTENTION, 3), else 0.
	 */
	r = 0;
	if (n == 0)
		r = ctl_exit_for_class(OTA_CLASS_NOT_FOUND);
	for (i = 0; i < n && !r; i++)
		if (strcmp(devs[i].state, "ready") != 0)
			r = ctl_exit_for_class(OTA_CLASS_UNAVAILABLE);
	for (i = 0; i < n && !r; i++) {
		struct ctl_attention att[CTL_ATTENTION_MAX];

		if (ctl_device_attention(&devs[i], att, CTL_ATTENTION_MAX))
			r = CTL_EXIT_ATTENTION;
	}
	free(devs);
	return r;
}
