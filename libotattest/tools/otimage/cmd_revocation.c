// SPDX-License-Identifier: MIT
/* otimage revocation: a signed field revocation command (otattest/revocation.h). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "otimage_internal.h"

static const char revocation_help[] =
	"NAME\n"
	"    otimage revocation - sign a field revocation command for a device or a fleet\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage revocation --key KEY --sequence N --out FILE\n"
	"                       (--floor rom_ext=N|bl0=N | --revoke creator:I|owner:I |\n"
	"                        --epoch N) [--device ID|any] [--force] [--json]\n"
	"\n"
	"DESCRIPTION\n"
	"    Writes a 144-byte revocation command (docs/formats.md, Revocation\n"
	"    commands) signed ECDSA P-256 by KEY, a creator or owner root key; with a\n"
	"    hybrid KEY (KEY.spx beside it) an 8000-byte hybrid command signed by both\n"
	"    halves, ECDSA P-256 and SLH-DSA (a device refuses an ECDSA-only command\n"
	"    from a hybrid key). The device applies it at its next boot, through the\n"
	"    mailbox's REVOKE or REVOKE_HYBRID command (otattestctl revoke): it raises\n"
	"    an OTP anti-rollback floor (a floor above a\n"
	"    delegate's SVN ceiling revokes that delegate), revokes a root key, or\n"
	"    bumps the identity epoch - for good, in fuses.\n"
	"\n"
	"    The device checks it against its own keys: a creator key may order\n"
	"    anything, an owner key only a BL0 floor and owner key revocations. It\n"
	"    takes a command once: it keeps the highest sequence number it applied, in\n"
	"    OTP, and refuses any command not above it (REVOKE_REPLAYED), so number a\n"
	"    fleet's commands in one series, 1..256. A command bound to a device (--device)\n"
	"    is refused by every other (REVOKE_WRONG_DEVICE). The device also refuses a\n"
	"    command that would leave it nothing to boot: a floor above what runs, the\n"
	"    key that admitted what runs.\n"
	"\n"
	"OPTIONS\n"
	"    --key KEY          signing key (private PEM): a creator or owner root key.\n"
	"    --sequence N       the command's number, 1..256, above every one the device\n"
	"                       applied.\n"
	"    --floor STAGE=N    raise the OTP floor of rom_ext or bl0 to N (0..255).\n"
	"    --revoke creator:I revoke OTP creator key slot I (0..3).\n"
	"    --revoke owner:I   revoke owner config key I (0..3).\n"
	"    --epoch N          raise the identity epoch to N (1..64).\n"
	"    --device ID|any    the one device (32 hex digits) that may apply it; any\n"
	"                       (the default) for every device.\n"
	"    --out FILE         where to write the command.\n"
	"    --force            replace FILE if it exists.\n"
	"    --json             print what was signed as one JSON object.\n"
	"    -h, --help         show this help.\n"
	"\n"
	OTI_HELP_EXIT_WRITES
	"\n"
	"EXAMPLES\n"
	"    otimage revocation --key owner.pem --sequence 3 --floor bl0=11 --out rev3.bin\n"
	"    otimage revocation --key creator.pem --sequence 4 --revoke creator:1 \\\n"
	"                       --device 00112233445566778899aabbccddeeff --out rev4.bin\n";

/* The one action: --floor, --revoke or --epoch. */
static int parse_action(int c, const char *arg, struct oti_revocation_params *p,
			struct oti_diag *d)
{
	char stage[16];
	const char *eq;

	switch (c) {
	case 'F':
		eq = strchr(arg, '=');
		if (!eq || (size_t)(eq - arg) >= sizeof(stage))
			return oti_usage_error("revocation", "--floor: '%s' is not STAGE=N", arg);
		memcpy(stage, arg, (size_t)(eq - arg));
		stage[eq - arg] = '\0';
		p->action = OTA_REVOKE_RAISE_FLOOR;
		if (oti_parse_stage(stage, &p->target) != OTA_OK ||
		    oti_parse_u32(eq + 1, OTA_SVN_LIMIT, &p->value) != OTA_OK)
			return oti_fail(d, oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--floor",
							"'%s', expected rom_ext=N or bl0=N with N 0..255",
							arg));
		return 0;
	case 'r':
		if (strncmp(arg, "creator:", 8) == 0)
			p->action = OTA_REVOKE_CREATOR_KEY;
		else if (strncmp(arg, "owner:", 6) == 0)
			p->action = OTA_REVOKE_OWNER_KEY;
		else
			return oti_usage_error("revocation", "--revoke: '%s' is not creator:I or owner:I",
					       arg);
		if (oti_parse_u32(strchr(arg, ':') + 1, OTA_OTP_CREATOR_KEYS - 1u, &p->target) != OTA_OK)
			return oti_fail(d, oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--revoke",
							"'%s', expected a key slot 0..3", arg));
		return 0;
	default:
		p->action = OTA_REVOKE_BUMP_EPOCH;
		if (oti_parse_u32(arg, OTA_OTP_EPOCH_BITS, &p->value) != OTA_OK || p->value == 0)
			return oti_fail(d, oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--epoch",
							"'%s', expected 1..64", arg));
		return 0;
	}
}

int oti_cmd_revocation(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "sequence", required_argument, NULL, 's' },
		{ "floor", required_argument, NULL, 'F' },
		{ "revoke", required_argument, NULL, 'r' },
		{ "epoch", required_argument, NULL, 'e' },
		{ "device", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct oti_revocation_params p;
	uint8_t device[OTA_DEVICE_ID_BYTES];
	const char *key_path = NULL, *out = NULL;
	bool force = false, json = false, have_seq = false;
	int c, actions = 0, rc;
	static struct ota_revocation_hybrid r; /* the first 144 bytes alone for an ECDSA key */
	size_t r_len = sizeof(r.cmd);
	struct oti_key k;
	struct oti_diag d;
	ota_status_t st;

	memset(&p, 0, sizeof(p));
	oti_diag_clear(&d);
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'k': key_path = optarg; break;
		case 's':
			if (oti_parse_u32(optarg, OTA_REVOCATION_SEQ_MAX, &p.sequence) != OTA_OK ||
			    p.sequence == 0)
				return oti_fail(&d, oti_diag_set(&d, OTA_TOOL_BAD_VALUE, NULL, "--sequence",
								 "'%s', expected 1..256", optarg));
			have_seq = true;
			break;
		case 'F':
		case 'r':
		case 'e':
			if (actions++)
				return oti_usage_error("revocation", "one of --floor, --revoke, --epoch");
			rc = parse_action(c, optarg, &p, &d);
			if (rc)
				return rc;
			break;
		case 'd':
			if (strcmp(optarg, "any") == 0) {
				p.device_id = NULL;
			} else if (oti_parse_hex(optarg, device, sizeof(device)) == OTA_OK) {
				p.device_id = device;
			} else {
				return oti_fail(&d, oti_diag_set(&d, OTA_TOOL_BAD_VALUE, NULL, "--device",
								 "'%s', expected any or 32 hex digits",
								 optarg));
			}
			break;
		case 'o': out = optarg; break;
		case 'f': force = true; break;
		case 'j': json = true; break;
		case 'h': return oti_print_help(revocation_help);
		default: return oti_usage_error("revocation", "unknown option");
		}
	}
	if (optind != argc)
		return oti_usage_error("revocation", "unexpected argument '%s'", argv[optind]);
	if (!key_path || !out || !have_seq || actions != 1)
		return oti_usage_error("revocation",
				       "--key, --sequence, --out and one of --floor, --revoke, --epoch are required");

	st = oti_key_load(key_path, true, &k, &d);
	if (st == OTA_OK) {
		/* As strong as the key: a hybrid key signs with both halves. */
		if (k.algorithm == OTA_KEY_ALG_HYBRID) {
			st = oti_revocation_build_hybrid(&p, &k, &r, &d);
			r_len = sizeof(r);
		} else {
			st = oti_revocation_build(&p, &k, &r.cmd, &d);
		}
		oti_key_free(&k);
	}
	if (st == OTA_OK) {
		struct oti_output o = { out, &r, r_len, 0644 };

		st = oti_files_write(&o, 1, force, &d);
	}
	if (st == OTA_OK)
		st = oti_inspect(out, (const uint8_t *)&r, r_len, json, stdout, &d);
	return st == OTA_OK ? 0 : oti_fail(&d, st);
}
