// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int bench_run_check(const char *name, const TTest *t)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create("bench");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 0);
	tcase_add_test(tc, t);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	if (failed) {
		TestResult **r = srunner_failures(sr);

		fprintf(stderr, "%s: %s:%d: %s\n", name, tr_lfile(r[0]), tr_lno(r[0]),
			tr_msg(r[0]));
		free(r);
	}
	srunner_free(sr);
	return failed ? 1 : 0;
}
