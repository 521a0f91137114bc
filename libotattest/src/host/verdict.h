/* SPDX-License-Identifier: MIT */
/* Appending to a verdict (host internal). */
#ifndef OTATTEST_HOST_VERDICT_H
#define OTATTEST_HOST_VERDICT_H

#include "otattest/verify.h"

void ota_verdict_add(struct ota_verdict *v, ota_status_t st, uint32_t stage, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
