// SPDX-License-Identifier: MIT
/* otimage delegate: issue an intermediate or leaf delegation certificate. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "inspect.h"
#include "otimage_internal.h"

static const char delegate_help[] =
	"NAME\n"
	"    otimage delegate - issue a delegation certificate\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage delegate --parent-key KEY [--parent-cert CERT] --delegate-pub PUB\n"
	"                     --type intermediate|leaf --out CERT [--svn-min N] [--svn-max N]\n"
	"                     [--slots MASK] [--lifecycle MASK] [--flags CAPS]\n"
	"                     [--device any|ID] [--otp OTP] [--owner-config CFG]\n"
	"                     [--root-key PUB] [--force] [--json]\n"
	"\n"
	"DESCRIPTION\n"
	"    Signs a DLGC certificate: the parent key delegates to PUB within the given\n"
	"    constraints. Without --parent-cert the parent is a root key (an owner or\n"
	"    creator key); with it, KEY must be that certificate's delegate, the\n"
	"    certificate an intermediate, and the new certificate a leaf. Chains are at\n"
	"    most root -> intermediate -> leaf.\n"
	"\n"
	"    Containment is stricter-only, checked with the device's own code: a child\n"
	"    wider than its parent's certificate is refused with the status the device\n"
	"    would report (DELEG_WIDER_SVN_MIN, _SVN_MAX, _SLOTS, _LIFECYCLE, _DEVICE,\n"
	"    _FLAGS; exit 13). Constraints not given default to the parent certificate's,\n"
	"    or for a root parent to SVN 0..255, all slots, all lifecycle states, any\n"
	"    device and the tag-boot capability.\n"
	"\n"
	"    Under a hybrid root every link is hybrid: the certificate also carries a\n"
	"    DLGS, the delegate's SLH-DSA public key (PUB.spx) signed with the parent's\n"
	"    SLH-DSA key (KEY.spx), and an ECDSA-only delegate is refused as the device\n"
	"    refuses it (DELEG_CERT_SPX_MISSING, exit 13); under an ECDSA-only root no\n"
	"    link is, and a hybrid delegate is refused (TOOL_HYBRID_PARENT). The output\n"
	"    is the DLGC (224 bytes) followed by the DLGS (7936 bytes) if any: exactly\n"
	"    what otimage sign places in an image.\n"
	"\n"
	"    The certificate is then checked the way the device would check the most\n"
	"    permissive image under it, with the device's own policy (see otimage\n"
	"    inspect): --otp, --owner-config and --root-key describe the device; what\n"
	"    they leave out is taken to let it pass and listed under\n"
	"    device_check.not_applied. A certificate no image under which the device\n"
	"    would boot is not written (e.g. ROOT_KEY_UNKNOWN for a parent that is not\n"
	"    an owner key, DELEG_REVOKED_BY_FLOOR for --svn-max below the OTP floor).\n"
	"\n"
	"OPTIONS\n"
	"    --parent-key KEY   the parent's private key.\n"
	"    --parent-cert CERT the parent's own certificate (when it is an intermediate).\n"
	"    --delegate-pub PUB the delegate's public (or private) key.\n"
	"    --type TYPE        intermediate or leaf.\n"
	"    --svn-min N, --svn-max N\n"
	"                       the SVN range images under this delegate may carry.\n"
	"    --slots MASK       a, b, a,b or all.\n"
	"    --lifecycle MASK   test_unlocked,dev,prod,prod_end,rma or all.\n"
	"    --flags CAPS       none, tag-boot, debug or tag-boot,debug.\n"
	"    --device DEV       any, or the 32-hex-digit id of the one device allowed.\n"
	"    --otp OTP          check for the device this OTP image describes.\n"
	"    --owner-config CFG check against this owner config (its root keys and rules).\n"
	"    --root-key PUB     the root key, when the parent is a delegate and no\n"
	"                       --owner-config names the keys.\n"
	"    --out CERT         where to write the certificate.\n"
	"    --force            replace CERT if it exists.\n"
	"    --json             print the certificate and its device check as one JSON object.\n"
	"    -h, --help         show this help.\n"
	"\n"
	OTI_HELP_EXIT_WRITES
	"\n"
	"EXAMPLES\n"
	"    otimage delegate --parent-key owner.pem --delegate-pub team.pub --type intermediate \\\n"
	"                     --svn-min 4 --svn-max 20 --out team.cert\n"
	"    otimage delegate --parent-key team.pem --parent-cert team.cert --delegate-pub ci.pub \\\n"
	"                     --type leaf --svn-min 5 --svn-max 9 --lifecycle dev --out ci.cert\n";

/* The option a refusal is about: containment, or the device check of the certificate. */
static const char *option_for(ota_status_t st)
{
	switch (st) {
	case OTA_DELEG_WIDER_SVN_MIN: return "--svn-min";
	case OTA_DELEG_WIDER_SVN_MAX: return "--svn-max";
	case OTA_DELEG_WIDER_SLOTS: return "--slots";
	case OTA_DELEG_WIDER_LIFECYCLE: return "--lifecycle";
	case OTA_DELEG_WIDER_DEVICE: return "--device";
	case OTA_DELEG_WIDER_FLAGS: return "--flags";
	case OTA_ROOT_KEY_UNKNOWN:
	case OTA_ROOT_KEY_REVOKED:
	case OTA_ROOT_KEY_LIFECYCLE:
	case OTA_SIG_SPX_KEY_MISSING: return "--parent-key";
	case OTA_DELEG_DEPTH_EXCEEDED: return "--type";
	case OTA_DELEG_CERT_SPX_MISSING: return "--delegate-pub";
	case OTA_DELEG_REVOKED_BY_FLOOR:
	case OTA_SVN_ABOVE_MAX: return "--svn-max";
	case OTA_LIFECYCLE_NOT_ALLOWED: return "--lifecycle";
	case OTA_DEVICE_NOT_ALLOWED: return "--device";
	}
	return NULL;
}

/* The certificate as inspect describes it, then the device check's verdict. */
static void print_cert(const char *path, const struct oti_cert *c, const struct oti_verdict *v,
		       bool json)
{
	struct oti_out o;

	oti_out_init(&o, stdout, json);
	oti_out_str(&o, "file", path);
	oti_out_str(&o, "format", oti_file_kind_name(OTI_FILE_CERT));
	oti_print_dlgc(&o, &c->dlgc, c->has_dlgs ? (const uint8_t *)&c->dlgs : NULL);
	oti_print_verdict(&o, v);
	oti_out_finish(&o);
}

int oti_cmd_delegate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "parent-key", required_argument, NULL, 'K' },
		{ "parent-cert", required_argument, NULL, 'P' },
		{ "delegate-pub", required_argument, NULL, 'D' },
		{ "type", required_argument, NULL, 't' },
		{ "svn-min", required_argument, NULL, 'm' },
		{ "svn-max", required_argument, NULL, 'M' },
		{ "slots", required_argument, NULL, 's' },
		{ "lifecycle", required_argument, NULL, 'l' },
		{ "flags", required_argument, NULL, 'F' },
		{ "device", required_argument, NULL, 'd' },
		{ "otp", required_argument, NULL, 'O' },
		{ "owner-config", required_argument, NULL, 'W' },
		{ "root-key", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *parent_key = NULL, *parent_cert = NULL, *delegate_pub = NULL, *out = NULL;
	const char *type = NULL, *svn_min = NULL, *svn_max = NULL, *slots = NULL, *lc = NULL;
	const char *flags = NULL, *device = NULL, *otp_path = NULL, *owner_path = NULL;
	const char *root_path = NULL;
	bool force = false, json = false;
	struct oti_key parent, delegate;
	struct oti_cert pcert, cert;
	struct oti_device dev;
	struct oti_verdict verdict;
	struct ota_constraints con;
	struct oti_diag d;
	uint32_t cert_type;
	uint8_t *bytes = NULL;
	ota_status_t st;
	int c, rc;

	oti_diag_clear(&d);
	memset(&parent, 0, sizeof(parent));
	memset(&delegate, 0, sizeof(delegate));
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'K': parent_key = optarg; break;
		case 'P': parent_cert = optarg; break;
		case 'D': delegate_pub = optarg; break;
		case 't': type = optarg; break;
		case 'm': svn_min = optarg; break;
		case 'M': svn_max = optarg; break;
		case 's': slots = optarg; break;
		case 'l': lc = optarg; break;
		case 'F': flags = optarg; break;
		case 'd': device = optarg; break;
		case 'O': otp_path = optarg; break;
		case 'W': owner_path = optarg; break;
		case 'r': root_path = optarg; break;
		case 'o': out = optarg; break;
		case 'f': force = true; break;
		case 'j': json = true; break;
		case 'h': return oti_print_help(delegate_help);
		default: return oti_usage_error("delegate", "unknown option");
		}
	}
	if (optind != argc)
		return oti_usage_error("delegate", "unexpected argument '%s'", argv[optind]);
	if (!parent_key || !delegate_pub || !type || !out)
		return oti_usage_error("delegate",
				       "--parent-key, --delegate-pub, --type and --out are required");
	if (strcmp(type, "intermediate") == 0)
		cert_type = OTA_CERT_INTERMEDIATE;
	else if (strcmp(type, "leaf") == 0)
		cert_type = OTA_CERT_LEAF;
	else
		return oti_usage_error("delegate", "--type: '%s' is neither intermediate nor leaf", type);

	if (root_path && owner_path)
		return oti_usage_error("delegate", "--root-key stands in for the owner config's keys: "
						   "give one of --root-key and --owner-config");

	memset(&dev, 0, sizeof(dev));
	st = parent_cert ? oti_cert_load(parent_cert, &pcert, &d) : OTA_OK;
	if (st == OTA_OK)
		st = oti_device_load(otp_path, owner_path, root_path, NULL, &dev, &d);
	if (st != OTA_OK)
		return oti_fail(&d, st);
	/* Defaults: the parent's constraints, or everything for a root parent. */
	if (parent_cert) {
		con = pcert.dlgc.constraints;
	} else {
		memset(&con, 0, sizeof(con));
		con.svn_max = OTA_SVN_LIMIT;
		con.usage.slot_mask = OTA_SLOT_MASK_ALL;
		con.usage.lifecycle_mask = OTA_LC_MASK_ALL;
		con.usage.flags = OTA_CAP_TAG_BOOT;
		con.usage.device_binding = OTA_BINDING_ANY;
	}
#define VALUE(opt, str, call, expected)                                                   \
	do {                                                                              \
		if ((str) && (call) != OTA_OK)                                            \
			return oti_fail(&d, oti_diag_set(&d, OTA_TOOL_BAD_VALUE, NULL, opt, \
							 "'%s', expected %s", str, expected)); \
	} while (0)
	VALUE("--svn-min", svn_min, oti_parse_u32(svn_min, OTA_SVN_LIMIT, &con.svn_min), "0..255");
	VALUE("--svn-max", svn_max, oti_parse_u32(svn_max, OTA_SVN_LIMIT, &con.svn_max), "0..255");
	VALUE("--slots", slots, oti_parse_slot_mask(slots, &con.usage.slot_mask), "a, b, a,b or all");
	VALUE("--lifecycle", lc, oti_parse_lifecycle_mask(lc, &con.usage.lifecycle_mask),
	      "lifecycle names or all");
	VALUE("--flags", flags, oti_parse_caps(flags, &con.usage.flags),
	      "none, tag-boot, debug or tag-boot,debug");
	VALUE("--device", device, oti_parse_device(device, &con.usage), "any or 32 hex digits");
#undef VALUE

	st = oti_key_load(parent_key, true, &parent, &d);
	if (st == OTA_OK)
		st = oti_key_load(delegate_pub, false, &delegate, &d);
	if (st == OTA_OK) {
		st = oti_cert_issue(&parent, parent_cert ? &pcert : NULL, &delegate, cert_type, &con, 0,
				    &cert, &d);
		/* Name the option that widened the parent, and the parent it widened. */
		if (st != OTA_OK && option_for(st))
			oti_diag_set(&d, st, parent_cert, option_for(st), NULL);
	}
	if (st == OTA_OK) {
		st = oti_cert_device_check(&dev, &parent, parent_cert ? &pcert : NULL, &cert, &verdict,
					   &d);
		if (st != OTA_OK && option_for(st))
			oti_diag_set(&d, st, NULL, option_for(st), NULL);
	}
	if (st == OTA_OK) {
		size_t len = oti_cert_encoded_len(&cert);
		struct oti_output o;

		bytes = malloc(len);
		if (!bytes) {
			st = oti_diag_set(&d, OTA_HOST_INTERNAL, NULL, NULL, "out of memory");
		} else {
			oti_cert_encode(&cert, bytes);
			o = (struct oti_output){ out, bytes, len, 0644 };
			st = oti_files_write(&o, 1, force, &d);
		}
	}
	if (st == OTA_OK)
		print_cert(out, &cert, &verdict, json);
	rc = st == OTA_OK ? 0 : oti_fail(&d, st);
	OPENSSL_cleanse(&dev, sizeof(dev));
	free(bytes);
	oti_key_free(&parent);
	oti_key_free(&delegate);
	return rc;
}
