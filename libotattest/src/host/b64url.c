// SPDX-License-Identifier: MIT
/*
 * base64url by OpenSSL's base64 (EVP_EncodeBlock) and the URL-safe
 * alphabet's two substitutions, without the padding JOSE leaves out.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "b64url.h"

char *ota_b64url(const void *buf, size_t len)
{
	size_t cap, n;
	char *out;

	/* EVP_EncodeBlock takes an int length: bound it first. */
	if (len > (size_t)(INT32_MAX / 4 * 3))
		return NULL;
	cap = (len + 2u) / 3u * 4u + 1u;
	out = malloc(cap);
	if (out == NULL)
		return NULL;
	n = (size_t)EVP_EncodeBlock((unsigned char *)out, buf, (int)len);
	while (n > 0 && out[n - 1] == '=')
		n--;
	out[n] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (out[i] == '+')
			out[i] = '-';
		else if (out[i] == '/')
			out[i] = '_';
	}
	return out;
}
