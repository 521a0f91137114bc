// SPDX-License-Identifier: MIT
/*
 * STABLE_SIGN: sign a caller message with the SVN key chain's key for
 * `svn` (already checked: <= min SVN since cold boot). The domain prefix
 * and the SVN go into the signed digest (shm.h), so a stable-key
 * signature can never pass for evidence, a certificate or another SVN's.
 */
#include <string.h>

#include "runtime.h"

ota_status_t ota_rt_stable_sign(const struct ota_req_stable_sign *req, uint8_t *resp,
				uint32_t resp_cap, uint32_t *resp_len)
{
	struct ota_resp_stable_sign out;
	uint8_t digest[OTA_SHA256_BYTES];
	hal_key_t key = HAL_KEY_INVALID;
	ota_status_t st;

	if (resp_cap < sizeof(out))
		return OTA_MBOX_RESPONSE_TOO_LARGE;
	st = ota_keychain_stable_key(req->svn, &key);
	if (st != OTA_OK)
		return st;
	memset(&out, 0, sizeof(out));
	out.svn = req->svn;
	st = hal_sha256_start();
	if (st == OTA_OK)
		st = hal_sha256_update(OTA_STABLE_SIGN_DOMAIN, sizeof(OTA_STABLE_SIGN_DOMAIN) - 1u);
	if (st == OTA_OK)
		st = hal_sha256_update(&req->svn, sizeof(req->svn));
	if (st == OTA_OK)
		st = hal_sha256_update(req->msg, req->msg_len);
	if (st == OTA_OK)
		st = hal_sha256_finish(digest);
	if (st == OTA_OK)
		st = hal_ecdsa_sign(key, digest, out.signature);
	if (st == OTA_OK)
		st = hal_ecdsa_pubkey(key, out.pubkey);
	hal_key_destroy(key);
	if (st != OTA_OK)
		return st;
	memcpy(resp, &out, sizeof(out));
	*resp_len = sizeof(out);
	return OTA_OK;
}
