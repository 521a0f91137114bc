/* SPDX-License-Identifier: MIT */
/*
 * What the benchmarks share: a median, and running a benchmark as one
 * check test in this process (the fixtures in tests/unit/lib assert with
 * check, which needs a runner around them).
 */
#ifndef OTATTEST_BENCH_UTIL_H
#define OTATTEST_BENCH_UTIL_H

#include <check.h>

/* The median of v[0..n) (n > 0); sorts v. */
double bench_median(double *v, int n);

/*
 * Run test t as the only test of a suite called name, not forked, without
 * check's own output. Prints the first failure as "name: file:line: msg";
 * returns 0 when it passed, else 1.
 */
int bench_run_check(const char *name, const TTest *t);

#endif /* OTATTEST_BENCH_UTIL_H */
