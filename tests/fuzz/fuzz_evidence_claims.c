// SPDX-License-Identifier: MIT
/*
 * What lies behind the evidence signature: the claims decoder, the
 * check of the claims against the alias certificate, nonce, record and
 * policy (ota_verify_evidence), with the signature and the chain valid by
 * construction. Random bytes never get past an ES256 signature, so
 * fuzz_evidence only reaches these checks on evidence that is already
 * refused; here every input is signed.
 *
 * A provisioned emulated device is booted to its runtime once (the
 * evidence fixture of the unit tests, tests/unit/test_evidence_fixture.h:
 * a fresh manufacturer CA, the identity certificate it issued, the alias
 * certificate ROM_EXT issued). Each input is
 *   [0]     policy knobs (below)
 *   [1..]   the claims payload, signed by the device's own alias key
 *           (through the HAL, as the runtime signs) and framed as the
 *           runtime frames it, with its two certificates.
 * Properties: the evidence is always authentic (nothing in the payload
 * can break a signature made over it); accepted evidence carries the
 * expected nonce and the record's digest, and a verdict names its first
 * failure as its status.
 *
 * FUZZ_CLAIMS_WRITE_SEED=<file> writes the device's own claims for the
 * fixture's record (with knob byte 0x80) as a seed.
 * FUZZ_CLAIMS_EXPORT=<dir> writes every accepted evidence to <dir> as
 * accepted-<n>.cose (accepted-<n>-record.cose when the verifier was given
 * the record) with ca.pem, record.bin and nonce.hex beside it, for the
 * independent check (tests/fuzz/differential.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include <otattest/cbor.h>
#include <otu/file.h>
#include <otu/hex.h>

#include "../unit/test_evidence_fixture.h"
#include "tu_main.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Knob bits of the first input byte: each turns one policy rule on. */
#define KNOB_NO_TAG_PATH 0x01u
#define KNOB_HYBRID 0x02u
#define KNOB_MIN_SVN_MET 0x04u   /* BL0 min SVN = the record's */
#define KNOB_MIN_SVN_ABOVE 0x08u /* one above it */
#define KNOB_ROOT_KEY 0x10u      /* only the record's BL0 root key */
#define KNOB_DEPTH 0x20u         /* at most one delegate */
#define KNOB_EPOCH 0x40u         /* min epoch = the record's */
#define KNOB_RECORD 0x80u        /* the verifier is given the record */

static struct evfix fix;
static const struct ota_runtime *rt;
static uint8_t nonce[32];
static const char *export_dir;
static unsigned int exported;

static void write_or_die(const char *dir, const char *name, const void *buf, size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (otu_write_file_atomic(path, buf, len, 0644, OTU_WRITE_NO_SYNC) != 0)
		abort();
}

/* The device's own evidence for the fixture's record: its claims are the seed. */
static void write_seed(const char *path)
{
	static uint8_t ev[OTA_EVIDENCE_MAX_BYTES], seed[OTA_EVIDENCE_MAX_BYTES];
	struct ota_cose_sign1 m;
	uint32_t len = 0;

	if (ota_rt_attest(&fix.bs, rt, nonce, sizeof(nonce), ev, sizeof(ev), &len) != OTA_OK ||
	    ota_cose_sign1_decode(ev, len, &m) != OTA_OK || m.payload_len + 1 > sizeof(seed))
		abort();
	seed[0] = KNOB_RECORD;
	memcpy(seed + 1, m.payload, m.payload_len);
	write_or_die(".", path, seed, m.payload_len + 1);
}

START_TEST(boot_device)
{
	char hex[2 * sizeof(nonce) + 2];
	uint32_t i;

	evfix_open(&fix, EVFIX_IDCERT_OURS);
	evfix_boot_runtime(&fix);
	rt = ota_runtime_current(&fix.bs);
	ck_assert_ptr_nonnull(rt);
	ck_assert_uint_ne(rt->identity_cert_len, 0);
	for (i = 0; i < sizeof(nonce); i++)
		nonce[i] = (uint8_t)(0x4e + 3 * i);
	if (export_dir) {
		write_or_die(export_dir, "ca.pem", fix.ca_pem, fix.ca_pem_len);
		write_or_die(export_dir, "record.bin", &fix.bs.record, fix.bs.record_len);
		otu_hex_encode(hex, nonce, sizeof(nonce));
		hex[2 * sizeof(nonce)] = '\n';
		write_or_die(export_dir, "nonce.hex", hex, 2 * sizeof(nonce) + 1);
	}
}
END_TEST

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seed = getenv("FUZZ_CLAIMS_WRITE_SEED");

	(void)argc;
	(void)argv;
	export_dir = getenv("FUZZ_CLAIMS_EXPORT");
	/* The fixture asserts with check: run it as one test, in this process. */
	if (tu_run_in_process("fuzz_evidence_claims", boot_device) != 0)
		abort();
	if (seed)
		write_seed(seed);
	return 0;
}

/* ES256 over the Sig_structure, by the alias key the runtime holds. */
static void sign(const uint8_t *payload, uint32_t len, uint8_t sig[OTA_P256_SIG_BYTES])
{
	static const uint8_t prot[] = OTA_COSE_PROTECTED_ES256;
	uint8_t prefix[OTA_COSE_SIG1_PREFIX_MAX], digest[OTA_SHA256_BYTES];
	uint32_t prefix_len;
	struct ota_sha256 c;
	hal_key_t alias;

	if (ota_cose_sig1_prefix(prot, sizeof(prot), len, prefix, sizeof(prefix), &prefix_len) !=
	    OTA_OK)
		abort();
	ota_sha256_init(&c);
	ota_sha256_update(&c, prefix, prefix_len);
	ota_sha256_update(&c, payload, len);
	ota_sha256_final(&c, digest);
	if (hal_key_retained(OTA_RETAINED_KEY_ALIAS, &alias) != OTA_OK)
		abort();
	if (hal_ecdsa_sign(alias, digest, sig) != OTA_OK)
		abort();
	hal_key_destroy(alias);
}

static void policy_from(uint8_t knobs, struct ota_policy *p)
{
	const struct ota_stage_record *bl0 = &fix.bs.record.stage[2];

	ota_policy_init(p);
	p->tag_path_allowed = !(knobs & KNOB_NO_TAG_PATH);
	p->hybrid_required = (knobs & KNOB_HYBRID) != 0;
	if (knobs & KNOB_MIN_SVN_MET)
		p->min_svn[OTA_STAGE_BL0] = bl0->security_version;
	if (knobs & KNOB_MIN_SVN_ABOVE)
		p->min_svn[OTA_STAGE_BL0] = bl0->security_version + 1;
	if (knobs & KNOB_ROOT_KEY) {
		p->allowed_root_key_count = 1;
		memcpy(p->allowed_root_keys[0], bl0->key_ids[0], OTA_KEY_ID_BYTES);
	}
	if (knobs & KNOB_DEPTH)
		p->max_delegation_depth = 1;
	if (knobs & KNOB_EPOCH)
		p->min_epoch = fix.bs.record.hdr.epoch;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t ev[OTA_EVIDENCE_MAX_BYTES];
	static struct ota_verdict v;
	const uint8_t *certs[2] = { rt->alias_cert, rt->identity_cert };
	const uint32_t lens[2] = { rt->alias_cert_len, rt->identity_cert_len };
	const uint8_t *record;
	uint8_t sig[OTA_P256_SIG_BYTES], *payload, digest[OTA_SHA256_BYTES];
	struct ota_policy policy;
	uint32_t len = 0, payload_len;
	ota_status_t st;
	char name[64];

	if (size < 1 || size > OTA_CLAIMS_MAX_BYTES + 1)
		return 0;
	payload_len = (uint32_t)(size - 1);
	/* Exactly sized, so a read past the claims is an ASan report. */
	payload = malloc(payload_len ? payload_len : 1);
	if (!payload)
		abort();
	memcpy(payload, data + 1, payload_len);
	policy_from(data[0], &policy);
	record = (data[0] & KNOB_RECORD) ? (const uint8_t *)&fix.bs.record : NULL;

	sign(payload, payload_len, sig);
	if (ota_evidence_encode_sign1(payload, payload_len, certs, lens, 2, sig, ev, sizeof(ev),
				      &len) != OTA_OK) {
		free(payload);
		return 0; /* larger than evidence can be: never reaches a verifier */
	}
	st = ota_verify_evidence(ev, len, fix.trust, nonce, sizeof(nonce), &policy, record,
				 record ? fix.bs.record_len : 0, &v);
	if (!v.authentic)
		abort(); /* signed by the alias key under the CA: nothing in the payload changes that */
	if ((st == OTA_OK) != (v.failure_count == 0) || (v.failure_count && v.failures[0].status != st))
		abort();
	if (st == OTA_OK) {
		ota_sha256(&fix.bs.record, fix.bs.record_len, digest);
		if (!v.claims_valid || v.claims.nonce_len != sizeof(nonce) ||
		    memcmp(v.claims.nonce, nonce, sizeof(nonce)) ||
		    (record && memcmp(v.claims.record_digest, digest, sizeof(digest))))
			abort();
		if (export_dir) {
			snprintf(name, sizeof(name), "accepted-%u%s.cose", exported++,
				 record ? "-record" : "");
			write_or_die(export_dir, name, ev, len);
		}
	}
	free(payload);
	return 0;
}
