/* SPDX-License-Identifier: MIT */
/*
 * The few helpers systemd's own daemons take for granted and libsystemd
 * does not export: scope-bound cleanup (the sd-bus and sd-event *unrefp
 * functions and freep below), and a count of an array's elements.
 */
#ifndef OTATTEST_MACRO_H
#define OTATTEST_MACRO_H

#include <stdlib.h>

#define _cleanup_(f) __attribute__((cleanup(f)))

static inline void freep(void *p)
{
	free(*(void **)p);
}
#define _cleanup_free_ _cleanup_(freep)

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))

#endif /* OTATTEST_MACRO_H */
