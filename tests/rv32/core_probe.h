/* SPDX-License-Identifier: MIT */
/*
 * What tests/rv32/core_probe.c leaves at the start of retention SRAM for
 * tests/unit/test_core.c to read (both sides include this one layout).
 */
#ifndef OTATTEST_CORE_PROBE_H
#define OTATTEST_CORE_PROBE_H

#include <otattest/record.h>

#define CORE_PROBE_MAGIC 0x50524f42u /* "PROB": written last, so the run got to the end */

struct core_probe_out {
	uint32_t magic;
	uint32_t bad_reset;  /* hal_reset_request(7) */
	uint32_t good_reset; /* hal_reset_request(OTA_RESET_WARM) */
	uint32_t pad;
	uint64_t c0, c1;     /* hal_cycles() before and after */
	uint8_t rom_id[OTA_SHA256_BYTES];
};

#endif /* OTATTEST_CORE_PROBE_H */
