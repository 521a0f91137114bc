/* SPDX-License-Identifier: MIT */
/* A boot record for tests that need one to hand around (history, output). */
#ifndef OTATTEST_TU_RECORD_H
#define OTATTEST_TU_RECORD_H

#include <otattest/record.h>

/*
 * A valid record of one BL0 stage (slot A, signature path, OTA_OK) with
 * generation gen and every device id byte dev; returns its length. The
 * caller changes fields and may check them with ota_record_validate.
 */
uint32_t tu_record_one_stage(struct ota_record *r, uint8_t dev, uint32_t gen);

#endif
