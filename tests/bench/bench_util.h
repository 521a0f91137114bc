/* SPDX-License-Identifier: MIT */
/*
 * What the benchmarks share: a median. A benchmark that uses the fixtures
 * in tests/unit/lib (which assert with check) runs as one check test in
 * this process: tu_run_in_process (tests/unit/lib/tu_main.h).
 */
#ifndef OTATTEST_BENCH_UTIL_H
#define OTATTEST_BENCH_UTIL_H

/* The median of v[0..n) (n > 0); sorts v. */
double bench_median(double *v, int n);

#endif /* OTATTEST_BENCH_UTIL_H */
