// SPDX-License-Identifier: MIT
/*
 * The update agent's commands (docs/dbus-api.md, "Updates"): install and
 * check hand otattestd the image as an open file descriptor (it never
 * opens a path of ours), commit, ratchet and revoke ask for the boot
 * services, warm-reset activates a ROM_EXT. All privileged (root, group
 * otattest-update, or polkit). Progress goes to a terminal only; --json
 * prints one object per line (progress events, then the result).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otattest/shm.h>
#include <otu/file.h>
#include <otu/hex.h>
#include <otu/json.h>
#include <otu/num.h>

#include "ctl.h"

/* 0, not 1: glibc then re-reads the ordering (main parsed with "+"). */
#define RESET_GETOPT() (optind = 0)

static int parse_stage(const char *s, const char **stage)
{
	if (strcmp(s, "rom_ext") && strcmp(s, "bl0")) {
		fprintf(stderr, "otattestctl: --stage must be rom_ext or bl0\n");
		return OTA_EXIT_USAGE;
	}
	*stage = s;
	return 0;
}

static const char *slot_label(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "unknown";
}

struct progress {
	struct ctl *c;
	bool tty;
	uint32_t last_pct;
};

static int on_install_progress(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
	struct progress *p = userdata;
	uint32_t done, total, pct;

	if (sd_bus_message_read(m, "uu", &done, &total) < 0 || !total)
		return 0;
	if (p->c->json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "event", "progress");
		otu_json_add_u64(doc, "done", done);
		otu_json_add_u64(doc, "total", total);
		otu_json_emit(stdout, doc);
		fflush(stdout);
		return 0;
	}
	/* A bar that rewrites its line is for people; a pipe gets none of it. */
	if (p->c->quiet || !p->tty)
		return 0;
	pct = (uint32_t)((uint64_t)done * 100u / total);
	if (pct == p->last_pct && done != total)
		return 0;
	p->last_pct = pct;
	fprintf(stderr, "\rsending image: %3u%% (%u of %u bytes)%s", pct, done, total,
		done == total ? "\n" : "");
	fflush(stderr);
	return 0;
}

/* install and check: otattestctl [install|check] [--stage S] [--slot X] FILE */
static int install_or_check(struct ctl *c, int argc, char **argv, bool check)
{
	static const struct option opts[] = {
		{ "stage", required_argument, NULL, 's' },
		{ "slot", required_argument, NULL, 'l' },
		{ 0 },
	};
	const char *method = check ? "CheckImage" : "InstallImage", *stage = "bl0";
	uint32_t slot = OTA_UPDATE_SLOT_OTHER, r_slot, svn;
	const char *r_stage, *version;
	struct progress p = { .c = c, .tty = isatty(STDERR_FILENO), .last_pct = UINT32_MAX };
	sd_bus_message *reply = NULL;
	const void *meas;
	size_t meas_len;
	char path[160];
	int fd, r, o;

	RESET_GETOPT();
	while ((o = getopt_long(argc, argv, "", opts, NULL)) >= 0) {
		if (o == 's')
			r = parse_stage(optarg, &stage);
		else if (o == 'l')
			r = ctl_parse_slot(optarg, true, &slot);
		else
			r = OTA_EXIT_USAGE;
		if (r)
			return r;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "otattestctl: %s takes one image file\n", argv[0]);
		return OTA_EXIT_USAGE;
	}
	/* Opened by us, with our rights: otattestd reads what we hand it, nothing else. */
	fd = open(argv[optind], O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return ctl_fail(OTA_CLASS_IO, "cannot open %s: %s", argv[optind], strerror(errno));
	r = ctl_device_path(c, path, sizeof(path));
	if (!r)
		r = ctl_admin_call(c, path, method, "InstallProgress", on_install_progress, &p, &reply,
				   "hsu", fd, stage, slot);
	close(fd);
	if (r)
		return r;
	r = sd_bus_message_read(reply, "suus", &r_stage, &r_slot, &svn, &version);
	if (r >= 0)
		r = sd_bus_message_read_array(reply, 'y', &meas, &meas_len);
	if (r < 0 || meas_len != OTA_SHA256_BYTES) {
		sd_bus_message_unref(reply);
		return ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to %s", method);
	}
	if (c->json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "event", check ? "checked" : "installed");
		otu_json_add_str(doc, "stage", r_stage);
		otu_json_add_str(doc, "slot", slot_label(r_slot));
		otu_json_add_u64(doc, "svn", svn);
		otu_json_add_str(doc, "version", version);
		otu_json_add_hex(doc, "measurement", meas, meas_len);
		otu_json_emit(stdout, doc);
	} else {
		char hex[2 * OTA_SHA256_BYTES + 1];

		otu_hex_encode(hex, meas, meas_len);
		printf("%s: %s image for slot %s, SVN %u, version \"%s\", measurement %s\n",
		       check ? "accepted (nothing written)" : "installed", r_stage, slot_label(r_slot),
		       svn, version, hex);
	}
	sd_bus_message_unref(reply);
	return 0;
}

int cmd_install(struct ctl *c, int argc, char **argv)
{
	return install_or_check(c, argc, argv, false);
}

int cmd_check(struct ctl *c, int argc, char **argv)
{
	return install_or_check(c, argc, argv, true);
}

/* The (u x7) answer of Commit, Ratchet and Revoke. */
static int boot_svc_result(struct ctl *c, const char *what, sd_bus_message *reply)
{
	uint32_t st, gen, booted, primary, floor_re, floor_bl0, seq;
	int r;

	r = sd_bus_message_read(reply, "uuuuuuu", &st, &gen, &booted, &primary, &floor_re,
				&floor_bl0, &seq);
	sd_bus_message_unref(reply);
	if (r < 0)
		return ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to the %s", what);
	if (c->json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "boot_status", ctl_status_label(st));
		otu_json_add_u64(doc, "generation", gen);
		otu_json_add_str(doc, "booted_slot", slot_label(booted));
		otu_json_add_str(doc, "primary_slot", slot_label(primary));
		otu_json_add_u64(doc, "floor_rom_ext", floor_re);
		otu_json_add_u64(doc, "floor_bl0", floor_bl0);
		otu_json_add_u64(doc, "revocation_sequence", seq);
		otu_json_emit(stdout, doc);
	} else {
		printf("%s done: slot %s booted (primary %s), floors ROM_EXT %u BL0 %u, "
		       "revocation sequence %u, boot status %s, record generation %u\n",
		       what, slot_label(booted), slot_label(primary), floor_re, floor_bl0, seq,
		       ctl_status_label(st), gen);
	}
	if (st != OTA_OK)
		return ctl_exit_for_class(ota_status_class(st));
	return 0;
}

/* The BL0 slot running now, from the device's properties. */
static int running_bl0_slot(struct ctl *c, const char *path, uint32_t *slot)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char *s = NULL;
	int r;

	r = sd_bus_get_property_string(c->bus, OTA_BUS_NAME, path, OTA_BUS_DEVICE_IFACE,
				       "RunningBl0Slot", &e, &s);
	if (r < 0) {
		r = ctl_fail_bus("RunningBl0Slot", &e, r);
		sd_bus_error_free(&e);
		return r;
	}
	r = 0;
	if (!strcmp(s, "a"))
		*slot = OTA_SLOT_A;
	else if (!strcmp(s, "b"))
		*slot = OTA_SLOT_B;
	else
		r = ctl_fail(OTA_CLASS_UNAVAILABLE, "no BL0 is running: nothing to commit");
	free(s);
	return r;
}

int cmd_commit(struct ctl *c, int argc, char **argv)
{
	uint32_t slot = OTA_UPDATE_SLOT_OTHER;
	sd_bus_message *reply = NULL;
	char path[160];
	int r;

	r = ctl_parse_slot_args(argc, argv, "", false, &slot);
	if (!r)
		r = ctl_device_path(c, path, sizeof(path));
	/* The device commits only the slot it runs: ask for that one unless told. */
	if (!r && slot == OTA_UPDATE_SLOT_OTHER)
		r = running_bl0_slot(c, path, &slot);
	if (!r)
		r = ctl_admin_call(c, path, "Commit", NULL, NULL, NULL, &reply, "u", slot);
	return r ? r : boot_svc_result(c, "commit", reply);
}

int cmd_ratchet(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "stage", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'f' },
		{ 0 },
	};
	const char *stage = "bl0";
	sd_bus_message *reply = NULL;
	bool force = false;
	uint32_t floor;
	char path[160];
	int r, o;

	RESET_GETOPT();
	while ((o = getopt_long(argc, argv, "", opts, NULL)) >= 0) {
		if (o == 'f') {
			force = true;
			continue;
		}
		r = o == 's' ? parse_stage(optarg, &stage) : OTA_EXIT_USAGE;
		if (r)
			return r;
	}
	if (optind != argc - 1 || otu_parse_u32(argv[optind], OTU_DEC, 0, UINT32_MAX, &floor) < 0) {
		fprintf(stderr, "otattestctl: ratchet takes the new floor, a decimal SVN\n");
		return OTA_EXIT_USAGE;
	}
	r = ctl_device_path(c, path, sizeof(path));
	if (!r && force)
		r = ctl_admin_call(c, path, "RatchetWithFlags", NULL, NULL, NULL, &reply, "sut", stage,
				   floor, (uint64_t)OTA_RATCHET_F_FORCE);
	else if (!r)
		r = ctl_admin_call(c, path, "Ratchet", NULL, NULL, NULL, &reply, "su", stage, floor);
	return r ? r : boot_svc_result(c, "ratchet", reply);
}

/* A file of revocation commands is never this large; otattestd checks the exact size. */
#define REVOCATION_FILE_MAX 16384u /* 144 bytes, 8000 for a hybrid command */

int cmd_revoke(struct ctl *c, int argc, char **argv)
{
	sd_bus_message *reply = NULL;
	uint8_t *cmd = NULL;
	char path[160];
	size_t len;
	int r;

	if (argc != 2) {
		fprintf(stderr, "otattestctl: revoke takes one revocation command file (otimage revocation)\n");
		return OTA_EXIT_USAGE;
	}
	r = otu_read_file(argv[1], REVOCATION_FILE_MAX, &cmd, &len);
	if (r < 0)
		return ctl_fail(r == -EFBIG ? OTA_CLASS_INVALID_ARGUMENT : OTA_CLASS_IO,
				"cannot read %s: %s", argv[1], strerror(-r));
	r = ctl_device_path(c, path, sizeof(path));
	if (!r)
		r = ctl_admin_call_bytes(c, path, "Revoke", cmd, len, &reply);
	free(cmd);
	return r ? r : boot_svc_result(c, "revocation", reply);
}

int cmd_warm_reset(struct ctl *c, int argc, char **argv)
{
	sd_bus_message *reply = NULL;
	char path[160];
	int r;

	if (argc > 1) {
		fprintf(stderr, "otattestctl: warm-reset takes no arguments (use -d DEVICE)\n");
		return OTA_EXIT_USAGE;
	}
	r = ctl_device_path(c, path, sizeof(path));
	if (r)
		return r;
	r = ctl_admin_call(c, path, "WarmReset", NULL, NULL, NULL, &reply, NULL);
	if (r)
		return r;
	return ctl_reset_result(c, "warm reset", reply);
}
