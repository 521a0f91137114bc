// SPDX-License-Identifier: MIT
/*
 * ota_slhdsa_verify on hostile input: the fuzz input is
 *   public key (32) || signature (7856) || message (the rest),
 * zero-filled when shorter. Each part is copied into a heap block of
 * exactly its size, so ASan reports any read past a part. Verification
 * must return OTA_OK or OTA_SLHDSA_INVALID, change none of its inputs,
 * and never crash. The seed corpus (tests/fuzz/corpus/fuzz_slhdsa_verify)
 * holds a valid triple, so mutations start from deep inside a real
 * signature and libFuzzer's max_len covers a whole one.
 *
 * One verification is a few thousand SHA-256 compressions whatever the
 * bytes (SLH-DSA has no early exit), so each input is verified once.
 * That verification keeps no state between calls is checked against a
 * triple signed once at start-up: every CHECK_EVERY inputs it must
 * still verify, and with one bit flipped it must not.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/slhdsa.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK_EVERY 4096u

static uint8_t good_pk[OTA_SLHDSA_PK_BYTES];
static uint8_t good_sig[OTA_SLHDSA_SIG_BYTES];
static const uint8_t good_msg[] = "otattest fuzz_slhdsa_verify reference message";

static uint8_t *part(const uint8_t **data, size_t *size, size_t want)
{
	uint8_t *p = malloc(want ? want : 1);
	size_t take = *size < want ? *size : want;

	if (!p)
		abort();
	memcpy(p, *data, take);
	memset(p + take, 0, want - take);
	*data += take;
	*size -= take;
	return p;
}

/* The reference triple still verifies, and not with a flipped bit. */
static void check_reference(void)
{
	if (ota_slhdsa_verify(good_pk, good_msg, sizeof(good_msg), good_sig) != OTA_OK)
		abort();
	good_sig[OTA_SLHDSA_SIG_BYTES / 2] ^= 0x10;
	if (ota_slhdsa_verify(good_pk, good_msg, sizeof(good_msg), good_sig) != OTA_SLHDSA_INVALID)
		abort();
	good_sig[OTA_SLHDSA_SIG_BYTES / 2] ^= 0x10;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static uint8_t sk[OTA_SLHDSA_SK_BYTES];
	uint8_t seed[16], prf[16], pub[16];

	(void)argc;
	(void)argv;
	memset(seed, 0x11, sizeof(seed));
	memset(prf, 0x22, sizeof(prf));
	memset(pub, 0x33, sizeof(pub));
	ota_slhdsa_keygen(seed, prf, pub, good_pk, sk);
	ota_slhdsa_sign(sk, good_msg, sizeof(good_msg), NULL, good_sig);
	check_reference();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned int calls;
	const uint8_t *in = data;
	size_t left = size;
	uint8_t *pk = part(&in, &left, OTA_SLHDSA_PK_BYTES);
	uint8_t *sig = part(&in, &left, OTA_SLHDSA_SIG_BYTES);
	size_t msg_len = left;
	uint8_t *msg = part(&in, &left, msg_len);
	ota_status_t st;

	st = ota_slhdsa_verify(pk, msg, msg_len, sig);
	if (st != OTA_OK && st != OTA_SLHDSA_INVALID)
		abort();
	/* Nothing it was given is written: the parts still hold the input. */
	if (memcmp(pk, data, size < OTA_SLHDSA_PK_BYTES ? size : OTA_SLHDSA_PK_BYTES) ||
	    (size > OTA_SLHDSA_PK_BYTES + OTA_SLHDSA_SIG_BYTES &&
	     memcmp(msg, data + OTA_SLHDSA_PK_BYTES + OTA_SLHDSA_SIG_BYTES, msg_len)))
		abort();
	if (++calls % CHECK_EVERY == 0)
		check_reference();

	free(pk);
	free(sig);
	free(msg);
	return 0;
}
