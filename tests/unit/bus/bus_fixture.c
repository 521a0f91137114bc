// SPDX-License-Identifier: MIT
/*
 * The fixture of the test_daemon_bus_*.c suites (bus_fixture.h): the fake
 * kernel, the private dbus-daemon and server processes, and the client
 * helpers the suites share.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../../daemon/otattestd/log.h"
#include "bus_fixture.h"
#include "private_bus.h"
#include "tu_record.h"

/* sd-bus and sd-event callbacks, as the daemon they test (daemon/build.mk). */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* ---------------- the fake kernel ---------------- */

#define FAKE_FAMILY 0x20

struct fake_cfg cfg;

struct fake_kernel {
	sd_event *event;
	struct manager *m;
	bool available;
	unsigned pending;
	struct ota_record record;
	uint32_t record_len;
	char runtime_version[OTA_VERSION_STRING_BYTES + 1]; /* GET_INFO's, as the kernel shows it */
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

void build_record(struct ota_record *r, uint32_t *len, uint32_t generation, uint32_t kv)
{
	uint32_t i;

	tu_record_one_stage(r, 0x11, generation);
	r->hdr.stage_count = 2;
	r->hdr.epoch = 1;
	r->hdr.min_svn = 3;
	r->hdr.floor_rom_ext = 1;
	r->hdr.floor_bl0 = 2;
	r->hdr.flags = OTA_RECORD_F_TAG_BOOT_ENABLED;
	r->hdr.tag_key_version = kv;
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
		s->verify_cycles = 15000;
		s->flags = OTA_STAGE_F_BOOTED;
	}
	r->hdr.flags |= OTA_RECORD_F_UPDATE_SECTION;
	r->hdr.length = ota_record_length(2, r->hdr.flags);
	{
		/* The update section: on trial in BL0 slot B, A the primary. */
		struct ota_record_update *u = (struct ota_record_update *)ota_record_update_of(r);
		static const char *const versions[] = { "re-1", "re-1", "bl0-1.0", "bl0-2.0" };

		u->update_state = OTA_UPDATE_TRIAL;
		u->trial_boots = 1;
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
	if (event == OTATTEST_EVENT_RUNTIME_CHANGED) {
		mnl_attr_put_u32(nlh, OTATTEST_A_GENERATION, fake.record.hdr.generation);
		if (fake.runtime_version[0])
			mnl_attr_put_strz(nlh, OTATTEST_A_RUNTIME_VERSION, fake.runtime_version);
	}
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), 0);
	device_on_event(fake.m, event, res.tb);
}

static int on_progress_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	uintptr_t step = (uintptr_t)userdata;

	fake_event(OTATTEST_EVENT_ROTATE_PROGRESS, (uint32_t)step, 2);
	return 0;
}

/* The runtime has said its version (after the boot whose record came without it). */
static int on_runtime_said(sd_event_source *s, uint64_t usec, void *userdata)
{
	snprintf(fake.runtime_version, sizeof(fake.runtime_version), "%s",
		 cfg.update_reset_runtime_version);
	fake_event(OTATTEST_EVENT_RUNTIME_CHANGED, 0, 0);
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
		mnl_attr_put_strz(nlh, OTATTEST_A_RUNTIME_VERSION, fake.runtime_version);
		break;
	case OTATTEST_CMD_GET_RECORD:
		mnl_attr_put(nlh, OTATTEST_A_RECORD, fake.record_len, &fake.record);
		mnl_attr_put_u32(nlh, OTATTEST_A_GENERATION, fake.record.hdr.generation);
		mnl_attr_put_strz(nlh, OTATTEST_A_RUNTIME_VERSION, fake.runtime_version);
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
	case OTATTEST_CMD_UPDATE_RESET:
		if (cfg.update_reset_runtime_version) {
			/*
			 * A boot of other images, as otattest.ko shows it: the new
			 * record without a version, then, once the runtime said it,
			 * the runtime-changed event.
			 */
			build_record(&fake.record, &fake.record_len, fake.record.hdr.generation + 1,
				     fake.record.hdr.tag_key_version);
			fake.record.stage[1].measurement[0] ^= 0xff;
			fake.runtime_version[0] = '\0';
			fake_event(OTATTEST_EVENT_RUNTIME_CHANGED, 0, 0);
			sd_event_add_time_relative(fake.event, NULL, CLOCK_MONOTONIC, 20000, 1,
						   on_runtime_said, NULL);
		}
		mnl_attr_put_u32(nlh, OTATTEST_A_BOOT_STATUS, OTA_OK);
		mnl_attr_put_u32(nlh, OTATTEST_A_GENERATION, fake.record.hdr.generation);
		mnl_attr_put_u32(nlh, OTATTEST_A_SLOT,
				 cfg.update_reset_booted_plus1 ? cfg.update_reset_booted_plus1 - 1
				 : r->args.slot < OTA_SLOT_COUNT ? r->args.slot
								 : OTA_SLOT_B);
		break;
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
		__attribute__((fallthrough)); /* applied: the state after it */
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
	if (r->cmd == OTATTEST_CMD_ROTATE_TAGS ||
	    (r->cmd == OTATTEST_CMD_UPDATE_RESET && cfg.update_reset_runtime_version))
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
	    (cmd == OTATTEST_CMD_REVOKE &&
	     (!args || !args->revocation ||
	      (args->revocation_len != OTATTEST_REVOCATION_LEN &&
	       args->revocation_len != OTATTEST_REVOCATION_HYBRID_LEN)))) {
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

static struct private_bus test_bus;
pid_t server_pid;

static int on_usr(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	fake_event(si->ssi_signo == SIGUSR1 ? OTATTEST_EVENT_DEVICE_REMOVED : OTATTEST_EVENT_DEVICE_ADDED,
		   0, 0);
	return 0;
}

/*
 * SIGWINCH: the device booted again and BL0's tag did not match (it booted
 * on the signature path, re-tagged). SIGURG: the record moved on within the
 * same boot (its stage records unchanged). SIGPWR: the device booted again
 * and had reverted the trial of BL0 slot B (the watchdog bit), primary A.
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
	} else if (si->ssi_signo == SIGPWR) {
		struct ota_record_update *u;

		build_record(&fake.record, &fake.record_len, gen, fake.record.hdr.tag_key_version);
		bl0->verify_time_ns += gen;
		u = (struct ota_record_update *)ota_record_update_of(&fake.record);
		u->update_state = OTA_UPDATE_IDLE;
		u->trial_boots = 0;
		u->running_bl0_slot = OTA_SLOT_A;
		u->revert_reason = OTA_REVERT_WATCHDOG;
		u->reverted_slot = OTA_SLOT_B;
		u->slot[3].flags &= ~OTA_RECORD_SLOT_F_RUNNING;
		u->slot[2].flags |= OTA_RECORD_SLOT_F_RUNNING;
		ck_assert_uint_eq(ota_record_validate(&fake.record, fake.record_len), OTA_OK);
		/* Back on A's code. */
		snprintf(fake.runtime_version, sizeof(fake.runtime_version), "1.0.0");
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
	m.bus_address = test_bus.address;
	m.skip_polkit = !cfg.use_polkit;
	m.request_timeout_usec = 5000000;
	m.admin_timeout_usec = 5000000;
	m.image_read_timeout_usec = cfg.image_read_timeout_usec;
	client_table_init(&m.clients, &cfg.limits);
	fake.event = m.event;
	fake.m = &m;
	fake.available = true;
	build_record(&fake.record, &fake.record_len, 4, 1);
	snprintf(fake.runtime_version, sizeof(fake.runtime_version), "1.0.0");
	m.transport = (struct transport){ .ops = &fake_transport, .impl = &fake };
	ck_assert_int_eq(manager_setup_signals(&m), 0);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGWINCH);
	sigaddset(&mask, SIGURG);
	sigaddset(&mask, SIGPWR);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sd_event_add_signal(m.event, NULL, SIGUSR1, on_usr, NULL);
	sd_event_add_signal(m.event, NULL, SIGUSR2, on_usr, NULL);
	sd_event_add_signal(m.event, NULL, SIGWINCH, on_reboot, NULL);
	sd_event_add_signal(m.event, NULL, SIGURG, on_reboot, NULL);
	sd_event_add_signal(m.event, NULL, SIGPWR, on_reboot, NULL);
	ck_assert_int_eq(bus_setup(&m), 0);
	d = device_get(&m, 0);
	ck_assert_ptr_nonnull(d);
	device_set_present(d, true);
	_exit(sd_event_loop(m.event) < 0 ? 1 : 0);
}

sd_bus *connect_bus(void)
{
	return private_bus_connect(&test_bus);
}

bool name_has_owner(sd_bus *bus)
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

void wait_until(sd_bus *bus, bool (*cond)(sd_bus *))
{
	int i;

	for (i = 0; i < 500 && !cond(bus); i++)
		usleep(10000);
	ck_assert_msg(cond(bus), "timed out waiting");
}

static void start(void)
{
	private_bus_start(&test_bus, NULL);
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
	private_bus_stop(&test_bus);
	return status;
}

void fail_command(uint8_t cmd, int err, ota_status_t status, const char *msg)
{
	cfg.fail_errno[cmd] = err;
	cfg.fail_status[cmd] = status;
	cfg.fail_msg[cmd] = msg;
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

sd_bus *client;

bool ready(sd_bus *bus)
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

void go(void)
{
	start();
	client = connect_bus();
	wait_until(client, ready);
}

void finish(void)
{
	sd_bus_flush_close_unref(client);
	client = NULL;
	stop();
}

int call_bytes(sd_bus *bus, const char *method, const void *p, size_t len, sd_bus_error *e,
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

sd_bus_message *new_attest(sd_bus *bus, size_t len)
{
	sd_bus_message *call = NULL;

	ck_assert_int_ge(sd_bus_message_new_method_call(bus, &call, OTA_BUS_NAME, DEV_PATH,
							OTA_BUS_DEVICE_IFACE, "Attest"), 0);
	ck_assert_int_ge(sd_bus_message_append_array(call, 'y', "0123456789abcdef0123456789abcdef", len), 0);
	return call;
}

int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *e)
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

void pump(sd_bus *bus, struct replies *r, int want, int max_ms)
{
	int i;

	for (i = 0; i < max_ms / 20 && r->ok + r->busy + r->other < want; i++) {
		sd_bus_wait(bus, 20000);
		while (sd_bus_process(bus, NULL) > 0)
			;
	}
}

char *attest(sd_bus *bus, size_t len, uint8_t fill)
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

void as_nobody(int (*fn)(sd_bus *bus))
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		private_bus_become_nobody();
		_exit(fn(connect_bus()));
	}
	waitpid(pid, &status, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child as nobody: exit %d",
		      WEXITSTATUS(status));
}

static void read_dict_value(sd_bus_message *m, const struct dict_field *f)
{
	ck_assert_int_ge(sd_bus_message_enter_container(m, 'v', f->sig), 0);
	if (!strcmp(f->sig, "ay")) {
		struct dict_bytes *b = f->out;

		ck_assert_int_ge(sd_bus_message_read_array(m, 'y', &b->p, &b->len), 0);
	} else if (f->sig[0] == 'a') {
		unsigned *count = f->out;

		ck_assert_int_ge(sd_bus_message_enter_container(m, 'a', f->sig + 1), 0);
		while (sd_bus_message_skip(m, f->sig + 1) > 0)
			(*count)++;
		ck_assert_int_ge(sd_bus_message_exit_container(m), 0);
	} else {
		ck_assert_int_ge(sd_bus_message_read_basic(m, f->sig[0], f->out), 0);
	}
	ck_assert_int_ge(sd_bus_message_exit_container(m), 0);
}

int read_dict(sd_bus_message *m, const struct dict_field *fields, size_t n_fields)
{
	int r = sd_bus_message_enter_container(m, 'a', "{sv}");

	ck_assert_int_ge(r, 0);
	if (r == 0)
		return 0;
	while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
		const char *key;
		size_t i;

		ck_assert_int_ge(sd_bus_message_read(m, "s", &key), 0);
		for (i = 0; i < n_fields && strcmp(key, fields[i].key); i++)
			;
		if (i < n_fields)
			read_dict_value(m, &fields[i]);
		else
			ck_assert_int_ge(sd_bus_message_skip(m, "v"), 0);
		ck_assert_int_ge(sd_bus_message_exit_container(m), 0);
	}
	ck_assert_int_ge(sd_bus_message_exit_container(m), 0);
	return 1;
}

uint32_t generation(void)
{
	uint32_t g = 0;

	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "Generation", NULL, 'u', &g), 0);
	return g;
}

void pump_until_generation(uint32_t want)
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

int run_ctl(int (*cmd)(struct ctl *, int, char **), struct ctl *c, int argc, char **argv, char **out,
	    char **err)
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

/* A temporary regular file of len bytes of the image pattern; its descriptor. */
int image_fd(size_t len)
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

int call_install(sd_bus *bus, const char *method, int fd, const char *stage, uint32_t slot,
		 sd_bus_error *e, sd_bus_message **reply)
{
	return sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, method, e, reply,
				  "hsu", fd, stage, slot);
}

Suite *bus_suite(const char *name, const TTest *const *tests)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create("bus");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 30);
	for (; *tests; tests++)
		tcase_add_test(tc, *tests);
	suite_add_tcase(s, tc);
	return s;
}

/* Every test here runs a private dbus-daemon: without one nothing can be tested. */
void bus_require_dbus_daemon(void)
{
	if (access("/usr/bin/dbus-daemon", X_OK) != 0 && system("command -v dbus-daemon >/dev/null") != 0) {
		fprintf(stderr, "dbus-daemon is not installed (scripts/deps.sh installs it)\n");
		exit(1);
	}
}
