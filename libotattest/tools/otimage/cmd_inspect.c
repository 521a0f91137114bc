// SPDX-License-Identifier: MIT
/* otimage inspect: describe any otattest file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include <otu/keynames.h>

#include "otimage_internal.h"

static const char inspect_help[] =
	"NAME\n"
	"    otimage inspect - describe an otattest file\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage inspect [--json] [--otp OTP] [--owner-config CFG] [--root-key PUB]\n"
	"                    [--slot a|b] [--key-names FILE] FILE\n"
	"\n"
	"DESCRIPTION\n"
	"    Recognises FILE by its magic and describes it: a signed image, a delegation\n"
	"    certificate, a flash image (layout and every region as the device would\n"
	"    find it, including which boot data and tag table copy it would pick), an\n"
	"    OTP image, an owner config, a boot data copy, a tag table copy, an identity\n"
	"    certificate blob, a boot record, a PEM key, an SLH-DSA key file, or an\n"
	"    X.509 certificate in DER or PEM (the CA from otimage ca, a device identity\n"
	"    certificate from otimage ca-sign, a device's alias certificate), or a\n"
	"    device's evidence (otattestctl attest's COSE_Sign1: its nonce, the device\n"
	"    state and every attempt its claims carry, and each certificate of its\n"
	"    chain). Certificates and evidence are described, not verified: use\n"
	"    otattest-verify or openssl verify with the CA.\n"
	"\n"
	"    An alias certificate is shown with everything ROM_EXT certified in it\n"
	"    (docs/evidence.md): the device state (lifecycle, epoch, minimum SVN,\n"
	"    floors, key chain length, tag key version, ROM identity) and, for each\n"
	"    booted stage, its SVN, measurement, path and path reason, signature\n"
	"    scheme, delegation depth, tag key version, usage flags (debug: the image\n"
	"    may keep debug features on) and its signers: key_ids in full, keys by\n"
	"    name from the key names file, a key it does not name as 16 hex digits.\n"
	"    One whose TCB info has another profile (StageResults version 1) or does\n"
	"    not parse is refused with one error line saying which.\n"
	"\n"
	"    The file is checked with the device's parsers first; if it does not pass,\n"
	"    one error line names the field and nothing else is printed. Secrets are\n"
	"    never printed: not the device secret of an OTP image (only whether its\n"
	"    digest matches), not a private key.\n"
	"\n"
	"    An image is also checked the way the device checks it, with the device's\n"
	"    own code: its stage's trust anchors, every policy rule and, on the slow\n"
	"    path, every signature (ECDSA, and SLH-DSA where present). The device is\n"
	"    the one the options describe: --otp (creator keys, lifecycle state, device\n"
	"    id, revocation, floors), --owner-config (BL0's root keys and rules),\n"
	"    --root-key in place of either's keys, --slot. What they leave out is taken\n"
	"    to let the image pass and listed under device_check.not_applied; a refusal\n"
	"    is the device's status, one error line.\n"
	"\n"
	"OPTIONS\n"
	"    --json          print one JSON object instead of text.\n"
	"    --otp OTP       the device's OTP image (otimage provision).\n"
	"    --owner-config CFG\n"
	"                    the device's owner config (otimage owner-config).\n"
	"    --root-key PUB  the root key (PUB.spx if hybrid) when no --otp (ROM_EXT) or\n"
	"                    --owner-config (BL0) names the keys.\n"
	"    --slot a|b      the slot the image is checked in.\n"
	"    --key-names FILE\n"
	"                    key names (docs/keynames.md) for an alias certificate's\n"
	"                    signers; it must exist. Default /etc/otattest/key-names,\n"
	"                    read for certificates only, and none when it is missing.\n"
	"    -h, --help      show this help.\n"
	"\n"
	"EXIT STATUS\n"
	"    0 when the file checks out (an image: the device would accept it), 2 for a\n"
	"    usage error, otherwise the class code of the failure (see otimage --help):\n"
	"    11 for a malformed file, 12 for a signature that does not verify, 13 for\n"
	"    a policy refusal.\n"
	"\n"
	"EXAMPLES\n"
	"    otimage inspect flash.bin\n"
	"    otimage inspect --json --root-key owner.pub bl0.img | jq .certificates\n"
	"    otimage inspect --otp otp.bin --owner-config owner.cfg --slot b bl0.img\n"
	"    otimage inspect --key-names key-names alias.pem\n";

int oti_cmd_inspect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "root-key", required_argument, NULL, 'r' },
		{ "otp", required_argument, NULL, 'O' },
		{ "owner-config", required_argument, NULL, 'c' },
		{ "slot", required_argument, NULL, 's' },
		{ "key-names", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root_path = NULL, *otp_path = NULL, *owner_path = NULL, *slot = NULL, *path;
	const char *names_path = NULL;
	struct otu_keynames names = { 0 };
	struct oti_device dev;
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
		case 'O': otp_path = optarg; break;
		case 'c': owner_path = optarg; break;
		case 's': slot = optarg; break;
		case 'k': names_path = optarg; break;
		case 'h': return oti_print_help(inspect_help);
		default: return oti_usage_error("inspect", "unknown option");
		}
	}
	if (optind + 1 != argc)
		return oti_usage_error("inspect", "give exactly one FILE");
	path = argv[optind];
	if (root_path && owner_path)
		return oti_usage_error("inspect", "--root-key stands in for the owner config's keys: "
						  "give one of --root-key and --owner-config");
	st = oti_device_load(otp_path, owner_path, root_path, slot, &dev, &d);
	if (st == OTA_OK)
		st = oti_file_read(path, OTI_MAX_FLASH, &buf, &len, &d);
	/*
	 * Names only matter for a certificate: a default file that does not
	 * parse must not stop the description of an image or an OTP image.
	 * One given on the command line is read whatever the file.
	 */
	if (st == OTA_OK && (names_path || oti_file_detect(buf, len) == OTI_FILE_X509))
		st = oti_keynames_load(names_path ? names_path : OTU_KEYNAMES_PATH, !names_path,
				       &names, &d);
	if (st == OTA_OK)
		st = oti_inspect_named(path, buf, len, json,
				       root_path || otp_path || owner_path || slot ? &dev : NULL,
				       &names, stdout, &d);
	rc = st == OTA_OK ? 0 : oti_fail(&d, st);
	otu_keynames_free(&names);
	if (buf)
		OPENSSL_cleanse(buf, len);
	free(buf);
	OPENSSL_cleanse(&dev, sizeof(dev));
	return rc;
}
