// SPDX-License-Identifier: MIT
/*
 * Thermometer codes for OTP counters: value n is the n lowest bits set,
 * bit 0 of byte 0 first. Raising a counter only sets bits, which is all
 * OTP can do; a set bit above a clear one is a corrupt counter.
 */
#include <string.h>

#include "otattest/otp.h"

ota_status_t ota_thermometer_decode(const uint8_t *bits, uint32_t nbytes, uint32_t *value)
{
	uint32_t n = 0, i;
	bool gap = false;

	for (i = 0; i < nbytes * 8u; i++) {
		bool set = (bits[i / 8u] >> (i % 8u)) & 1u;

		if (set && gap)
			return OTA_OTP_BAD_COUNTER;
		if (set)
			n++;
		else
			gap = true;
	}
	*value = n;
	return OTA_OK;
}

void ota_thermometer_encode(uint8_t *bits, uint32_t nbytes, uint32_t value)
{
	uint32_t i;

	memset(bits, 0, nbytes);
	for (i = 0; i < value && i < nbytes * 8u; i++)
		bits[i / 8u] |= (uint8_t)(1u << (i % 8u));
}
