// SPDX-License-Identifier: MIT
/*
 * ota_slhdsa_verify on hostile input: the fuzz input is
 *   public key (32) || signature (7856) || message (the rest),
 * zero-filled when shorter. Each part is copied into a heap block of
 * exactly its size, so ASan reports any read past a part. Verification
 * must return OTA_OK or OTA_SLHDSA_INVALID, the same both times, and
 * never crash. The seed corpus (tests/fuzz/corpus/fuzz_slhdsa_verify)
 * holds a valid triple, so mutations start from deep inside a real
 * signature and libFuzzer's max_len covers a whole one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/slhdsa.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *pk = part(&data, &size, OTA_SLHDSA_PK_BYTES);
	uint8_t *sig = part(&data, &size, OTA_SLHDSA_SIG_BYTES);
	size_t msg_len = size;
	uint8_t *msg = part(&data, &size, msg_len);
	ota_status_t first, second;

	first = ota_slhdsa_verify(pk, msg, msg_len, sig);
	if (first != OTA_OK && first != OTA_SLHDSA_INVALID)
		abort();
	/* Verification keeps no state between calls and changes no input. */
	second = ota_slhdsa_verify(pk, msg, msg_len, sig);
	if (second != first)
		abort();

	free(pk);
	free(sig);
	free(msg);
	return 0;
}
