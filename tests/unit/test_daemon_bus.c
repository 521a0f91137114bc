// SPDX-License-Identifier: MIT
/*
 * otattestd's D-Bus API end to end on a private dbus-daemon, with the
 * kernel replaced by a fake one plugged in as the daemon's transport
 * (daemon/otattestd/transport.h; genl-parse.o, the real attribute parser,
 * still turns the fake's netlink messages into results). The fake
 * answers after configurable delays and can fail a command with an errno
 * and extack message, exactly as the kernel reports failures.
 *
 * Each test starts its own dbus-daemon and a server process running the
 * daemon's real code (bus_setup, the device cache, bounds, auth) on its
 * own sd-event loop, then acts as a client.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/genetlink.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../daemon/otattestctl/ctl.h"
#include "../../daemon/otattestd/log.h"
#include "../../daemon/otattestd/manager.h"
#include "tu_json.h"
#include "tu_main.h"

/* sd-bus and sd-event callbacks, as the daemon they test (daemon/build.mk). */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* ---------------- the fake kernel ---------------- */

#define FAKE_FAMILY 0x20

struct fake_cfg {
	uint64_t delay_usec[OTATTEST_CMD_MAX + 1];
	int fail_errno[OTATTEST_CMD_MAX + 1];
	ota_status_t fail_status[OTATTEST_CMD_MAX + 1]; /* the extack cookie's */
	const char *fail_msg[OTATTEST_CMD_MAX + 1];
	struct client_limits limits;
	bool use_polkit; /* ask (a fake) polkit instead of skipping it */
	/*
	 * The rotation's last progress event reaches the daemon after the
	 * reply: events and replies travel on two sockets, so the kernel's
	 * order is not the order the loop reads them in.
	 */
	bool late_rotation_progress;
	uint64_t image_read_timeout_usec; /* 0: the daemon's default */
};

static struct fake_cfg cfg;

struct fake_kernel {
	sd_event *event;
	struct manager *m;
	bool available;
	unsigned pending;
	struct ota_record record;
	uint32_t record_len;
};

struct fake_req {
	struct fake_kernel *g;
	uint8_t cmd;
	uint32_t index;
	uint8_t nonce[OTA_NONCE_MAX];
	size_t nonce_len;
	struct genl_args args; /* the update commands' (pointers cleared) */
	uint8_t chunk[OTA_INSTALL_CHUNK_MAX];
	struct ota_revocation revocation;
	genl_done_fn done;
	void *userdata;
};

static struct fake_kernel fake;

/* The fake device's install session: the image as it arrived. */
static struct {
	uint8_t image[2 * 4096 + 2000];
	uint32_t length, received, stage, slot;
	bool dry_run;
} fake_install;

/*
 * The image the install tests send: a pattern the fake device checks
 * byte for byte at FINISH, so a chunk lost, repeated or out of order is
 * a refusal.
 */
static uint8_t image_byte(size_t i)
{
	return (uint8_t)(i * 7u + (i >> 8));
}

static void build_record(struct ota_record *r, uint32_t *len, uint32_t generation, uint32_t kv)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->hdr.magic = OTA_RECORD_MAGIC;
	r->hdr.version = OTA_RECORD_VERSION;
	r->hdr.header_size = sizeof(r->hdr);
	r->hdr.stage_count = 2;
	r->hdr.length = sizeof(r->hdr) + 2 * sizeof(struct ota_stage_record);
	r->hdr.generation = generation;
	r->hdr.reset_reason = OTA_RESET_COLD;
	r->hdr.lifecycle = OTA_LC_PROD;
	memset(r->hdr.device_id, 0x11, sizeof(r->hdr.device_id));
	r->hdr.epoch = 1;
	r->hdr.min_svn = 3;
	r->hdr.floor_rom_ext = 1;
	r->hdr.floor_bl0 = 2;
	r->hdr.flags = OTA_RECORD_F_TAG_BOOT_ENABLED;
	r->hdr.tag_key_version = kv;
	r->hdr.boot_status = OTA_OK;
	r->hdr.chain_max_svn = 16;
	r->hdr.boot_time_ns = 12345678;
	for (i = 0; i < 2; i++) {
		struct ota_stage_record *s = &r->stage[i];

		s->stage = i ? OTA_STAGE_BL0 : OTA_STAGE_ROM_EXT;
		s->slot = OTA_SLOT_A;
		s->status = OTA_OK;
		s->path = OTA_PATH_TAG;
		s->sig_scheme = OTA_SCHEME_ECDSA_P256;
		s->delegation_depth = i;
		s->security_version = 2 + i;
		s->tag_key_version = kv;
		memset(s->measurement, 0xa0 + i, sizeof(s->measurement));
		memset(s->key_ids[0], 0xb0, OTA_KEY_ID_BYTES);
		if (i)
			memset(s->key_ids[1], 0xb1, OTA_KEY_ID_BYTES);
		s->verify_time_ns = 150000;
		s->flags = OTA_STAGE_F_BOOTED;
	}
	r->hdr.flags |= OTA_RECORD_F_UPDATE_SECTION;
	r->hdr.length = ota_record_length(2, r->hdr.flags);
	{
		/* The update section: on trial in BL0 slot B, A the primary. */
		struct ota_record_update *u = (struct ota_record_update *)ota_record_update_of(r);
		static const char *const versions[] = { "re-1", "re-1", "bl0-1.0", "bl0-2.0" };

		u->update_state = OTA_UPDATE_TRIAL;
		u->primary_slot = OTA_SLOT_A;
		u->running_rom_ext_slot = OTA_SLOT_A;
		u->running_bl0_slot = OTA_SLOT_B;
		u->revocation_sequence = 3;
		for (i = 0; i < OTA_STAGE_COUNT * OTA_SLOT_COUNT; i++) {
			u->slot[i].stage = i / OTA_SLOT_COUNT + 1;
			u->slot[i].slot = i % OTA_SLOT_COUNT;
			u->slot[i].flags = OTA_RECORD_SLOT_F_PRESENT;
			u->slot[i].security_version = 2 + i;
			memcpy(u->slot[i].version, versions[i], strlen(versions[i]));
		}
		u->slot[0].flags |= OTA_RECORD_SLOT_F_RUNNING | OTA_RECORD_SLOT_F_VERIFIED;
		u->slot[2].flags |= OTA_RECORD_SLOT_F_PRIMARY;
		u->slot[3].flags |= OTA_RECORD_SLOT_F_RUNNING | OTA_RECORD_SLOT_F_VERIFIED;
	}
	ck_assert_uint_eq(ota_record_validate(r, r->hdr.length), OTA_OK);
	*len = r->hdr.length;
}

static bool fake_available(const void *impl)
{
	const struct fake_kernel *k = impl;

	return k && k->available;
}

static int fake_resolve(void *impl)
{
	return fake_available(impl) ? 0 : -ENOENT;
}

static int fake_request(void *impl, uint8_t cmd, uint32_t index, const struct genl_args *args,
			uint64_t timeout_usec, genl_done_fn done, void *userdata);

/* The fake kernel, plugged in where otattestd takes its transport (transport.h). */
static const struct transport_ops fake_transport = {
	.request = fake_request,
	.available = fake_available,
	.events_joined = fake_available,
	.resolve = fake_resolve,
};

static struct nlmsghdr *msg_start(uint8_t *buf, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *gh;

	nlh->nlmsg_type = FAKE_FAMILY;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = OTATTEST_GENL_VERSION;
	return nlh;
}

static void fake_event(uint32_t event, uint32_t a, uint32_t b)
{
	static uint8_t buf[4096];
	struct nlmsghdr *nlh = msg_start(buf, OTATTEST_CMD_EVENT);
	struct genl_result res;

	mnl_attr_put_u32(nlh, OTATTEST_A_EVENT, event);
	mnl_attr_put_u32(nlh, OTATTEST_A_DEVICE, 0);
	if (event == OTATTEST_EVENT_ROTATE_PROGRESS) {
		mnl_attr_put_u32(nlh, OTATTEST_A_PROGRESS_DONE, a);
		mnl_attr_put_u32(nlh, OTATTEST_A_PROGRESS_TOTAL, b);
	}
	if (event == OTATTEST_EVENT_RECORD_CHANGED)
		mnl_attr_put_u32(nlh, OTATTEST_A_GENERATION, a);
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), 0);
	device_on_event(fake.m, event, res.tb);
}

static int on_progress_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	uintptr_t step = (uintptr_t)userdata;

	fake_event(OTATTEST_EVENT_ROTATE_PROGRESS, (uint32_t)step, 2);
	return 0;
}

static int on_fire(sd_event_source *s, uint64_t usec, void *userdata)
{
	static uint8_t buf[65536];
	struct fake_req *r = userdata;
	struct genl_result res;
	struct nlmsghdr *nlh;

	memset(&res, 0, sizeof(res));
	r->g->pending--;
	if (!fake.available) {
		ota_err_set_status(&res.err, OTA_HOST_DEVICE_GONE);
		r->done(r->userdata, &res);
		free(r);
		return 0;
	}
	if (cfg.fail_errno[r->cmd]) {
		ota_err_from_netlink(&res.err, cfg.fail_errno[r->cmd], cfg.fail_status[r->cmd],
				     cfg.fail_msg[r->cmd]);
		r->done(r->userdata, &res);
		free(r);
		return 0;
	}
	nlh = msg_start(buf, r->cmd);
	mnl_attr_put_u32(nlh, OTATTEST_A_DEVICE, r->index);
	switch (r->cmd) {
	case OTATTEST_CMD_GET_DEVICE:
		mnl_attr_put_u32(nlh, OTATTEST_A_STATE, OTA_DEV_READY);
		mnl_attr_put_u32(nlh, OTATTEST_A_STATE_DETAIL, 0);
		mnl_attr_put_u32(nlh, OTATTEST_A_GENERATION, fake.record.hdr.generation);
		break;
	case OTATTEST_CMD_GET_RECORD:
		mnl_attr_put(nlh, OTATTEST_A_RECORD, fake.record_len, &fake.record);
		mnl_attr_put_u32(nlh, OTATTEST_A_GENERATION, fake.record.hdr.generation);
		break;
	case OTATTEST_CMD_ATTEST: {
		uint8_t ev[128];

		/* "Evidence" the test can recognise: a marker and the nonce. */
		memcpy(ev, "EVIDENCE", 8);
		memcpy(ev + 8, r->nonce, r->nonce_len);
		mnl_attr_put(nlh, OTATTEST_A_EVIDENCE, 8 + r->nonce_len, ev);
		break;
	}
	case OTATTEST_CMD_GET_CERTS:
		mnl_attr_put(nlh, OTATTEST_A_CERT, 5, "leaf!");
		mnl_attr_put(nlh, OTATTEST_A_CERT, 4, "root");
		break;
	case OTATTEST_CMD_ROTATE_TAGS: {
		uint32_t kv = fake.record.hdr.tag_key_version;

		mnl_attr_put_u32(nlh, OTATTEST_A_KEY_VERSION_OLD, kv);
		mnl_attr_put_u32(nlh, OTATTEST_A_KEY_VERSION_NEW, kv + 1);
		mnl_attr_put_u32(nlh, OTATTEST_A_STAGES_RETAGGED, 2);
		build_record(&fake.record, &fake.record_len, fake.record.hdr.generation + 2, kv + 1);
		break;
	}
	case OTATTEST_CMD_INSTALL_BEGIN:
		fake_install.length = r->args.image_length;
		fake_install.received = 0;
		fake_install.stage = r->args.stage;
		fake_install.slot = r->args.slot == OTA_UPDATE_SLOT_OTHER ? OTA_SLOT_A : r->args.slot;
		fake_install.dry_run = r->args.install_flags & OTA_INSTALL_F_DRY_RUN;
		/* BEGIN and CHUNK say where the session stands */
		__attribute__((fallthrough));
	case OTATTEST_CMD_INSTALL_CHUNK:
		if (r->cmd == OTATTEST_CMD_INSTALL_CHUNK) {
			/* The kernel holds chunks to the session; so does this fake. */
			if (r->args.image_offset != fake_install.received ||
			    r->args.chunk_len > fake_install.length - fake_install.received ||
			    fake_install.received + r->args.chunk_len > sizeof(fake_install.image)) {
				ota_err_from_netlink(&res.err, EPROTO, OTA_INSTALL_BAD_OFFSET, NULL);
				r->done(r->userdata, &res);
				free(r);
				return 0;
			}
			memcpy(fake_install.image + fake_install.received, r->chunk, r->args.chunk_len);
			fake_install.received += (uint32_t)r->args.chunk_len;
		}
		mnl_attr_put_u32(nlh, OTATTEST_A_STAGE, fake_install.stage);
		mnl_attr_put_u32(nlh, OTATTEST_A_SLOT, fake_install.slot);
		mnl_attr_put_u32(nlh, OTATTEST_A_IMAGE_OFFSET, fake_install.received);
		mnl_attr_put_u32(nlh, OTATTEST_A_IMAGE_LENGTH, fake_install.length);
		break;
	case OTATTEST_CMD_INSTALL_FINISH: {
		uint8_t meas[OTA_SHA256_BYTES];
		uint32_t i;

		for (i = 0; i < fake_install.received; i++)
			if (fake_install.image[i] != image_byte(i))
				break;
		if (fake_install.received != fake_install.length || i != fake_install.length) {
			ota_err_from_netlink(&res.err, EKEYREJECTED, OTA_SIG_ECDSA_INVALID, NULL);
			r->done(r->userdata, &res);
			free(r);
			return 0;
		}
		memset(meas, 0x5a, sizeof(meas));
		mnl_attr_put_u32(nlh, OTATTEST_A_STAGE, fake_install.stage);
		mnl_attr_put_u32(nlh, OTATTEST_A_SLOT, fake_install.slot);
		mnl_attr_put_u32(nlh, OTATTEST_A_IMAGE_LENGTH, fake_install.length);
		mnl_attr_put_u32(nlh, OTATTEST_A_SVN, 7);
		mnl_attr_put_u32(nlh, OTATTEST_A_INSTALL_FLAGS, fake_install.dry_run
									? OTA_INSTALL_RESULT_F_DRY_RUN
									: OTA_INSTALL_RESULT_F_WRITTEN);
		mnl_attr_put(nlh, OTATTEST_A_MEASUREMENT, sizeof(meas), meas);
		mnl_attr_put_strz(nlh, OTATTEST_A_VERSION, "bl0-2.0");
		break;
	}
	case OTATTEST_CMD_REVOKE:
		/*
		 * The test names the device's answer in the command's value:
		 * a status to fail with exactly as otattest.ko reports it
		 * (errno of its class, message, status in the cookie).
		 */
		if (r->revocation.value) {
			ota_err_from_netlink(&res.err, ota_status_errno(r->revocation.value),
					     r->revocation.value, ota_status_message(r->revocation.value));
			r->done(r->userdata, &res);
			free(r);
			return 0;
		}
		__attribute__((fallthrough));
	case OTATTEST_CMD_COMMIT:
	case OTATTEST_CMD_RATCHET:
		mnl_attr_put_u32(nlh, OTATTEST_A_BOOT_STATUS, OTA_OK);
		mnl_attr_put_u32(nlh, OTATTEST_A_GENERATION, fake.record.hdr.generation);
		mnl_attr_put_u32(nlh, OTATTEST_A_SLOT, OTA_SLOT_B);
		mnl_attr_put_u32(nlh, OTATTEST_A_PRIMARY_SLOT, OTA_SLOT_B);
		mnl_attr_put_u32(nlh, OTATTEST_A_FLOOR_ROM_EXT, 1);
		mnl_attr_put_u32(nlh, OTATTEST_A_FLOOR_BL0, r->cmd == OTATTEST_CMD_RATCHET ? r->args.floor : 2);
		mnl_attr_put_u32(nlh, OTATTEST_A_REVOCATION_SEQUENCE, 3);
		break;
	default:
		break;
	}
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), 0);
	res.ok = true;
	/* As otattest.ko does: the new record's event goes out before the reply. */
	if (r->cmd == OTATTEST_CMD_ROTATE_TAGS)
		fake_event(OTATTEST_EVENT_RECORD_CHANGED, fake.record.hdr.generation, 0);
	r->done(r->userdata, &res);
	free(r);
	return 0;
}

static int fake_request(void *impl, uint8_t cmd, uint32_t index, const struct genl_args *args,
			uint64_t timeout_usec, genl_done_fn done, void *userdata)
{
	struct fake_kernel *g = impl;
	struct fake_req *r;
	uint64_t delay = cfg.delay_usec[cmd];

	if (!g->available)
		return -ENOENT;
	/*
	 * The daemon bounds nonces (and SVNs) before anything reaches the
	 * kernel. One out of bounds arriving here is that check missing: the
	 * fake kernel dies, so the test's next call fails.
	 */
	if ((cmd == OTATTEST_CMD_ATTEST || cmd == OTATTEST_CMD_STABLE_SIGN) &&
	    (!args || !args->nonce || args->nonce_len < OTA_NONCE_MIN ||
	     args->nonce_len > OTA_NONCE_MAX || (cmd == OTATTEST_CMD_STABLE_SIGN && !args->has_svn))) {
		fprintf(stderr, "fake kernel: command %u reached the kernel with a %zu-byte nonce\n",
			cmd, args && args->nonce ? args->nonce_len : (size_t)0);
		_exit(97);
	}
	/* The same for the update commands' arguments: the daemon bounds each. */
	if ((cmd == OTATTEST_CMD_INSTALL_BEGIN &&
	     (!args || args->stage < OTA_STAGE_ROM_EXT || args->stage > OTA_STAGE_BL0 ||
	      (args->slot > OTA_SLOT_B && args->slot != OTA_UPDATE_SLOT_OTHER) || !args->image_length)) ||
	    (cmd == OTATTEST_CMD_INSTALL_CHUNK &&
	     (!args || !args->chunk || !args->chunk_len || args->chunk_len > OTA_INSTALL_CHUNK_MAX)) ||
	    (cmd == OTATTEST_CMD_COMMIT && (!args || !args->has_slot || args->slot > OTA_SLOT_B)) ||
	    (cmd == OTATTEST_CMD_RATCHET && (!args || !args->has_floor || args->floor > OTA_SVN_LIMIT)) ||
	    (cmd == OTATTEST_CMD_REVOKE && (!args || !args->revocation))) {
		fprintf(stderr, "fake kernel: command %u reached the kernel with bad arguments\n", cmd);
		_exit(98);
	}
	r = calloc(1, sizeof(*r));
	ck_assert_ptr_nonnull(r);
	r->g = g;
	if (args) {
		r->args = *args;
		r->args.nonce = NULL;
		r->args.chunk = NULL;
		r->args.revocation = NULL;
		if (args->chunk)
			memcpy(r->chunk, args->chunk, args->chunk_len);
		if (args->revocation)
			memcpy(&r->revocation, args->revocation, sizeof(r->revocation));
	}
	r->cmd = cmd;
	r->index = index;
	r->done = done;
	r->userdata = userdata;
	if (args && args->nonce) {
		memcpy(r->nonce, args->nonce, args->nonce_len);
		r->nonce_len = args->nonce_len;
	}
	g->pending++;
	if (cmd == OTATTEST_CMD_ROTATE_TAGS) {
		sd_event_add_time_relative(g->event, NULL, CLOCK_MONOTONIC, delay / 3, 1, on_progress_timer,
					   (void *)(uintptr_t)1);
		sd_event_add_time_relative(g->event, NULL, CLOCK_MONOTONIC,
					   cfg.late_rotation_progress ? delay + 50000 : 2 * delay / 3, 1,
					   on_progress_timer, (void *)(uintptr_t)2);
	}
	/*
	 * Accuracy 1 us, as the progress timers above: sd-event's default (0)
	 * lets a timer fire up to 250 ms late, out of order with the others.
	 */
	return sd_event_add_time_relative(g->event, NULL, CLOCK_MONOTONIC, delay, 1, on_fire, r);
}

/* ---------------- processes ---------------- */

static char dir[64], address[160];
static pid_t bus_pid, server_pid;

static int on_usr(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	fake_event(si->ssi_signo == SIGUSR1 ? OTATTEST_EVENT_DEVICE_REMOVED : OTATTEST_EVENT_DEVICE_ADDED,
		   0, 0);
	return 0;
}

/*
 * SIGWINCH: the device booted again and BL0's tag did not match (it booted
 * on the signature path, re-tagged). SIGURG: the record moved on within the
 * same boot (its stage records unchanged).
 */
static int on_reboot(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	struct ota_stage_record *bl0 = &fake.record.stage[1];
	uint32_t gen = fake.record.hdr.generation + 1;

	if (si->ssi_signo == SIGWINCH) {
		build_record(&fake.record, &fake.record_len, gen, fake.record.hdr.tag_key_version);
		bl0->path = OTA_PATH_SIGNATURE_RETAGGED;
		bl0->path_reason = OTA_REASON_TAG_MISMATCH;
		bl0->verify_time_ns += gen; /* another boot took another time */
	} else {
		fake.record.hdr.generation = gen;
	}
	fake_event(OTATTEST_EVENT_RECORD_CHANGED, gen, 0);
	return 0;
}

static void run_server(void)
{
	static struct manager m;
	sigset_t mask;
	struct device *d;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	log_setup(LOG_TARGET_STDERR, LOG_WARNING);
	memset(&m, 0, sizeof(m));
	ck_assert_int_ge(sd_event_new(&m.event), 0);
	m.bus_address = address;
	m.skip_polkit = !cfg.use_polkit;
	m.request_timeout_usec = 5000000;
	m.admin_timeout_usec = 5000000;
	m.image_read_timeout_usec = cfg.image_read_timeout_usec;
	client_table_init(&m.clients, &cfg.limits);
	fake.event = m.event;
	fake.m = &m;
	fake.available = true;
	build_record(&fake.record, &fake.record_len, 4, 1);
	m.transport = (struct transport){ .ops = &fake_transport, .impl = &fake };
	ck_assert_int_eq(manager_setup_signals(&m), 0);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGWINCH);
	sigaddset(&mask, SIGURG);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sd_event_add_signal(m.event, NULL, SIGUSR1, on_usr, NULL);
	sd_event_add_signal(m.event, NULL, SIGUSR2, on_usr, NULL);
	sd_event_add_signal(m.event, NULL, SIGWINCH, on_reboot, NULL);
	sd_event_add_signal(m.event, NULL, SIGURG, on_reboot, NULL);
	ck_assert_int_eq(bus_setup(&m), 0);
	d = device_get(&m, 0);
	ck_assert_ptr_nonnull(d);
	device_set_present(d, true);
	_exit(sd_event_loop(m.event) < 0 ? 1 : 0);
}

/*
 * The socket file exists from bind() on, a moment before dbus-daemon
 * listens: retry until a connection completes its Hello.
 */
static sd_bus *connect_bus(void)
{
	int i;

	for (i = 0; i < 200; i++) {
		sd_bus *bus = NULL;

		if (sd_bus_new(&bus) >= 0 && sd_bus_set_address(bus, address) >= 0 &&
		    sd_bus_set_bus_client(bus, true) >= 0 && sd_bus_start(bus) >= 0) {
			const char *unique;

			if (sd_bus_get_unique_name(bus, &unique) >= 0)
				return bus;
		}
		sd_bus_flush_close_unref(bus);
		usleep(10000);
	}
	ck_abort_msg("cannot connect to %s", address);
	return NULL;
}

static bool name_has_owner(sd_bus *bus)
{
	sd_bus_message *reply = NULL;
	int has = 0;

	if (sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
			       "org.freedesktop.DBus", "NameHasOwner", NULL, &reply, "s", OTA_BUS_NAME) < 0)
		return false;
	sd_bus_message_read(reply, "b", &has);
	sd_bus_message_unref(reply);
	return has;
}

static void wait_until(sd_bus *bus, bool (*cond)(sd_bus *))
{
	int i;

	for (i = 0; i < 500 && !cond(bus); i++)
		usleep(10000);
	ck_assert_msg(cond(bus), "timed out waiting");
}

static sd_bus *connect_bus(void);

static void start(void)
{
	static const char conf[] =
		"<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
		" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
		"<busconfig><type>system</type><listen>unix:path=%s/bus</listen>\n"
		"<auth>EXTERNAL</auth><policy context=\"default\"><allow user=\"*\"/>\n"
		"<allow own=\"*\"/><allow send_destination=\"*\"/><allow receive_sender=\"*\"/>\n"
		"</policy></busconfig>\n";
	char path[128], sock[128];
	FILE *f;
	int i;

	snprintf(dir, sizeof(dir), "/tmp/otattestd-test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	chmod(dir, 0755);
	snprintf(path, sizeof(path), "%s/bus.conf", dir);
	snprintf(sock, sizeof(sock), "%s/bus", dir);
	snprintf(address, sizeof(address), "unix:path=%s", sock);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, conf, dir);
	fclose(f);

	bus_pid = fork();
	ck_assert_int_ge(bus_pid, 0);
	if (bus_pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(null, 2); /* "cannot raise fd limit" noise */
		execlp("dbus-daemon", "dbus-daemon", "--config-file", path, "--nofork", "--nopidfile",
		       (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 500 && access(sock, F_OK) != 0; i++)
		usleep(10000);
	ck_assert_msg(access(sock, F_OK) == 0, "dbus-daemon did not start");
	chmod(sock, 0777);
	/*
	 * The file exists from bind() on, a moment before dbus-daemon
	 * listens: the server connects once a client could (it would fail
	 * with ECONNREFUSED otherwise, on a loaded machine now and then).
	 */
	sd_bus_flush_close_unref(connect_bus());

	server_pid = fork();
	ck_assert_int_ge(server_pid, 0);
	if (server_pid == 0)
		run_server();
}

static int stop(void)
{
	int status = 0;

	if (server_pid > 0) {
		kill(server_pid, SIGKILL);
		waitpid(server_pid, &status, 0);
	}
	if (bus_pid > 0) {
		kill(bus_pid, SIGKILL);
		waitpid(bus_pid, NULL, 0);
	}
	{
		char p[128];

		snprintf(p, sizeof(p), "%s/bus.conf", dir);
		unlink(p);
		snprintf(p, sizeof(p), "%s/bus", dir);
		unlink(p);
		rmdir(dir);
	}
	return status;
}

static void defaults(void)
{
	struct client_limits lim = CLIENT_LIMITS_DEFAULT;

	memset(&cfg, 0, sizeof(cfg));
	cfg.limits = lim;
	cfg.delay_usec[OTATTEST_CMD_GET_DEVICE] = 1000;
	cfg.delay_usec[OTATTEST_CMD_GET_RECORD] = 1000;
	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 20000;
	cfg.delay_usec[OTATTEST_CMD_GET_CERTS] = 1000;
	cfg.delay_usec[OTATTEST_CMD_ROTATE_TAGS] = 300000;
}

#define DEV_PATH OTA_BUS_DEVICE_PREFIX "/otattest0"

static sd_bus *client;

static bool ready(sd_bus *bus)
{
	char *state = NULL;
	bool ok;

	if (!name_has_owner(bus))
		return false;
	if (sd_bus_get_property_string(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "State", NULL,
				       &state) < 0)
		return false;
	ok = strcmp(state, "ready") == 0;
	free(state);
	if (ok) {
		int valid = 0;

		ok = sd_bus_get_property_trivial(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						 "RecordValid", NULL, 'b', &valid) >= 0 && valid;
	}
	return ok;
}

static void setup(void)
{
	defaults();
}

static void go(void)
{
	start();
	client = connect_bus();
	wait_until(client, ready);
}

static void finish(void)
{
	sd_bus_flush_close_unref(client);
	client = NULL;
	stop();
}

/* Call method with one "ay" argument (sd_bus_call_method's "ay" takes elements, not a buffer). */
static int call_bytes(sd_bus *bus, const char *method, const void *p, size_t len, sd_bus_error *e,
		      sd_bus_message **reply)
{
	sd_bus_message *call = NULL;
	int r;

	r = sd_bus_message_new_method_call(bus, &call, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, method);
	if (r >= 0)
		r = sd_bus_message_append_array(call, 'y', p, len);
	if (r >= 0)
		r = sd_bus_call(bus, call, 5000000, e, reply);
	sd_bus_message_unref(call);
	return r;
}

static sd_bus_message *new_attest(sd_bus *bus, size_t len)
{
	sd_bus_message *call = NULL;

	ck_assert_int_ge(sd_bus_message_new_method_call(bus, &call, OTA_BUS_NAME, DEV_PATH,
							OTA_BUS_DEVICE_IFACE, "Attest"), 0);
	ck_assert_int_ge(sd_bus_message_append_array(call, 'y', "0123456789abcdef0123456789abcdef", len), 0);
	return call;
}

struct replies {
	int ok, busy, other;
	char last_error[256];
};

static int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct replies *r = userdata;

	if (sd_bus_message_is_method_error(m, OTA_BUS_ERROR_PREFIX "Busy"))
		r->busy++;
	else if (sd_bus_message_is_method_error(m, NULL)) {
		r->other++;
		snprintf(r->last_error, sizeof(r->last_error), "%s", sd_bus_message_get_error(m)->name);
	} else
		r->ok++;
	return 0;
}

static void pump(sd_bus *bus, struct replies *r, int want, int max_ms)
{
	int i;

	for (i = 0; i < max_ms / 20 && r->ok + r->busy + r->other < want; i++) {
		sd_bus_wait(bus, 20000);
		while (sd_bus_process(bus, NULL) > 0)
			;
	}
}

/* Call Attest with a nonce of len bytes; returns the error name or NULL. */
static char *attest(sd_bus *bus, size_t len, uint8_t fill)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	uint8_t nonce[128];
	char *name = NULL;
	int r;

	memset(nonce, fill, sizeof(nonce));
	r = call_bytes(bus, "Attest", nonce, len, &e, &reply);
	if (r < 0) {
		name = strdup(e.name);
	} else {
		const void *p;
		size_t n;

		ck_assert_int_ge(sd_bus_message_read_array(reply, 'y', &p, &n), 0);
		ck_assert_uint_eq(n, 8 + len);
		ck_assert_int_eq(memcmp(p, "EVIDENCE", 8), 0);
		ck_assert_int_eq(memcmp((const uint8_t *)p + 8, nonce, len), 0);
	}
	sd_bus_error_free(&e);
	sd_bus_message_unref(reply);
	return name;
}

/*
 * Run fn(bus) in a child as uid 65534 (nobody: not root, in no group of
 * ours; the test bus lets it send anything), on a connection of its own.
 * fn returns 0 for success; the child's exit status says which check
 * failed.
 */
static void as_nobody(int (*fn)(sd_bus *bus))
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		gid_t none = 65534;
		sd_bus *bus;

		if (setgroups(1, &none) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
			_exit(90);
		bus = connect_bus();
		_exit(fn(bus));
	}
	waitpid(pid, &status, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child as nobody: exit %d",
		      WEXITSTATUS(status));
}

/* ---------------- tests ---------------- */

/*
 * Annotations for code generators (org.gtk.GDBus.*) are in the shipped
 * XML only: the bus does not carry them. Drop them, and the <arg ...></arg>
 * they leave becomes the <arg .../> sd-bus writes.
 */
static void strip_codegen_annotations(char *x)
{
	static const char open_ann[] = "<annotationname=\"org.gtk.", empty_arg[] = "></arg>";
	char *p, *end;

	while ((p = strstr(x, open_ann))) {
		end = strstr(p, "/>");
		ck_assert_ptr_nonnull(end);
		memmove(p, end + 2, strlen(end + 2) + 1);
	}
	while ((p = strstr(x, empty_arg))) {
		memcpy(p, "/>", 2);
		memmove(p + 2, p + strlen(empty_arg), strlen(p + strlen(empty_arg)) + 1);
	}
}

/* The <interface> block for iface from an introspection document. */
static char *interface_block(const char *xml, const char *iface)
{
	char open_tag[160], *start, *end, *out, *w;
	const char *p;

	snprintf(open_tag, sizeof(open_tag), "<interface name=\"%s\">", iface);
	start = strstr(xml, open_tag);
	if (!start)
		return NULL;
	end = strstr(start, "</interface>");
	if (!end)
		return NULL;
	end += strlen("</interface>");
	out = malloc((size_t)(end - start) + 1);
	/* Whitespace-insensitive: drop it all outside attribute values. */
	for (p = start, w = out; p < end; p++) {
		bool in_quote = false;
		const char *q;

		for (q = start; q < p; q++)
			if (*q == '"')
				in_quote = !in_quote;
		if (!in_quote && (*p == ' ' || *p == '\n' || *p == '\t'))
			continue;
		*w++ = *p;
	}
	*w = '\0';
	strip_codegen_annotations(out);
	return out;
}

/* Name the first difference briefly (check's messages are bounded). */
static void assert_same_xml(const char *live, const char *stored, const char *iface, const char *file)
{
	size_t i = 0, from;

	while (live[i] && live[i] == stored[i])
		i++;
	if (!live[i] && !stored[i])
		return;
	from = i > 40 ? i - 40 : 0;
	ck_abort_msg("%s: live differs from %s at byte %zu: live \"%.80s\" stored \"%.80s\"", iface,
		     file, i, live + from, stored + from);
}

static char *introspect(sd_bus *bus, const char *path)
{
	sd_bus_message *reply = NULL;
	const char *xml;
	char *copy;

	ck_assert_int_ge(sd_bus_call_method(bus, OTA_BUS_NAME, path, "org.freedesktop.DBus.Introspectable",
					    "Introspect", NULL, &reply, NULL), 0);
	ck_assert_int_ge(sd_bus_message_read(reply, "s", &xml), 0);
	copy = strdup(xml);
	sd_bus_message_unref(reply);
	return copy;
}

START_TEST(introspection_matches_xml)
{
	const char *file = getenv("OTATTEST_XML") ? getenv("OTATTEST_XML") : "daemon/org.otattest.BootAttest1.xml";
	char *live_dev, *live_mgr, *stored = NULL, *a, *b;
	uint8_t *buf;
	FILE *f;
	long n;

	go();
	live_dev = introspect(client, DEV_PATH);
	live_mgr = introspect(client, OTA_BUS_ROOT_PATH);
	if (getenv("OTATTEST_DUMP_XML")) {
		printf("%s\n%s\n", live_mgr, live_dev);
		fflush(stdout);
	}
	f = fopen(file, "r");
	ck_assert_msg(f != NULL, "cannot open %s", file);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	stored = (char *)buf;

	a = interface_block(live_dev, OTA_BUS_DEVICE_IFACE);
	b = interface_block(stored, OTA_BUS_DEVICE_IFACE);
	ck_assert_ptr_nonnull(a);
	ck_assert_msg(b != NULL, "%s lacks interface %s", file, OTA_BUS_DEVICE_IFACE);
	assert_same_xml(a, b, OTA_BUS_DEVICE_IFACE, file);
	free(a);
	free(b);
	a = interface_block(live_mgr, OTA_BUS_MANAGER_IFACE);
	b = interface_block(stored, OTA_BUS_MANAGER_IFACE);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	assert_same_xml(a, b, OTA_BUS_MANAGER_IFACE, file);
	ck_assert_ptr_nonnull(strstr(live_mgr, "org.freedesktop.DBus.ObjectManager"));
	free(a);
	free(b);
	free(live_dev);
	free(live_mgr);
	free(stored);
	finish();
}
END_TEST

START_TEST(properties_and_record_from_cache)
{
	sd_bus_message *reply = NULL;
	struct ota_record want;
	uint32_t want_len, u;
	const void *p;
	size_t n;
	char *s = NULL;

	go();
	build_record(&want, &want_len, 4, 1);
	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "Generation", NULL, 'u', &u), 0);
	ck_assert_uint_eq(u, 4);
	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "MinSvn", NULL, 'u', &u), 0);
	ck_assert_uint_eq(u, 3);
	ck_assert_int_ge(sd_bus_get_property_string(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						    "Lifecycle", NULL, &s), 0);
	ck_assert_str_eq(s, "prod");
	free(s);

	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "GetRecord", NULL, &reply, NULL), 0);
	ck_assert_int_ge(sd_bus_message_read_array(reply, 'y', &p, &n), 0);
	ck_assert_uint_eq(n, want_len);
	ck_assert_int_eq(memcmp(p, &want, n), 0);
	sd_bus_message_unref(reply);

	/* Stages: two dictionaries with the key ids of each chain. */
	reply = NULL;
	ck_assert_int_ge(sd_bus_get_property(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Stages",
					     NULL, &reply, "a" OTA_BUS_DICT_SIG), 0);
	ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', OTA_BUS_DICT_SIG), 0);
	for (u = 0; u < 2; u++) {
		uint32_t svn = 0, depth = 99, keys = 0;
		const char *stage = NULL, *path = NULL;
		size_t mlen = 0;

		ck_assert_int_gt(sd_bus_message_enter_container(reply, 'a', "{sv}"), 0);
		while (sd_bus_message_enter_container(reply, 'e', "sv") > 0) {
			const char *key;

			ck_assert_int_ge(sd_bus_message_read(reply, "s", &key), 0);
			if (!strcmp(key, "stage"))
				ck_assert_int_ge(sd_bus_message_read(reply, "v", "s", &stage), 0);
			else if (!strcmp(key, "path"))
				ck_assert_int_ge(sd_bus_message_read(reply, "v", "s", &path), 0);
			else if (!strcmp(key, "svn"))
				ck_assert_int_ge(sd_bus_message_read(reply, "v", "u", &svn), 0);
			else if (!strcmp(key, "delegation_depth"))
				ck_assert_int_ge(sd_bus_message_read(reply, "v", "u", &depth), 0);
			else if (!strcmp(key, "measurement")) {
				ck_assert_int_ge(sd_bus_message_enter_container(reply, 'v', "ay"), 0);
				ck_assert_int_ge(sd_bus_message_read_array(reply, 'y', &p, &mlen), 0);
				ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
			} else if (!strcmp(key, "key_ids")) {
				ck_assert_int_ge(sd_bus_message_enter_container(reply, 'v', "aay"), 0);
				ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "ay"), 0);
				while (sd_bus_message_read_array(reply, 'y', &p, &n) > 0)
					keys++;
				ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
				ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
			} else
				ck_assert_int_ge(sd_bus_message_skip(reply, "v"), 0);
			ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
		}
		ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
		ck_assert_str_eq(stage, u ? "bl0" : "rom_ext");
		ck_assert_str_eq(path, "tag");
		ck_assert_uint_eq(svn, 2 + u);
		ck_assert_uint_eq(mlen, 32);
		ck_assert_uint_eq(keys, depth + 1);
	}
	sd_bus_message_unref(reply);
	finish();
}
END_TEST

START_TEST(bad_arguments_get_named_errors)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char *name;

	go();
	name = attest(client, 15, 1);
	ck_assert_str_eq(name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	free(name);
	name = attest(client, 65, 1);
	ck_assert_str_eq(name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	free(name);
	/* Wrong signature: sd-bus's own check, the standard error. */
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Attest",
					    &e, NULL, "s", "0123456789abcdef"), 0);
	ck_assert_str_eq(e.name, SD_BUS_ERROR_INVALID_ARGS);
	sd_bus_error_free(&e);
	{
		sd_bus_message *call = NULL;

		ck_assert_int_ge(sd_bus_message_new_method_call(client, &call, OTA_BUS_NAME, DEV_PATH,
								OTA_BUS_DEVICE_IFACE, "SignWithStableKey"), 0);
		ck_assert_int_ge(sd_bus_message_append_array(call, 'y', "0123456789abcdef", 16), 0);
		ck_assert_int_ge(sd_bus_message_append(call, "u", 256), 0);
		ck_assert_int_lt(sd_bus_call(client, call, 0, &e, NULL), 0);
		sd_bus_message_unref(call);
	}
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	sd_bus_error_free(&e);
	/* A stable-key message of 15 and of 65 bytes, with a valid SVN. */
	for (size_t len = 15; len <= 65; len += 50) {
		static const uint8_t msg[65];
		sd_bus_message *call = NULL;

		ck_assert_int_ge(sd_bus_message_new_method_call(client, &call, OTA_BUS_NAME, DEV_PATH,
								OTA_BUS_DEVICE_IFACE, "SignWithStableKey"), 0);
		ck_assert_int_ge(sd_bus_message_append_array(call, 'y', msg, len), 0);
		ck_assert_int_ge(sd_bus_message_append(call, "u", 0), 0);
		ck_assert_int_lt(sd_bus_call(client, call, 0, &e, NULL), 0);
		sd_bus_message_unref(call);
		ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
		sd_bus_error_free(&e);
	}
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "UpdateReset", &e, NULL, "u", 7), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	sd_bus_error_free(&e);
	/* Unknown device, by name and by path. */
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
					    "GetDevice", &e, NULL, "s", "otattest9"), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "NoSuchDevice");
	sd_bus_error_free(&e);
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
					    "GetDevice", &e, NULL, "s", "../../etc"), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "NoSuchDevice");
	sd_bus_error_free(&e);
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, OTA_BUS_DEVICE_PREFIX "/otattest9",
					    OTA_BUS_DEVICE_IFACE, "GetRecord", &e, NULL, NULL), 0);
	ck_assert_str_eq(e.name, SD_BUS_ERROR_UNKNOWN_OBJECT);
	sd_bus_error_free(&e);
	/* And it keeps serving: the fake kernel saw no nonce out of bounds. */
	ck_assert_ptr_null(attest(client, 16, 2));
	ck_assert_ptr_null(attest(client, 64, 3));
	finish();
}
END_TEST

START_TEST(kernel_errors_keep_their_meaning)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;

	cfg.fail_errno[OTATTEST_CMD_GET_CERTS] = EKEYREJECTED;
	cfg.fail_status[OTATTEST_CMD_GET_CERTS] = OTA_SIG_ECDSA_INVALID;
	cfg.fail_msg[OTATTEST_CMD_GET_CERTS] = ota_status_message(OTA_SIG_ECDSA_INVALID);
	cfg.fail_errno[OTATTEST_CMD_ATTEST] = ETIMEDOUT;
	cfg.fail_status[OTATTEST_CMD_ATTEST] = OTA_HOST_TIMEOUT;
	cfg.fail_msg[OTATTEST_CMD_ATTEST] = ota_status_message(OTA_HOST_TIMEOUT);
	go();
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "GetCertificates", &e, NULL, NULL), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "VerificationFailed");
	ck_assert_str_eq(e.message, ota_status_message(OTA_SIG_ECDSA_INVALID));
	sd_bus_error_free(&e);
	ck_assert_int_lt(call_bytes(client, "Attest", "0123456789abcdef", 16, &e, NULL), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "Timeout");
	sd_bus_error_free(&e);
	finish();
}
END_TEST

/*
 * The kernel answers HOST_NO_DEVICE when the device went away between the
 * daemon's last look and the request (found by make soak, which unplugs
 * the device under load): a known object's device is absent, which is
 * DeviceUnavailable; NoSuchDevice is for names that never were devices.
 * The status decides, from the extack cookie: the message is another.
 */
START_TEST(device_gone_under_a_request_is_unavailable)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;

	cfg.fail_errno[OTATTEST_CMD_ATTEST] = ENODEV;
	cfg.fail_status[OTATTEST_CMD_ATTEST] = OTA_HOST_NO_DEVICE;
	cfg.fail_msg[OTATTEST_CMD_ATTEST] = "no such device, in other words";
	go();
	ck_assert_int_lt(call_bytes(client, "Attest", "0123456789abcdef", 16, &e, NULL), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "DeviceUnavailable");
	ck_assert_ptr_nonnull(strstr(e.message, "otattest0 went away"));
	sd_bus_error_free(&e);
	finish();
}
END_TEST

/* Order of replies, to show what waited for what (no clock involved). */
static char order[16];

static int on_order(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	size_t n = strlen(order);

	if (n + 1 < sizeof(order))
		order[n] = sd_bus_message_is_method_error(m, NULL) ? 'E' : *(const char *)userdata;
	return 0;
}

START_TEST(slow_attestation_does_not_block_reads)
{
	sd_bus_message *call = NULL;
	sd_bus *other;
	int i;

	/* The "device" takes 1.5 s to attest; everything else is at once. */
	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 1500000;
	go();
	other = connect_bus();
	memset(order, 0, sizeof(order));
	call = new_attest(client, 16);
	ck_assert_int_ge(sd_bus_call_async(client, NULL, call, on_order, "A", 5000000), 0);
	sd_bus_message_unref(call);
	sd_bus_flush(client);
	/* While it is outstanding, another client reads a property and the record. */
	ck_assert_int_ge(sd_bus_message_new_method_call(other, &call, OTA_BUS_NAME, DEV_PATH,
							"org.freedesktop.DBus.Properties", "Get"), 0);
	ck_assert_int_ge(sd_bus_message_append(call, "ss", OTA_BUS_DEVICE_IFACE, "Generation"), 0);
	ck_assert_int_ge(sd_bus_call_async(other, NULL, call, on_order, "P", 5000000), 0);
	sd_bus_message_unref(call);
	ck_assert_int_ge(sd_bus_message_new_method_call(other, &call, OTA_BUS_NAME, DEV_PATH,
							OTA_BUS_DEVICE_IFACE, "GetRecord"), 0);
	ck_assert_int_ge(sd_bus_call_async(other, NULL, call, on_order, "R", 5000000), 0);
	sd_bus_message_unref(call);
	for (i = 0; i < 1000 && strlen(order) < 3; i++) {
		sd_bus_wait(other, 5000);
		while (sd_bus_process(other, NULL) > 0)
			;
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	/* Both reads were answered first; the attestation still completed. */
	ck_assert_str_eq(order, "PRA");
	sd_bus_flush_close_unref(other);
	finish();
}
END_TEST

static int nobody_attests(sd_bus *bus)
{
	return attest(bus, 16, 1) == NULL ? 0 : 1;
}

/*
 * The bucket is the user's: a second connection of the same user gets
 * Busy too (a connection each used to buy a fresh bucket), another user
 * has its own.
 */
START_TEST(attest_rate_limited_per_user)
{
	sd_bus *same;
	char *name;
	int i;

	cfg.limits.attest_burst = 3;
	cfg.limits.attest_per_sec = 1;
	go();
	for (i = 0; i < 3; i++)
		ck_assert_ptr_null(attest(client, 16, (uint8_t)i));
	name = attest(client, 16, 9);
	ck_assert_ptr_nonnull(name);
	ck_assert_str_eq(name, OTA_BUS_ERROR_PREFIX "Busy");
	free(name);
	same = connect_bus();
	name = attest(same, 16, 9);
	ck_assert_ptr_nonnull(name);
	ck_assert_str_eq(name, OTA_BUS_ERROR_PREFIX "Busy");
	free(name);
	sd_bus_flush_close_unref(same);
	as_nobody(nobody_attests);
	usleep(1100000); /* one token back */
	ck_assert_ptr_null(attest(client, 16, 4));
	finish();
}
END_TEST

/* The queue is the user's too: requests from two of its connections share it. */
START_TEST(queue_bounded_per_user)
{
	struct replies rep = { 0 };
	sd_bus *other = NULL;
	int i;

	cfg.limits.max_queued = 2;
	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 500000;
	go();
	other = connect_bus();
	for (i = 0; i < 3; i++) {
		sd_bus *bus = i == 1 ? other : client;
		sd_bus_message *call = new_attest(bus, 16);

		ck_assert_int_ge(sd_bus_call_async(bus, NULL, call, on_reply, &rep, 5000000), 0);
		sd_bus_message_unref(call);
		ck_assert_int_ge(sd_bus_flush(bus), 0);
	}
	for (i = 0; i < 200 && rep.ok + rep.busy + rep.other < 3; i++) {
		pump(client, &rep, 3, 20);
		pump(other, &rep, 3, 20);
	}
	ck_assert_int_eq(rep.ok, 2);
	ck_assert_int_eq(rep.busy, 1);
	ck_assert_int_eq(rep.other, 0);
	/* Once they are answered the queue has room again. */
	ck_assert_ptr_null(attest(client, 16, 7));
	sd_bus_flush_close_unref(other);
	finish();
}
END_TEST

/*
 * Many connections of one user hold one entry of the client table: with
 * room for two users, root's six connections, each with an attestation
 * waiting, leave room for another user (a table of connections was full
 * after the second and refused everyone with LimitExceeded).
 */
/*
 * Ordinary users cannot lock the update agent out: with the table's share
 * for ordinary users full (one, here: nobody's attestation waiting on the
 * device), root's rotation is still admitted (it was LimitExceeded).
 */
static int nobody_holds_a_slot(sd_bus *bus)
{
	sd_bus_message *call = new_attest(bus, 16);
	int r = sd_bus_call(bus, call, 5000000, NULL, NULL);

	sd_bus_message_unref(call);
	return r < 0;
}

START_TEST(ordinary_users_cannot_fill_the_agents_share)
{
	sd_bus_message *reply = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	pid_t pid;
	int status;

	cfg.limits.max_clients = 1;
	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 1500000;
	go();
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		as_nobody(nobody_holds_a_slot);
		_exit(0);
	}
	usleep(400000); /* nobody's attestation waits on the (fake) device */
	ck_assert_msg(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "RotateTags",
					 &e, &reply, NULL) >= 0,
		      "root's RotateTags: %s", e.message ? e.message : "");
	sd_bus_message_unref(reply);
	waitpid(pid, &status, 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	finish();
}
END_TEST

/* GetHistory pages are rate-limited per user (there was no limit). */
START_TEST(history_rate_limited)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int i, ok = 0, busy = 0;

	cfg.limits.history_burst = 5;
	cfg.limits.history_per_sec = 1;
	go();
	for (i = 0; i < 20; i++) {
		sd_bus_message *reply = NULL;

		if (sd_bus_call_method(client, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
				       "GetHistory", &e, &reply, "stu", "", (uint64_t)0, 0u) >= 0)
			ok++;
		else if (sd_bus_error_has_name(&e, OTA_BUS_ERROR_PREFIX "Busy"))
			busy++;
		sd_bus_error_free(&e);
		sd_bus_message_unref(reply);
	}
	/* Five at once, and one a second meanwhile. */
	ck_assert_int_ge(ok, 5);
	ck_assert_int_le(ok, 7);
	ck_assert_int_eq(ok + busy, 20);
	finish();
}
END_TEST

START_TEST(connections_do_not_fill_the_table)
{
	struct replies rep = { 0 };
	sd_bus *conn[6];
	int i;

	cfg.limits.max_clients = 2;
	cfg.limits.max_queued = 8;
	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 800000;
	go();
	for (i = 0; i < 6; i++) {
		sd_bus_message *call;

		conn[i] = connect_bus();
		call = new_attest(conn[i], 16);
		ck_assert_int_ge(sd_bus_call_async(conn[i], NULL, call, on_reply, &rep, 5000000), 0);
		sd_bus_message_unref(call);
		ck_assert_int_ge(sd_bus_flush(conn[i]), 0);
	}
	usleep(200000); /* all six are waiting on the (fake) device */
	as_nobody(nobody_attests);
	for (i = 0; i < 300 && rep.ok + rep.busy + rep.other < 6; i++) {
		int k;

		for (k = 0; k < 6; k++)
			pump(conn[k], &rep, 6, 20);
	}
	ck_assert_msg(rep.ok == 6, "ok %d busy %d other %d (%s)", rep.ok, rep.busy, rep.other, rep.last_error);
	for (i = 0; i < 6; i++)
		sd_bus_flush_close_unref(conn[i]);
	finish();
}
END_TEST

struct rot {
	int progress;
	int finished;
	int record_changed;
};

static int on_rot_signal(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct rot *r = userdata;

	if (sd_bus_message_is_signal(m, OTA_BUS_DEVICE_IFACE, "RotationProgress"))
		r->progress++;
	else if (sd_bus_message_is_signal(m, OTA_BUS_DEVICE_IFACE, "RotationFinished"))
		r->finished++;
	else if (sd_bus_message_is_signal(m, OTA_BUS_DEVICE_IFACE, "RecordChanged"))
		r->record_changed++;
	return 0;
}

static uint32_t generation(void);
static void pump_until_generation(uint32_t want);

/*
 * A progress event read after the rotation was answered is the tail of
 * that rotation, not another one: RotationFinished once (the daemon took
 * it for a rotation it only observed and reported it again when the next
 * record came).
 */
START_TEST(rotation_finished_once_with_late_progress)
{
	sd_bus_message *reply = NULL;
	struct rot rot = { 0 };
	uint32_t gen;
	int i;

	cfg.late_rotation_progress = true;
	go();
	ck_assert_int_ge(sd_bus_add_match(client, NULL,
					  "type='signal',interface='" OTA_BUS_DEVICE_IFACE "'",
					  on_rot_signal, &rot), 0);
	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "RotateTags", NULL, &reply, NULL), 0);
	sd_bus_message_unref(reply);
	/* The late progress, and the rotation's record in the daemon's cache. */
	for (i = 0; i < 100 && (rot.progress < 2 || rot.record_changed < 1); i++) {
		sd_bus_wait(client, 20000);
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	ck_assert_int_eq(rot.progress, 2);
	ck_assert_int_ge(rot.record_changed, 1);
	gen = generation(); /* before the signal: the change may be done before we look */
	kill(server_pid, SIGURG); /* the next record */
	pump_until_generation(gen + 1);
	for (i = 0; i < 10; i++) {
		sd_bus_wait(client, 20000);
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	ck_assert_int_eq(rot.finished, 1);
	finish();
}
END_TEST

START_TEST(rotate_as_root_with_signals)
{
	sd_bus_message *reply = NULL;
	struct rot rot = { 0 };
	uint32_t old_kv, new_kv, n, kv;
	int i;

	go();
	ck_assert_int_ge(sd_bus_add_match(client, NULL,
					  "type='signal',interface='" OTA_BUS_DEVICE_IFACE "'",
					  on_rot_signal, &rot), 0);
	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "RotateTags", NULL, &reply, NULL), 0);
	ck_assert_int_ge(sd_bus_message_read(reply, "uuu", &old_kv, &new_kv, &n), 0);
	sd_bus_message_unref(reply);
	ck_assert_uint_eq(old_kv, 1);
	ck_assert_uint_eq(new_kv, 2);
	ck_assert_uint_eq(n, 2);
	for (i = 0; i < 100 && (rot.finished < 1 || rot.record_changed < 1); i++) {
		sd_bus_wait(client, 20000);
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	ck_assert_int_eq(rot.progress, 2);
	ck_assert_int_eq(rot.finished, 1);
	ck_assert_int_ge(rot.record_changed, 1);
	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "TagKeyVersion", NULL, 'u', &kv), 0);
	ck_assert_uint_eq(kv, 2);
	finish();
}
END_TEST

struct mismatch {
	int signals;
	uint32_t generation, kv, status;
	char stage[16], slot[4];
	size_t measurement_len;
};

static int on_tag_mismatch(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct mismatch *mm = userdata;
	const char *stage, *slot;
	const void *meas;

	if (!sd_bus_message_is_signal(m, OTA_BUS_DEVICE_IFACE, "TagMismatch"))
		return 0;
	ck_assert_int_ge(sd_bus_message_read(m, "ussu", &mm->generation, &stage, &slot, &mm->kv), 0);
	ck_assert_int_ge(sd_bus_message_read_array(m, 'y', &meas, &mm->measurement_len), 0);
	ck_assert_int_ge(sd_bus_message_read(m, "u", &mm->status), 0);
	snprintf(mm->stage, sizeof(mm->stage), "%s", stage);
	snprintf(mm->slot, sizeof(mm->slot), "%s", slot);
	mm->signals++;
	return 0;
}

static uint64_t tag_mismatches(void)
{
	uint64_t n = 0;

	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "TagMismatches", NULL, 't', &n), 0);
	return n;
}

static uint32_t generation(void)
{
	uint32_t g = 0;

	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "Generation", NULL, 'u', &g), 0);
	return g;
}

static void pump_until_generation(uint32_t want)
{
	int i;

	for (i = 0; i < 200 && generation() != want; i++) {
		sd_bus_wait(client, 10000);
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	ck_assert_uint_eq(generation(), want);
	/* The signal goes out before the property changes are read back. */
	while (sd_bus_process(client, NULL) > 0)
		;
}

START_TEST(tag_mismatch_signal_counter_and_reasons)
{
	struct mismatch mm = { 0 };
	struct ctl c = { 0 };
	struct ctl_device d;

	go();
	c.bus = client;
	ck_assert_int_ge(sd_bus_add_match(client, NULL,
					  "type='signal',interface='" OTA_BUS_DEVICE_IFACE "'",
					  on_tag_mismatch, &mm), 0);
	ck_assert_uint_eq(tag_mismatches(), 0);
	ck_assert_int_eq(ctl_get_device(&c, DEV_PATH, &d), 0);
	ck_assert_uint_eq(d.n_stages, 2);
	ck_assert_str_eq(d.stages[0].path_reason, "none");
	ck_assert_str_eq(d.stages[1].path_reason, "none");

	kill(server_pid, SIGWINCH);
	pump_until_generation(5);
	ck_assert_int_eq(mm.signals, 1);
	ck_assert_uint_eq(mm.generation, 5);
	ck_assert_str_eq(mm.stage, "bl0");
	ck_assert_str_eq(mm.slot, "a");
	ck_assert_uint_eq(mm.kv, 1);
	ck_assert_uint_eq(mm.measurement_len, OTA_SHA256_BYTES);
	ck_assert_uint_eq(mm.status, OTA_OK);
	ck_assert_uint_eq(tag_mismatches(), 1);
	ck_assert_int_eq(ctl_get_device(&c, DEV_PATH, &d), 0);
	ck_assert_str_eq(d.stages[0].path_reason, "none");
	ck_assert_str_eq(d.stages[1].path_reason, "tag-mismatch");
	ck_assert(!d.stages[0].debug);
	ck_assert(!d.stages[1].debug);

	/* The same boot's record moving on is not a second mismatch. */
	kill(server_pid, SIGURG);
	pump_until_generation(6);
	ck_assert_int_eq(mm.signals, 1);
	ck_assert_uint_eq(tag_mismatches(), 1);
	/* Another boot with a mismatch is. */
	kill(server_pid, SIGWINCH);
	pump_until_generation(7);
	ck_assert_int_eq(mm.signals, 2);
	ck_assert_uint_eq(tag_mismatches(), 2);
	finish();
}
END_TEST

/*
 * One page of GetHistory's generations, oldest first (device "" for all),
 * from since_usec; *next where the next page starts. Each entry names
 * otattest0, has a time and a record that validates, and its typed
 * numbers and stages agree with the record. -ENODEV for NoSuchDevice.
 */
static int history_page(const char *device, uint64_t since_usec, uint32_t count, uint32_t *gens,
			size_t max, size_t *n, uint64_t *next)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int r;

	r = sd_bus_call_method(client, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
			       "GetHistory", &e, &reply, "stu", device, since_usec, count);
	if (r < 0) {
		r = sd_bus_error_has_name(&e, OTA_BUS_ERROR_PREFIX "NoSuchDevice") ? -ENODEV : r;
		sd_bus_error_free(&e);
		return r;
	}
	*n = 0;
	ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "a{sv}"), 0);
	while (sd_bus_message_enter_container(reply, 'a', "{sv}") > 0) {
		struct ota_record rec;
		const char *dev = NULL;
		const void *p = NULL;
		uint64_t seen = 0;
		uint32_t gen = 0, stages = 0;
		size_t len = 0;

		while (sd_bus_message_enter_container(reply, 'e', "sv") > 0) {
			const char *key;

			ck_assert_int_ge(sd_bus_message_read(reply, "s", &key), 0);
			if (!strcmp(key, "device"))
				ck_assert_int_ge(sd_bus_message_read(reply, "v", "s", &dev), 0);
			else if (!strcmp(key, "seen_usec"))
				ck_assert_int_ge(sd_bus_message_read(reply, "v", "t", &seen), 0);
			else if (!strcmp(key, "generation"))
				ck_assert_int_ge(sd_bus_message_read(reply, "v", "u", &gen), 0);
			else if (!strcmp(key, "record")) {
				ck_assert_int_ge(sd_bus_message_enter_container(reply, 'v', "ay"), 0);
				ck_assert_int_ge(sd_bus_message_read_array(reply, 'y', &p, &len), 0);
				ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
			} else if (!strcmp(key, "stages")) {
				ck_assert_int_ge(sd_bus_message_enter_container(reply, 'v', "aa{sv}"), 0);
				ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "a{sv}"), 0);
				while (sd_bus_message_skip(reply, "a{sv}") > 0)
					stages++;
				ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
				ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
			} else
				ck_assert_int_ge(sd_bus_message_skip(reply, "v"), 0);
			ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
		}
		ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
		ck_assert_ptr_nonnull(dev);
		ck_assert_str_eq(dev, "otattest0");
		ck_assert_uint_gt(seen, 0);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_le(len, sizeof(rec));
		memcpy(&rec, p, len);
		ck_assert_int_eq(ota_record_validate(&rec, (uint32_t)len), OTA_OK);
		ck_assert_uint_eq(gen, rec.hdr.generation);
		ck_assert_uint_eq(stages, rec.hdr.stage_count);
		ck_assert_uint_lt(*n, max);
		gens[(*n)++] = rec.hdr.generation;
	}
	ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
	ck_assert_int_ge(sd_bus_message_read(reply, "t", next), 0);
	sd_bus_message_unref(reply);
	return 0;
}

static int history_generations(const char *device, uint32_t count, uint32_t *gens, size_t max,
			       size_t *n)
{
	uint64_t next;

	return history_page(device, 0, count, gens, max, n, &next);
}

/* Manager.GetHistory: every record the daemon saw, in order, by device and page. */
START_TEST(history_over_the_bus)
{
	uint32_t g[8];
	uint64_t next;
	size_t n;

	go();
	ck_assert_int_eq(history_generations("", 0, g, 8, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(g[0], 4);
	kill(server_pid, SIGWINCH); /* a reboot */
	pump_until_generation(5);
	kill(server_pid, SIGURG); /* the record moves on */
	pump_until_generation(6);
	ck_assert_int_eq(history_page("", 0, 0, g, 8, &n, &next), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(g[0], 4);
	ck_assert_uint_eq(g[1], 5);
	ck_assert_uint_eq(g[2], 6);
	ck_assert_uint_eq(next, 0);
	/* Pages of two: the first two, then from where the next starts, the rest. */
	ck_assert_int_eq(history_page("otattest0", 0, 2, g, 8, &n, &next), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(g[0], 4);
	ck_assert_uint_eq(g[1], 5);
	ck_assert_uint_ne(next, 0);
	ck_assert_int_eq(history_page("otattest0", next, 2, g, 8, &n, &next), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(g[0], 6);
	ck_assert_uint_eq(next, 0);
	/* A device name never seen: nothing; not a device name: NoSuchDevice. */
	ck_assert_int_eq(history_generations("otattest7", 0, g, 8, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(history_generations("../etc", 0, g, 8, &n), -ENODEV);
	finish();
}
END_TEST

static char *describe(const char *path, const char *iface)
{
	sd_bus_message *reply = NULL;
	const char *json;
	char *copy;

	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, path, iface, "Describe", NULL, &reply,
					    NULL), 0);
	ck_assert_int_ge(sd_bus_message_read(reply, "s", &json), 0);
	copy = strdup(json);
	sd_bus_message_unref(reply);
	return copy;
}

/* Describe(): every property as JSON, the manager's holding each device's. */
START_TEST(describe_is_json_of_every_property)
{
	struct json_object *doc, *devs, *dev, *v, *stages, *one;
	char *mgr, *own;

	go();
	mgr = describe(OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE);
	doc = tu_json_parse_strict(mgr);
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_object_get_ex(doc, "Version", &v));
	ck_assert(json_object_is_type(v, json_type_string));
	ck_assert(json_object_object_get_ex(doc, "Devices", &devs));
	ck_assert_uint_eq(json_object_array_length(devs), 1);
	dev = json_object_array_get_idx(devs, 0);
	ck_assert(json_object_object_get_ex(dev, "Name", &v));
	ck_assert_str_eq(json_object_get_string(v), "otattest0");
	ck_assert(json_object_object_get_ex(dev, "Generation", &v));
	ck_assert_int_eq(json_object_get_int64(v), 4);
	ck_assert(json_object_object_get_ex(dev, "RecordValid", &v));
	ck_assert(json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v));
	/* Bytes as hex: all 16 of the device id, its last one 0x11. */
	ck_assert(json_object_object_get_ex(dev, "DeviceId", &v));
	ck_assert_uint_eq(strlen(json_object_get_string(v)), 32);
	ck_assert_str_eq(json_object_get_string(v) + 30, "11");
	ck_assert(json_object_object_get_ex(dev, "Stages", &stages));
	ck_assert_uint_eq(json_object_array_length(stages), 2);
	one = json_object_array_get_idx(stages, 1);
	ck_assert(json_object_object_get_ex(one, "stage", &v));
	ck_assert_str_eq(json_object_get_string(v), "bl0");
	ck_assert(json_object_object_get_ex(one, "key_ids", &v));
	ck_assert_uint_eq(json_object_array_length(v), 2);
	ck_assert(json_object_object_get_ex(dev, "Slots", &v));
	ck_assert(json_object_is_type(v, json_type_array));
	/* The device's own Describe is the same object. */
	own = describe(DEV_PATH, OTA_BUS_DEVICE_IFACE);
	ck_assert_str_eq(own, json_object_to_json_string_ext(dev, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	free(mgr);
	free(own);
	finish();
}
END_TEST

struct changed_props {
	int signals;
	char names[64][32];
	int n;
};

static int on_props_changed(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct changed_props *c = userdata;
	const char *iface, *name;

	c->signals++;
	ck_assert_int_ge(sd_bus_message_read(m, "s", &iface), 0);
	ck_assert_int_ge(sd_bus_message_enter_container(m, 'a', "{sv}"), 0);
	while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
		ck_assert_int_ge(sd_bus_message_read(m, "s", &name), 0);
		ck_assert_int_lt(c->n, 64);
		snprintf(c->names[c->n++], sizeof(c->names[0]), "%s", name);
		ck_assert_int_ge(sd_bus_message_skip(m, "v"), 0);
		ck_assert_int_ge(sd_bus_message_exit_container(m), 0);
	}
	return 0;
}

/*
 * PropertiesChanged names what changed, nothing else: the record moving
 * on within one boot changes Generation alone; a reboot with a tag
 * mismatch changes the stages, the generation and the counter, not the
 * device id, lifecycle or floors.
 */
START_TEST(properties_changed_names_only_what_changed)
{
	struct changed_props c = { 0 };
	int i;
	bool stages = false, mismatches = false;

	go();
	ck_assert_int_ge(sd_bus_match_signal(client, NULL, OTA_BUS_NAME, DEV_PATH,
					     "org.freedesktop.DBus.Properties", "PropertiesChanged",
					     on_props_changed, &c), 0);
	kill(server_pid, SIGURG);
	pump_until_generation(5);
	ck_assert_int_eq(c.signals, 1);
	ck_assert_int_eq(c.n, 1);
	ck_assert_str_eq(c.names[0], "Generation");

	memset(&c, 0, sizeof(c));
	kill(server_pid, SIGWINCH);
	pump_until_generation(6);
	ck_assert_int_ge(c.signals, 1);
	for (i = 0; i < c.n; i++) {
		ck_assert_str_ne(c.names[i], "DeviceId");
		ck_assert_str_ne(c.names[i], "Lifecycle");
		ck_assert_str_ne(c.names[i], "FloorBl0");
		ck_assert_str_ne(c.names[i], "State");
		stages |= !strcmp(c.names[i], "Stages");
		mismatches |= !strcmp(c.names[i], "TagMismatches");
	}
	ck_assert(stages);
	ck_assert(mismatches);
	finish();
}
END_TEST

/* Read a whole file (a command's captured output) into a string. */
static char *slurp(int fd)
{
	char *buf = calloc(1, 65536);
	ssize_t n, used = 0;

	ck_assert_ptr_nonnull(buf);
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf + used, 65535 - (size_t)used)) > 0)
		used += n;
	close(fd);
	return buf;
}

/* Run an otattestctl command in this process, its stdout and stderr captured. */
static int run_ctl(int (*cmd)(struct ctl *, int, char **), struct ctl *c, int argc, char **argv,
		   char **out, char **err)
{
	char po[] = "/tmp/ctl-out.XXXXXX", pe[] = "/tmp/ctl-err.XXXXXX";
	int fo = mkstemp(po), fe = mkstemp(pe), so, se, r;

	ck_assert_int_ge(fo, 0);
	ck_assert_int_ge(fe, 0);
	unlink(po);
	unlink(pe);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	dup2(fo, 1);
	dup2(fe, 2);
	r = cmd(c, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	*out = slurp(fo);
	*err = slurp(fe);
	return r;
}

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

/* An unprivileged rotate says who may, and says nothing of rotating first. */
static int nobody_rotates(sd_bus *bus)
{
	char *argv[] = { "rotate", NULL };
	struct ctl c = { 0 };
	char *out, *err;
	int r, bad = 0;

	c.bus = bus;
	r = run_ctl(cmd_rotate, &c, 1, argv, &out, &err);
	bad |= r != 20;
	bad |= strstr(out, "rotating") != NULL;
	bad |= strstr(err, "RotateTags needs root, membership in group " OTA_UPDATE_GROUP
			   ", or polkit authorization for " OTA_POLKIT_ACTION_ROTATE) == NULL;
	if (bad)
		fprintf(stderr, "rotate as nobody: exit %d, stdout '%s', stderr '%s'\n", r, out, err);
	free(out);
	free(err);
	return bad;
}

START_TEST(unprivileged_rotate_says_who_may)
{
	go();
	as_nobody(nobody_rotates);
	finish();
}
END_TEST

static int nobody_privileged_denied(sd_bus *bus)
{
	static const uint8_t msg[16] = "0123456789abcdef";
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int r;

	/* nobody: not root, in no group of ours; the test bus lets it through. */
	r = sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "RotateTags", &e,
			       NULL, NULL);
	if (r >= 0)
		return 91;
	if (strcmp(e.name, SD_BUS_ERROR_ACCESS_DENIED) != 0)
		return 92;
	sd_bus_error_free(&e);
	/* Stable-key signatures are privileged too (group otattest-sign). */
	r = sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "SignWithStableKey",
			       &e, NULL, "ayu", (int)sizeof(msg), msg[0], msg[1], msg[2], msg[3], msg[4],
			       msg[5], msg[6], msg[7], msg[8], msg[9], msg[10], msg[11], msg[12], msg[13],
			       msg[14], msg[15], 0u);
	if (r >= 0)
		return 93;
	if (strcmp(e.name, SD_BUS_ERROR_ACCESS_DENIED) != 0 ||
	    !strstr(e.message, "group " OTA_SIGN_GROUP))
		return 94;
	sd_bus_error_free(&e);
	/* Reads stay open to it. */
	return attest(bus, 16, 5) == NULL ? 0 : 95;
}

START_TEST(privileged_unprivileged_denied_by_daemon)
{
	go();
	as_nobody(nobody_privileged_denied);
	finish();
}
END_TEST

static bool absent(sd_bus *bus)
{
	char *state = NULL;
	bool r;

	if (sd_bus_get_property_string(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "State", NULL,
				       &state) < 0)
		return false;
	r = strcmp(state, OTA_STATE_ABSENT) == 0;
	free(state);
	return r;
}

START_TEST(device_removed_and_readded)
{
	char *name;
	int b;

	go();
	kill(server_pid, SIGUSR1);
	wait_until(client, absent);
	name = attest(client, 16, 1);
	ck_assert_ptr_nonnull(name);
	ck_assert_str_eq(name, OTA_BUS_ERROR_PREFIX "DeviceUnavailable");
	free(name);
	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "RecordValid", NULL, 'b', &b), 0);
	ck_assert(!b);
	kill(server_pid, SIGUSR2);
	wait_until(client, ready);
	ck_assert_ptr_null(attest(client, 16, 1));
	finish();
}
END_TEST

START_TEST(sigterm_answers_accepted_calls)
{
	struct replies rep = { 0 };
	sd_bus_message *call;
	int status;

	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 800000;
	go();
	call = new_attest(client, 16);
	ck_assert_int_ge(sd_bus_call_async(client, NULL, call, on_reply, &rep, 5000000), 0);
	sd_bus_message_unref(call);
	sd_bus_flush(client);
	usleep(200000);
	kill(server_pid, SIGTERM); /* while the "kernel" works on it */
	pump(client, &rep, 1, 4000);
	ck_assert_msg(rep.ok == 1, "the accepted call was not answered (error %s)", rep.last_error);
	/* Then it exits by itself, cleanly, having given up its name. */
	waitpid(server_pid, &status, 0);
	server_pid = 0;
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert(!name_has_owner(client));
	finish();
}
END_TEST

/* otattestctl's reading of the properties, against the real vtable. */
START_TEST(ctl_reads_what_the_daemon_serves)
{
	struct ctl c = { 0 };
	struct ctl_device d;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

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
	ck_assert(d.stages[0].booted);
	ck_assert_str_eq(ctl_stage_path_reason(&d, 1), "none");
	ck_assert(!ctl_stage_debug(&d, 1));
	ck_assert_uint_eq(d.tag_mismatches, 0);

	/* After a boot with a mismatch: what status and metrics show. */
	kill(server_pid, SIGWINCH);
	pump_until_generation(5);
	ck_assert_int_eq(ctl_get_device(&c, DEV_PATH, &d), 0);
	ck_assert_str_eq(ctl_stage_path_reason(&d, 1), "tag-mismatch");
	ck_assert_uint_eq(d.tag_mismatches, 1);
	f = open_memstream(&text, &len);
	ctl_metrics_format(f, &d, 1, 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "otattest_tag_mismatches_total{device=\"otattest0\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(text, "otattest_stage_path_reason{device=\"otattest0\",stage=\"bl0\",slot=\"a\",reason=\"tag-mismatch\"} 1\n"));
	free(text);
	text = NULL;
	len = 0;
	kill(server_pid, SIGURG); /* back to the record the rest of this test reads */
	pump_until_generation(6);
	ck_assert_int_eq(ctl_get_device(&c, DEV_PATH, &d), 0);

	f = open_memstream(&text, &len);
	ctl_metrics_format(f, &d, 1, 0);
	fclose(f);
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

/* ---- polkit over D-Bus, with a fake authority on the private bus ---- */

static int polkit_answer = -1; /* 1 authorized, 0 not */
static char polkit_action[128], polkit_subject_kind[64];

static int fake_check_authorization(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
	const char *kind, *action;

	ck_assert_int_ge(sd_bus_message_enter_container(m, 'r', "sa{sv}"), 0);
	ck_assert_int_ge(sd_bus_message_read(m, "s", &kind), 0);
	snprintf(polkit_subject_kind, sizeof(polkit_subject_kind), "%s", kind);
	ck_assert_int_ge(sd_bus_message_skip(m, "a{sv}"), 0);
	ck_assert_int_ge(sd_bus_message_exit_container(m), 0);
	ck_assert_int_ge(sd_bus_message_read(m, "s", &action), 0);
	snprintf(polkit_action, sizeof(polkit_action), "%s", action);
	return sd_bus_reply_method_return(m, "(bba{ss})", polkit_answer, 0, 0);
}

static const sd_bus_vtable fake_polkit_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("CheckAuthorization", "(sa{sv})sa{ss}us", "(bba{ss})", fake_check_authorization,
		      SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

static int image_fd(size_t len);

/* nobody's call, with its error name (NULL: it succeeded) written to *err_name's buffer. */
typedef int (*nobody_call_fn)(sd_bus *bus, sd_bus_error *e);

static int nobody_rotate_call(sd_bus *bus, sd_bus_error *e)
{
	return sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "RotateTags", e, NULL,
				  NULL);
}

static int nobody_check_call(sd_bus *bus, sd_bus_error *e)
{
	int fd = image_fd(100);

	return sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "CheckImage", e, NULL,
				  "hsu", fd, "bl0", OTA_UPDATE_SLOT_OTHER);
}

static void nobody_with_polkit(nobody_call_fn call, int answer, const char *want_error,
			       const char *want_action);

/* nobody calls RotateTags; the fake authority (in this process) decides. */
static void rotate_as_nobody_with_polkit(int answer, const char *want_error)
{
	nobody_with_polkit(nobody_rotate_call, answer, want_error, OTA_POLKIT_ACTION_ROTATE);
}

/* CheckImage, a dry run, asks its own action, not InstallImage's. */
START_TEST(check_image_asks_its_own_action)
{
	cfg.use_polkit = true;
	go();
	nobody_with_polkit(nobody_check_call, 0, SD_BUS_ERROR_ACCESS_DENIED, OTA_POLKIT_ACTION_CHECK);
	finish();
}
END_TEST

static void nobody_with_polkit(nobody_call_fn call, int answer, const char *want_error,
			       const char *want_action)
{
	sd_bus *pk;
	pid_t pid;
	int status = -1, i;

	polkit_answer = answer;
	pk = connect_bus();
	ck_assert_int_ge(sd_bus_add_object_vtable(pk, NULL, "/org/freedesktop/PolicyKit1/Authority",
						  "org.freedesktop.PolicyKit1.Authority",
						  fake_polkit_vtable, NULL), 0);
	ck_assert_int_ge(sd_bus_request_name(pk, "org.freedesktop.PolicyKit1", 0), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sd_bus_error e = SD_BUS_ERROR_NULL;
		gid_t none = 65534;
		sd_bus *bus;
		int r;

		if (setgroups(1, &none) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
			_exit(90);
		bus = connect_bus();
		r = call(bus, &e);
		if (want_error ? r >= 0 || strcmp(e.name, want_error) != 0 : r < 0)
			_exit(91);
		_exit(0);
	}
	/* Serve the authority until the child is done. */
	for (i = 0; i < 500; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		while (sd_bus_process(pk, NULL) > 0)
			;
		sd_bus_wait(pk, 10000);
	}
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "nobody's call with polkit=%d: %d",
		      answer, WEXITSTATUS(status));
	ck_assert_str_eq(polkit_action, want_action);
	ck_assert_str_eq(polkit_subject_kind, "system-bus-name");
	sd_bus_flush_close_unref(pk);
}

START_TEST(polkit_allows)
{
	cfg.use_polkit = true;
	go();
	rotate_as_nobody_with_polkit(1, NULL);
	finish();
}
END_TEST

START_TEST(polkit_denies)
{
	cfg.use_polkit = true;
	go();
	rotate_as_nobody_with_polkit(0, SD_BUS_ERROR_ACCESS_DENIED);
	finish();
}
END_TEST

/* ---- the update agent's methods (install.c, call.c) ---- */

/* A temporary regular file of len bytes of the image pattern; its descriptor. */
static int image_fd(size_t len)
{
	char tmpl[] = "/tmp/otattest-image.XXXXXX";
	int fd = mkstemp(tmpl);
	size_t i;

	ck_assert_int_ge(fd, 0);
	unlink(tmpl);
	for (i = 0; i < len; i++) {
		uint8_t b = image_byte(i);

		ck_assert_int_eq(write(fd, &b, 1), 1);
	}
	/* The position stays at the end: otattestd must read by offset. */
	return fd;
}

struct progress_seen {
	unsigned n;
	uint32_t last_done, total;
	bool in_order;
};

static int on_install_progress(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct progress_seen *p = userdata;
	uint32_t done, total;

	ck_assert_int_ge(sd_bus_message_read(m, "uu", &done, &total), 0);
	if (p->n && done <= p->last_done)
		p->in_order = false;
	p->n++;
	p->last_done = done;
	p->total = total;
	return 0;
}

static int call_install(sd_bus *bus, const char *method, int fd, const char *stage, uint32_t slot,
			sd_bus_error *e, sd_bus_message **reply)
{
	return sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, method, e, reply,
				  "hsu", fd, stage, slot);
}

/* The FUSE helper beside this test binary (daemon/build.mk builds it there). */
static void helper_path(char *out, size_t len, const char *name)
{
	char self[512];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	slash = strrchr(self, '/');
	ck_assert_ptr_nonnull(slash);
	*slash = '\0';
	snprintf(out, len, "%s/%s", self, name);
}

struct async_reply {
	bool done;
	char error[128];
};

static int on_async_reply(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct async_reply *a = userdata;
	const sd_bus_error *err = sd_bus_message_get_error(m);

	a->done = true;
	snprintf(a->error, sizeof(a->error), "%s", err && err->name ? err->name : "");
	return 0;
}

/*
 * An install image on a FUSE file whose reads never answer (a hung
 * network or user-space file system): otattestd reads it off its loop,
 * so it keeps answering other calls, and the install fails with Timeout
 * at its deadline, leaving the device free for the next install. (It read
 * on the loop: every call waited, until the watchdog killed it.)
 */
START_TEST(install_image_that_never_answers)
{
	char mnt[] = "/tmp/fuse-stuck.XXXXXX", helper[600], file[64];
	struct async_reply install = { 0 };
	sd_bus_message *call = NULL, *reply = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	struct stat st;
	struct timespec t0, t1;
	pid_t fs;
	int fd, i;

	if (access("/dev/fuse", R_OK | W_OK) != 0 || geteuid() != 0) {
		fprintf(stderr, "install_image_that_never_answers: needs root and /dev/fuse; not run\n");
		return;
	}
	cfg.image_read_timeout_usec = 1500000;
	go();
	helper_path(helper, sizeof(helper), "fuse-stuck");
	ck_assert_ptr_nonnull(mkdtemp(mnt));
	fs = fork();
	ck_assert_int_ge(fs, 0);
	if (fs == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl(helper, helper, "-f", mnt, (char *)NULL);
		_exit(127);
	}
	snprintf(file, sizeof(file), "%s/image", mnt);
	for (i = 0; i < 500 && (stat(file, &st) != 0 || st.st_size != 4096); i++)
		usleep(10000);
	ck_assert_msg(stat(file, &st) == 0 && st.st_size == 4096, "the FUSE file system did not come up");
	fd = open(file, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);

	ck_assert_int_ge(sd_bus_message_new_method_call(client, &call, OTA_BUS_NAME, DEV_PATH,
							OTA_BUS_DEVICE_IFACE, "InstallImage"), 0);
	ck_assert_int_ge(sd_bus_message_append(call, "hsu", fd, "bl0", OTA_UPDATE_SLOT_OTHER), 0);
	ck_assert_int_ge(sd_bus_call_async(client, NULL, call, on_async_reply, &install, 20000000), 0);
	sd_bus_message_unref(call);
	ck_assert_int_ge(sd_bus_flush(client), 0);
	usleep(300000); /* the read is stuck in the file system by now */

	/* Served meanwhile, promptly. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_msg(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "GetRecord", &e,
					 &reply, NULL) >= 0,
		      "GetRecord while an image read hangs: %s", e.message ? e.message : "");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sd_bus_message_unref(reply);
	ck_assert_int_lt(t1.tv_sec - t0.tv_sec, 2);

	for (i = 0; i < 500 && !install.done; i++) {
		sd_bus_wait(client, 20000);
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	ck_assert_msg(install.done, "no answer to the install");
	ck_assert_str_eq(install.error, OTA_BUS_ERROR_PREFIX "Timeout");

	/* The device is free again: a readable image installs. */
	{
		int good = image_fd(2 * 4096 + 100);

		reply = NULL;
		ck_assert_msg(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						 "InstallImage", &e, &reply, "hsu", good, "bl0",
						 OTA_UPDATE_SLOT_OTHER) >= 0,
			      "the next install: %s", e.message ? e.message : "");
		sd_bus_message_unref(reply);
		close(good);
	}
	close(fd);
	kill(fs, SIGKILL);
	waitpid(fs, NULL, 0);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	finish();
}
END_TEST

START_TEST(install_streams_the_image_with_progress)
{
	struct progress_seen seen = { .in_order = true };
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	const char *stage, *version;
	uint32_t slot, svn;
	const void *meas;
	size_t meas_len;
	int fd;

	go();
	ck_assert_int_ge(sd_bus_match_signal(client, NULL, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					     "InstallProgress", on_install_progress, &seen), 0);
	/* Three chunks: 4096, 4096 and 1808 bytes, held byte for byte by the fake device. */
	fd = image_fd(10000);
	ck_assert_msg(call_install(client, "InstallImage", fd, "bl0", OTA_UPDATE_SLOT_OTHER, &e, &reply) >= 0,
		      "InstallImage: %s", e.message);
	ck_assert_int_ge(sd_bus_message_read(reply, "suus", &stage, &slot, &svn, &version), 0);
	ck_assert_str_eq(stage, "bl0");
	ck_assert_uint_eq(slot, OTA_SLOT_A);
	ck_assert_uint_eq(svn, 7);
	ck_assert_str_eq(version, "bl0-2.0");
	ck_assert_int_ge(sd_bus_message_read_array(reply, 'y', &meas, &meas_len), 0);
	ck_assert_uint_eq(meas_len, OTA_SHA256_BYTES);
	/* The device's measurement byte for byte (the fake's is 0x5a throughout). */
	for (size_t k = 0; k < meas_len; k++)
		ck_assert_uint_eq(((const uint8_t *)meas)[k], 0x5a);
	sd_bus_message_unref(reply);
	while (sd_bus_process(client, NULL) > 0)
		;
	/* BEGIN, then each chunk the device acknowledged. */
	ck_assert_uint_eq(seen.n, 4);
	ck_assert(seen.in_order);
	ck_assert_uint_eq(seen.last_done, 10000);
	ck_assert_uint_eq(seen.total, 10000);

	/* A check of the same descriptor: the same answer, a dry run. */
	ck_assert_msg(call_install(client, "CheckImage", fd, "bl0", OTA_SLOT_B, &e, &reply) >= 0,
		      "CheckImage: %s", e.message);
	ck_assert_int_ge(sd_bus_message_read(reply, "suus", &stage, &slot, &svn, &version), 0);
	ck_assert_uint_eq(slot, OTA_SLOT_B);
	sd_bus_message_unref(reply);
	close(fd);
	finish();
}
END_TEST

/* Expect method's call to fail with error name `want`; ask again for the message. */
#define EXPECT_ERROR(r, e, want)                                                            \
	do {                                                                                \
		ck_assert_msg((r) < 0, "succeeded; expected %s", want);                     \
		ck_assert_msg(!strcmp((e)->name, want), "%s: %s (expected %s)", (e)->name, \
			      (e)->message, want);                                          \
		sd_bus_error_free(e);                                                       \
	} while (0)

START_TEST(update_bad_input_named_errors)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	uint8_t short_cmd[sizeof(struct ota_revocation) - 1] = { 0 };
	int pipefd[2], dirfd, empty, big;

	go();
	/* Not a regular file: a pipe could make the daemon wait forever. */
	ck_assert_int_eq(pipe(pipefd), 0);
	EXPECT_ERROR(call_install(client, "InstallImage", pipefd[0], "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	close(pipefd[0]);
	close(pipefd[1]);
	/* A directory has a size that passes the bound: the file type alone refuses it. */
	dirfd = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(dirfd, 0);
	ck_assert_int_lt(call_install(client, "CheckImage", dirfd, "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	ck_assert_msg(strstr(e.message, "regular file"), "%s", e.message);
	sd_bus_error_free(&e);
	close(dirfd);
	empty = image_fd(0);
	EXPECT_ERROR(call_install(client, "CheckImage", empty, "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	/* Past the daemon's bound (a sparse file: nothing is read). */
	big = image_fd(0);
	ck_assert_int_eq(ftruncate(big, 1024 * 1024 + 1), 0);
	EXPECT_ERROR(call_install(client, "InstallImage", big, "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(call_install(client, "InstallImage", empty, "bl1", OTA_UPDATE_SLOT_OTHER, &e, NULL),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(call_install(client, "InstallImage", empty, "bl0", 2, &e, NULL), &e,
		     OTA_BUS_ERROR_PREFIX "InvalidArgument");
	close(empty);
	close(big);
	EXPECT_ERROR(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Commit",
					&e, NULL, "u", 2u),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Ratchet",
					&e, NULL, "su", "bl0", 256u),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Ratchet",
					&e, NULL, "su", "rom-ext", 1u),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(call_bytes(client, "Revoke", short_cmd, sizeof(short_cmd), &e, NULL), &e,
		     OTA_BUS_ERROR_PREFIX "Malformed");
	/* None of it reached the (fake) kernel, which would have died: it still serves. */
	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Commit",
					    &e, NULL, "u", 1u), 0);
	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Ratchet",
					    &e, NULL, "su", "bl0", 4u), 0);
	finish();
}
END_TEST

/* Statuses only a host part produces; the driver refuses them from a device. */
static bool host_only(ota_status_t st)
{
	uint32_t module = (st >> 8) & 0xffu;

	return module == OTA_MOD_HOST || module == OTA_MOD_SHM || module == OTA_MOD_DRIVER ||
	       module == OTA_MOD_VERIFY;
}

START_TEST(every_device_status_is_a_named_error)
{
	static const ota_status_t all[] = {
#define OTA_X_ALL(name, cls, mod, idx, msg) OTA_##name,
		OTA_STATUS_LIST(OTA_X_ALL)
#undef OTA_X_ALL
	};
	struct ota_revocation cmd;
	unsigned checked = 0;
	size_t i;

	/* The client side of the map, as otattestctl registers it. */
	ck_assert_int_ge(ota_bus_errors_register(), 0);
	go();
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		sd_bus_error e = SD_BUS_ERROR_NULL;
		int r;

		if (host_only(all[i]))
			continue;
		/* The fake device answers Revoke with the status in value. */
		memset(&cmd, 0, sizeof(cmd));
		cmd.value = all[i];
		r = call_bytes(client, "Revoke", &cmd, sizeof(cmd), &e, NULL);
		ck_assert_msg(r < 0, "status %#x: Revoke succeeded", all[i]);
		ck_assert_msg(!strcmp(e.name, ota_class_error_name(ota_status_class(all[i]))),
			      "status %#x: %s, not its class's", all[i], e.name);
		ck_assert_str_eq(e.message, ota_status_message(all[i]));
		/* And the class's errno comes back to a client, as otattestctl's exit code. */
		ck_assert_int_eq(sd_bus_error_get_errno(&e), ota_status_errno(all[i]));
		sd_bus_error_free(&e);
		checked++;
	}
	ck_assert_uint_gt(checked, 100);
	finish();
}
END_TEST

static int nobody_update_denied(sd_bus *bus)
{
	static const char *const plain[] = { "WarmReset" };
	uint8_t cmd[sizeof(struct ota_revocation)] = { 0 };
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int fd = image_fd(64), rc = 100;
	size_t i;

	/* Each refused by otattestd itself (the test bus lets anything through). */
#define DENIED(call)                                                                         \
	do {                                                                                 \
		if ((call) >= 0)                                                             \
			return rc;                                                           \
		if (strcmp(e.name, SD_BUS_ERROR_ACCESS_DENIED) || !strstr(e.message, "group " OTA_UPDATE_GROUP)) \
			return rc + 1;                                                       \
		sd_bus_error_free(&e);                                                       \
		rc += 2;                                                                     \
	} while (0)
	DENIED(call_install(bus, "InstallImage", fd, "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL));
	DENIED(call_install(bus, "CheckImage", fd, "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL));
	DENIED(sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Commit", &e, NULL,
				  "u", 1u));
	DENIED(sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Ratchet", &e,
				  NULL, "su", "bl0", 3u));
	DENIED(call_bytes(bus, "Revoke", cmd, sizeof(cmd), &e, NULL));
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		DENIED(sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, plain[i], &e,
					  NULL, NULL));
#undef DENIED
	close(fd);
	return 0;
}

START_TEST(update_methods_denied_to_unprivileged)
{
	go();
	as_nobody(nobody_update_denied);
	finish();
}
END_TEST

START_TEST(update_properties_from_the_record)
{
	sd_bus_message *reply = NULL;
	const char *stage, *slot, *version;
	uint32_t seq = 0, svn;
	unsigned n = 0;
	char *s = NULL;

	go();
#define STR_PROP(name, want)                                                                   \
	do {                                                                                   \
		ck_assert_int_ge(sd_bus_get_property_string(client, OTA_BUS_NAME, DEV_PATH,    \
							    OTA_BUS_DEVICE_IFACE, name, NULL, &s), 0); \
		ck_assert_str_eq(s, want);                                                     \
		free(s);                                                                       \
	} while (0)
	STR_PROP("UpdateState", "trial");
	STR_PROP("PrimarySlot", "a");
	STR_PROP("RunningRomExtSlot", "a");
	STR_PROP("RunningBl0Slot", "b");
	STR_PROP("PendingStage", "");
	STR_PROP("PendingSlot", "");
#undef STR_PROP
	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "RevocationSequence", NULL, 'u', &seq), 0);
	ck_assert_uint_eq(seq, 3);
	ck_assert_int_ge(sd_bus_get_property(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					     "Slots", NULL, &reply, "a" OTA_SLOT_STRUCT_SIG), 0);
	ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', OTA_SLOT_STRUCT_SIG), 0);
	while (sd_bus_message_enter_container(reply, 'r', "ssusas") > 0) {
		char flags[64] = "";
		const char *f;

		ck_assert_int_ge(sd_bus_message_read(reply, "ssus", &stage, &slot, &svn, &version), 0);
		ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "s"), 0);
		while (sd_bus_message_read(reply, "s", &f) > 0) {
			strcat(flags, f);
			strcat(flags, " ");
		}
		ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
		ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
		if (n == 3) { /* BL0 slot B: on trial */
			ck_assert_str_eq(stage, "bl0");
			ck_assert_str_eq(slot, "b");
			ck_assert_uint_eq(svn, 5);
			ck_assert_str_eq(version, "bl0-2.0");
			ck_assert_str_eq(flags, "present verified running ");
		}
		if (n == 2)
			ck_assert_str_eq(flags, "present primary ");
		n++;
	}
	ck_assert_uint_eq(n, 4);
	sd_bus_message_unref(reply);
	finish();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("daemon_bus");
	TCase *tc = tcase_create("bus");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, introspection_matches_xml);
	tcase_add_test(tc, describe_is_json_of_every_property);
	tcase_add_test(tc, install_image_that_never_answers);
	tcase_add_test(tc, ordinary_users_cannot_fill_the_agents_share);
	tcase_add_test(tc, history_rate_limited);
	tcase_add_test(tc, check_image_asks_its_own_action);
	tcase_add_test(tc, ctl_exit_codes_say_what_is_wrong);
	tcase_add_test(tc, history_lists_boots_not_record_changes);
	tcase_add_test(tc, unprivileged_rotate_says_who_may);
	tcase_add_test(tc, rotation_finished_once_with_late_progress);
	tcase_add_test(tc, properties_changed_names_only_what_changed);
	tcase_add_test(tc, properties_and_record_from_cache);
	tcase_add_test(tc, bad_arguments_get_named_errors);
	tcase_add_test(tc, kernel_errors_keep_their_meaning);
	tcase_add_test(tc, device_gone_under_a_request_is_unavailable);
	tcase_add_test(tc, slow_attestation_does_not_block_reads);
	tcase_add_test(tc, attest_rate_limited_per_user);
	tcase_add_test(tc, queue_bounded_per_user);
	tcase_add_test(tc, connections_do_not_fill_the_table);
	tcase_add_test(tc, rotate_as_root_with_signals);
	tcase_add_test(tc, tag_mismatch_signal_counter_and_reasons);
	tcase_add_test(tc, history_over_the_bus);
	tcase_add_test(tc, privileged_unprivileged_denied_by_daemon);
	tcase_add_test(tc, device_removed_and_readded);
	tcase_add_test(tc, sigterm_answers_accepted_calls);
	tcase_add_test(tc, ctl_reads_what_the_daemon_serves);
	tcase_add_test(tc, polkit_allows);
	tcase_add_test(tc, polkit_denies);
	tcase_add_test(tc, install_streams_the_image_with_progress);
	tcase_add_test(tc, update_bad_input_named_errors);
	tcase_add_test(tc, every_device_status_is_a_named_error);
	tcase_add_test(tc, update_methods_denied_to_unprivileged);
	tcase_add_test(tc, update_properties_from_the_record);
	suite_add_tcase(s, tc);
	return s;
}

/* Every test here runs a private dbus-daemon: without one nothing can be tested. */
static void require_dbus_daemon(void)
{
	if (access("/usr/bin/dbus-daemon", X_OK) != 0 && system("command -v dbus-daemon >/dev/null") != 0) {
		fprintf(stderr, "dbus-daemon is not installed (scripts/deps.sh installs it)\n");
		exit(1);
	}
}

OTA_TEST_MAIN_PREPARED(require_dbus_daemon(), suite)
