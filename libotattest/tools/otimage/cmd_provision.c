// SPDX-License-Identifier: MIT
/*
 * otimage provision: build the OTP image a device is fused with.
 *
 * Three steps, kept apart so later provisioning steps slot in between
 * building and writing: parse the command line into a job, build the OTP
 * image, write every output of the job atomically.
 *
 * The device identity certificate is not made here: the host never
 * learns the identity key. The device, personalized in TEST_UNLOCKED,
 * hands out a CSR and `otimage ca-sign` certifies it (docs/otimage.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>

#include <otattest/sha256.h>

#include "idcert.h"
#include "otimage_internal.h"

static const char provision_help[] =
	"NAME\n"
	"    otimage provision - build an OTP image\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage provision --out OTP --creator-key PUB[:LIFECYCLE]...\n"
	"                      [--owner-config FILE | --owner-config-digest HEX]\n"
	"                      [--lifecycle STATE] [--device-id HEX|random]\n"
	"                      [--secret-file FILE] [--tag-boot on|off] [--chain-max-svn N]\n"
	"                      [--epoch N] [--floor-rom-ext N] [--floor-bl0 N]\n"
	"                      [--revoke-creator I]... [--revoke-owner I]... [--force] [--json]\n"
	"\n"
	"DESCRIPTION\n"
	"    Builds the 1024-byte OTP image (docs/formats.md): the HW_CFG partition with\n"
	"    device id, lifecycle state, features, SVN key chain length, the owner config\n"
	"    digest and up to four creator root keys, sealed by its SHA-256; the SECRET\n"
	"    partition with the 32-byte device secret, sealed by its own digest; and the\n"
	"    COUNTERS partition (epoch, anti-rollback floors, revocations), which later\n"
	"    only gains bits (see otimage fuse).\n"
	"\n"
	"    The device secret comes from the kernel's random source (getrandom) unless\n"
	"    --secret-file gives exactly 32 bytes. It is never printed. The OTP file is\n"
	"    written with mode 0600.\n"
	"\n"
	"    The device identity certificate is not issued here: provision the device\n"
	"    in test_unlocked (the manufacturing state), let it hand out its CSR\n"
	"    (mailbox GET_IDENTITY_CSR), certify it with otimage ca-sign, send the\n"
	"    certificate back (SET_IDENTITY_CERT), then move the lifecycle on with\n"
	"    otimage fuse --lifecycle or the fuse programmer. The host never learns\n"
	"    the identity key; the device proves it holds it.\n"
	"\n"
	"OPTIONS\n"
	"    --creator-key PUB[:LIFECYCLE]\n"
	"                          a creator root key (ROM verifies ROM_EXT with it); 1 to\n"
	"                          4 in slot order; PUB.spx makes it hybrid; the suffix\n"
	"                          limits its lifecycle states (default all).\n"
	"    --owner-config FILE   the owner config whose SHA-256 to provision.\n"
	"    --owner-config-digest HEX\n"
	"                          the digest itself (64 hex digits).\n"
	"    --lifecycle STATE     test_unlocked, dev (default), prod, prod_end or rma.\n"
	"    --device-id ID        32 hex digits, or random (default).\n"
	"    --secret-file FILE    the device secret (32 bytes).\n"
	"    --tag-boot on|off     the tag boot feature bit (default on).\n"
	"    --chain-max-svn N     SVN key chain length, 1..255 (default 128).\n"
	"    --epoch N             identity epoch, 0..64 (default 0).\n"
	"    --floor-rom-ext N, --floor-bl0 N\n"
	"                          anti-rollback floors, 0..255 (default 0).\n"
	"    --revoke-creator I, --revoke-owner I\n"
	"                          mark creator key slot I / owner config key I revoked.\n"
	"    --out OTP             where to write the OTP image.\n"
	"    --ca-key, --ca-cert, --identity-cert\n"
	"                          removed: a usage error that names otimage ca-sign.\n"
	"    --force               replace OTP if it exists.\n"
	"    --json                print the decoded OTP image as one JSON object.\n"
	"    -h, --help            show this help.\n"
	"\n"
	OTI_HELP_EXIT_WRITES
	"\n"
	"EXAMPLES\n"
	"    otimage provision --creator-key creator.pub --owner-config owner.cfg \\\n"
	"                      --lifecycle prod --out otp.bin\n"
	"    otimage provision --creator-key creator.pub --owner-config owner.cfg \\\n"
	"                      --lifecycle test_unlocked --out otp.bin   # to personalize\n";

#define PROVISION_MAX_OUTPUTS 4

struct provision_job {
	struct oti_otp_params params;
	const char *creator_keys[OTA_OTP_CREATOR_KEYS + 1];
	uint32_t creator_key_count;
	const char *owner_config, *owner_digest, *secret_file, *device_id, *out;
	bool force, json;
	struct ota_otp otp;
	struct oti_output outputs[PROVISION_MAX_OUTPUTS];
	size_t output_count;
};

static int provision_parse(struct provision_job *job, int argc, char **argv, struct oti_diag *d,
			   bool *done)
{
	static const struct option opts[] = {
		{ "creator-key", required_argument, NULL, 'k' },
		{ "owner-config", required_argument, NULL, 'O' },
		{ "owner-config-digest", required_argument, NULL, 'G' },
		{ "lifecycle", required_argument, NULL, 'l' },
		{ "device-id", required_argument, NULL, 'i' },
		{ "secret-file", required_argument, NULL, 's' },
		{ "tag-boot", required_argument, NULL, 'T' },
		{ "chain-max-svn", required_argument, NULL, 'c' },
		{ "epoch", required_argument, NULL, 'e' },
		{ "floor-rom-ext", required_argument, NULL, 'r' },
		{ "floor-bl0", required_argument, NULL, 'b' },
		{ "revoke-creator", required_argument, NULL, 'R' },
		{ "revoke-owner", required_argument, NULL, 'W' },
		{ "out", required_argument, NULL, 'o' },
		/* Gone: named so that old scripts learn where the step went. */
		{ "ca-key", required_argument, NULL, 'K' },
		{ "ca-cert", required_argument, NULL, 'K' },
		{ "identity-cert", required_argument, NULL, 'K' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct oti_otp_params *p = &job->params;
	bool tag_boot = true;
	uint32_t idx;
	int c;

	*done = false;
	p->lifecycle = OTA_LC_DEV;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		const char *opt = NULL;
		uint32_t *u32 = NULL, max = 0;

		switch (c) {
		case 'k':
			if (job->creator_key_count >= OTA_OTP_CREATOR_KEYS)
				return oti_fail(d, oti_diag_set(d, OTA_TOOL_TOO_MANY_KEYS, NULL,
								"--creator-key", "at most %u",
								OTA_OTP_CREATOR_KEYS));
			job->creator_keys[job->creator_key_count++] = optarg;
			continue;
		case 'O': job->owner_config = optarg; continue;
		case 'G': job->owner_digest = optarg; continue;
		case 'l':
			if (oti_parse_lifecycle(optarg, &p->lifecycle) != OTA_OK)
				return oti_fail(d, oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--lifecycle",
								"'%s', expected test_unlocked, dev, prod, prod_end or rma",
								optarg));
			continue;
		case 'i': job->device_id = optarg; continue;
		case 's': job->secret_file = optarg; continue;
		case 'T':
			if (oti_parse_bool(optarg, &tag_boot) != OTA_OK)
				return oti_usage_error("provision", "--tag-boot: '%s' is not on or off", optarg);
			continue;
		case 'c': opt = "--chain-max-svn"; u32 = &p->chain_max_svn; max = OTA_SVN_LIMIT; break;
		case 'e': opt = "--epoch"; u32 = &p->epoch; max = OTA_OTP_EPOCH_BITS; break;
		case 'r': opt = "--floor-rom-ext"; u32 = &p->floor_rom_ext; max = OTA_SVN_LIMIT; break;
		case 'b': opt = "--floor-bl0"; u32 = &p->floor_bl0; max = OTA_SVN_LIMIT; break;
		case 'R':
		case 'W':
			if (oti_parse_u32(optarg, (c == 'R' ? OTA_OTP_CREATOR_KEYS : 4u) - 1u, &idx) != OTA_OK)
				return oti_fail(d, oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL,
								c == 'R' ? "--revoke-creator" : "--revoke-owner",
								"'%s', expected a key slot 0..3", optarg));
			if (c == 'R')
				p->creator_key_revoked[idx] = true;
			else
				p->owner_key_revoked[idx] = true;
			continue;
		case 'o': job->out = optarg; continue;
		case 'K':
			return oti_usage_error("provision", "--ca-key, --ca-cert and --identity-cert are "
					       "gone: the device hands out a CSR in test_unlocked and "
					       "'otimage ca-sign' certifies it (docs/otimage.md)");
		case 'f': job->force = true; continue;
		case 'j': job->json = true; continue;
		case 'h': *done = true; return oti_print_help(provision_help);
		default: return oti_usage_error("provision", "unknown option");
		}
		if (oti_parse_u32(optarg, max, u32) != OTA_OK ||
		    (u32 == &p->chain_max_svn && *u32 == 0))
			return oti_fail(d, oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, opt,
							"'%s', expected %u..%u", optarg,
							u32 == &p->chain_max_svn ? 1u : 0u, max));
	}
	p->features = tag_boot ? OTA_OTP_F_TAG_BOOT : 0;
	if (optind != argc)
		return oti_usage_error("provision", "unexpected argument '%s'", argv[optind]);
	if (!job->out || !job->creator_key_count)
		return oti_usage_error("provision", "--out and at least one --creator-key are required");
	if (job->owner_config && job->owner_digest)
		return oti_usage_error("provision", "give --owner-config or --owner-config-digest, not both");
	return 0;
}

/* Gather the inputs and build the OTP image into job->otp. */
static ota_status_t provision_build(struct provision_job *job, struct oti_diag *d)
{
	struct oti_otp_params *p = &job->params;
	ota_status_t st = OTA_OK;
	uint32_t i;

	for (i = 0; i < job->creator_key_count && st == OTA_OK; i++) {
		char path[4096];
		uint32_t mask;
		struct oti_key k;

		oti_key_spec(job->creator_keys[i], path, sizeof(path), &mask);
		st = oti_key_load(path, false, &k, d);
		if (st == OTA_OK) {
			oti_key_root_entry(&k, mask, &p->creator_keys[i]);
			oti_key_free(&k);
		}
	}
	p->creator_key_count = job->creator_key_count;
	if (st != OTA_OK)
		return st;

	if (job->owner_config) {
		struct ota_owner_config oc;

		OTA_TRY(oti_owner_config_load(job->owner_config, &oc, d));
		ota_sha256(&oc, sizeof(oc), p->owner_config_digest);
	} else if (job->owner_digest &&
		   oti_parse_hex(job->owner_digest, p->owner_config_digest,
				 sizeof(p->owner_config_digest)) != OTA_OK) {
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--owner-config-digest",
				    "expected 64 hex digits");
	}

	if (job->device_id && strcmp(job->device_id, "random") != 0) {
		if (oti_parse_hex(job->device_id, p->device_id, sizeof(p->device_id)) != OTA_OK)
			return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--device-id",
					    "'%s', expected 32 hex digits or random", job->device_id);
	} else if (getrandom(p->device_id, sizeof(p->device_id), 0) != sizeof(p->device_id)) {
		return oti_diag_set(d, OTA_HOST_IO, NULL, "--device-id", "getrandom failed");
	}

	if (job->secret_file) {
		uint8_t *buf;
		size_t len;

		/* Read more than needed so a wrong size is reported as such, not as "too large". */
		OTA_TRY(oti_file_read(job->secret_file, OTI_MAX_SMALL_FILE, &buf, &len, d));
		if (len != sizeof(p->device_secret)) {
			OPENSSL_cleanse(buf, len);
			free(buf);
			return oti_diag_set(d, OTA_TOOL_BAD_VALUE, job->secret_file, "device_secret",
					    "%zu bytes, need exactly 32", len);
		}
		memcpy(p->device_secret, buf, len);
		OPENSSL_cleanse(buf, len);
		free(buf);
	} else if (getrandom(p->device_secret, sizeof(p->device_secret), 0) !=
		   sizeof(p->device_secret)) {
		return oti_diag_set(d, OTA_HOST_IO, NULL, "--secret-file", "getrandom failed");
	}

	return oti_otp_build(p, &job->otp, d);
}

/* Every output at once: all are written or none. */
static ota_status_t provision_write(struct provision_job *job, struct oti_diag *d)
{
	job->outputs[job->output_count++] = (struct oti_output){ job->out, &job->otp,
								 sizeof(job->otp), 0600 };
	return oti_files_write(job->outputs, job->output_count, job->force, d);
}

int oti_cmd_provision(int argc, char **argv)
{
	struct provision_job *job = calloc(1, sizeof(*job));
	struct oti_diag d;
	ota_status_t st;
	bool done;
	int rc;

	if (!job)
		return oti_exit_code(OTA_HOST_INTERNAL);
	oti_diag_clear(&d);
	rc = provision_parse(job, argc, argv, &d, &done);
	if (rc != 0 || done)
		goto out;
	st = provision_build(job, &d);
	if (st == OTA_OK)
		st = provision_write(job, &d);
	if (st == OTA_OK)
		st = oti_inspect(job->out, (const uint8_t *)&job->otp, sizeof(job->otp), job->json,
				 stdout, &d);
	rc = st == OTA_OK ? 0 : oti_fail(&d, st);
out:
	OPENSSL_cleanse(job, sizeof(*job));
	free(job);
	return rc;
}
