// SPDX-License-Identifier: MIT
/*
 * GET_CERTS: the chain a verifier needs besides its CA, leaf first - the
 * alias certificate issued at this boot, then the identity certificate
 * from flash - as struct ota_resp_certs and length-prefixed DER entries,
 * each padded to 4 bytes (shm.h).
 */
#include <string.h>

#include "runtime.h"

static ota_status_t put_entry(const uint8_t *der, uint32_t len, uint8_t *resp, uint32_t cap,
			      uint32_t *at)
{
	uint32_t padded = (len + 3u) & ~3u;

	if (!ota_range_ok(*at, 4u + padded, cap))
		return OTA_MBOX_RESPONSE_TOO_LARGE;
	memcpy(resp + *at, &len, 4);
	memcpy(resp + *at + 4u, der, len);
	memset(resp + *at + 4u + len, 0, padded - len);
	*at += 4u + padded;
	return OTA_OK;
}

ota_status_t ota_rt_get_certs(const struct ota_runtime *rt, uint8_t *resp, uint32_t resp_cap,
			      uint32_t *resp_len)
{
	struct ota_resp_certs hdr;
	uint32_t at = sizeof(hdr);
	ota_status_t st;

	if (rt->identity_cert_len == 0)
		return rt->identity_cert_status != OTA_OK ? rt->identity_cert_status
							  : OTA_RUNTIME_NO_CERTS;
	/* Check the whole size first: a response that does not fit writes nothing. */
	if (sizeof(hdr) + 8u + ((rt->alias_cert_len + 3u) & ~3u) +
		    ((rt->identity_cert_len + 3u) & ~3u) > resp_cap)
		return OTA_MBOX_RESPONSE_TOO_LARGE;
	st = put_entry(rt->alias_cert, rt->alias_cert_len, resp, resp_cap, &at);
	if (st == OTA_OK)
		st = put_entry(rt->identity_cert, rt->identity_cert_len, resp, resp_cap, &at);
	if (st != OTA_OK)
		return st;
	hdr.count = 2;
	hdr.reserved = 0;
	memcpy(resp, &hdr, sizeof(hdr));
	*resp_len = at;
	return OTA_OK;
}
