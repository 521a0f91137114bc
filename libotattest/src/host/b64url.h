/* SPDX-License-Identifier: MIT */
/* base64url without padding (RFC 4648 section 5), as JOSE and EAT JSON want (host internal). */
#ifndef OTATTEST_HOST_B64URL_H
#define OTATTEST_HOST_B64URL_H

#include <stddef.h>
#include <stdint.h>

/* len bytes as base64url, malloc'd and NUL-terminated; NULL when memory runs out. */
char *ota_b64url(const void *buf, size_t len);

#endif
