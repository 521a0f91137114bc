/* SPDX-License-Identifier: MIT */
/* The fuzz targets' property checks: a broken property is a crash libFuzzer keeps. */
#ifndef OTATTEST_FUZZ_REQUIRE_H
#define OTATTEST_FUZZ_REQUIRE_H

#include <stdlib.h>

#define REQUIRE(x)              \
	do {                    \
		if (!(x))       \
			abort(); \
	} while (0)

#endif /* OTATTEST_FUZZ_REQUIRE_H */
