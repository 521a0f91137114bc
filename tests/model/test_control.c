// SPDX-License-Identifier: MIT
/*
 * The control socket, the ctl client, the command line, and the model's
 * life: start, stop, restart, power cycles, flash installs and OTP edits.
 * A blank device is enough for all of it.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>
#include <otattest/flash.h>
#include <otattest/otp.h>
#include <otu/file.h>
#include <otu/num.h>

#include "harness.h"

static struct rig rig;

static void setup(void)
{
	rig_up(&rig, false, NULL);
}

static void teardown(void)
{
	rig_down(&rig);
}

static void expect_reply(const char *request, const char *want_prefix)
{
	rig_ctl_expect(&rig, request, want_prefix);
}

static uint32_t record_generation(struct rig *r)
{
	struct ota_record rec;

	rig_record(r, &rec);
	return rec.hdr.generation;
}

START_TEST(requests_and_refusals)
{
	char reply[2048], value[64], line[5000];
	static const char *const keys[] = {
		"state", "detail", "boot-status", "boots", "guest", "guest-peer", "device-peer",
		"guests-accepted", "guests-refused", "record-generation", "shm-generation",
		"event-counter", "last-seq", "requests", "answered", "refused", "dropped",
		"flash-writes", "pending",
	};

	expect_reply("help",
		     "ok commands=help,status,power-cycle,install,otp,fault,compromise,tamper,hang,stop");
	expect_reply("tamper tag bl0 c", "error usage tamper tag rom_ext|bl0 a|b");
	expect_reply("tamper tag bl0 a", "error LAYOUT_BAD_MAGIC"); /* a blank device's flash */
	expect_reply("nonsense", "error usage unknown request 'nonsense'");
	expect_reply("", "error usage empty request");
	expect_reply("status extra", "error usage 'status' takes no arguments");
	expect_reply("stop now", "error usage 'stop' takes no arguments");
	expect_reply("a b c d e f g h i", "error usage too many words");
	expect_reply("compromise min-svn", "error usage compromise ");
	expect_reply("compromise min-svn 7", "error MBOX_NOT_READY"); /* no runtime runs */
	expect_reply("status\r", "ok state=");
	rig_ctl_ok(&rig, "status", reply, sizeof(reply));
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ck_assert_msg(mp_reply_value(reply, keys[i], value, sizeof(value)),
			      "status lacks %s: %s", keys[i], reply);
	ck_assert(mp_reply_value(reply, "guest", value, sizeof(value)));
	ck_assert_str_eq(value, "yes");
	ck_assert(mp_reply_value(reply, "state", value, sizeof(value)));
	ck_assert_str_eq(value, "failed");

	/* A line past the limit: refused, that client dropped, the model fine. */
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	ck_assert_int_eq(mp_ctl(&rig.mp, line, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "error usage request line too long");
	expect_reply("status", "ok ");
}
END_TEST

/*
 * The control socket powers, tampers and kills the device: 0600 whatever
 * the launcher's umask (it was the umask's), and a peer that is not the
 * model's user (or root) is refused even when the file is opened up.
 */
START_TEST(control_socket_owner_only)
{
	struct stat st;
	pid_t pid;
	int status;

	ck_assert_int_eq(stat(rig.mp.control, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0600);
	if (geteuid() != 0)
		return; /* the peer check needs another user */
	ck_assert_int_eq(chmod(rig.mp.control, 0666), 0);
	ck_assert_int_eq(chmod(rig.mp.dir, 0711), 0); /* its directory too: only the peer check is left */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		char buf[256] = { 0 };
		ssize_t n;
		int fd;

		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(90);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		memcpy(sa.sun_path, rig.mp.control, strlen(rig.mp.control));
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			_exit(91);
		/* The model may refuse and close before this request is sent: the
		 * refusal is still queued to read, and the send must not raise SIGPIPE. */
		(void)!send(fd, "status\n", 7, MSG_NOSIGNAL);
		n = read(fd, buf, sizeof(buf) - 1);
		_exit(n > 0 && strncmp(buf, "error HOST_PERMISSION", 21) == 0 ? 0 : 92);
	}
	waitpid(pid, &status, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "another user's control request: %s %d", WIFEXITED(status) ? "exit" : "signal",
		      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	/* The owner is still served. */
	expect_reply("status", "ok state=");
}
END_TEST

START_TEST(many_requests_on_one_connection)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char burst[] = "help\nstatus\nfault\n";
	char buf[8192];
	size_t got = 0;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), lines = 0;

	memcpy(sa.sun_path, rig.mp.control, strlen(rig.mp.control));
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(write(fd, burst, strlen(burst)), (ssize_t)strlen(burst));
	while (lines < 3) {
		ssize_t n = read(fd, buf + got, sizeof(buf) - got - 1);

		ck_assert_int_gt(n, 0);
		got += (size_t)n;
		buf[got] = '\0';
		lines = 0;
		for (char *p = buf; (p = strchr(p, '\n')); p++)
			lines++;
	}
	close(fd);
	ck_assert(strncmp(buf, "ok commands=", 12) == 0);
	ck_assert_ptr_nonnull(strstr(buf, "\nok state="));
	ck_assert_ptr_nonnull(strstr(buf, "\nok delay=0 "));
}
END_TEST

START_TEST(stop_request_and_signals_stop_cleanly)
{
	char reply[256];
	int status;

	rig_ctl_ok(&rig, "stop", reply, sizeof(reply));
	ck_assert_str_eq(reply, "ok stopping");
	status = mp_wait(&rig.mp, 5000);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_int_ne(access(rig.mp.socket, F_OK), 0);
	ck_assert_int_ne(access(rig.mp.control, F_OK), 0);
	ck_assert_int_eq(mp_log_count(&rig.mp, "stopping reason=control"), 1);
	/* The guest saw its server go away. */
	ck_assert_int_eq(ivc_poll_server(&rig.dev.iv, 2000), -EPIPE);

	for (int sig = 0; sig < 2; sig++) {
		rig_leave(&rig);
		ck_assert_int_eq(mp_start(&rig.mp, NULL), 0);
		kill(rig.mp.pid, sig ? SIGINT : SIGTERM);
		status = mp_wait(&rig.mp, 5000);
		ck_assert(WIFEXITED(status));
		ck_assert_int_eq(WEXITSTATUS(status), 0);
	}
	ck_assert_int_eq(mp_log_count(&rig.mp, "stopping reason=sigterm"), 1);
	ck_assert_int_eq(mp_log_count(&rig.mp, "stopping reason=sigint"), 1);
}
END_TEST

START_TEST(record_generation_survives_restarts)
{
	uint32_t g1 = record_generation(&rig), g2, g3;

	rig_leave(&rig);
	ck_assert_int_ge(mp_stop(&rig.mp, 5000), 0);
	ck_assert_int_eq(mp_start(&rig.mp, NULL), 0);
	rig_join(&rig);
	g2 = record_generation(&rig);
	ck_assert_uint_gt(g2, g1);
	/* A SIGKILL leaves stale sockets: the next model replaces them. */
	rig_leave(&rig);
	mp_kill(&rig.mp);
	ck_assert_int_eq(access(rig.mp.socket, F_OK), 0);
	ck_assert_int_eq(mp_start(&rig.mp, NULL), 0);
	rig_join(&rig);
	g3 = record_generation(&rig);
	ck_assert_uint_gt(g3, g2);
	ck_assert_int_eq(rig_status(&rig, "boots"), 1); /* each process cold boots once */
}
END_TEST

START_TEST(power_cycle_is_a_cold_boot_the_guest_hears_of)
{
	struct ota_record rec;
	char reply[256], value[64];
	uint32_t g1 = record_generation(&rig), gen;
	struct ota_shm_info info;
	uint32_t ev;

	ck_assert_uint_eq(devc_read_info(&rig.dev, &info), OTA_OK);
	ev = info.event_counter;
	ivc_drain(&rig.dev.iv, OTA_VEC_EVENT);
	rig_ctl_ok(&rig, "power-cycle", reply, sizeof(reply));
	ck_assert(mp_reply_value(reply, "record-generation", value, sizeof(value)));
	ck_assert_int_eq(otu_parse_u32(value, OTU_DEC, 0, UINT32_MAX, &gen), 0);
	ck_assert_uint_eq(gen, g1 + 1);
	ck_assert_uint_gt(ivc_wait(&rig.dev.iv, OTA_VEC_EVENT, 1000), 0);
	rig_record(&rig, &rec);
	ck_assert_uint_eq(rec.hdr.generation, g1 + 1);
	ck_assert_uint_eq(rec.hdr.reset_reason, OTA_RESET_COLD);
	ck_assert_int_eq(rig_status(&rig, "boots"), 2);
	ck_assert_uint_eq(devc_read_info(&rig.dev, &info), OTA_OK);
	/* off, booting, record, failed: every change moved the counter by 2. */
	ck_assert_uint_ge(info.event_counter, ev + 8);
	ck_assert_uint_eq(info.event_counter % 2, 0);
}
END_TEST

START_TEST(ctl_client_exit_codes_and_json)
{
	const char *bin = mp_binary();
	char out[512];

	ck_assert_int_eq(shell_run("%s ctl -c %s status >/dev/null", bin, rig.mp.control), 0);
	ck_assert_int_eq(shell_run("%s ctl -c %s frobnicate >/dev/null", bin, rig.mp.control), 2);
	ck_assert_int_eq(shell_run("%s ctl -c %s/nothing status 2>/dev/null", bin, rig.mp.dir), 16);
	ck_assert_int_eq(shell_run("%s ctl status 2>/dev/null", bin), 2);
	ck_assert_int_eq(shell_run("%s ctl --help >/dev/null", bin), 0);
	ck_assert_int_eq(shell_run("%s ctl -c %s otp floor bl0 9 >/dev/null", bin, rig.mp.control), 0);
	/* Lowering a floor: OTP_CLEARS_BITS, class INVALID_ARGUMENT, exit 10. */
	ck_assert_int_eq(shell_run("%s ctl -c %s otp floor bl0 3 >/dev/null", bin, rig.mp.control), 10);
	ck_assert_int_eq(shell_run("%s ctl --json -c %s status > %s/status.json", bin, rig.mp.control,
			     rig.mp.dir),
			 0);
	snprintf(out, sizeof(out), "%s/status.json", rig.mp.dir);
	{
		static const char head[] = "{\"ok\":true,\"state\":\"failed\",";
		struct json_object *doc, *v;
		uint8_t *json;
		size_t n;

		ck_assert_int_eq(otu_read_file(out, 4096, &json, &n), 0);
		/* The reply's words in its order; numbers as numbers, the rest strings. */
		ck_assert(strncmp((char *)json, head, sizeof(head) - 1) == 0);
		ck_assert_ptr_nonnull(strstr((char *)json, ",\"boots\":1,"));
		ck_assert_ptr_nonnull(strstr((char *)json, ",\"guest\":\"yes\","));
		ck_assert_str_eq((char *)json + n - 2, "}\n");
		doc = json_tokener_parse((char *)json);
		ck_assert_ptr_nonnull(doc);
		ck_assert(json_object_object_get_ex(doc, "boots", &v) && json_object_is_type(v, json_type_int));
		json_object_put(doc);
		free(json);
	}
	ck_assert_int_eq(shell_run("%s ctl --json -c %s otp floor bl0 3 > %s/err.json", bin,
			     rig.mp.control, rig.mp.dir),
			 10);
	{
		uint8_t *json;
		size_t n;

		snprintf(out, sizeof(out), "%s/err.json", rig.mp.dir);
		ck_assert_int_eq(otu_read_file(out, 4096, &json, &n), 0);
		ck_assert_str_eq((char *)json, "{\"ok\":false,\"error\":\"OTP_CLEARS_BITS\",\"message\":"
					       "\"OTP programming may only set bits, never clear them\"}\n");
		free(json);
	}
}
END_TEST

START_TEST(help_documents_everything)
{
	static const char *const words[] = {
		"--state-dir", "--socket", "--control", "--load-flash",
		"--load-otp", "--flash-size", "--no-fsync", "--log-level", "--version",
		"--fault-delay", "--fault-drop", "--fault-corrupt-record", "--fault-corrupt-response",
		"--fault-record-length", "--fault-response-length", "--fault-irq-storm",
		"--fault-die-at-flash-write", "--fault-flash-tear", "--fault-flash-latency", "power-cycle",
		"install rom_ext|bl0 a|b PATH",
		"otp floor", "otp epoch", "otp revoke", "otp lifecycle", "fault clear",
		"compromise FIELD VALUE", "stop",
		"EXIT STATUS",
		"ivshmem-doorbell,chardev=ota,vectors=2", "One guest at a time",
	};
	char path[256];
	uint8_t *text;
	size_t n;

	snprintf(path, sizeof(path), "%s/help.txt", rig.mp.dir);
	ck_assert_int_eq(shell_run("%s --help > %s", mp_binary(), path), 0);
	ck_assert_int_eq(otu_read_file(path, 1 << 16, &text, &n), 0);
	ck_assert_uint_gt(n, 0);
	for (unsigned i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		ck_assert_msg(strstr((char *)text, words[i]), "--help does not mention '%s'", words[i]);
	free(text);
	ck_assert_int_eq(shell_run("%s --version | grep -q 'shared memory ABI 1.0'", mp_binary()), 0);
	ck_assert_int_eq(shell_run("%s --bogus 2>/dev/null", mp_binary()), 2);
	ck_assert_int_eq(shell_run("%s 2>/dev/null", mp_binary()), 2); /* --state-dir is required */
	ck_assert_int_eq(shell_run("%s -d %s --log-level=loud 2>/dev/null", mp_binary(), rig.mp.dir), 2);
}
END_TEST

/*
 * --log-level keeps exactly the lines at or above the level: a model at
 * each level sees the same warn event (a control line too long), info
 * events (a power cycle's cold boot) and debug ones (every control
 * request); the log holds only what its level allows.
 */
START_TEST(log_level_filters_lines)
{
	static const char *const levels[] = { "error", "warn", "info", "debug" };
	static const char *const prefixes[] = { "otattest-model: error ", "otattest-model: warn ",
						"otattest-model: info ", "otattest-model: debug " };
	static char too_long[4150 + 1]; /* past the model's 4096-byte control line */
	char arg[32], reply[512];

	memset(too_long, 'x', sizeof(too_long) - 1);
	for (unsigned lv = 0; lv < 4; lv++) {
		const char *args[] = { arg, NULL };
		struct model_proc mp;

		snprintf(arg, sizeof(arg), "--log-level=%s", levels[lv]);
		ck_assert_int_eq(mp_init(&mp), 0);
		ck_assert_int_eq(mp_start(&mp, args), 0);
		(void)mp_ctl(&mp, too_long, reply, sizeof(reply)); /* refused: warn */
		ck_assert_int_eq(mp_ctl(&mp, "power-cycle", reply, sizeof(reply)), 0);
		ck_assert_int_eq(mp_stop(&mp, 10000), 0);
		/* What each level must show: one warn, some info and debug lines. */
		ck_assert_int_eq(mp_log_count(&mp, "warn control-line-too-long"), lv >= 1 ? 1 : 0);
		if (lv >= 2)
			ck_assert_int_ge(mp_log_count(&mp, "info cold-boot"), 2);
		if (lv >= 3)
			ck_assert_int_ge(mp_log_count(&mp, "debug control-request"), 1);
		/* And nothing below it. */
		for (unsigned below = lv + 1; below < 4; below++)
			ck_assert_msg(mp_log_count(&mp, prefixes[below]) == 0,
				      "--log-level=%s logged a %s line (%s)", levels[lv], levels[below],
				      mp.log);
		mp_cleanup(&mp);
	}
}
END_TEST

START_TEST(a_second_model_on_the_same_socket_is_refused)
{
	struct model_proc other;
	char cmd[1024];
	int status;

	ck_assert_int_eq(mp_init(&other), 0);
	/* Same ivshmem socket, its own state and control socket. */
	snprintf(cmd, sizeof(cmd), "%s -d %s -s %s -c %s 2>%s", mp_binary(), other.state_dir,
		 rig.mp.socket, other.control, other.log);
	status = system(cmd);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 22);
	ck_assert_int_eq(mp_log_count(&other, "listen-failed"), 1);
	ck_assert_int_eq(mp_log_count(&other, "errno=98"), 1);
	mp_cleanup(&other);
	/* The first one did not notice. */
	expect_reply("status", "ok state=failed");
	{
		uint8_t buf[2048];
		uint32_t len;

		ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len),
				  OTA_OK);
	}
}
END_TEST

/*
 * compromise plays the runtime of the host build, which no attacker code
 * reaches; with --core=rv32 the runtime is a BL0 image and a lying one is
 * a signed hostile image (tests/rv32/hostile/, test_hostile): the board
 * refuses to edit the core's RAM for it.
 */
START_TEST(compromise_is_refused_with_the_core)
{
	const char *args[] = { "--core=rv32", "--rom-image=" OTA_ROM_ELF, NULL };

	rig_down(&rig);
	rig_up(&rig, false, args);
	expect_reply("compromise min-svn 7", "error usage compromise plays the runtime of --core=host");
	expect_reply("compromise min-svn", "error usage compromise ");
}
END_TEST

/* install, on a flash holding only a layout. */
START_TEST(install_programs_a_slot)
{
	char flash[256], arg[300], image[400], req[500], reply[512], dir_sp[300];
	const char *args[] = { arg, NULL };
	static uint8_t bin[64 * 1024], back[64 * 1024];
	uint32_t slot_pages = 8, off = layout_slot_offset(OTA_STAGE_BL0, OTA_SLOT_B, slot_pages);
	struct rig r;
	FILE *f;

	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(mp_init(&r.mp), 0);
	snprintf(flash, sizeof(flash), "%s/layout.img", r.mp.dir);
	ck_assert_int_eq(write_layout_only_flash(flash, slot_pages), 0);
	snprintf(arg, sizeof(arg), "--load-flash=%s", flash);
	ck_assert_int_eq(mp_start(&r.mp, args), 0);

	/* A path with a space in it: the rest of the line is the path. */
	snprintf(dir_sp, sizeof(dir_sp), "%s/my images", r.mp.dir);
	ck_assert_int_eq(mkdir(dir_sp, 0700), 0);
	snprintf(image, sizeof(image), "%s/bl0 v2.bin", dir_sp);
	for (unsigned i = 0; i < 5000; i++)
		bin[i] = (uint8_t)(i * 7u + 1u);
	f = fopen(image, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(bin, 1, 5000, f), 5000);
	fclose(f);
	snprintf(req, sizeof(req), "install bl0 b %s", image);
	rig_ctl_ok(&r, req, reply, sizeof(reply));
	ck_assert_ptr_nonnull(strstr(reply, "stage=bl0 slot=b bytes=5000 "));
	/* The bytes are in flash.bin at the slot, the rest of the slot erased. */
	snprintf(flash, sizeof(flash), "%s/flash.bin", r.mp.state_dir);
	f = fopen(flash, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)off, SEEK_SET), 0);
	ck_assert_uint_eq(fread(back, 1, slot_pages * OTA_FLASH_PAGE_SIZE, f),
			  slot_pages * OTA_FLASH_PAGE_SIZE);
	fclose(f);
	ck_assert_mem_eq(back, bin, 5000);
	for (unsigned i = 5000; i < slot_pages * OTA_FLASH_PAGE_SIZE; i++)
		ck_assert_uint_eq(back[i], 0xff);

	/* Refusals. */
	f = fopen(image, "wb");
	ck_assert_uint_eq(fwrite(back, 1, slot_pages * OTA_FLASH_PAGE_SIZE + 1, f),
			  slot_pages * OTA_FLASH_PAGE_SIZE + 1);
	fclose(f);
	ck_assert_int_eq(mp_ctl(&r.mp, req, reply, sizeof(reply)), 0);
	ck_assert(strncmp(reply, "error MODEL_IMAGE_TOO_LARGE ", 28) == 0);
	snprintf(req, sizeof(req), "install bl0 a %s/missing.bin", r.mp.dir);
	ck_assert_int_eq(mp_ctl(&r.mp, req, reply, sizeof(reply)), 0);
	ck_assert(strncmp(reply, "error HOST_IO ", 14) == 0);
	ck_assert_int_eq(mp_ctl(&r.mp, "install bl0 c x", reply, sizeof(reply)), 0);
	ck_assert(strncmp(reply, "error usage install", 19) == 0);
	ck_assert_int_eq(mp_ctl(&r.mp, "install bl1 a x", reply, sizeof(reply)), 0);
	ck_assert(strncmp(reply, "error usage install", 19) == 0);
	ck_assert_int_eq(mp_ctl(&r.mp, "install bl0 a", reply, sizeof(reply)), 0);
	ck_assert(strncmp(reply, "error usage install", 19) == 0);
	rig_down(&r);
}
END_TEST

START_TEST(install_needs_a_flash_layout)
{
	char reply[512], req[300];

	snprintf(req, sizeof(req), "install bl0 a %s/model.log", rig.mp.dir);
	ck_assert_int_eq(mp_ctl(&rig.mp, req, reply, sizeof(reply)), 0);
	ck_assert_msg(strncmp(reply, "error LAYOUT_BAD_MAGIC ", 23) == 0, "%s", reply);
}
END_TEST

static void otp_bytes(uint32_t offset, void *out, uint32_t len)
{
	uint8_t *otp;
	char path[256];
	size_t n;

	snprintf(path, sizeof(path), "%s/otp.bin", rig.mp.state_dir);
	ck_assert_int_eq(otu_read_file(path, sizeof(struct ota_otp), &otp, &n), 0);
	ck_assert_uint_eq(n, sizeof(struct ota_otp));
	memcpy(out, otp + offset, len);
	free(otp);
}

START_TEST(otp_edits_only_go_up_and_persist)
{
	uint8_t floor[32], epoch[8];
	uint32_t word, v;
	char reply[512];

	rig_ctl_ok(&rig, "otp floor bl0 12", reply, sizeof(reply));
	ck_assert_str_eq(reply, "ok takes-effect=next-boot");
	rig_ctl_ok(&rig, "otp floor rom_ext 3", reply, sizeof(reply));
	rig_ctl_ok(&rig, "otp epoch 2", reply, sizeof(reply));
	rig_ctl_ok(&rig, "otp revoke creator 1", reply, sizeof(reply));
	rig_ctl_ok(&rig, "otp revoke owner 3", reply, sizeof(reply));
	rig_ctl_ok(&rig, "otp floor bl0 12", reply, sizeof(reply)); /* the same value: fine */
	expect_reply("otp floor bl0 11", "error OTP_CLEARS_BITS ");
	expect_reply("otp floor bl0 256", "error usage otp");
	expect_reply("otp epoch 65", "error usage otp");
	expect_reply("otp revoke creator 4", "error usage otp");
	expect_reply("otp revoke nobody 0", "error usage otp");
	expect_reply("otp", "error usage otp");

	/* It is all in otp.bin, and survives a restart. */
	rig_leave(&rig);
	ck_assert_int_ge(mp_stop(&rig.mp, 5000), 0);
	otp_bytes(offsetof(struct ota_otp, floor_bl0), floor, sizeof(floor));
	ck_assert_uint_eq(ota_thermometer_decode(floor, sizeof(floor), &v), OTA_OK);
	ck_assert_uint_eq(v, 12);
	otp_bytes(offsetof(struct ota_otp, floor_rom_ext), floor, sizeof(floor));
	ck_assert_uint_eq(ota_thermometer_decode(floor, sizeof(floor), &v), OTA_OK);
	ck_assert_uint_eq(v, 3);
	otp_bytes(offsetof(struct ota_otp, epoch), epoch, sizeof(epoch));
	ck_assert_uint_eq(ota_thermometer_decode(epoch, sizeof(epoch), &v), OTA_OK);
	ck_assert_uint_eq(v, 2);
	otp_bytes(offsetof(struct ota_otp, creator_key_revoked) + 4, &word, 4);
	ck_assert_uint_eq(word, OTA_OTP_REVOKED);
	otp_bytes(offsetof(struct ota_otp, creator_key_revoked), &word, 4);
	ck_assert_uint_eq(word, 0);
	otp_bytes(offsetof(struct ota_otp, owner_key_revoked) + 12, &word, 4);
	ck_assert_uint_eq(word, OTA_OTP_REVOKED);

	ck_assert_int_eq(mp_start(&rig.mp, NULL), 0);
	rig_join(&rig);
	expect_reply("otp floor bl0 11", "error OTP_CLEARS_BITS ");
	rig_ctl_ok(&rig, "otp floor bl0 13", reply, sizeof(reply));
}
END_TEST

static Suite *control_suite(void)
{
	Suite *s = suite_create("model-control");
	TCase *proto = tcase_create("protocol");
	TCase *life = tcase_create("lifecycle");
	TCase *hw = tcase_create("hardware");

	tcase_add_checked_fixture(proto, setup, teardown);
	tcase_set_timeout(proto, 60);
	tcase_add_test(proto, requests_and_refusals);
	tcase_add_test(proto, many_requests_on_one_connection);
	tcase_add_test(proto, control_socket_owner_only);
	tcase_add_test(proto, ctl_client_exit_codes_and_json);
	tcase_add_test(proto, help_documents_everything);
	tcase_add_test(proto, log_level_filters_lines);
	suite_add_tcase(s, proto);

	tcase_add_checked_fixture(life, setup, teardown);
	tcase_set_timeout(life, 60);
	tcase_add_test(life, stop_request_and_signals_stop_cleanly);
	tcase_add_test(life, record_generation_survives_restarts);
	tcase_add_test(life, power_cycle_is_a_cold_boot_the_guest_hears_of);
	tcase_add_test(life, a_second_model_on_the_same_socket_is_refused);
	tcase_add_test(life, compromise_is_refused_with_the_core);
	suite_add_tcase(s, life);

	tcase_add_checked_fixture(hw, setup, teardown);
	tcase_set_timeout(hw, 60);
	tcase_add_test(hw, install_needs_a_flash_layout);
	tcase_add_test(hw, otp_edits_only_go_up_and_persist);
	tcase_add_test(hw, install_programs_a_slot);
	suite_add_tcase(s, hw);
	return s;
}

int main(void)
{
	return harness_run(control_suite(), false);
}
