// SPDX-License-Identifier: MIT
#include <check.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "private_bus.h"

void private_bus_start(struct private_bus *pb, const char *include_policy)
{
	char conf[128], sock[128];
	FILE *f;
	int i;

	snprintf(pb->dir, sizeof(pb->dir), "/tmp/otattest-bus.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(pb->dir));
	chmod(pb->dir, 0755);
	snprintf(conf, sizeof(conf), "%s/bus.conf", pb->dir);
	snprintf(sock, sizeof(sock), "%s/bus", pb->dir);
	snprintf(pb->address, sizeof(pb->address), "unix:path=%s", sock);
	f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f,
		"<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
		" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
		"<busconfig><type>system</type><listen>unix:path=%s</listen>\n"
		"<auth>EXTERNAL</auth><policy context=\"default\"><allow user=\"*\"/>\n"
		"<allow own=\"*\"/><allow send_destination=\"*\"/><allow receive_sender=\"*\"/>\n"
		"</policy>",
		sock);
	if (include_policy)
		fprintf(f, "<include>%s</include>", include_policy);
	fprintf(f, "</busconfig>\n");
	fclose(f);

	pb->pid = fork();
	ck_assert_int_ge(pb->pid, 0);
	if (pb->pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* "cannot raise fd limit"; users and groups a policy names that do not exist here */
		dup2(null, 2);
		execlp("dbus-daemon", "dbus-daemon", "--config-file", conf, "--nofork", "--nopidfile",
		       (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 500 && access(sock, F_OK) != 0; i++)
		usleep(10000);
	ck_assert_msg(access(sock, F_OK) == 0, "dbus-daemon did not start (%s)",
		      include_policy ? include_policy : "no policy file");
	chmod(sock, 0777);
}

sd_bus *private_bus_connect(const struct private_bus *pb)
{
	int i;

	for (i = 0; i < 200; i++) {
		sd_bus *bus = NULL;

		if (sd_bus_new(&bus) >= 0 && sd_bus_set_address(bus, pb->address) >= 0 &&
		    sd_bus_set_bus_client(bus, true) >= 0 && sd_bus_start(bus) >= 0) {
			const char *unique;

			if (sd_bus_get_unique_name(bus, &unique) >= 0)
				return bus;
		}
		sd_bus_flush_close_unref(bus);
		usleep(10000);
	}
	ck_abort_msg("cannot connect to %s", pb->address);
	return NULL;
}

void private_bus_become_nobody(void)
{
	gid_t none = 65534;

	if (setgroups(1, &none) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
		_exit(90);
}

void private_bus_stop(struct private_bus *pb)
{
	char p[128];

	if (pb->pid > 0) {
		kill(pb->pid, SIGKILL);
		waitpid(pb->pid, NULL, 0);
		pb->pid = 0;
	}
	snprintf(p, sizeof(p), "%s/bus.conf", pb->dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/bus", pb->dir);
	unlink(p);
	rmdir(pb->dir);
}
