// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>

#include "tu_main.h"

int tu_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}

int tu_run_in_process(const char *name, const TTest *t)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);
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

		fprintf(stderr, "%s: %s:%d: %s\n", name, tr_lfile(r[0]), tr_lno(r[0]), tr_msg(r[0]));
		free(r);
	}
	srunner_free(sr);
	return failed ? 1 : 0;
}
