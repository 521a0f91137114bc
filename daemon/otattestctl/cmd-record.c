// SPDX-License-Identifier: MIT
/* otattestctl record [--json|--raw]: the boot record, validated, decoded. */
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"

int cmd_record(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "raw", no_argument, NULL, 'r' },
		{ 0 },
	};
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	bool raw = false, json = c->json;
	char path[160];
	const void *p;
	size_t len;
	ota_status_t s;
	int r, o;

	/* 0, not 1: glibc then re-reads the ordering (main parsed with "+"). */
	optind = 0;
	while ((o = getopt_long(argc, argv, "jr", opts, NULL)) >= 0) {
		if (o == 'j')
			json = true;
		else if (o == 'r')
			raw = true;
		else
			return OTA_EXIT_USAGE;
	}
	if (raw && json)
	{
		fprintf(stderr, "otattestctl: --raw and --json exclude each other\n");
		return OTA_EXIT_USAGE;
	}
	if (raw && isatty(STDOUT_FILENO))
		return ctl_fail(OTA_CLASS_INVALID_ARGUMENT,
				"refusing to write a binary record to a terminal; redirect stdout");

	if (!raw) {
		r = ctl_load_names(c);
		if (r)
			return r;
	}
	r = ctl_device_path(c, path, sizeof(path));
	if (r)
		return r;
	r = sd_bus_call_method(c->bus, OTA_BUS_NAME, path, OTA_BUS_DEVICE_IFACE, "GetRecord", &e,
			       &reply, NULL);
	if (r < 0) {
		r = ctl_fail_bus("GetRecord", &e, r);
		sd_bus_error_free(&e);
		return r;
	}
	r = sd_bus_message_read_array(reply, 'y', &p, &len);
	if (r < 0) {
		sd_bus_message_unref(reply);
		return ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to GetRecord");
	}
	if (raw) {
		r = fwrite(p, 1, len, stdout) == len && fflush(stdout) == 0 ? 0
			: ctl_fail(OTA_CLASS_IO, "cannot write the record");
		sd_bus_message_unref(reply);
		return r;
	}
	s = json ? ctl_print_record_json(stdout, p, len, &c->names)
		 : ctl_print_record(stdout, p, len, &c->names);
	sd_bus_message_unref(reply);
	if (s != OTA_OK)
		return ctl_fail(ota_status_class(s), "the record otattestd returned is invalid: %s",
				ota_status_message(s));
	return 0;
}
