// SPDX-License-Identifier: MIT
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tu_main.h"

#undef _mark_point

/* Places seen, by the address of their file's name and their line. */
#define TU_MARKS 4096

void tu_mark_point(const char *file, int line)
{
	static struct {
		const char *file;
		int line;
	} seen[TU_MARKS];
	static unsigned used;
	size_t h = (((uintptr_t)file >> 3) * 31u + (unsigned)line) * 2654435761u % TU_MARKS;

	if (used < TU_MARKS * 3 / 4) {
		for (;; h = (h + 1) % TU_MARKS) {
			if (seen[h].file == file && seen[h].line == line)
				return;
			if (!seen[h].file)
				break;
		}
		seen[h].file = file;
		seen[h].line = line;
		used++;
	}
	_mark_point(file, line);
}

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
