// SPDX-License-Identifier: MIT
/*
 * otattestctl metrics [--output FILE]: Prometheus text for every device,
 * to stdout or atomically replacing FILE (for node_exporter's textfile
 * collector, e.g. /var/lib/prometheus/node-exporter/otattest.prom).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <otu/file.h>

#include "ctl.h"

int cmd_metrics(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ 0 },
	};
	struct ctl_device *devs = NULL;
	const char *output = NULL;
	char **paths = NULL, *text = NULL;
	size_t n = 0, tlen = 0;
	FILE *mem;
	int r, o;

	/* 0, not 1: glibc then re-reads the ordering (main parsed with "+"). */
	optind = 0;
	while ((o = getopt_long(argc, argv, "o:", opts, NULL)) >= 0) {
		if (o != 'o')
			return OTA_EXIT_USAGE;
		output = optarg;
	}
	if (optind < argc) {
		fprintf(stderr, "otattestctl: metrics: unexpected argument '%s'\n", argv[optind]);
		return OTA_EXIT_USAGE;
	}
	r = ctl_list_devices(c, &paths);
	if (r)
		return r;
	/* Key names become labels (otattest_stage_key_info). */
	r = ctl_get_devices(c, paths, &devs, &n);
	if (r)
		return r;

	mem = open_memstream(&text, &tlen);
	if (!mem) {
		free(devs);
		return ctl_fail(OTA_CLASS_INTERNAL, "out of memory");
	}
	ctl_metrics_format(mem, devs, n, (uint64_t)time(NULL));
	fclose(mem);
	free(devs);
	if (output) {
		/*
		 * Replaced whole: the collector reads the file whenever it scrapes.
		 * The temporary (".NAME.XXXXXX") does not end in .prom, so the
		 * collector never reads it.
		 */
		r = otu_write_file_atomic(output, text, tlen, 0644, 0);
		if (r < 0)
			r = ctl_fail(OTA_CLASS_IO, "cannot write %s: %s", output, strerror(-r));
	} else {
		r = fwrite(text, 1, tlen, stdout) == tlen ? 0 : ctl_fail(OTA_CLASS_IO, "cannot write stdout");
	}
	free(text);
	return r;
}
