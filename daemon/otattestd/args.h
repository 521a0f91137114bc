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
/* A BL0 slot that exists: 0 (A) or 1 (B); Commit names the one running. */
bool args_check_real_slot(uint32_t slot, struct ota_err *e);
/* A stage by the name the Stages property uses ("rom_ext", "bl0"); its enum ota_stage. */
bool args_parse_stage(const char *name, uint32_t *stage, struct ota_err *e);
bool args_check_floor(uint32_t floor, struct ota_err *e);
/*
 * A signed revocation command is exactly sizeof(struct ota_revocation)
 * bytes, or sizeof(struct ota_revocation_hybrid) for a hybrid one.
 */
bool args_check_revocation(size_t len, struct ota_err *e);
/* A version string as the kernel passes it: printable ASCII, at most OTA_VERSION_STRING_BYTES. */
bool args_version_printable(const char *v);

/*
 * A kernel device name, "otattest" and a decimal index without leading
 * zeros; returns the index in *index.
 */
bool args_parse_device_name(const char *name, uint32_t *index, struct ota_err *e);

#endif /* OTATTESTD_ARGS_H */
