// SPDX-License-Identifier: MIT
/*
 * Read and decode OTP. Firmware never sees the secret partition: it reads
 * the ranges on either side and decodes with that range zeroed, as
 * ota_otp_decode expects.
 */
#include <string.h>

#include "fwlib.h"

ota_status_t boot_otp_load(struct ota_otp_info *out)
{
	static struct ota_otp otp;
	ota_status_t st;

	memset(&otp, 0, sizeof(otp));
	st = hal_otp_read(0, &otp, OTA_OTP_SECRET_START);
	if (st == OTA_OK)
		st = hal_otp_read(OTA_OTP_SECRET_DIGEST_END,
				  (uint8_t *)&otp + OTA_OTP_SECRET_DIGEST_END,
				  sizeof(otp) - OTA_OTP_SECRET_DIGEST_END);
	if (st == OTA_OK)
		st = ota_otp_decode(&otp, out);
	return st;
}
