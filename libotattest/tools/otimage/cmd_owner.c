// SPDX-License-Identifier: MIT
/* otimage owner-config: build the owner config (BL0's root keys and policy). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "otimage_internal.h"

static const char owner_help[] =
	"NAME\n"
	"    otimage owner-config - build the owner config\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage owner-config --key PUB[:LIFECYCLE]... --out FILE [--max-depth 0|1|2]\n"
	"                         [--direct-boot on|off] [--hybrid-required on|off]\n"
	"                         [--force] [--json]\n"
	"\n"
	"DESCRIPTION\n"
	"    The owner config holds the owner root keys ROM_EXT verifies BL0 against,\n"
	"    and the owner's delegation policy. Its SHA-256 is provisioned into OTP\n"
	"    (otimage provision --owner-config), which is what authenticates it; pack\n"
	"    puts the file itself into the flash image.\n"
	"\n"
	"    Each --key names a public (or private) key; PUB.spx makes it a hybrid key.\n"
	"    An optional ':LIFECYCLE' suffix (e.g. owner.pub:dev,prod) limits the\n"
	"    lifecycle states in which the key is accepted (default: all).\n"
	"\n"
	"OPTIONS\n"
	"    --key PUB[:LIFECYCLE]   an owner root key; 1 to 4, in slot order.\n"
	"    --max-depth N           maximum delegation depth, 0..2 (default 2).\n"
	"    --direct-boot on|off    whether an owner root key may sign BL0 directly\n"
	"                            (default on).\n"
	"    --hybrid-required on|off\n"
	"                            whether every signature, certificates included, must\n"
	"                            be ECDSA + SLH-DSA (default off; needs hybrid keys).\n"
	"    --out FILE              where to write the owner config (480 bytes).\n"
	"    --force                 replace FILE if it exists.\n"
	"    --json                  print the config as one JSON object.\n"
	"    -h, --help              show this help.\n"
	"\n"
	OTI_HELP_EXIT_WRITES
	"\n"
	"EXAMPLES\n"
	"    otimage owner-config --key owner.pub --key backup.pub:prod --max-depth 2 \\\n"
	"                         --out owner.cfg\n";

int oti_cmd_owner_config(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "max-depth", required_argument, NULL, 'm' },
		{ "direct-boot", required_argument, NULL, 'D' },
		{ "hybrid-required", required_argument, NULL, 'H' },
		{ "out", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *keys[OTA_OWNER_MAX_KEYS + 1], *out = NULL;
	bool force = false, json = false, direct = true, hybrid = false;
	struct oti_owner_params p;
	struct ota_owner_config oc;
	struct oti_diag d;
	uint32_t nkeys = 0, i;
	ota_status_t st = OTA_OK;
	int c;

	oti_diag_clear(&d);
	memset(&p, 0, sizeof(p));
	p.max_delegation_depth = OTA_MAX_DELEGATION_DEPTH;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (nkeys >= OTA_OWNER_MAX_KEYS)
				return oti_fail(&d, oti_diag_set(&d, OTA_TOOL_TOO_MANY_KEYS, NULL, "--key",
								 "at most %u owner keys",
								 OTA_OWNER_MAX_KEYS));
			keys[nkeys++] = optarg;
			break;
		case 'm':
			if (oti_parse_u32(optarg, OTA_MAX_DELEGATION_DEPTH, &p.max_delegation_depth) != OTA_OK)
				return oti_fail(&d, oti_diag_set(&d, OTA_OWNER_BAD_DEPTH, NULL, "--max-depth",
								 "'%s', expected 0..2", optarg));
			break;
		case 'D':
			if (oti_parse_bool(optarg, &direct) != OTA_OK)
				return oti_usage_error("owner-config", "--direct-boot: '%s' is not on or off", optarg);
			break;
		case 'H':
			if (oti_parse_bool(optarg, &hybrid) != OTA_OK)
				return oti_usage_error("owner-config", "--hybrid-required: '%s' is not on or off", optarg);
			break;
		case 'o': out = optarg; break;
		case 'f': force = true; break;
		case 'j': json = true; break;
		case 'h': return oti_print_help(owner_help);
		default: return oti_usage_error("owner-config", "unknown option");
		}
	}
	if (optind != argc)
		return oti_usage_error("owner-config", "unexpected argument '%s'", argv[optind]);
	if (!nkeys || !out)
		return oti_usage_error("owner-config", "at least one --key, and --out, are required");

	for (i = 0; i < nkeys && st == OTA_OK; i++) {
		char path[4096];
		uint32_t mask;
		struct oti_key k;

		oti_key_spec(keys[i], path, sizeof(path), &mask);
		st = oti_key_load(path, false, &k, &d);
		if (st != OTA_OK)
			break;
		oti_key_root_entry(&k, mask, &p.keys[i]);
		oti_key_free(&k);
	}
	p.key_count = nkeys;
	p.flags = (direct ? OTA_OWNER_F_DIRECT_BOOT : 0) | (hybrid ? OTA_OWNER_F_HYBRID_REQUIRED : 0);
	if (st == OTA_OK) {
		st = oti_owner_config_build(&p, &oc, &d);
		if (st == OTA_OWNER_BAD_KEYS && hybrid)
			oti_diag_set(&d, st, NULL, "--hybrid-required",
				     "every owner key must be hybrid, and keys must differ");
	}
	if (st == OTA_OK) {
		struct oti_output o = { out, &oc, sizeof(oc), 0644 };

		st = oti_files_write(&o, 1, force, &d);
	}
	if (st == OTA_OK)
		st = oti_inspect(out, (const uint8_t *)&oc, sizeof(oc), json, stdout, &d);
	return st == OTA_OK ? 0 : oti_fail(&d, st);
}
