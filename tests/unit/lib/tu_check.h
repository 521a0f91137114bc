/* SPDX-License-Identifier: MIT */
/*
 * Status assertions the format tests share. Header-only: macros, so the
 * failure names the test's own file and line.
 */
#ifndef OTATTEST_TU_CHECK_H
#define OTATTEST_TU_CHECK_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include <otattest/status.h>

/*
 * A fixture step that must succeed. Fixtures run outside any test, where
 * check's asserts cannot report: print the status and exit.
 */
#define FIX(expr)                                                                  \
	do {                                                                       \
		ota_status_t fix_st_ = (expr);                                     \
		if (fix_st_ != OTA_OK) {                                           \
			fprintf(stderr, "%s:%d: fixture: %s\n", __FILE__, __LINE__, \
				ota_status_name(fix_st_));                          \
			exit(2);                                                   \
		}                                                                  \
	} while (0)

/* expr returns exactly the status want; the message names both. */
#define EXPECT(expr, want)                                                            \
	do {                                                                          \
		ota_status_t st_ = (expr);                                            \
		ck_assert_msg(st_ == (want), "%s: got %s, want %s", #expr,            \
			      ota_status_name(st_), ota_status_name(want));           \
	} while (0)

#endif /* OTATTEST_TU_CHECK_H */
