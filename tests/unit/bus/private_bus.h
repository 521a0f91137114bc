/* SPDX-License-Identifier: MIT */
/*
 * A private dbus-daemon for unit tests, configured as a system bus on
 * which everyone may own, send and receive anything unless a policy file
 * it includes restricts it (the project's own, to test that policy).
 */
#ifndef OTATTEST_TESTS_PRIVATE_BUS_H
#define OTATTEST_TESTS_PRIVATE_BUS_H

#include <sys/types.h>
#include <systemd/sd-bus.h>

struct private_bus {
	char dir[64];
	char address[160];
	pid_t pid;
};

/* Start one (include_policy: a bus policy file to include, or NULL); returns once its socket exists. */
void private_bus_start(struct private_bus *pb, const char *include_policy);
/*
 * A client connection that completed its Hello: the socket file exists
 * from bind() on, a moment before dbus-daemon listens, so this retries.
 */
sd_bus *private_bus_connect(const struct private_bus *pb);
void private_bus_stop(struct private_bus *pb);
/*
 * In a child: become uid and gid 65534 (nobody: not root, in no group of
 * ours) with no supplementary groups; exit 90 if that fails.
 */
void private_bus_become_nobody(void);

#endif /* OTATTEST_TESTS_PRIVATE_BUS_H */
