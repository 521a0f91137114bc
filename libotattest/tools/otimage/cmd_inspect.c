// SPDX-License-Identifier: MIT
/* otimage inspect: describe any otattest file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "otimage_internal.h"

static const char inspect_help[] =
	"NAME\n"
	"    otimage inspect - describe an otattest file\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage inspect [--json] [--root-key PUB] FILE\n"
	"\n"
	"DESCRIPTION\n"
	"    Recognises FILE by its magic and describes it: a signed image, a delegation\n"
	"    certificate, a flash image (layout and every region as the device would\n"
	"    find it, including which boot data and tag table copy it would pick), an\n"
	"    OTP image, an owner config, a boot data copy, a tag table copy, an identity\n"
	"    certificate blob, a boot record, a PEM key, an SLH-DSA key file, or an\n"
	"    X.509 certificate in DER or PEM (the CA from otimage ca, a device identity\n"
	"    certificate from otimage provision, a device's alias certificate, with\n"
	"    the device id and the stages it certifies). Certificates are described,\n"
	"    not verified: use otattest-verify or openssl verify with the CA.\n"
	"\n"
	"    The file is checked with the device's parsers first; if it does not pass,\n"
	"    one error line names the field and nothing else is printed. Secrets are\n"
	"    never printed: not the device secret of an OTP image (only whether its\n"
	"    digest matches), not a private key.\n"
	"\n"
	"    With --root-key, an image's delegation chain and every signature in it\n"
	"    (ECDSA, and SLH-DSA where present) are verified against that root key as\n"
	"    the device's slow path would, device policy aside.\n"
	"\n"
	"OPTIONS\n"
	"    --json          print one JSON object instead of text.\n"
	"    --root-key PUB  verify an image against this root key (PUB.spx if hybrid).\n"
	"    -h, --help      show this help.\n"
	"\n"
	"EXIT STATUS\n"
	"    0 when the file checks out (and verifies, with --root-key), 2 for a usage\n"
	"    error, otherwise the class code of the failure (see otimage --help):\n"
	"    11 for a malformed file, 12 for a signature that does not verify.\n"
	"\n"
	"EXAMPLES\n"
	"    otimage inspect flash.bin\n"
	"    otimage inspect --json --root-key owner.pub bl0.img | jq .certificates\n";

int oti_cmd_inspect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "root-key", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root_path = NULL, *path;
	struct ota_root_key root;
	bool json = false;
	struct oti_diag d;
	uint8_t *buf = NULL;
	size_t len = 0;
	ota_status_t st = OTA_OK;
	int c, rc;

	oti_diag_clear(&d);
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'r': root_path = optarg; break;
		case 'h': return oti_print_help(inspect_help);
		default: return oti_usage_error("inspect", "unknown option");
		}
	}
	if (optind + 1 != argc)
		return oti_usage_error("inspect", "give exactly one FILE");
	path = argv[optind];
	if (root_path) {
		struct oti_key k;

		st = oti_key_load(root_path, false, &k, &d);
		if (st == OTA_OK) {
			oti_key_root_entry(&k, OTA_LC_MASK_ALL, &root);
			oti_key_free(&k);
		}
	}
	if (st == OTA_OK)
		st = oti_file_read(path, OTI_MAX_FLASH, &buf, &len, &d);
	if (st == OTA_OK)
		st = oti_inspect_verify(path, buf, len, json, root_path ? &root : NULL, stdout, &d);
	rc = st == OTA_OK ? 0 : oti_fail(&d, st);
	if (buf)
		OPENSSL_cleanse(buf, len);
	free(buf);
	return rc;
}
