// SPDX-License-Identifier: MIT
/*
 * ota_otp_decode and the thermometer codes on hostile bytes. The input
 * (zero-padded to 1024 bytes) is decoded as given, then again with its
 * HW_CFG digest recomputed, so the fuzzer reaches the checks behind the
 * digest. Decoded values must be in range, and revocation must fail safe.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/otp.h"
#include "otattest/sha256.h"
#include "fuzz_require.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_decoded(const struct ota_otp *otp)
{
	struct ota_otp_info info;
	uint32_t i;

	if (ota_otp_decode(otp, &info) != OTA_OK)
		return;
	REQUIRE(info.lifecycle < OTA_LC_COUNT);
	/* HW_CFG's state, or the one exit from manufacturing the counters record. */
	if (otp->lifecycle_transition == 0) {
		REQUIRE(ota_otp_lifecycle_encoding(info.lifecycle) == otp->lifecycle);
	} else {
		REQUIRE(otp->lifecycle == OTA_OTP_LC_TEST_UNLOCKED);
		REQUIRE(ota_otp_lifecycle_encoding(info.lifecycle) == otp->lifecycle_transition);
		REQUIRE(info.lifecycle == OTA_LC_DEV || info.lifecycle == OTA_LC_PROD ||
			info.lifecycle == OTA_LC_PROD_END);
	}
	REQUIRE(!(info.features & ~OTA_OTP_F_ALL));
	REQUIRE(info.chain_max_svn >= 1 && info.chain_max_svn <= OTA_SVN_LIMIT);
	REQUIRE(info.epoch <= OTA_OTP_EPOCH_BITS);
	REQUIRE(info.floor_rom_ext <= OTA_OTP_FLOOR_BITS && info.floor_bl0 <= OTA_OTP_FLOOR_BITS);
	for (i = 0; i < OTA_OTP_CREATOR_KEYS; i++)
		REQUIRE(info.creator_key_revoked[i] == (otp->creator_key_revoked[i] != 0));
	for (i = 0; i < 4; i++)
		REQUIRE(info.owner_key_revoked[i] == (otp->owner_key_revoked[i] != 0));
	/* The decoded view never carries the secret partition. */
	REQUIRE(sizeof(info) < sizeof(*otp));
}

static void thermometer(const uint8_t *bits, uint32_t nbytes)
{
	uint8_t again[32];
	uint32_t v, w;

	if (ota_thermometer_decode(bits, nbytes, &v) != OTA_OK)
		return;
	REQUIRE(v <= nbytes * 8);
	ota_thermometer_encode(again, nbytes, v);
	REQUIRE(memcmp(again, bits, nbytes) == 0);
	REQUIRE(ota_thermometer_decode(again, nbytes, &w) == OTA_OK && w == v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ota_otp *otp;

	if (size > sizeof(*otp))
		return 0;
	otp = calloc(1, sizeof(*otp));
	if (!otp)
		abort();
	memcpy(otp, data, size);
	check_decoded(otp);
	(void)ota_otp_secret_check(otp);
	thermometer(otp->epoch, sizeof(otp->epoch));
	thermometer(otp->floor_bl0, sizeof(otp->floor_bl0));
	/* As if the partition had been sealed: the checks behind the digest. */
	ota_sha256((const uint8_t *)otp + OTA_OTP_HW_CFG_START,
		   OTA_OTP_HW_CFG_END - OTA_OTP_HW_CFG_START, otp->hw_cfg_digest);
	check_decoded(otp);
	free(otp);
	return 0;
}
