// SPDX-License-Identifier: MIT
/*
 * The systemd integration as shipped: the unit's hardening score and
 * syntax (systemd-analyze), that it holds no capability and gets its
 * netlink socket from systemd, and the D-Bus policy enforced by a real
 * dbus-daemon (an unprivileged caller reads and attests but cannot
 * rotate, reset or sign with the stable key). dbus-broker reads the same
 * policy in the e2e guest (it needs a journal to start, which this host
 * has not). Run from the top of the tree (make unit does).
 */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <systemd/sd-bus.h>

#include "../../daemon/common/dbus-api.h"
#include "../../daemon/otattestd/log.h"
#include "bus/private_bus.h"
#include "tu_main.h"

#define UNIT "build/systemd/otattestd.service"

static char *run(const char *cmd, int *status)
{
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *p = popen(cmd, "r");
	FILE *m = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(p);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		fwrite(chunk, 1, n, m);
	*status = pclose(p);
	fclose(m);
	return buf;
}

START_TEST(exposure_at_most_2)
{
	char *out, *p;
	double exposure;
	int status;

	out = run("systemd-analyze security --offline=yes --no-pager " UNIT " 2>&1", &status);
	p = strstr(out, "Overall exposure level for otattestd.service: ");
	ck_assert_msg(p != NULL, "no exposure in: %.200s", out);
	exposure = strtod(p + strlen("Overall exposure level for otattestd.service: "), NULL);
	/* Printed for the test log, as the issue asks. */
	printf("systemd-analyze security --offline=yes %s: exposure %.1f\n", UNIT, exposure);
	fflush(stdout);
	ck_assert_msg(exposure <= 2.0, "exposure %.1f > 2.0", exposure);
	free(out);
}
END_TEST

/*
 * The metrics timer's service (otattestctl metrics into the node exporter's
 * textfile directory): as hardened as the daemon, root without a single
 * capability (the directory is root's), only that directory writable, no
 * network; the timer and service verify.
 */
#define METRICS_UNIT "build/systemd/otattest-metrics.service"

START_TEST(metrics_units)
{
	char cmd[1024], cwd[512], *out, *p;
	double exposure;
	int status;

	out = run("systemd-analyze security --offline=yes --no-pager " METRICS_UNIT " 2>&1", &status);
	p = strstr(out, "Overall exposure level for otattest-metrics.service: ");
	ck_assert_msg(p != NULL, "no exposure in: %.200s", out);
	exposure = strtod(p + strlen("Overall exposure level for otattest-metrics.service: "), NULL);
	printf("systemd-analyze security --offline=yes %s: exposure %.1f\n", METRICS_UNIT, exposure);
	fflush(stdout);
	ck_assert_msg(exposure <= 1.0, "exposure %.1f > 1.0", exposure);
	free(out);
	free(run("grep -qx 'CapabilityBoundingSet=' " METRICS_UNIT " && grep -qx 'AmbientCapabilities=' " METRICS_UNIT
		 " && ! grep -q '^[A-Za-z]*=.*CAP_' " METRICS_UNIT " && grep -qx 'PrivateNetwork=yes' " METRICS_UNIT
		 " && grep -qx 'ProtectSystem=strict' " METRICS_UNIT
		 " && [ \"$(grep -c '^ReadWritePaths=' " METRICS_UNIT ")\" = 1 ]"
		 " && grep -qx 'ReadWritePaths=/var/lib/prometheus/node-exporter' " METRICS_UNIT,
		 &status));
	ck_assert_int_eq(status, 0);
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	snprintf(cmd, sizeof(cmd),
		 "d=$(mktemp -d) && sed 's|^ExecStart=[^ ]*|ExecStart=%s/build/otattestctl|' " METRICS_UNIT
		 " > $d/otattest-metrics.service && cp systemd/otattest-metrics.timer $d/ &&"
		 " systemd-analyze verify --man=no $d/otattest-metrics.service $d/otattest-metrics.timer 2>&1;"
		 " r=$?; rm -rf $d; exit $r",
		 cwd);
	out = run(cmd, &status);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "systemd-analyze verify: %s", out);
	free(out);
}
END_TEST

START_TEST(unit_verifies)
{
	char cmd[1024], cwd[512], *out;
	int status;

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	/* The installed path does not exist here: point ExecStart at the build. */
	snprintf(cmd, sizeof(cmd),
		 "d=$(mktemp -d) && sed 's|^ExecStart=.*|ExecStart=%s/build/otattestd|' " UNIT
		 " > $d/otattestd.service && cp systemd/otattestd.socket $d/ &&"
		 " systemd-analyze verify --man=no $d/otattestd.service $d/otattestd.socket 2>&1;"
		 " r=$?; rm -rf $d; exit $r",
		 cwd);
	out = run(cmd, &status);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "systemd-analyze verify: %s", out);
	free(out);
	out = run("grep -c '^Type=notify$\\|^BusName=" OTA_BUS_NAME "$\\|^WatchdogSec=' " UNIT, &status);
	ck_assert_str_eq(out, "3\n");
	free(out);
}
END_TEST

/*
 * No capability: the driver's permission comes with the generic netlink
 * socket PID 1 opens (otattestd.socket), so the unit grants none and may
 * have a user namespace of its own.
 */
START_TEST(unit_holds_no_capability)
{
	int status;

	free(run("grep -qx 'CapabilityBoundingSet=' " UNIT " && grep -qx 'AmbientCapabilities=' " UNIT
		 " && ! grep -q '^[A-Za-z]*=.*CAP_' " UNIT " && grep -qx 'PrivateUsers=yes' " UNIT
		 " && grep -qx 'Sockets=otattestd.socket' " UNIT,
		 &status));
	ck_assert_int_eq(status, 0);
	free(run("grep -qx 'ListenNetlink=generic 0' systemd/otattestd.socket", &status));
	ck_assert_int_eq(status, 0);
}
END_TEST

/*
 * The journal catalog: journalctl indexes it as systemd would in
 * /usr/lib/systemd/catalog, with an entry for every MESSAGE_ID the catalog
 * promises (the tag mismatch), its fields spelt as otattestd logs them.
 */
START_TEST(catalog_indexed_by_journalctl)
{
	char *out;
	int status;

	out = run("d=$(mktemp -d) && mkdir -p $d/usr/lib/systemd/catalog &&"
		  " cp systemd/otattest.catalog $d/usr/lib/systemd/catalog/ &&"
		  " journalctl --root=$d --update-catalog 2>&1 &&"
		  " journalctl --root=$d --list-catalog " MID_TAG_MISMATCH " 2>&1; r=$?; rm -rf $d; exit $r",
		  &status);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "journalctl: %s", out);
	ck_assert_msg(strstr(out, MID_TAG_MISMATCH " otattest: Boot tag of @OTATTEST_STAGE@") != NULL,
		      "no tag mismatch entry: %s", out);
	free(out);
	/* Every field the text names is one the daemon sends. */
	out = run("for f in $(grep -o '@OTATTEST_[A-Z_]*@' systemd/otattest.catalog | sort -u | tr -d @);"
		  " do grep -q \"$f=\" daemon/otattestd/tag_mismatch.c daemon/otattestd/trial_revert.c"
		  " daemon/otattestd/log.c || echo $f; done",
		  &status);
	ck_assert_str_eq(out, "");
	free(out);
	/* Every MESSAGE_ID in the code has an entry (the catalog had 1 of 15). */
	out = run("for id in $(grep -ho 'MID_[A-Z_]* \"[0-9a-f]\\{32\\}\"' daemon/otattestd/*.h daemon/otattestd/*.c |"
		  " grep -o '[0-9a-f]\\{32\\}' | sort -u);"
		  " do grep -q \"^-- $id\\$\" systemd/otattest.catalog || echo \"missing $id\"; done;"
		  " grep -ho 'MID_[A-Z_]* \"[0-9a-f]\\{32\\}\"' daemon/otattestd/*.h | wc -l",
		  &status);
	ck_assert_msg(strcmp(out, "16\n") == 0, "catalog: %s", out);
	free(out);
	/* Indexed: journalctl lists each entry under its id. */
	out = run("d=$(mktemp -d) && mkdir -p $d/usr/lib/systemd/catalog &&"
		  " cp systemd/otattest.catalog $d/usr/lib/systemd/catalog/ &&"
		  " journalctl --root=$d --update-catalog 2>&1 && journalctl --root=$d --list-catalog 2>&1 |"
		  " grep -c ' otattest'; rm -rf $d",
		  &status);
	ck_assert_msg(strcmp(out, "16\n") == 0, "journalctl lists: %s", out);
	free(out);
}
END_TEST

/*
 * Every polkit action is named where an admin looks: the action file
 * ships each one OTA_PRIVILEGED_METHODS asks about, otattestd.8 and the
 * rules name each one the action file ships (the man page named 3 of 8).
 */
static char *slurp_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r"), *m = open_memstream(&buf, &len);
	int c;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	/* man(7) writes '-' as '\\-': drop the backslashes, as a reader sees it. */
	while ((c = fgetc(f)) != EOF)
		if (c != '\\')
			fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

/*
 * Every polkit action is named where an admin looks: the action file
 * ships each one OTA_PRIVILEGED_METHODS asks about; otattestd.8, the API
 * page and the rules name each one it ships (the man page named 3 of 8).
 */
START_TEST(polkit_actions_documented)
{
	static const char *const actions[] = {
#define OTA_X_ACTION(m, a, g) a,
		OTA_PRIVILEGED_METHODS(OTA_X_ACTION)
#undef OTA_X_ACTION
	};
	char *policy = slurp_file("systemd/org.otattest.BootAttest1.policy");
	char *man = slurp_file("docs/man/otattestd.8"), *api = slurp_file("docs/dbus-api.md");
	char *rules = slurp_file("systemd/50-otattest.rules");
	const char *p;
	size_t i, shipped = 0;

	for (i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
		char tag[160];

		snprintf(tag, sizeof(tag), "action id=\"%s\"", actions[i]);
		ck_assert_msg(strstr(policy, tag) != NULL, "%s is not in the action file", actions[i]);
	}
	for (p = policy; (p = strstr(p, "action id=\"")); p++) {
		char id[128];
		const char *q = p + strlen("action id=\""), *end = strchr(q, '"');

		ck_assert_ptr_nonnull(end);
		ck_assert_uint_lt((size_t)(end - q), sizeof(id));
		memcpy(id, q, (size_t)(end - q));
		id[end - q] = '\0';
		shipped++;
		ck_assert_msg(strstr(man, id) != NULL, "otattestd.8 does not name %s", id);
		ck_assert_msg(strstr(api, id) != NULL, "docs/dbus-api.md does not name %s", id);
		if (strcmp(id, OTA_POLKIT_ACTION_SIGN) != 0)
			ck_assert_msg(strstr(rules, id) != NULL, "50-otattest.rules does not name %s", id);
	}
	ck_assert_uint_eq(shipped, 9);
	free(policy);
	free(man);
	free(api);
	free(rules);
}
END_TEST

START_TEST(udev_activation_sysusers)
{
	int status;

	free(run("grep -q 'SUBSYSTEM==\"otattest\".*TAG+=\"systemd\".*SYSTEMD_WANTS}+=\"otattestd.service\"' "
		 "systemd/99-otattest.rules", &status));
	ck_assert_int_eq(status, 0);
	free(run("grep -qx 'SystemdService=dbus-" OTA_BUS_NAME ".service' systemd/org.otattest.BootAttest1.service &&"
		 " grep -qx 'Alias=dbus-" OTA_BUS_NAME ".service' " UNIT " &&"
		 " grep -qx 'Name=" OTA_BUS_NAME "' systemd/org.otattest.BootAttest1.service", &status));
	ck_assert_int_eq(status, 0);
	free(run("grep -q '^g " OTA_UPDATE_GROUP " ' systemd/otattest.sysusers &&"
		 " grep -q '^g " OTA_SIGN_GROUP " ' systemd/otattest.sysusers &&"
		 " grep -q '^u otattestd ' systemd/otattest.sysusers", &status));
	ck_assert_int_eq(status, 0);
	/* Every privileged method's action is shipped, owned by otattestd, and granted to its group. */
#define CHECK_ACTION(method, action, group)                                                          \
	free(run("grep -q '<action id=\"" action "\">' systemd/org.otattest.BootAttest1.policy &&"      \
		 " grep -q '\"" action "\"' systemd/50-otattest.rules &&"                                \
		 " grep -A1 'policy group=\"" group "\"' systemd/org.otattest.BootAttest1.conf >/dev/null &&" \
		 " grep -q 'send_member=\"" method "\"' systemd/org.otattest.BootAttest1.conf", &status)); \
	ck_assert_msg(status == 0, "%s: action %s or its group %s is not shipped", method, action, group);
	OTA_PRIVILEGED_METHODS(CHECK_ACTION)
#undef CHECK_ACTION
}
END_TEST

/* ---- the D-Bus policy, enforced by dbus-daemon ---- */

static struct private_bus policy_bus;

static int method_ok(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
	(void)userdata;
	(void)error;
	return sd_bus_reply_method_return(m, NULL);
}

/* A stand-in with the real names: what is tested here is the policy. */
static const sd_bus_vtable stub_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("GetRecord", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("Attest", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("RotateTags", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("UpdateReset", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("SignWithStableKey", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("GetCertificates", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("InstallImage", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("CheckImage", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("Describe", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("Commit", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("Ratchet", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("RatchetWithFlags", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("Revoke", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("WarmReset", "", "", method_ok, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

static sd_bus *connect_bus(void)
{
	return private_bus_connect(&policy_bus);
}

static int call(sd_bus *bus, const char *member, char *err, size_t len)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int r = sd_bus_call_method(bus, OTA_BUS_NAME, OTA_BUS_DEVICE_PREFIX "/otattest0",
				   OTA_BUS_DEVICE_IFACE, member, &e, NULL, NULL);

	snprintf(err, len, "%s", r < 0 && e.name ? e.name : "");
	sd_bus_error_free(&e);
	return r;
}

START_TEST(policy_enforced)
{
	char policy[600], cwd[512], err[256];
	pid_t srv_pid, cli;
	sd_bus *root;
	int status, i;

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	/* Like the system bus: everything allowed but what our file restricts. */
	snprintf(policy, sizeof(policy), "%s/systemd/org.otattest.BootAttest1.conf", cwd);
	private_bus_start(&policy_bus, policy);

	srv_pid = fork();
	if (srv_pid == 0) {
		sd_bus *b;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		b = connect_bus();
		sd_bus_add_fallback_vtable(b, NULL, OTA_BUS_DEVICE_PREFIX, OTA_BUS_DEVICE_IFACE, stub_vtable,
					   NULL, NULL);
		/* root may own the name (so may user otattestd, absent here). */
		if (sd_bus_request_name(b, OTA_BUS_NAME, 0) < 0)
			_exit(3);
		for (;;) {
			if (sd_bus_process(b, NULL) > 0)
				continue;
			sd_bus_wait(b, UINT64_MAX);
		}
	}
	root = connect_bus();
	for (i = 0; i < 500 && call(root, "GetRecord", err, sizeof(err)) < 0; i++)
		usleep(10000);
	ck_assert_msg(call(root, "GetRecord", err, sizeof(err)) >= 0, "server not reachable: %s", err);
	ck_assert_msg(call(root, "RotateTags", err, sizeof(err)) >= 0, "root RotateTags: %s", err);

	cli = fork();
	if (cli == 0) {
		sd_bus *b;

		private_bus_become_nobody();
		b = connect_bus();
		if (call(b, "GetRecord", err, sizeof(err)) < 0 || call(b, "Attest", err, sizeof(err)) < 0 ||
		    call(b, "GetCertificates", err, sizeof(err)) < 0)
			_exit(91);
		/* Every privileged method, each refused by the bus (exit 100 + its index). */
		{
			static const char *const privileged[] = {
#define NAME_OF(method, action, group) method,
				OTA_PRIVILEGED_METHODS(NAME_OF)
#undef NAME_OF
			};
			size_t k;

			for (k = 0; k < sizeof(privileged) / sizeof(privileged[0]); k++) {
				/* CheckImage, a dry run, reaches otattestd, which decides (check-image). */
				bool bus_open = !strcmp(privileged[k], "CheckImage");

				if (bus_open ? call(b, privileged[k], err, sizeof(err)) < 0
					     : call(b, privileged[k], err, sizeof(err)) >= 0 ||
						       strcmp(err, "org.freedesktop.DBus.Error.AccessDenied") != 0)
					_exit(100 + (int)k);
			}
			if (call(b, "Describe", err, sizeof(err)) < 0)
				_exit(92);
		}
		/* Nobody else may take the name. */
		if (sd_bus_request_name(b, OTA_BUS_NAME, SD_BUS_NAME_QUEUE) >= 0)
			_exit(94);
		_exit(0);
	}
	waitpid(cli, &status, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "unprivileged caller: step %d",
		      WEXITSTATUS(status));
	sd_bus_flush_close_unref(root);
	kill(srv_pid, SIGKILL);
	waitpid(srv_pid, NULL, 0);
	private_bus_stop(&policy_bus);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("daemon_units");
	TCase *tc = tcase_create("units");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, exposure_at_most_2);
	tcase_add_test(tc, unit_verifies);
	tcase_add_test(tc, metrics_units);
	tcase_add_test(tc, unit_holds_no_capability);
	tcase_add_test(tc, udev_activation_sysusers);
	tcase_add_test(tc, polkit_actions_documented);
	tcase_add_test(tc, catalog_indexed_by_journalctl);
	tcase_add_test(tc, policy_enforced);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(suite)
