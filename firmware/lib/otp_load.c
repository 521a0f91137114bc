// SPDX-License-Identifier: MIT
/*
 * Read and decode OTP. Firmware never sees the secret partition: it reads
 * the ranges on either side and decodes with that range zeroed, as
 * ota_otp_decode expects.
 */
#include <string.h>

#include "fwlib.h"

/* OTP as read , 1 KiB: not on the stack. */
static struct ota_otp otp_image;

ota_status_t boot_otp_load(struct ota_otp_info *out)
{
	ota_status_t st;

	memset(&otp_image, 0, sizeof(otp_image));
	st = hal_otp_read(0, &otp_image, OTA_OTP_SECRET_START);
	if (st == OTA_OK)
		st = hal_otp_read(OTA_OTP_SECRET_DIGEST_END,
				  (uint8_t *)&otp_image + OTA_OTP_SECRET_DIGEST_END,
				  sizeof(otp_image) - OTA_OTP_SECRET_DIGEST_END);
	if (st == OTA_OK)
		st = ota_otp_decode(&otp_image, out);
	return st;
}
