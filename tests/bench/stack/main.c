// SPDX-License-Identifier: MIT
/* otattest-loadgen: command line. See usage() and tests/bench/README.md. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/num.h>

#include "../../../daemon/common/dbus-api.h"
#include "loadgen.h"

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"NAME\n"
		"    otattest-loadgen - clients for the whole-stack benchmark and the soak test\n"
		"\n"
		"SYNOPSIS\n"
		"    otattest-loadgen bench --op OP [--clients N] [--seconds S] [--warmup S]\n"
		"                           [--daemon BUSNAME] [--bus-pid PID] [--label TEXT]\n"
		"    otattest-loadgen soak --role readers --ca CA.pem [--clients N] [--seconds S]\n"
		"                          [--think MIN:MAX] [--rss-growth-max KIB] [--out FILE]\n"
		"    otattest-loadgen soak --role rotator [--seconds S] [--rotate-every S] [--out FILE]\n"
		"    otattest-loadgen tpm-setup\n"
		"    otattest-loadgen wait-name BUSNAME [SECONDS]\n"
		"\n"
		"DESCRIPTION\n"
		"    Runs inside the benchmark guest (tests/bench/scenarios/) beside otattestd\n"
		"    and tpm2-abrmd. Every client is a thread with its own D-Bus connection\n"
		"    (sd-bus, system bus) or its own TSS2 ESAPI context (tabrmd TCTI), made\n"
		"    before the clock starts.\n"
		"\n"
		"    bench      N clients call OP back to back. After the warm-up, requests\n"
		"               that start and end inside the window count: throughput is\n"
		"               their number over the window, p50/p90/p99 their latencies.\n"
		"               The CPU time spent in the window is split between the\n"
		"               clients, the --daemon, the bus daemon and the whole machine.\n"
		"               Prints one JSON object on stdout, a summary on stderr. Exit 1\n"
		"               if any request failed (a benchmark with errors has no figures).\n"
		"    soak       Long-running mixed load, every answer judged (see soak.c):\n"
		"               readers mix State/Stages reads, GetRecord and Attest, each\n"
		"               evidence verified against --ca and its nonce; the rotator\n"
		"               calls RotateTags every --rotate-every seconds (jittered).\n"
		"               Writes a JSON report; exit 0 only when no answer was wrong,\n"
		"               unexpected or lost and otattestd's memory stayed in bound.\n"
		"    tpm-setup  Create the ECC P-256 attestation key and make it persistent\n"
		"               at 0x81010042 (kept if it is there already).\n"
		"    wait-name  Wait until BUSNAME has an owner (default 15 s); exit 1 if not.\n"
		"\n"
		"OPS\n");
	for (i = 0; i < lg_op_count; i++)
		fprintf(f, "    %-12s %s\n", lg_ops[i].name, lg_ops[i].what);
	fprintf(f,
		"\n"
		"OPTIONS\n"
		"    --op OP             The request to time (bench).\n"
		"    --clients N         Concurrent clients, 1..256 (default 1; soak readers 31).\n"
		"    --seconds S         Measured window (bench, default 5) or run time (soak,\n"
		"                        default 240).\n"
		"    --warmup S          Unmeasured seconds before the window (default 1).\n"
		"    --daemon BUSNAME    The daemon serving OP (e.g. " OTA_BUS_NAME "):\n"
		"                        its resident memory is sampled during the run and\n"
		"                        its CPU time over the window reported.\n"
		"    --bus-pid PID       The bus daemon's pid, for its CPU time over the window\n"
		"                        (e.g. systemctl show -p MainPID --value dbus.service).\n"
		"    --label TEXT        Name of this row in the JSON (default: the op).\n"
		"    --role ROLE         readers or rotator (soak).\n"
		"    --ca FILE           Manufacturer CA (PEM) the evidence must chain to.\n"
		"    --rotate-every S    Mean seconds between rotations (default 15).\n"
		"    --think MIN:MAX     Readers: each waits a random MIN..MAX seconds after\n"
		"                        each answer (default 0.05:0.25). make soak's fleet\n"
		"                        load uses 0.3:0.9 with 2 clients a uid: about 1\n"
		"                        Attest a second per uid, under the per-user rate.\n"
		"    --rss-growth-max KIB\n"
		"                        Most otattestd may grow, per instance, from 20 s after\n"
		"                        it appeared to its end (default 2048).\n"
		"    --out FILE          Write the soak report there instead of stdout.\n"
		"    -h, --help          This text.\n"
		"\n"
		"ENVIRONMENT\n"
		"    LG_TPM_TCTI         TCTI for the TPM ops (default tabrmd:bus_type=system).\n"
		"\n"
		"EXIT STATUS\n"
		"    0 success; 1 the run failed (errors, wrong answers, memory); 2 usage.\n"
		"\n"
		"SEE ALSO\n"
		"    tests/bench/README.md, docs/performance.md\n");
}

static int parse_secs(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end || !(v >= 0 && v <= 86400))
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "op", required_argument, NULL, 'o' },
		{ "clients", required_argument, NULL, 'c' },
		{ "seconds", required_argument, NULL, 's' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "daemon", required_argument, NULL, 'r' },
		{ "label", required_argument, NULL, 'l' },
		{ "bus-pid", required_argument, NULL, 'P' },
		{ "role", required_argument, NULL, 'R' },
		{ "ca", required_argument, NULL, 'C' },
		{ "rotate-every", required_argument, NULL, 'e' },
		{ "rss-growth-max", required_argument, NULL, 'g' },
		{ "out", required_argument, NULL, 'O' },
		{ "think", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct lg_bench_args b = { .clients = 0, .seconds = -1, .warmup = 1 };
	struct lg_soak_args s = { .rotate_every = 15, .rss_growth_max_kib = 2048 };
	const char *mode;
	double secs = -1;
	unsigned clients = 0;
	int c;

	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	mode = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!(b.op = lg_op_find(optarg))) {
				fprintf(stderr, "otattest-loadgen: unknown op '%s' (see --help)\n", optarg);
				return 2;
			}
			break;
		case 'c':
			if (otu_parse_u32(optarg, OTU_DEC, 1, 256, &clients) < 0)
				goto bad;
			break;
		case 's':
			if (parse_secs(optarg, &secs) < 0 || secs <= 0)
				goto bad;
			break;
		case 'w':
			if (parse_secs(optarg, &b.warmup) < 0)
				goto bad;
			break;
		case 'r':
			b.rss_name = optarg;
			break;
		case 'l':
			b.label = optarg;
			break;
		case 'P': {
			unsigned pid;

			if (otu_parse_u32(optarg, OTU_DEC, 1, 4194304, &pid) < 0)
				goto bad;
			b.bus_pid = pid;
			break;
		}
		case 'R':
			if (strcmp(optarg, "readers") && strcmp(optarg, "rotator"))
				goto bad;
			s.role = optarg;
			break;
		case 'C':
			s.ca_path = optarg;
			break;
		case 'e':
			if (parse_secs(optarg, &s.rotate_every) < 0 || s.rotate_every <= 0)
				goto bad;
			break;
		case 'g':
			if (otu_parse_u32(optarg, OTU_DEC, 0, 1u << 30, &s.rss_growth_max_kib) < 0)
				goto bad;
			break;
		case 'O':
			s.out_path = optarg;
			break;
		case 't': {
			char lo[32], *colon = strchr(optarg, ':');

			if (!colon || (size_t)(colon - optarg) >= sizeof(lo))
				goto bad;
			memcpy(lo, optarg, (size_t)(colon - optarg));
			lo[colon - optarg] = 0;
			if (parse_secs(lo, &s.think_min) < 0 || parse_secs(colon + 1, &s.think_max) < 0 ||
			    s.think_max <= 0 || s.think_min > s.think_max)
				goto bad;
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}

	if (!strcmp(mode, "bench")) {
		if (!b.op || optind != argc) {
			fprintf(stderr, "otattest-loadgen: bench needs --op (see --help)\n");
			return 2;
		}
		b.clients = clients ? clients : 1;
		b.seconds = secs > 0 ? secs : 5;
		return lg_bench_run(&b);
	}
	if (!strcmp(mode, "soak")) {
		if (!s.role || optind != argc) {
			fprintf(stderr, "otattest-loadgen: soak needs --role (see --help)\n");
			return 2;
		}
		s.clients = clients ? clients : (!strcmp(s.role, "readers") ? 31 : 1);
		s.seconds = secs > 0 ? secs : 240;
		return lg_soak_run(&s);
	}
	if (!strcmp(mode, "tpm-setup") && optind == argc)
		return lg_tpm_setup() < 0 ? 1 : 0;
	if (!strcmp(mode, "wait-name") && (argc - optind == 1 || argc - optind == 2)) {
		double wait = 15;

		if (argc - optind == 2 && parse_secs(argv[optind + 1], &wait) < 0)
			goto bad;
		return lg_bus_wait_name(argv[optind], wait) < 0 ? 1 : 0;
	}
	fprintf(stderr, "otattest-loadgen: unknown command '%s' (see --help)\n", mode);
	return 2;
bad:
	fprintf(stderr, "otattest-loadgen: bad value '%s' for an option (see --help)\n", optarg);
	return 2;
}
