// SPDX-License-Identifier: MIT
/*
 * otattestd on a private dbus-daemon with a fake kernel (bus/bus_fixture.h):
 * otattestctl against the real vtable: exit codes, history of boots, the
 * properties it reads.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus_fixture.h"
#include "tu_main.h"

/* sd-bus and sd-event callbacks, as the daemon they test (daemon/build.mk). */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/*
 * What an operator met: status -d of a device that is not there printed
 * otattest0 and exited 0; history -d of one never seen said "no boots
 * recorded" and exited 0; a boot with a tag mismatch exited 0 with "boot
 * status OK". Now: 16, 16 and 3 (CTL_EXIT_ATTENTION), the last with an
 * attention line.
 */
START_TEST(ctl_exit_codes_say_what_is_wrong)
{
	char *argv_status[] = { "status", NULL }, *argv_history[] = { "history", NULL };
	struct ctl c = { 0 };
	char *out, *err;

	go();
	c.bus = client;
	c.device = "otattest7";
	ck_assert_int_eq(run_ctl(cmd_status, &c, 1, argv_status, &out, &err), 16);
	ck_assert_ptr_null(strstr(out, "otattest0"));
	free(out);
	free(err);
	c.device = "otattest3";
	ck_assert_int_eq(run_ctl(cmd_history, &c, 1, argv_history, &out, &err), 16);
	ck_assert_ptr_null(strstr(out, "no boots recorded"));
	free(out);
	free(err);
	c.device = "otattest0";
	ck_assert_int_eq(run_ctl(cmd_status, &c, 1, argv_status, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out, "otattest0  ready"));
	/* RuntimeVersion, as the fake kernel's runtime says it. */
	ck_assert_ptr_nonnull(strstr(out, "\n  runtime version  1.0.0\n"));
	free(out);
	free(err);

	kill(server_pid, SIGWINCH); /* a boot with a tag mismatch */
	pump_until_generation(5);
	c.device = NULL;
	ck_assert_int_eq(run_ctl(cmd_status, &c, 1, argv_status, &out, &err), CTL_EXIT_ATTENTION);
	ck_assert_ptr_nonnull(strstr(out, "  attention        bl0 slot a: its boot tag did not match the image\n"));
	free(out);
	free(err);
	finish();
}
END_TEST

/*
 * History lists boots: a record that changed within a boot (an install,
 * a dry run) is an entry marked "boot" false, which `history` leaves out
 * unless --all (it showed each as a boot).
 */
START_TEST(history_lists_boots_not_record_changes)
{
	char *argv_plain[] = { "history", NULL }, *argv_all[] = { "history", "--all", NULL };
	struct ctl c = { 0 };
	char *out, *err;

	go();
	c.bus = client;
	kill(server_pid, SIGURG); /* the record moves on within the boot */
	pump_until_generation(5);
	kill(server_pid, SIGWINCH); /* a new boot */
	pump_until_generation(6);
	ck_assert_int_eq(run_ctl(cmd_history, &c, 1, argv_plain, &out, &err), 0);
	ck_assert_msg(strstr(out, "generation 5") == NULL, "a record change shown as a boot:\n%s", out);
	ck_assert_ptr_nonnull(strstr(out, "generation 4"));
	ck_assert_ptr_nonnull(strstr(out, "generation 6"));
	free(out);
	free(err);
	ck_assert_int_eq(run_ctl(cmd_history, &c, 2, argv_all, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out, "generation 5"));
	free(out);
	free(err);
	finish();
}
END_TEST

/* The device as otattestctl reads it now, and its metrics as `metrics` writes them. */
static char *read_device_metrics(struct ctl *c, struct ctl_device *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(ctl_get_device(c, DEV_PATH, d), 0);
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	ctl_metrics_format(f, d, 1, 0);
	fclose(f);
	return text;
}

/* otattestctl's reading of the properties, against the real vtable. */
START_TEST(ctl_reads_what_the_daemon_serves)
{
	struct ctl c = { 0 };
	struct ctl_device d;
	char *text;

	go();
	c.bus = client;
	ck_assert_int_eq(ctl_get_device(&c, DEV_PATH, &d), 0);
	ck_assert_str_eq(d.name, "otattest0");
	ck_assert_str_eq(d.state, "ready");
	ck_assert(d.record_valid);
	ck_assert_uint_eq(d.generation, 4);
	ck_assert_uint_eq(d.min_svn, 3);
	ck_assert_uint_eq(d.floor_bl0, 2);
	ck_assert(d.tag_boot_enabled);
	ck_assert_str_eq(d.lifecycle, "prod");
	ck_assert_uint_eq(d.device_id_len, 16);
	ck_assert_uint_eq(d.device_id[15], 0x11);
	ck_assert_uint_eq(d.n_stages, 2);
	ck_assert_str_eq(d.stages[1].stage, "bl0");
	ck_assert_uint_eq(d.stages[1].n_keys, 2);
	ck_assert_uint_eq(d.stages[1].key_ids[1][0], 0xb1);
	ck_assert_uint_eq(d.stages[0].verify_time_ns, 150000);
	ck_assert_uint_eq(d.stages[0].verify_cycles, 15000);
	ck_assert(d.stages[0].booted);
	ck_assert_str_eq(ctl_stage_path_reason(&d, 1), "none");
	ck_assert(!ctl_stage_debug(&d, 1));
	ck_assert_uint_eq(d.tag_mismatches, 0);

	/* After a boot with a mismatch: what status and metrics show. */
	kill(server_pid, SIGWINCH);
	pump_until_generation(5);
	text = read_device_metrics(&c, &d);
	ck_assert_str_eq(ctl_stage_path_reason(&d, 1), "tag-mismatch");
	ck_assert_uint_eq(d.tag_mismatches, 1);
	ck_assert_ptr_nonnull(strstr(text, "otattest_tag_mismatches_total{device=\"otattest0\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(text, "otattest_stage_path_reason{device=\"otattest0\",stage=\"bl0\",slot=\"a\",reason=\"tag-mismatch\"} 1\n"));
	free(text);
	kill(server_pid, SIGURG); /* back to the record the rest of this test reads */
	pump_until_generation(6);
	text = read_device_metrics(&c, &d);
	ck_assert_ptr_nonnull(strstr(text, "otattest_record_generation{device=\"otattest0\"} 6\n"));
	ck_assert_ptr_nonnull(strstr(text, "otattest_stage_tag_path{device=\"otattest0\",stage=\"rom_ext\",slot=\"a\"} 1\n"));
	free(text);
	{
		char p[160];

		c.device = "otattest0";
		ck_assert_int_eq(ctl_device_path(&c, p, sizeof(p)), 0);
		ck_assert_str_eq(p, DEV_PATH);
		c.device = "otattest5";
		ck_assert_int_eq(ctl_device_path(&c, p, sizeof(p)), 16); /* NoSuchDevice's exit code */
	}
	finish();
}
END_TEST

BUS_TEST_MAIN("daemon_bus_ctl",
	      ctl_exit_codes_say_what_is_wrong,
	      history_lists_boots_not_record_changes,
	      ctl_reads_what_the_daemon_serves)
