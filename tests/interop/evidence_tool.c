// SPDX-License-Identifier: MIT
/*
 * evidence_tool [--rom-ext-hybrid | --lie CLAIM | --lifecycle STATE | --debug-image |
 *                --debug-tag-mismatch | --update trial|reverted] OUTDIR:
 * run the firmware's runtime on
 * the software HAL (the fixture of tests/unit/test_evidence_fixture.h: a
 * provisioned device, ROM_EXT's handoff, the key manager locked) and write
 * what an independent verifier needs:
 *
 *   ca.pem         the manufacturer CA
 *   ca.key         its private key (PEM), for the suites that issue CRLs
 *   alias.pem      the alias certificate the device issued (from GET_CERTS)
 *   identity.pem   the identity certificate from flash (from GET_CERTS)
 *   evidence.cose  ATTEST's COSE_Sign1 for nonce.hex
 *   record.bin     the boot record the claims describe
 *   nonce.hex      the nonce, as hex
 *
 * The fixture's booted BL0 is hybrid-signed and its ROM_EXT ECDSA only;
 * --rom-ext-hybrid records the ROM_EXT as hybrid too, so that evidence in
 * which every booted stage is hybrid shows a hybrid_required policy can
 * pass (evidence.sh).
 *
 * --lie CLAIM plays a compromised runtime: ROM_EXT certifies the boot as
 * it was, then the runtime changes CLAIM in the record it encodes the
 * claims from and signs them with its genuine alias key; record.bin is
 * the record it lied with. Every verifier must refuse the evidence
 * because the alias certificate says otherwise (evidence.sh runs each
 * CLAIM of lie_names through otattest-verify and evidence_check.py).
 *
 * --lifecycle STATE (dev, rma, ...) boots the device in that lifecycle
 * state, which ROM_EXT certifies: honest evidence a production policy
 * must refuse (ear.sh). --debug-image boots a BL0 image whose usage
 * carries the DEBUG flag (debug_images_allowed = false refuses it);
 * --inconsistent RULE writes a record whose attempts break one rule of
 * docs/evidence.md's consistency table, which ROM_EXT certifies as it is.
 * --debug-tag-mismatch the same image booted on the slow path after its
 * tag did not match (path reason tag-mismatch), as docs/evidence.md's
 * example: what otimage inspect shows of an alias certificate.
 *
 * --update trial boots BL0 A on trial (primary B, its second boot),
 * --update reverted after B's trial reverted (watchdog), revocation
 * sequence 3 in both (issue 28: require_committed refuses both,
 * min_revocation_sequence = 4 too); the update lies (revocation-sequence,
 * revert-reason, reset-reason, trial-boots) start from the reverted one.
 *
 * --handover boots the device the unit tests build (tu_device), has the
 * CA certify its identity (ROM_EXT signed by creator key 0), updates
 * ROM_EXT to one signed by creator key 1 and boots it: the identity hands
 * over (docs/keychain.md). evidence.cose carries the hand-over;
 * evidence-nohandover.cose is the same without it, evidence-forged.cose
 * with a byte of its signature flipped (ca.pem, nonce.hex as usual).
 *
 * --fleet N writes a fleet instead (make bench-fleet, fleet-agree.sh): N
 * devices, each with its own OTP secret, device id, identity key and
 * certificate (one CA for all) and alias certificate, each attesting to
 * the one nonce: dev-NNNN.cose, and fleet.tsv with a line per device: its
 * file, its identity certificate's serial (hex) and its lifecycle. Every
 * tenth device (index 3 modulo 10) boots in lifecycle dev, below a
 * production policy; the rest in prod.
 *
 * The work runs as one check test (the fixture asserts with check).
 */
#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <openssl/rand.h>

#include <otu/file.h>
#include <otu/hex.h>

#include "../unit/test_evidence_fixture.h"
#include "tu_device.h"

static const char *outdir;
static bool rom_ext_hybrid;
static int lie = -1;
static int lifecycle = -1;
static bool debug_image;
static bool tag_mismatch;
static int inconsistent = -1;
static long fleet = -1;
static bool handover;
/* --update STATE: the update section of a trial or of a reverted trial (issue 28). */
static const char *const update_names[] = { "trial", "reverted" };
static int update = -1;

/*
 * What --inconsistent can make: a boot record whose attempts break one
 * rule of docs/evidence.md's "Consistency of an attempt" table, certified
 * by ROM_EXT as it is (so only that rule can catch it): both verifiers
 * must refuse the claims (VERIFY_CLAIMS_INVALID). The first three are what
 * this tool's fixture wrote before issue 31. (A tag path with a reason
 * the runtime itself refuses to publish: ota_record_validate.)
 */
static const char *const inconsistent_names[] = {
	"tag-path-without-tag-boot-usage", "retagged-without-reason", "retagged-without-tag-boot-usage",
	"tag-path-with-tag-boot-off", "refused-on-a-path", "accepted-on-no-path",
	"check-only-reason", "not-tag-capable-with-tag-boot-usage",
	"tag-boot-off-reason-with-tag-boot-on",
};

static void make_inconsistent(struct ota_record *r)
{
	struct ota_stage_record *rom_ext = &r->stage[0], *refused = &r->stage[1], *bl0 = &r->stage[2];

	switch (inconsistent) {
	case 0: rom_ext->effective.usage.flags = 0; break;
	case 1: bl0->path_reason = OTA_REASON_NONE; break;
	case 2: bl0->effective.usage.flags = 0; break;
	case 3: r->hdr.flags &= ~OTA_RECORD_F_TAG_BOOT_ENABLED; break;
	case 4: refused->path = OTA_PATH_SIGNATURE; break;
	case 5: /* the refused attempt said accepted, yet on no path and not booted */
		refused->status = OTA_OK;
		break;
	case 6: bl0->path = OTA_PATH_SIGNATURE; bl0->path_reason = OTA_REASON_CHECK_ONLY; break;
	case 7: refused->path_reason = OTA_REASON_NOT_TAG_CAPABLE; break;
	case 8: bl0->path = OTA_PATH_SIGNATURE; bl0->path_reason = OTA_REASON_TAG_BOOT_OFF; break;
	}
}

/* What --lie can change, each a claim the alias certificate certifies. */
static const char *const lie_names[] = {
	"root-key",  "delegate-key",  "depth",	   "path",	   "scheme",
	"stage-tag-key-version",      "min-svn",   "epoch",	   "lifecycle",
	"floor-rom-ext", "floor-bl0", "tag-key-version", "chain-max-svn", "rom-identity",
	"path-reason", "usage-flags", "revocation-sequence", "revert-reason", "reset-reason",
	"trial-boots",
};

/* The fixture's booted ROM_EXT is stage[0], its booted BL0 stage[2] (depth 1). */
static void tell_lie(struct ota_record *r)
{
	struct ota_stage_record *rom_ext = &r->stage[0], *bl0 = &r->stage[2];

	switch (lie) {
	case 0: memset(bl0->key_ids[0], 0x44, OTA_KEY_ID_BYTES); break;
	case 1: memset(bl0->key_ids[1], 0x55, OTA_KEY_ID_BYTES); break;
	case 2:
		bl0->delegation_depth = 0;
		memset(bl0->key_ids[1], 0, OTA_KEY_ID_BYTES);
		break;
	case 3: bl0->path = OTA_PATH_SIGNATURE; break; /* certified: retagged (same reason) */
	case 4: rom_ext->sig_scheme = OTA_SCHEME_HYBRID; break;
	case 5: bl0->tag_key_version++; break;
	case 6: r->hdr.min_svn++; break;
	case 7: r->hdr.epoch++; break;
	case 8: r->hdr.lifecycle = OTA_LC_PROD_END; break;
	case 9: r->hdr.floor_rom_ext++; break;
	case 10: r->hdr.floor_bl0++; break;
	case 11: r->hdr.tag_key_version++; break;
	case 12: r->hdr.chain_max_svn = 200; break;
	case 13: r->hdr.rom_identity[0] ^= 1; break;
	case 14: bl0->path_reason = OTA_REASON_NO_TAG; break; /* certified: image-changed */
	case 15: bl0->effective.usage.flags &= ~OTA_CAP_DEBUG; break; /* certified: DEBUG */
	/* The update state (issue 28), on the base of --update reverted: */
	case 16: ((struct ota_record_update *)ota_record_update_of(r))->revocation_sequence = 9; break;
	case 17: ((struct ota_record_update *)ota_record_update_of(r))->revert_reason = OTA_REVERT_WARM_RESET; break;
	case 18: r->hdr.reset_reason = OTA_RESET_WARM; break;
	case 19: ((struct ota_record_update *)ota_record_update_of(r))->trial_boots = 1; break;
	}
}

static void write_file(const char *name, const void *buf, size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	ck_assert_int_eq(otu_write_file_atomic(path, buf, len, 0644, OTU_WRITE_NO_SYNC), 0);
}

static void write_pem(const char *name, const uint8_t *der, uint32_t len)
{
	const unsigned char *p = der;
	X509 *x = d2i_X509(NULL, &p, len);
	char *pem;
	BIO *bio;
	long n;

	ck_assert_ptr_nonnull(x);
	bio = BIO_new(BIO_s_mem());
	PEM_write_bio_X509(bio, x);
	n = BIO_get_mem_data(bio, &pem);
	write_file(name, pem, (size_t)n);
	BIO_free(bio);
	X509_free(x);
}

static void write_ca_key(EVP_PKEY *key)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *pem;
	long n;

	ck_assert_int_eq(PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL), 1);
	n = BIO_get_mem_data(bio, &pem);
	write_file("ca.key", pem, (size_t)n);
	BIO_free(bio);
}

START_TEST(make_evidence)
{
	static uint8_t ev[OTA_EVIDENCE_MAX_BYTES], certs[OTA_CERTS_RESP_MAX];
	uint8_t nonce[32];
	char hex[2 * sizeof(nonce) + 2];
	uint32_t len = 0, n, at;
	struct evfix f;

	evfix_open(&f, EVFIX_IDCERT_OURS);
	if (lifecycle >= 0)
		f.bs.record.hdr.lifecycle = f.bs.otp.lifecycle = (uint32_t)lifecycle;
	/* the booted BL0 A; the usage-flags lie hides the DEBUG flag ROM_EXT certified */
	if (debug_image || (lie >= 0 && !strcmp(lie_names[lie], "usage-flags")))
		f.bs.record.stage[2].effective.usage.flags |= OTA_CAP_DEBUG;
	if (tag_mismatch) {
		ck_assert_uint_eq(f.bs.record.stage[2].path, OTA_PATH_SIGNATURE_RETAGGED);
		f.bs.record.stage[2].path_reason = OTA_REASON_TAG_MISMATCH;
	}
	make_inconsistent(&f.bs.record); /* before ROM_EXT certifies it */
	/* A trial of A (primary B, its 2nd boot), or B's reverted (watchdog); revocations at 3. */
	if (update == 0)
		evfix_update(&f.bs, OTA_SLOT_B, 2, OTA_REVERT_NONE, 0, 3);
	else if (update == 1 || lie >= 16)
		evfix_update(&f.bs, OTA_SLOT_A, 0, OTA_REVERT_WATCHDOG, OTA_SLOT_B, 3);
	if (rom_ext_hybrid) {
		ck_assert_uint_eq(f.bs.record.stage[0].stage, OTA_STAGE_ROM_EXT);
		f.bs.record.stage[0].sig_scheme = OTA_SCHEME_HYBRID;
	}
	evfix_boot_runtime(&f);
	tell_lie(&f.bs.record); /* after ROM_EXT certified the boot */
	ck_assert_uint_eq(hal_trng_fill(nonce, sizeof(nonce)), OTA_OK);
	ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce, sizeof(nonce), ev,
					sizeof(ev), &len),
			  OTA_OK);
	write_file("evidence.cose", ev, len);
	write_file("record.bin", &f.bs.record, f.bs.record_len);
	write_file("ca.pem", f.ca_pem, f.ca_pem_len);
	write_ca_key(f.ca_key);
	otu_hex_encode(hex, nonce, sizeof(nonce));
	hex[2 * sizeof(nonce)] = '\n';
	write_file("nonce.hex", hex, 2 * sizeof(nonce) + 1);

	ck_assert_uint_eq(ota_rt_get_certs(ota_runtime_current(&f.bs), certs, sizeof(certs), &len),
			  OTA_OK);
	at = sizeof(struct ota_resp_certs);
	memcpy(&n, certs + at, 4);
	write_pem("alias.pem", certs + at + 4, n);
	at += 4 + ((n + 3) & ~3u);
	memcpy(&n, certs + at, 4);
	write_pem("identity.pem", certs + at + 4, n);
	evfix_close(&f);
}
END_TEST

START_TEST(make_fleet)
{
	static uint8_t ev[OTA_EVIDENCE_MAX_BYTES];
	uint8_t nonce[32];
	char hex[2 * sizeof(nonce) + 2], name[32];
	EVP_PKEY *ca_key;
	X509 *ca;
	FILE *tsv;
	struct evfix f;
	uint32_t len;

	ck_assert_uint_eq(otimage_ca_create("otattest fleet CA", &ca_key, &ca), OTA_OK);
	ck_assert_int_eq(RAND_bytes(nonce, sizeof(nonce)), 1); /* the verifier's: no device yet */
	snprintf(name, sizeof(name), "%s/fleet.tsv", outdir);
	tsv = fopen(name, "w");
	ck_assert_ptr_nonnull(tsv);
	for (long i = 0; i < fleet; i++) {
		const ASN1_INTEGER *serial;
		BIGNUM *bn;
		char *serial_hex;

		evfix_open_fleet(&f, EVFIX_IDCERT_OURS, (uint32_t)i, ca_key, ca);
		if (i % 10 == 3)
			f.bs.record.hdr.lifecycle = f.bs.otp.lifecycle = OTA_LC_DEV;
		evfix_boot_runtime(&f);
		ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce,
						sizeof(nonce), ev, sizeof(ev), &len),
				  OTA_OK);
		snprintf(name, sizeof(name), "dev-%04ld.cose", i);
		write_file(name, ev, len);
		serial = X509_get0_serialNumber(f.identity);
		bn = ASN1_INTEGER_to_BN(serial, NULL);
		serial_hex = BN_bn2hex(bn);
		fprintf(tsv, "%s\t%s\t%s\n", name, serial_hex,
			ota_lifecycle_name(f.bs.record.hdr.lifecycle));
		OPENSSL_free(serial_hex);
		BN_free(bn);
		if (i == 0)
			write_file("ca.pem", f.ca_pem, f.ca_pem_len);
		evfix_close(&f);
	}
	ck_assert_int_eq(fclose(tsv), 0);
	write_ca_key(ca_key);
	otu_hex_encode(hex, nonce, sizeof(nonce));
	hex[2 * sizeof(nonce)] = '\n';
	write_file("nonce.hex", hex, 2 * sizeof(nonce) + 1);
	EVP_PKEY_free(ca_key);
	X509_free(ca);
}
END_TEST

START_TEST(make_handover)
{
	static uint8_t ev[8192], out[8192];
	const uint8_t *ho[OTA_HANDOVER_MAX], *certs[2];
	size_t ho_lens[OTA_HANDOVER_MAX];
	uint32_t len = 0, n = 0, clens[2], olen = 0;
	struct ota_cose_sign1 m;
	struct tu_device dev;
	struct ota_trust *trust;
	uint8_t nonce[32];
	char hex[2 * sizeof(nonce) + 2], *ca_pem;
	size_t ca_len;

	tu_device_boot_default(&dev);
	trust = tu_identity_provision_pem(&dev, &ca_pem, &ca_len);
	tu_rom_ext_signed_by(TU_CREATOR1);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(hal_trng_fill(nonce, sizeof(nonce)), OTA_OK);
	ck_assert_uint_eq(ota_rt_attest(ota_boot_state(), &ota_rt, nonce, sizeof(nonce), ev,
					sizeof(ev), &len),
			  OTA_OK);
	write_file("evidence.cose", ev, len);
	ck_assert_uint_eq(ota_cose_sign1_handovers(ev, len, ho, ho_lens, &n), OTA_OK);
	ck_assert_uint_eq(n, 1);
	/* Without the hand-over: the same signed parts, framed again. */
	ck_assert_uint_eq(ota_cose_sign1_decode(ev, len, &m), OTA_OK);
	ck_assert_uint_eq(m.cert_count, 2);
	for (uint32_t i = 0; i < 2; i++) {
		certs[i] = m.certs[i];
		clens[i] = (uint32_t)m.cert_lens[i];
	}
	ck_assert_uint_eq(ota_evidence_encode_sign1(m.payload, (uint32_t)m.payload_len, certs, clens,
						    2, m.signature, out, sizeof(out), &olen),
			  OTA_OK);
	write_file("evidence-nohandover.cose", out, olen);
	/* A byte of the hand-over's signature flipped. */
	memcpy(out, ev, len);
	out[(ho[0] - ev) + offsetof(struct ota_identity_handover, signature) + 9] ^= 0x40;
	write_file("evidence-forged.cose", out, len);
	write_file("ca.pem", ca_pem, ca_len);
	otu_hex_encode(hex, nonce, sizeof(nonce));
	hex[2 * sizeof(nonce)] = '\n';
	write_file("nonce.hex", hex, 2 * sizeof(nonce) + 1);
	free(ca_pem);
	ota_trust_free(trust);
	tu_device_close(&dev);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("evidence_tool");
	TCase *tc = tcase_create("make");
	SRunner *sr;
	int failed;

	if (argc == 3 && !strcmp(argv[1], "--rom-ext-hybrid"))
		rom_ext_hybrid = true;
	else if (argc == 3 && !strcmp(argv[1], "--debug-image"))
		debug_image = true;
	else if (argc == 3 && !strcmp(argv[1], "--handover"))
		handover = true;
	else if (argc == 3 && !strcmp(argv[1], "--debug-tag-mismatch"))
		debug_image = tag_mismatch = true;
	else if (argc == 4 && !strcmp(argv[1], "--lifecycle")) {
		for (uint32_t lc = 0; lc < OTA_LC_COUNT; lc++)
			if (!strcmp(argv[2], ota_lifecycle_name(lc)))
				lifecycle = (int)lc;
	} else if (argc == 4 && !strcmp(argv[1], "--inconsistent")) {
		for (size_t i = 0; i < sizeof(inconsistent_names) / sizeof(inconsistent_names[0]); i++)
			if (!strcmp(argv[2], inconsistent_names[i]))
				inconsistent = (int)i;
	} else if (argc == 4 && !strcmp(argv[1], "--fleet")) {
		char *end;

		fleet = strtol(argv[2], &end, 10);
		if (*end || fleet < 1 || fleet > 9999)
			fleet = -1;
	} else if (argc == 4 && !strcmp(argv[1], "--update")) {
		for (size_t i = 0; i < sizeof(update_names) / sizeof(update_names[0]); i++)
			if (!strcmp(argv[2], update_names[i]))
				update = (int)i;
	} else if (argc == 4 && !strcmp(argv[1], "--lie")) {
		for (size_t i = 0; i < sizeof(lie_names) / sizeof(lie_names[0]); i++)
			if (!strcmp(argv[2], lie_names[i]))
				lie = (int)i;
	}
	if (argc != 2 && !rom_ext_hybrid && lie < 0 && lifecycle < 0 && !debug_image &&
	    inconsistent < 0 && fleet < 0 && update < 0 && !handover) {
		fprintf(stderr, "usage: evidence_tool [--rom-ext-hybrid | --lie CLAIM | "
				"--lifecycle STATE | --debug-image | --debug-tag-mismatch | "
				"--inconsistent RULE | --fleet N | --update trial|reverted | "
				"--handover] OUTDIR\n");
		return 2;
	}
	outdir = argv[argc - 1];
	tcase_add_test(tc, handover ? make_handover : fleet > 0 ? make_fleet : make_evidence);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
