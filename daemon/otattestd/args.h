/* SPDX-License-Identifier: MIT */
/*
 * Validation of D-Bus arguments, before anything reaches the kernel. The
 * kernel checks again (its attribute policy) and so does the device; this
 * copy exists so a bad call is refused with a precise message without a
 * netlink round trip and without using up the caller's queue.
 */
#ifndef OTATTESTD_ARGS_H
#define OTATTESTD_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/errmap.h"

bool args_check_nonce(size_t len, struct ota_err *e);
bool args_check_svn(uint32_t svn, struct ota_err *e);
bool args_check_slot(uint32_t slot, struct ota_err *e);

/*
 * A kernel device name, "otattest" and a decimal index without leading
 * zeros; returns the index in *index.
 */
bool args_parse_device_name(const char *name, uint32_t *index, struct ota_err *e);

#endif /* OTATTESTD_ARGS_H */
