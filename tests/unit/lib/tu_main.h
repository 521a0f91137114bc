/* SPDX-License-Identifier: MIT */
/*
 * The one main() of the check-based unit tests: each tests/unit/test_*.c
 * builds its Suite and ends with OTA_TEST_MAIN(its_suite). check prints
 * the summary; the exit code is 0 only when every test passed.
 */
#ifndef OTATTEST_TU_MAIN_H
#define OTATTEST_TU_MAIN_H

#include <check.h>

/*
 * check's assertions report every pass (_mark_point: one write(2) to the
 * file its forking parent reads, so that a test that crashes or times out
 * is reported with the last place it reached). Loops of assertions made
 * that most of the unit tests' time: 9 million writes in test_runtime's
 * validation case alone, 64% of its profile. Here a place is reported the
 * first time it passes in a test's process, not every time: a failure is
 * reported exactly as before (its own file and line), and a crash names
 * the last new place it reached (ASan's report names the line).
 */
void tu_mark_point(const char *file, int line);
#define _mark_point(file, line) tu_mark_point(file, line)

/* Run every test of s (forked, as CK_FORK says) and free it; the exit code. */
int tu_run_suite(Suite *s);

/*
 * One test, run in this process (CK_NOFORK) so that what it sets up stays
 * for the caller: for tools and fuzz targets that build on the check-based
 * fixtures outside a test binary. 0, or 1 after printing the failure.
 */
int tu_run_in_process(const char *name, const TTest *t);

#define OTA_TEST_MAIN(suite_fn)                  \
	int main(void)                           \
	{                                        \
		return tu_run_suite(suite_fn()); \
	}

/*
 * The same, with the expression prepare evaluated once before the tests
 * fork, e.g. OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite): work every
 * test shares (keys, images) is then done once, not once per test.
 */
#define OTA_TEST_MAIN_PREPARED(prepare, suite_fn) \
	int main(void)                            \
	{                                         \
		(void)(prepare);                  \
		return tu_run_suite(suite_fn());  \
	}

#endif /* OTATTEST_TU_MAIN_H */
