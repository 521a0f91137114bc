// SPDX-License-Identifier: MIT
/* otimage sign: build and sign a boot image. */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "inspect.h"
#include "otimage_internal.h"
#include "settings.h"

#define SIGN_DEFAULT_MAX_KEY_VERSION 64u

static const char sign_help[] =
	"NAME\n"
	"    otimage sign - build and sign a boot image\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage sign --key KEY [--cert CERT]... --out IMAGE [--config FILE]\n"
	"                 [--stage rom_ext|bl0] [--svn N] [--payload FILE] [--slots MASK]\n"
	"                 [--lifecycle MASK] [--flags CAPS] [--device any|ID]\n"
	"                 [--max-key-version N] [--salt HEX|random] [--version-string TEXT]\n"
	"                 [--otp OTP] [--owner-config CFG] [--root-key PUB] [--force] [--json]\n"
	"\n"
	"DESCRIPTION\n"
	"    Builds the image manifest around the payload and signs it: ECDSA P-256 over\n"
	"    the measurement (SHA-256 of the signed region) and, when KEY is hybrid\n"
	"    (KEY.spx exists), SLH-DSA-SHA2-128s over the same measurement in an SPXS\n"
	"    extension. With no --cert the image is signed directly by a root key; with\n"
	"    certificates (root-to-leaf order, from otimage delegate) KEY must be the\n"
	"    leaf's delegate key, and the certificates go into the unsigned region.\n"
	"\n"
	"    The image is checked the way the device checks it, with the device's own\n"
	"    code (see otimage inspect): its policy before anything is signed, every\n"
	"    signature after. An image the device would refuse is not written; the\n"
	"    refusal is the device's status (e.g. IMAGE_SVN_ABOVE_LEAF, exit 13). The\n"
	"    device is the one --otp, --owner-config and --root-key describe; what they\n"
	"    leave out is taken to let the image pass and listed under\n"
	"    device_check.not_applied. A direct image's key is its root key.\n"
	"\n"
	"    Manifest fields come from a config file (--config) of 'key = value' lines\n"
	"    and from options, which win. Config keys and their options:\n"
	"        stage              --stage            rom_ext or bl0 (required)\n"
	"        security_version   --svn              0..255 (required)\n"
	"        payload            --payload          file with the code bytes (required);\n"
	"                                              relative to the config file's directory;\n"
	"                                              a stage executable (an ELF32 RISC-V\n"
	"                                              executable such as build/rv32/rom_ext.elf)\n"
	"                                              is packed as its code segment, with its\n"
	"                                              load address and entry point in a signed\n"
	"                                              LOAD extension\n"
	"        slots              --slots            a, b, a,b or all\n"
	"        lifecycle          --lifecycle        test_unlocked,dev,prod,prod_end,rma or all\n"
	"        flags              --flags            none, tag-boot, debug or tag-boot,debug\n"
	"        device             --device           any, or a 32-hex-digit device id\n"
	"        max_key_version    --max-key-version  highest tag key version (default 64)\n"
	"        salt               --salt             64 hex digits or 'random': a SALT\n"
	"                                              extension mixed into the tag key\n"	"        version            --version-string   the image's version (\"2.4.1\"): up to\n"
	"                                              16 printable ASCII characters, signed;\n"
	"                                              the device's record and install answer\n"
	"                                              show it (default: none)\n"
	"    Without a certificate, slots, lifecycle, flags and device default to all,\n"
	"    all, tag-boot and any; with one they default to the leaf's constraints.\n"
	"\n"
	"OPTIONS\n"
	"    --key KEY      signing key (private PEM; KEY.spx makes it hybrid).\n"
	"    --cert CERT    a delegation certificate; repeat for root -> intermediate -> leaf.\n"
	"    --out IMAGE    where to write the image.\n"
	"    --config FILE  manifest fields as 'key = value' lines ('#' comments).\n"
	"    --otp OTP      check for the device this OTP image describes.\n"
	"    --owner-config CFG\n"
	"                   check against this owner config (a BL0's root keys and rules).\n"
	"    --root-key PUB the root key, when no --otp (ROM_EXT) or --owner-config (BL0)\n"
	"                   names the keys: verifies the first certificate too.\n"
	"    --force        replace IMAGE if it exists.\n"
	"    --json         print what was signed as one JSON object.\n"
	"    -h, --help     show this help.\n"
	"\n"
	OTI_HELP_EXIT_WRITES
	"\n"
	"EXAMPLES\n"
	"    otimage sign --key root.pem --stage rom_ext --svn 1 --payload rom_ext.bin \\\n"
	"                 --out rom_ext.img\n"
	"    otimage sign --key leaf.pem --cert intermediate.cert --cert leaf.cert \\\n"
	"                 --config bl0.conf --out bl0.img\n";

enum {
	S_STAGE, S_SVN, S_PAYLOAD, S_SLOTS, S_LIFECYCLE, S_FLAGS, S_DEVICE, S_MAXKV, S_SALT,
	S_VERSION, S_COUNT
};

static void settings_init(struct oti_setting *s)
{
	static const char *const keys[S_COUNT][2] = {
		{ "stage", "--stage" },       { "security_version", "--svn" },
		{ "payload", "--payload" },   { "slots", "--slots" },
		{ "lifecycle", "--lifecycle" }, { "flags", "--flags" },
		{ "device", "--device" },     { "max_key_version", "--max-key-version" },
		{ "salt", "--salt" },         { "version", "--version-string" },
	};
	int i;

	memset(s, 0, sizeof(*s) * S_COUNT);
	for (i = 0; i < S_COUNT; i++) {
		s[i].key = keys[i][0];
		s[i].option = keys[i][1];
	}
}

/* Turn the settings into image parameters; payload_path gets the file to read. */
static ota_status_t sign_params(struct oti_setting *s, const char *config,
				const struct oti_cert *leaf, struct oti_image_params *p,
				char *payload_path, size_t payload_path_size, struct oti_diag *d)
{
	uint32_t stage;
	ota_status_t st;

	memset(p, 0, sizeof(*p));
	if (!s[S_STAGE].value)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--stage", "required");
	if (oti_parse_stage(s[S_STAGE].value, &stage) != OTA_OK)
		return oti_setting_error(&s[S_STAGE], OTA_TOOL_BAD_VALUE, d, "rom_ext or bl0");
	p->identifier = stage == OTA_STAGE_ROM_EXT ? OTA_ID_ROM_EXT : OTA_ID_BL0;

	if (!s[S_SVN].value)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--svn", "required");
	if (oti_parse_u32(s[S_SVN].value, OTA_SVN_LIMIT, &p->security_version) != OTA_OK)
		return oti_setting_error(&s[S_SVN], OTA_TOOL_BAD_VALUE, d, "0..255");

	if (leaf) {
		p->usage = leaf->dlgc.constraints.usage;
	} else {
		p->usage.slot_mask = OTA_SLOT_MASK_ALL;
		p->usage.lifecycle_mask = OTA_LC_MASK_ALL;
		p->usage.flags = OTA_CAP_TAG_BOOT;
		p->usage.device_binding = OTA_BINDING_ANY;
	}
	if (s[S_SLOTS].value && oti_parse_slot_mask(s[S_SLOTS].value, &p->usage.slot_mask) != OTA_OK)
		return oti_setting_error(&s[S_SLOTS], OTA_TOOL_BAD_VALUE, d, "a, b, a,b or all");
	if (s[S_LIFECYCLE].value &&
	    oti_parse_lifecycle_mask(s[S_LIFECYCLE].value, &p->usage.lifecycle_mask) != OTA_OK)
		return oti_setting_error(&s[S_LIFECYCLE], OTA_TOOL_BAD_VALUE, d,
					 "lifecycle names (test_unlocked,dev,prod,prod_end,rma) or all");
	if (s[S_FLAGS].value && oti_parse_caps(s[S_FLAGS].value, &p->usage.flags) != OTA_OK)
		return oti_setting_error(&s[S_FLAGS], OTA_TOOL_BAD_VALUE, d,
					 "none, tag-boot, debug or tag-boot,debug");
	if (s[S_DEVICE].value && oti_parse_device(s[S_DEVICE].value, &p->usage) != OTA_OK)
		return oti_setting_error(&s[S_DEVICE], OTA_TOOL_BAD_VALUE, d,
					 "any or 32 hex digits");
	p->max_key_version = SIGN_DEFAULT_MAX_KEY_VERSION;
	if (s[S_MAXKV].value &&
	    oti_parse_u32(s[S_MAXKV].value, UINT32_MAX, &p->max_key_version) != OTA_OK)
		return oti_setting_error(&s[S_MAXKV], OTA_TOOL_BAD_VALUE, d, "a number");
	if (s[S_SALT].value) {
		p->has_salt = true;
		if (strcmp(s[S_SALT].value, "random") == 0) {
			if (RAND_bytes(p->salt, sizeof(p->salt)) != 1)
				return oti_diag_set(d, OTA_TOOL_CRYPTO, NULL, "--salt", NULL);
		} else if (oti_parse_hex(s[S_SALT].value, p->salt, sizeof(p->salt)) != OTA_OK) {
			return oti_setting_error(&s[S_SALT], OTA_TOOL_BAD_VALUE, d,
						 "64 hex digits or random");
		}
	}

	if (s[S_VERSION].value) {
		size_t n = strlen(s[S_VERSION].value);

		if (n > sizeof(p->version_string))
			return oti_setting_error(&s[S_VERSION], OTA_TOOL_BAD_VALUE, d,
						 "at most 16 printable ASCII characters");
		memcpy(p->version_string, s[S_VERSION].value, n);
		if (!ota_version_string_ok(p->version_string))
			return oti_setting_error(&s[S_VERSION], OTA_TOOL_BAD_VALUE, d,
						 "printable ASCII only");
	}
	if (!s[S_PAYLOAD].value)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--payload", "required");
	/* A payload named in a config file is relative to that file. */
	if (config && s[S_PAYLOAD].value[0] != '/' && strcmp(s[S_PAYLOAD].source, "--payload") != 0) {
		char dir[4096];

		snprintf(dir, sizeof(dir), "%s", config);
		st = snprintf(payload_path, payload_path_size, "%s/%s", dirname(dir),
			      s[S_PAYLOAD].value) < (int)payload_path_size
			     ? OTA_OK
			     : OTA_TOOL_BAD_VALUE;
		if (st != OTA_OK)
			return oti_setting_error(&s[S_PAYLOAD], st, d, "a shorter path");
	} else {
		snprintf(payload_path, payload_path_size, "%s", s[S_PAYLOAD].value);
	}
	return OTA_OK;
}

static void print_signed(const char *out, const uint8_t *img, size_t len, uint32_t depth,
			 const struct oti_key *k, const struct oti_verdict *verdict, bool json)
{
	struct ota_image_view v;
	uint8_t m[OTA_SHA256_BYTES];
	struct oti_out o;

	if (ota_image_parse(img, (uint32_t)len, &v) != OTA_OK)
		return;
	ota_image_measure(&v, m);
	oti_out_init(&o, stdout, json);
	oti_out_str(&o, "image", out);
	oti_out_str(&o, "stage", v.manifest.identifier == OTA_ID_ROM_EXT ? "rom_ext" : "bl0");
	oti_out_u64(&o, "length", len);
	oti_out_u64(&o, "security_version", v.manifest.security_version);
	oti_out_hex(&o, "measurement", m, sizeof(m));
	oti_out_hex(&o, "signer_key_id", k->key_id, sizeof(k->key_id));
	oti_out_u64(&o, "delegation_depth", depth);
	oti_out_bool(&o, "hybrid", k->algorithm == OTA_KEY_ALG_HYBRID);
	oti_print_verdict(&o, verdict);
	oti_out_finish(&o);
}

int oti_cmd_sign(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "cert", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "config", required_argument, NULL, 'C' },
		{ "stage", required_argument, NULL, 's' },
		{ "svn", required_argument, NULL, 's' },
		{ "payload", required_argument, NULL, 's' },
		{ "slots", required_argument, NULL, 's' },
		{ "lifecycle", required_argument, NULL, 's' },
		{ "flags", required_argument, NULL, 's' },
		{ "device", required_argument, NULL, 's' },
		{ "max-key-version", required_argument, NULL, 's' },
		{ "salt", required_argument, NULL, 's' },
		{ "version-string", required_argument, NULL, 's' },
		{ "otp", required_argument, NULL, 'O' },
		{ "owner-config", required_argument, NULL, 'W' },
		{ "root-key", required_argument, NULL, 'r' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct oti_setting s[S_COUNT];
	const char *cert_paths[OTA_MAX_DELEGATION_DEPTH + 1];
	const char *key_path = NULL, *out = NULL, *config = NULL;
	const char *otp_path = NULL, *owner_path = NULL, *root_path = NULL;
	struct {
		const char *option;
		const char *value;
	} given[S_COUNT * 2];
	size_t ngiven = 0, i;
	uint32_t ncerts = 0;
	bool force = false, json = false;
	struct oti_cert chain[OTA_MAX_DELEGATION_DEPTH];
	struct oti_image_params p;
	struct oti_device dev;
	struct oti_verdict verdict;
	struct oti_key k;
	struct oti_diag d;
	char payload_path[4096];
	uint8_t *payload = NULL, *img = NULL;
	size_t payload_len = 0, img_len = 0;
	ota_status_t st;
	int c, idx, rc;

	oti_diag_clear(&d);
	memset(&k, 0, sizeof(k));
	settings_init(s);
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, &idx)) != -1) {
		switch (c) {
		case 'k': key_path = optarg; break;
		case 'c':
			if (ncerts > OTA_MAX_DELEGATION_DEPTH)
				return oti_usage_error("sign", "at most %u --cert", OTA_MAX_DELEGATION_DEPTH);
			cert_paths[ncerts++] = optarg;
			break;
		case 'o': out = optarg; break;
		case 'C': config = optarg; break;
		case 'O': otp_path = optarg; break;
		case 'W': owner_path = optarg; break;
		case 'r': root_path = optarg; break;
		case 's':
			/* Applied after the config file, which they override. */
			if (ngiven < sizeof(given) / sizeof(given[0]))
				given[ngiven++] = (typeof(given[0])){ opts[idx].name, optarg };
			break;
		case 'f': force = true; break;
		case 'j': json = true; break;
		case 'h': return oti_print_help(sign_help);
		default: return oti_usage_error("sign", "unknown option");
		}
	}
	if (optind != argc)
		return oti_usage_error("sign", "unexpected argument '%s'", argv[optind]);
	if (!key_path || !out)
		return oti_usage_error("sign", "--key and --out are required");
	if (ncerts > OTA_MAX_DELEGATION_DEPTH)
		return oti_usage_error("sign", "at most %u --cert", OTA_MAX_DELEGATION_DEPTH);
	if (root_path && owner_path)
		return oti_usage_error("sign", "--root-key stands in for the owner config's keys: "
					       "give one of --root-key and --owner-config");

	st = oti_device_load(otp_path, owner_path, root_path, NULL, &dev, &d);
	if (st == OTA_OK && config)
		st = oti_config_read(config, s, S_COUNT, &d);
	for (i = 0; st == OTA_OK && i < ngiven; i++) {
		char opt[64];

		snprintf(opt, sizeof(opt), "--%s", given[i].option);
		oti_setting_set(s, S_COUNT, opt, given[i].value);
	}
	for (i = 0; st == OTA_OK && i < ncerts; i++)
		st = oti_cert_load(cert_paths[i], &chain[i], &d);
	if (st == OTA_OK)
		st = sign_params(s, config, ncerts ? &chain[ncerts - 1] : NULL, &p, payload_path,
				 sizeof(payload_path), &d);
	if (st == OTA_OK)
		st = oti_file_read(payload_path, OTI_MAX_PAYLOAD, &payload, &payload_len, &d);
	if (st == OTA_OK) {
		bool is_elf = false;

		st = oti_payload_elf(payload, payload_len, &p, &is_elf, &d);
		if (!is_elf) {
			p.payload = payload;
			p.payload_len = payload_len;
		}
	}
	if (st == OTA_OK)
		st = oti_key_load(key_path, true, &k, &d);
	if (st == OTA_OK) {
		p.device = &dev;
		p.verdict = &verdict;
		st = oti_image_build(&p, &k, chain, ncerts, &img, &img_len, &d);
	}
	if (st == OTA_OK) {
		struct oti_output o = { out, img, img_len, 0644 };

		st = oti_files_write(&o, 1, force, &d);
	}
	if (st == OTA_OK)
		print_signed(out, img, img_len, ncerts, &k, &verdict, json);
	rc = st == OTA_OK ? 0 : oti_fail(&d, st);
	oti_key_free(&k);
	oti_settings_free(s, S_COUNT);
	free(payload);
	free(img);
	OPENSSL_cleanse(&dev, sizeof(dev));
	return rc;
}
