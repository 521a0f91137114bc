// SPDX-License-Identifier: MIT
/*
 * Whole evidence verification (ota_verify_evidence) on hostile bytes:
 * strict CBOR, COSE, X.509 parsing and chain building in OpenSSL,
 * signature, claims and policy, with a strict policy so every check runs.
 * The verifier keeps checking claims after a bad signature, so mutated
 * evidence still reaches the claims and policy code. Property: nothing
 * that is not the seed's exact bytes (signed under this run's CA) can
 * come out as OTA_OK, and a verdict always names its failures.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/pem.h>

#include "otattest/verify.h"

#include "../../libotattest/tools/otimage/idcert.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ota_trust *trust;
static struct ota_policy policy;
static struct ota_verdict verdict;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	EVP_PKEY *key;
	X509 *ca;
	BIO *bio;
	char *pem;
	long n;

	(void)argc;
	(void)argv;
	/* A CA nobody else has: no fuzz input can chain to it. */
	if (otimage_ca_create("otattest fuzz CA", &key, &ca) != OTA_OK)
		abort();
	bio = BIO_new(BIO_s_mem());
	PEM_write_bio_X509(bio, ca);
	n = BIO_get_mem_data(bio, &pem);
	if (ota_trust_load_pem(pem, (size_t)n, &trust) != OTA_OK)
		abort();
	BIO_free(bio);
	X509_free(ca);
	EVP_PKEY_free(key);
	ota_policy_init(&policy);
	policy.min_svn[OTA_STAGE_BL0] = 1;
	policy.max_delegation_depth = 1;
	policy.tag_path_allowed = false;
	policy.hybrid_required = true;
	policy.allowed_root_key_count = 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t nonce[16];
	uint8_t *buf;
	ota_status_t st;

	if (size > OTA_EVIDENCE_MAX_BYTES * 2)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	st = ota_verify_evidence(buf, size, trust, nonce, sizeof(nonce), &policy, buf, size,
				 &verdict);
	if (st == OTA_OK || verdict.failure_count == 0 || verdict.authentic)
		abort(); /* nothing can be authentic under a CA created in this process */
	if (verdict.failures[0].status != st)
		abort();
	free(buf);
	return 0;
}
