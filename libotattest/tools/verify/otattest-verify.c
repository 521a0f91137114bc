// SPDX-License-Identifier: MIT
/*
 * otattest-verify: check attestation evidence against a manufacturer CA,
 * the nonce the verifier sent and a policy; print a verdict naming every
 * failed check. The work is all in libotattest (verify.h); this file is
 * the command line, the output formats and the exit codes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otattest/verify.h>
#include <otu/file.h>
#include <otu/hex.h>
#include <otu/num.h>

#include "batch.h"
#include "ear_output.h"
#include "output.h"
#include "refvals.h"

static const char usage_text[] =
	"NAME\n"
	"    " PROG " - check otattest attestation evidence against a CA, a nonce\n"
	"    and a policy\n"
	"\n"
	"SYNOPSIS\n"
	"    " PROG " --ca FILE (--nonce HEX | --no-nonce) [--policy FILE]\n"
	"                    [--crl FILE]... [--record FILE]\n"
	"                    [--corim FILE... --corim-key PUB]\n"
	"                    [--json | -q | --ear KEY [--ear-raw-evidence]] EVIDENCE\n"
	"    " PROG " --batch --ca FILE (--nonce HEX | --no-nonce | --nonce-files)\n"
	"                    [--record-files] [--policy FILE] [--crl FILE]... [--jobs N]\n"
	"                    [--json | -q] INPUT...\n"
	"\n"
	"DESCRIPTION\n"
	"    Verifies otattest evidence (a COSE_Sign1 signed by the device's alias\n"
	"    key, docs/evidence.md) and prints a verdict that names every check that\n"
	"    failed, by its status name. EVIDENCE is a file, or - for standard input.\n"
	"\n"
	"    Checks, in order: the COSE_Sign1 structure (strict CBOR: no duplicate\n"
	"    keys, indefinite lengths, trailing bytes or oversize items), the\n"
	"    certificate chain in the evidence (alias -> device identity -> CA), the\n"
	"    ES256 signature, the claims set and what the alias certificate certifies,\n"
	"    the nonce, the boot record digest (with --record) and the policy (with\n"
	"    --policy). After a failure it goes on wherever the next check still means\n"
	"    something, so one run names every failure.\n"
	"\n"
	"    With --batch it verifies a stream of evidences against the one CA and\n"
	"    policy, on every CPU: each INPUT is an evidence file, a directory (its\n"
	"    files in name order, except hidden ones and .nonce/.record files) or -\n"
	"    (paths on standard input, one per line). It prints one line per evidence,\n"
	"    FILE: PASS or FILE: FAIL and the failed checks (or FILE: ERROR and why),\n"
	"    or with --json one JSON object per line with a \"file\" member, in input\n"
	"    order, then a summary with the rate on standard error. A certificate chain\n"
	"    verified once is remembered for the run, so a device's later evidences\n"
	"    cost one signature check each.\n"
	"\n"
	"OPTIONS\n"
	"    --ca FILE        trusted manufacturer CA certificate(s), PEM (required).\n"
	"    --nonce HEX      the nonce sent to the device, 16 to 64 bytes as hex.\n"
	"    --no-nonce       do not check freshness (inspecting stored evidence only;\n"
	"                     a verifier deciding trust never uses it).\n"
	"    --policy FILE    policy to apply; without it only authenticity, freshness\n"
	"                     and accepted stages count.\n"
	"    --crl FILE       CRLs (PEM) of the CA(s); repeatable, added to the policy's\n"
	"                     crl files. With any CRL, a revoked identity certificate\n"
	"                     is VERIFY_IDENTITY_REVOKED, and a CA without a current\n"
	"                     CRL fails the chain.\n"
	"    --corim FILE     reference values: a signed CoRIM (otimage corim);\n"
	"                     repeatable, up to 16. Each booted stage's measurement,\n"
	"                     SVN and signer key ids must be one a CoRIM lists for its\n"
	"                     stage, else VERIFY_REFERENCE_MISMATCH (docs/corim.md).\n"
	"    --corim-key PUB  the key every --corim must be signed with (PEM P-256\n"
	"                     public key, otimage keygen --pub); required with --corim.\n"
	"                     A CoRIM that is malformed (exit 11) or not signed by it\n"
	"                     (exit 12) stops the run before any evidence is judged.\n"
	"    --record FILE    boot record bytes read from the host (sysfs 'record');\n"
	"                     must hash to the evidence's record digest claim.\n"
	"    --json           print the verdict as one JSON object on stdout; an input\n"
	"                     that cannot be used gives {\"verdict\":\"error\",...}.\n"
	"    --ear KEY        print the verdict as an EAR instead (draft-ietf-rats-ear):\n"
	"                     one line, a JWT signed ES256 with KEY (a PEM EC P-256\n"
	"                     private key), a submodule per stage with ear.status and\n"
	"                     the AR4SI trustworthiness vector, the nonce as eat_nonce.\n"
	"                     The exit status is the same as without it.\n"
	"    --ear-raw-evidence  with --ear: the evidence itself, as the EAR's\n"
	"                     ear.raw-evidence (base64url).\n"
	"    --batch          many evidences (above).\n"
	"    --jobs N         with --batch: N worker threads (default: one per CPU).\n"
	"    --nonce-files    with --batch: each evidence's nonce, as hex, is in the file\n"
	"                     beside it named with the extension .nonce (dev1.cose:\n"
	"                     dev1.nonce).\n"
	"    --record-files   with --batch: each evidence's boot record likewise, .record.\n"
	"    -q, --quiet      print nothing on stdout; the exit status is the verdict.\n"
	"    --key-names FILE key names (docs/keynames.md): key ids in the verdict are\n"
	"                     followed by their names, each stage's key chain shown by\n"
	"                     name (key_chain in --json). Default /etc/otattest/key-names\n"
	"                     when it exists; a file that does not parse is refused\n"
	"                     with its line (exit 10).\n"
	"    --version        print the version and exit.\n"
	"    -h, --help       show this help.\n"
	"\n"
	"POLICY FILE\n"
	"    'key = value' lines, '#' comments. Keys: min_svn_rom_ext, min_svn_bl0\n"
	"    (0-255), allowed_root_key (64 hex digits, repeatable), max_delegation_depth\n"
	"    (0-2), hybrid_required, tag_path_allowed, debug_images_allowed (true/false),\n"
	"    min_epoch,\n"
	"    allowed_lifecycle (test_unlocked, dev, prod, prod_end, rma; repeatable),\n"
	"    denied_delegate_key (64 hex digits, repeatable), crl (a PEM file, relative\n"
	"    to the policy file; repeatable). An unknown key, a repeated one or a bad\n"
	"    value is an error naming the line.\n"
	"    See docs/verifier.md.\n"
	"\n"
	"EXIT STATUS\n"
	"    0   every check holds (--batch: for every evidence)\n"
	"    1   the verdict failed: a check on the evidence or the policy did not hold\n"
	"        (--batch: for at least one evidence, or one could not be used)\n"
	"    2   usage error\n"
	"    10  an input is invalid (a malformed policy file, a bad nonce, a file\n"
	"        larger than any valid input)\n"
	"    11  an input file is malformed (the CA file holds no certificate, a CoRIM\n"
	"        does not decode or is outside otattest's CoRIM profile)\n"
	"    12  a CoRIM's signature does not verify with --corim-key\n"
	"    22  an input file cannot be read\n"
	"    Codes 10-24 are the status classes of otattest/status.h (docs/verifier.md).\n"
	"\n"
	"EXAMPLES\n"
	"    " PROG " --ca ca.pem --nonce 00112233445566778899aabbccddeeff \\\n"
	"        --policy fleet.policy evidence.cose\n"
	"    " PROG " --json --ca ca.pem --nonce $NONCE evidence.cose | jq .failures\n"
	"    " PROG " --batch --json --ca ca.pem --nonce-files --policy fleet.policy \\\n"
	"        evidences/ > verdicts.jsonl\n";

static bool json_out;

/*
 * An input that could not be used: one line on stderr, and with --json
 * one object on stdout too, so a script always gets something to parse.
 * The path is printed as given; in JSON, as UTF-8 (otu_json_string).
 */
static int fail_input(const char *what, const char *path, ota_status_t st, const char *detail)
{
	char msg[512];

	/* The library's file reads say HOST_BAD_ARGUMENT for a file over their limit. */
	if (!detail && st == OTA_HOST_BAD_ARGUMENT)
		detail = "file is larger than any valid input of its kind";
	snprintf(msg, sizeof(msg), "%s %s: %s", what, path,
		 detail ? detail : st == OTA_HOST_IO ? strerror(errno) : ota_status_message(st));
	fprintf(stderr, PROG ": %s\n", msg);
	if (json_out)
		vo_print_json_error(stdout, NULL, st, msg);
	return vo_class_exit(st);
}

/* A whole input file ("-": standard input), at most max bytes. */
static int read_input(const char *what, const char *path, size_t max, uint8_t **buf, size_t *len)
{
	int r = strcmp(path, "-") ? otu_read_file(path, max, buf, len)
				  : otu_read_fd(STDIN_FILENO, max, buf, len);

	if (r == -EFBIG)
		return fail_input(what, path, OTA_HOST_BAD_ARGUMENT, NULL);
	if (r == -ENOMEM)
		return fail_input(what, path, OTA_HOST_INTERNAL, "out of memory");
	if (r < 0) {
		errno = -r;
		return fail_input(what, path, OTA_HOST_IO, NULL);
	}
	return 0;
}

/* The policy's CRL files, then --crl's, into the trust store. */
static int load_crls(struct ota_trust *ca, const struct ota_policy *policy,
		     const char *const paths[], uint32_t count)
{
	char why[700];
	ota_status_t st;

	st = ota_trust_add_policy_crls(ca, policy, why, sizeof(why));
	if (st != OTA_OK)
		return fail_input("policy", "crl", st, why);
	for (uint32_t i = 0; i < count; i++) {
		st = ota_trust_add_crl_file(ca, paths[i]);
		if (st != OTA_OK)
			return fail_input("CRL", paths[i], st, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ca", required_argument, NULL, 'c' },
		{ "nonce", required_argument, NULL, 'n' },
		{ "no-nonce", no_argument, NULL, 'N' },
		{ "policy", required_argument, NULL, 'p' },
		{ "record", required_argument, NULL, 'r' },
		{ "crl", required_argument, NULL, 'L' },
		{ "corim", required_argument, NULL, 'C' },
		{ "corim-key", required_argument, NULL, 'K' },
		{ "ear", required_argument, NULL, 'E' },
		{ "ear-raw-evidence", no_argument, NULL, 'X' },
		{ "json", no_argument, NULL, 'j' },
		{ "batch", no_argument, NULL, 'b' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "nonce-files", no_argument, NULL, 'F' },
		{ "record-files", no_argument, NULL, 'R' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "key-names", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ca_path = NULL, *nonce_hex = NULL, *policy_path = NULL, *record_path = NULL;
	bool json = false, quiet = false, no_nonce = false, batch = false, nonce_files = false;
	bool record_files = false, ear_raw = false;
	const char *key_names_path = NULL;
	static struct otu_keynames key_names;
	const char *ear_path = NULL;
	uint32_t jobs = 0, crl_count = 0;
	const char *crl_paths[OTA_POLICY_MAX_CRLS];
	const char *corim_paths[VR_MAX_CORIMS], *corim_key = NULL;
	uint32_t corim_count = 0;
	static struct ota_refvals refvals; /* about 16 KiB: not for the stack */
	uint8_t *ev = NULL, *rec = NULL;
	size_t ev_len = 0, rec_len = 0;
	ssize_t nonce_len = 0;
	uint8_t nonce[OTA_NONCE_MAX];
	struct ota_trust *ca = NULL;
	struct ota_policy policy;
	struct ota_verdict *v;
	struct ota_ear_key *ear_key = NULL;
	char why[200];
	ota_status_t st;
	int c, rc;

	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		switch (c) {
		case 'c': ca_path = optarg; break;
		case 'n': nonce_hex = optarg; break;
		case 'N': no_nonce = true; break;
		case 'p': policy_path = optarg; break;
		case 'r': record_path = optarg; break;
		case 'E': ear_path = optarg; break;
		case 'X': ear_raw = true; break;
		case 'L':
			if (crl_count == OTA_POLICY_MAX_CRLS) {
				fprintf(stderr, PROG ": at most %u --crl\n", OTA_POLICY_MAX_CRLS);
				return OTA_EXIT_USAGE;
			}
			crl_paths[crl_count++] = optarg;
			break;
		case 'C':
			if (corim_count == VR_MAX_CORIMS) {
				fprintf(stderr, PROG ": at most %u --corim\n", VR_MAX_CORIMS);
				return OTA_EXIT_USAGE;
			}
			corim_paths[corim_count++] = optarg;
			break;
		case 'K': corim_key = optarg; break;
		case 'j': json = json_out = true; break;
		case 'b': batch = true; break;
		case 'J':
			if (otu_parse_u32(optarg, OTU_DEC, 1, 256, &jobs) != 0) {
				fprintf(stderr, PROG ": --jobs takes 1 to 256\n");
				return OTA_EXIT_USAGE;
			}
			break;
		case 'F': nonce_files = true; break;
		case 'R': record_files = true; break;
		case 'q': quiet = true; break;
		case 'k': key_names_path = optarg; break;
		case 'h': fputs(usage_text, stdout); return 0;
		case 'V': printf(PROG " %s\n", OTATTEST_VERSION); return 0;
		default: fprintf(stderr, "Try '" PROG " --help'.\n"); return OTA_EXIT_USAGE;
		}
	}
	if (!batch && (optind != argc - 1 || ca_path == NULL || (nonce_hex == NULL) == !no_nonce ||
		       jobs || nonce_files || record_files)) {
		fprintf(stderr, PROG ": need EVIDENCE, --ca and exactly one of --nonce/--no-nonce\n"
				"(--jobs, --nonce-files and --record-files go with --batch)\n"
				"Try '" PROG " --help'.\n");
		return OTA_EXIT_USAGE;
	}
	if ((ear_path && (json || quiet || batch)) || (ear_raw && !ear_path)) {
		fprintf(stderr, PROG ": --ear goes with one EVIDENCE and neither --json nor -q;\n"
				"--ear-raw-evidence with --ear\n"
				"Try '" PROG " --help'.\n");
		return OTA_EXIT_USAGE;
	}
	if (batch && (optind >= argc || ca_path == NULL || record_path != NULL ||
		      (nonce_hex != NULL) + no_nonce + nonce_files != 1)) {
		fprintf(stderr, PROG ": --batch needs INPUT..., --ca and exactly one of "
				"--nonce/--no-nonce/--nonce-files (and --record-files, not --record)\n"
				"Try '" PROG " --help'.\n");
		return OTA_EXIT_USAGE;
	}
	if ((corim_count == 0) != (corim_key == NULL)) {
		fprintf(stderr, PROG ": --corim and --corim-key go together\n"
				"Try '" PROG " --help'.\n");
		return OTA_EXIT_USAGE;
	}
	/*
	 * Key names for the verdict (docs/keynames.md): the default file may be
	 * absent; one that does not parse is refused with its line, as is a
	 * --key-names file that cannot be read.
	 */
	if ((rc = otu_keynames_load(key_names_path ? key_names_path : OTU_KEYNAMES_PATH, !key_names_path,
				    &key_names, why, sizeof(why))) < 0)
		return fail_input("--key-names", key_names_path ? key_names_path : OTU_KEYNAMES_PATH,
				  otu_keynames_load_status(rc), why);
	vo_set_key_names(&key_names);
	/* A nonce that is not one is a bad value (exit 10, as --help says), not bad usage. */
	if (nonce_hex && ((nonce_len = otu_hex_decode(nonce_hex, nonce, sizeof(nonce))) < 0 ||
			  nonce_len < OTA_NONCE_MIN))
		return fail_input("--nonce", nonce_hex, OTA_HOST_BAD_ARGUMENT,
				  "must be 16 to 64 bytes of hex");

	ota_policy_init(&policy);
	if (policy_path) {
		st = ota_policy_load_file(policy_path, &policy, why, sizeof(why));
		if (st != OTA_OK)
			return fail_input("policy", policy_path, st, why);
	}
	if (corim_count) {
		rc = vr_load(corim_key, corim_paths, corim_count, json, &refvals);
		if (rc)
			return rc;
		policy.refvals = &refvals;
	}
	st = ota_trust_load_file(ca_path, &ca);
	if (st != OTA_OK)
		return fail_input("CA", ca_path, st, NULL);
	rc = load_crls(ca, &policy, crl_paths, crl_count);
	if (rc) {
		ota_trust_free(ca);
		return rc;
	}
	if (batch) {
		struct vb_options bo = {
			.ca = ca,
			.policy = &policy,
			.nonce = nonce_hex ? nonce : NULL,
			.nonce_len = (size_t)nonce_len,
			.nonce_files = nonce_files,
			.record_files = record_files,
			.json = json,
			.quiet = quiet,
			.jobs = jobs,
			.inputs = argv + optind,
			.input_count = argc - optind,
		};

		rc = vb_run(&bo);
		ota_trust_free(ca);
		return rc;
	}
	rc = read_input("evidence", argv[optind], OTA_EVIDENCE_MAX_BYTES * 4u, &ev, &ev_len);
	if (rc == 0 && record_path) {
		rc = read_input("record", record_path, OTA_RECORD_MAX_BYTES, &rec, &rec_len);
		if (rc)
			free(ev);
	}
	if (rc) {
		ota_trust_free(ca);
		return rc;
	}

	/* The key before the verdict: a key that cannot sign is an unusable input. */
	if (ear_path && (rc = ve_load_key(ear_path, &ear_key)) != 0) {
		free(ev);
		free(rec);
		ota_trust_free(ca);
		return rc;
	}
	v = calloc(1, sizeof(*v));
	if (v == NULL)
		return vo_class_exit(OTA_HOST_INTERNAL);
	st = ota_verify_evidence(ev, ev_len, ca, nonce_hex ? nonce : NULL, (size_t)nonce_len, &policy,
				 rec, rec_len, v);
	if (ear_key)
		rc = ve_print(stdout, v, ear_key, nonce_hex ? nonce : NULL, (size_t)nonce_len,
			      ear_raw ? ev : NULL, ev_len);
	else if (json)
		vo_print_json(stdout, NULL, v, st);
	else if (!quiet)
		vo_print_human(stdout, v, st);
	if (!ear_key || rc == 0)
		rc = st == OTA_OK ? 0 : OTA_EXIT_VERDICT_FAILED;
	ota_ear_key_free(ear_key);
	free(v);
	free(ev);
	free(rec);
	ota_trust_free(ca);
	return rc;
}
