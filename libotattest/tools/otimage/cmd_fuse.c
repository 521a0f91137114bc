// SPDX-License-Identifier: MIT
/* otimage fuse: program the counters of an existing OTP image. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "otimage_internal.h"

static const char fuse_help[] =
	"NAME\n"
	"    otimage fuse - raise a floor, bump the epoch, revoke a key or move the\n"
	"    lifecycle out of manufacturing in an OTP image\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage fuse OTP [--floor rom_ext=N|bl0=N]... [--bump-epoch]\n"
	"                     [--revoke creator:I|owner:I]... [--lifecycle STATE]\n"
	"                     [--out FILE] [--json]\n"
	"\n"
	"DESCRIPTION\n"
	"    Programs the COUNTERS partition of OTP the way the fuses themselves are\n"
	"    programmed: bits are only ever set. Raising a floor sets more bits of its\n"
	"    thermometer code, so lowering one is refused (OTP_CLEARS_BITS, exit 10) and\n"
	"    raising it to its current value changes nothing. Bumping the epoch changes\n"
	"    every key of the SVN key chain; revoking a creator or owner key makes every\n"
	"    image under it fail with ROOT_KEY_REVOKED. Raising a floor above a\n"
	"    delegate's SVN ceiling revokes that delegate without spending a key fuse.\n"
	"\n"
	"    --lifecycle ends manufacturing: a device provisioned in test_unlocked (where\n"
	"    it hands out its identity CSR and takes its certificate) moves to dev, prod\n"
	"    or prod_end by programming the lifecycle transition word. It happens once:\n"
	"    any other move is refused (OTP_LIFECYCLE_TRANSITION, exit 10); moving to\n"
	"    the state the image is already in changes nothing. The device sees it at\n"
	"    its next boot.\n"
	"\n"
	"    All changes are applied in memory, checked, and written at once: to FILE\n"
	"    with --out, otherwise back to OTP (atomically, by rename).\n"
	"\n"
	"OPTIONS\n"
	"    --floor STAGE=N          raise the anti-rollback floor of rom_ext or bl0 to N.\n"
	"    --bump-epoch             add one to the identity epoch (at most 64).\n"
	"    --revoke creator:I       revoke creator key slot I (0..3).\n"
	"    --revoke owner:I         revoke owner config key I (0..3).\n"
	"    --lifecycle STATE        leave test_unlocked for dev, prod or prod_end.\n"
	"    --out FILE               write the result to FILE instead of OTP.\n"
	"    --json                   print the decoded result as one JSON object.\n"
	"    -h, --help               show this help.\n"
	"\n"
	OTI_HELP_EXIT_WRITES
	"\n"
	"EXAMPLES\n"
	"    otimage fuse otp.bin --floor bl0=5\n"
	"    otimage fuse otp.bin --revoke creator:0 --bump-epoch\n"
	"    otimage fuse otp.bin --lifecycle prod\n";

#define FUSE_MAX_OPS 16

struct fuse_op {
	char kind; /* 'f' floor, 'e' epoch, 'r' revoke, 'l' lifecycle */
	uint32_t a, b;
	const char *arg;
};

static ota_status_t fuse_apply(struct ota_otp *otp, const struct fuse_op *op, struct oti_diag *d)
{
	ota_status_t st;

	switch (op->kind) {
	case 'f':
		st = oti_otp_raise_floor(otp, op->a, op->b);
		return st == OTA_OK ? st
				    : oti_diag_set(d, st, NULL, "--floor", "'%s'%s", op->arg,
						   st == OTA_OTP_CLEARS_BITS ? ": floors only go up" : "");
	case 'e':
		st = oti_otp_bump_epoch(otp, NULL);
		return st == OTA_OK ? st
				    : oti_diag_set(d, st, NULL, "--bump-epoch",
						   st == OTA_TOOL_TOO_LARGE ? "the epoch is at its maximum (64)"
									    : NULL);
	case 'l':
		st = oti_otp_set_lifecycle(otp, op->a);
		return st == OTA_OK ? st : oti_diag_set(d, st, NULL, "--lifecycle", "'%s'", op->arg);
	default:
		st = oti_otp_revoke(otp, op->a != 0, op->b);
		return st == OTA_OK ? st : oti_diag_set(d, st, NULL, "--revoke", "'%s'", op->arg);
	}
}

int oti_cmd_fuse(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "floor", required_argument, NULL, 'F' },
		{ "bump-epoch", no_argument, NULL, 'e' },
		{ "revoke", required_argument, NULL, 'r' },
		{ "lifecycle", required_argument, NULL, 'l' },
		{ "out", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fuse_op ops[FUSE_MAX_OPS];
	const char *in, *out = NULL;
	bool json = false;
	struct ota_otp otp;
	struct oti_diag d;
	size_t nops = 0, i;
	ota_status_t st;
	int c, rc;

	oti_diag_clear(&d);
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		struct fuse_op op = { .kind = (char)c, .arg = optarg };
		char stage[16];
		const char *eq;

		switch (c) {
		case 'F':
			op.kind = 'f';
			eq = optarg ? strchr(optarg, '=') : NULL;
			if (!eq || (size_t)(eq - optarg) >= sizeof(stage))
				return oti_usage_error("fuse", "--floor: '%s' is not STAGE=N", optarg);
			memcpy(stage, optarg, (size_t)(eq - optarg));
			stage[eq - optarg] = '\0';
			if (oti_parse_stage(stage, &op.a) != OTA_OK ||
			    oti_parse_u32(eq + 1, OTA_SVN_LIMIT, &op.b) != OTA_OK)
				return oti_fail(&d, oti_diag_set(&d, OTA_TOOL_BAD_VALUE, NULL, "--floor",
								 "'%s', expected rom_ext=N or bl0=N with N 0..255",
								 optarg));
			break;
		case 'e': break;
		case 'r':
			if (strncmp(optarg, "creator:", 8) == 0)
				op.a = 0;
			else if (strncmp(optarg, "owner:", 6) == 0)
				op.a = 1;
			else
				return oti_usage_error("fuse", "--revoke: '%s' is not creator:I or owner:I", optarg);
			if (oti_parse_u32(strchr(optarg, ':') + 1, 3, &op.b) != OTA_OK)
				return oti_fail(&d, oti_diag_set(&d, OTA_TOOL_BAD_VALUE, NULL, "--revoke",
								 "'%s', expected a key slot 0..3", optarg));
			break;
		case 'l':
			if (oti_parse_lifecycle(optarg, &op.a) != OTA_OK)
				return oti_fail(&d, oti_diag_set(&d, OTA_TOOL_BAD_VALUE, NULL, "--lifecycle",
								 "'%s', expected dev, prod or prod_end",
								 optarg));
			break;
		case 'o': out = optarg; continue;
		case 'j': json = true; continue;
		case 'h': return oti_print_help(fuse_help);
		default: return oti_usage_error("fuse", "unknown option");
		}
		if (nops >= FUSE_MAX_OPS)
			return oti_usage_error("fuse", "at most %d changes at once", FUSE_MAX_OPS);
		ops[nops++] = op;
	}
	if (optind + 1 != argc)
		return oti_usage_error("fuse", "give exactly one OTP image");
	if (!nops)
		return oti_usage_error("fuse", "nothing to program: give --floor, --bump-epoch, --revoke or --lifecycle");
	in = argv[optind];

	st = oti_otp_load(in, &otp, &d);
	for (i = 0; st == OTA_OK && i < nops; i++) {
		st = fuse_apply(&otp, &ops[i], &d);
		if (st != OTA_OK && !d.file[0])
			oti_diag_set(&d, st, in, NULL, NULL);
	}
	if (st == OTA_OK) {
		struct oti_output o = { out ? out : in, &otp, sizeof(otp), 0600 };

		/* In place is the point of this command: replacing the input is expected. */
		st = oti_files_write(&o, 1, out == NULL, &d);
	}
	if (st == OTA_OK)
		st = oti_inspect(out ? out : in, (const uint8_t *)&otp, sizeof(otp), json, stdout, &d);
	rc = st == OTA_OK ? 0 : oti_fail(&d, st);
	OPENSSL_cleanse(&otp, sizeof(otp));
	return rc;
}
