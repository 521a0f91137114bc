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
#include <otu/json.h>

#define PROG "otattest-verify"

static const char usage_text[] =
	"NAME\n"
	"    " PROG " - check otattest attestation evidence against a CA, a nonce\n"
	"    and a policy\n"
	"\n"
	"SYNOPSIS\n"
	"    " PROG " --ca FILE (--nonce HEX | --no-nonce) [--policy FILE]\n"
	"                    [--record FILE] [--json | -q] EVIDENCE\n"
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
	"OPTIONS\n"
	"    --ca FILE        trusted manufacturer CA certificate(s), PEM (required).\n"
	"    --nonce HEX      the nonce sent to the device, 16 to 64 bytes as hex.\n"
	"    --no-nonce       do not check freshness (inspecting stored evidence only;\n"
	"                     a verifier deciding trust never uses it).\n"
	"    --policy FILE    policy to apply; without it only authenticity, freshness\n"
	"                     and accepted stages count.\n"
	"    --record FILE    boot record bytes read from the host (sysfs 'record');\n"
	"                     must hash to the evidence's record digest claim.\n"
	"    --json           print the verdict as one JSON object on stdout; an input\n"
	"                     that cannot be used gives {\"verdict\":\"error\",...}.\n"
	"    -q, --quiet      print nothing on stdout; the exit status is the verdict.\n"
	"    -h, --help       show this help.\n"
	"\n"
	"POLICY FILE\n"
	"    'key = value' lines, '#' comments. Keys: min_svn_rom_ext, min_svn_bl0\n"
	"    (0-255), allowed_root_key (64 hex digits, repeatable), max_delegation_depth\n"
	"    (0-2), hybrid_required, tag_path_allowed (true/false), min_epoch. An\n"
	"    unknown key, a repeated one or a bad value is an error naming the line.\n"
	"    See docs/verifier.md.\n"
	"\n"
	"EXIT STATUS\n"
	"    0   every check holds\n"
	"    1   the verdict failed: a check on the evidence or the policy did not hold\n"
	"    2   usage error\n"
	"    10  an input is invalid (a malformed policy file, a bad nonce, a file\n"
	"        larger than any valid input)\n"
	"    11  an input file is malformed (the CA file holds no certificate)\n"
	"    22  an input file cannot be read\n"
	"    Codes 10-24 are the status classes of otattest/status.h (docs/verifier.md).\n"
	"\n"
	"EXAMPLES\n"
	"    " PROG " --ca ca.pem --nonce 00112233445566778899aabbccddeeff \\\n"
	"        --policy fleet.policy evidence.cose\n"
	"    " PROG " --json --ca ca.pem --nonce $NONCE evidence.cose | jq .failures\n";

/* Exit code of a status's class (status.h). */
static int class_exit(ota_status_t st)
{
	switch (ota_status_class(st)) {
#define X(name, num, err, dbus, exitc) \
	case OTA_CLASS_##name:         \
		return exitc;
		OTA_CLASS_LIST(X)
#undef X
	}
	return 24;
}

static const char *stage_or_null(uint32_t stage)
{
	return stage == OTA_VERDICT_NO_STAGE ? NULL : ota_stage_name(stage);
}

static const char *status_name(ota_status_t st)
{
	return ota_status_name(st) ? ota_status_name(st) : "UNKNOWN";
}

static struct json_object *stage_json(const struct ota_evidence_stage *s)
{
	struct json_object *o = json_object_new_object(), *keys = json_object_new_array();
	char slot[2] = { (char)('A' + (int)s->slot), '\0' };
	uint32_t k;

	otu_json_add_str(o, "stage", ota_stage_name(s->stage));
	otu_json_add_str(o, "slot", slot);
	otu_json_add_str(o, "status", status_name(s->status));
	otu_json_add_bool(o, "booted", s->flags & OTA_STAGE_F_BOOTED);
	otu_json_add_bool(o, "fallback", s->flags & OTA_STAGE_F_FALLBACK);
	otu_json_add_str(o, "path", ota_path_name(s->path));
	otu_json_add_str(o, "sig_scheme", ota_scheme_name(s->sig_scheme));
	otu_json_add_u64(o, "delegation_depth", s->depth);
	otu_json_add_u64(o, "svn", s->svn);
	otu_json_add_u64(o, "tag_key_version", s->tag_key_version);
	otu_json_add_u64(o, "verify_time_ns", s->verify_time_ns);
	otu_json_add_hex(o, "measurement", s->measurement, sizeof(s->measurement));
	for (k = 0; k < s->key_id_count; k++)
		json_object_array_add(keys, otu_json_hex(s->key_ids[k], OTA_KEY_ID_BYTES));
	json_object_object_add(o, "key_ids", keys);
	return o;
}

static struct json_object *claims_json(const struct ota_evidence_claims *c)
{
	struct json_object *o = json_object_new_object(), *stages = json_object_new_array();
	uint32_t i;

	otu_json_add_hex(o, "nonce", c->nonce, c->nonce_len);
	otu_json_add_hex(o, "device_id", c->device_id, sizeof(c->device_id));
	otu_json_add_hex(o, "record_digest", c->record_digest, sizeof(c->record_digest));
	otu_json_add_hex(o, "rom_identity", c->rom_identity, sizeof(c->rom_identity));
	otu_json_add_str(o, "lifecycle", ota_lifecycle_name(c->lifecycle));
	otu_json_add_str(o, "reset_reason", ota_reset_reason_name(c->reset_reason));
	otu_json_add_u64(o, "epoch", c->epoch);
	otu_json_add_u64(o, "min_svn", c->min_svn);
	otu_json_add_u64(o, "chain_max_svn", c->chain_max_svn);
	otu_json_add_u64(o, "tag_key_version", c->tag_key_version);
	otu_json_add_bool(o, "tag_boot_enabled", c->record_flags & OTA_RECORD_F_TAG_BOOT_ENABLED);
	otu_json_add_u64(o, "floor_rom_ext", c->floor_rom_ext);
	otu_json_add_u64(o, "floor_bl0", c->floor_bl0);
	otu_json_add_u64(o, "generation", c->generation);
	for (i = 0; i < c->stage_count; i++)
		json_object_array_add(stages, stage_json(&c->stage[i]));
	json_object_object_add(o, "stages", stages);
	return o;
}

static void print_json(const struct ota_verdict *v, ota_status_t st)
{
	struct json_object *doc = json_object_new_object(), *failures = json_object_new_array();
	uint32_t i;

	otu_json_add_str(doc, "verdict", st == OTA_OK ? "pass" : "fail");
	otu_json_add_bool(doc, "authentic", v->authentic);
	otu_json_add_str(doc, "status", status_name(st));
	for (i = 0; i < v->failure_count; i++) {
		const struct ota_verdict_failure *f = &v->failures[i];
		struct json_object *o = json_object_new_object();

		otu_json_add_str(o, "check", status_name(f->status));
		otu_json_add_u64(o, "code", f->status);
		otu_json_add_str(o, "stage", stage_or_null(f->stage));
		otu_json_add_str(o, "message",
				 ota_status_message(f->status) ? ota_status_message(f->status) : "");
		otu_json_add_str(o, "detail", f->detail);
		json_object_array_add(failures, o);
	}
	json_object_object_add(doc, "failures", failures);
	otu_json_add_bool(doc, "failures_truncated", v->failures_truncated);
	if (v->claims_valid)
		json_object_object_add(doc, "claims", claims_json(&v->claims));
	otu_json_emit(stdout, doc);
}

static void print_human(const struct ota_verdict *v, ota_status_t st)
{
	const struct ota_evidence_claims *c = &v->claims;
	uint32_t i;

	printf("verdict: %s (evidence authentic: %s)\n", st == OTA_OK ? "PASS" : "FAIL",
	       v->authentic ? "yes" : "no");
	for (i = 0; i < v->failure_count; i++) {
		const struct ota_verdict_failure *f = &v->failures[i];
		const char *name = ota_status_name(f->status);

		printf("  FAILED %s: %s\n", name ? name : "UNKNOWN", f->detail);
	}
	if (v->failures_truncated)
		printf("  (more failures not shown)\n");
	if (!v->claims_valid)
		return;
	printf("device ");
	otu_hex_fprint(stdout, c->device_id, sizeof(c->device_id));
	printf(": lifecycle %s, epoch %u, min SVN %u, tag key version %u, %s reset\n",
	       ota_lifecycle_name(c->lifecycle), c->epoch, c->min_svn, c->tag_key_version,
	       ota_reset_reason_name(c->reset_reason));
	for (i = 0; i < c->stage_count; i++) {
		const struct ota_evidence_stage *s = &c->stage[i];
		const char *sn = ota_status_name(s->status);

		printf("  %-7s slot %c: %s, SVN %u, path %s, %s, depth %u, %s\n",
		       ota_stage_name(s->stage), 'A' + (int)s->slot,
		       (s->flags & OTA_STAGE_F_BOOTED) ? "booted" : "not booted", s->svn,
		       ota_path_name(s->path), ota_scheme_name(s->sig_scheme), s->depth,
		       sn ? sn : "UNKNOWN");
		printf("          measurement ");
		otu_hex_fprint(stdout, s->measurement, sizeof(s->measurement));
		printf("\n          root key    ");
		otu_hex_fprint(stdout, s->key_ids[0], OTA_KEY_ID_BYTES);
		printf("\n");
	}
}

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
	if (json_out) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "verdict", "error");
		otu_json_add_str(doc, "status", status_name(st));
		otu_json_add_u64(doc, "code", st);
		otu_json_add_str(doc, "detail", msg);
		otu_json_emit(stdout, doc);
	}
	return class_exit(st);
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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ca", required_argument, NULL, 'c' },
		{ "nonce", required_argument, NULL, 'n' },
		{ "no-nonce", no_argument, NULL, 'N' },
		{ "policy", required_argument, NULL, 'p' },
		{ "record", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ca_path = NULL, *nonce_hex = NULL, *policy_path = NULL, *record_path = NULL;
	bool json = false, quiet = false, no_nonce = false;
	uint8_t *ev = NULL, *rec = NULL;
	size_t ev_len = 0, rec_len = 0;
	ssize_t nonce_len = 0;
	uint8_t nonce[OTA_NONCE_MAX];
	struct ota_trust *ca = NULL;
	struct ota_policy policy;
	struct ota_verdict *v;
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
		case 'j': json = json_out = true; break;
		case 'q': quiet = true; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: fprintf(stderr, "Try '" PROG " --help'.\n"); return OTA_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || ca_path == NULL || (nonce_hex == NULL) == !no_nonce) {
		fprintf(stderr, PROG ": need EVIDENCE, --ca and exactly one of --nonce/--no-nonce\n"
				"Try '" PROG " --help'.\n");
		return OTA_EXIT_USAGE;
	}
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
	st = ota_trust_load_file(ca_path, &ca);
	if (st != OTA_OK)
		return fail_input("CA", ca_path, st, NULL);
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

	v = calloc(1, sizeof(*v));
	if (v == NULL)
		return class_exit(OTA_HOST_INTERNAL);
	st = ota_verify_evidence(ev, ev_len, ca, nonce_hex ? nonce : NULL, (size_t)nonce_len, &policy,
				 rec, rec_len, v);
	if (json)
		print_json(v, st);
	else if (!quiet)
		print_human(v, st);
	rc = st == OTA_OK ? 0 : OTA_EXIT_VERDICT_FAILED;
	free(v);
	free(ev);
	free(rec);
	ota_trust_free(ca);
	return rc;
}
