// SPDX-License-Identifier: MIT
/*
 * A method that goes to the device, from admission to answer.
 *
 * In order: who is calling (peer.c: the uid the bus vouches for), that
 * user's bounds (clients.c: queue per lane, attestation rate), for
 * commands that need it the caller's authorization (auth.c), then the
 * request to the kernel in the command's lane (genl.h), and the answer
 * when it replies. A request the kernel accepted is always answered, even
 * when the caller has gone (the reply is simply not delivered) and even
 * while stopping: SIGTERM waits for it (manager.c).
 *
 * What is logged (log.h): a refused or failed call is a refusal, limited;
 * a privileged operation's outcome is an audit line, once, with who asked.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call.h"
#include "log.h"

bool call_admit(struct manager *m, sd_bus_message *msg, uid_t uid, enum client_kind kind,
		struct client **out, struct ota_err *e)
{
	uint64_t now = call_now_usec();

	if (client_admit(&m->clients, uid, uid == 0 ? CLIENT_CLASS_PRIVILEGED : CLIENT_CLASS_USER, kind,
			 now, out, e))
		return true;
	/*
	 * The ordinary users' share is full: a member of otattest-update or
	 * otattest-sign (the bus says which, asked only now) has a share of
	 * its own, so however many users fill theirs the agent gets in.
	 */
	return e->cls == OTA_CLASS_LIMIT && uid != 0 && peer_is_privileged(&m->peers, msg, uid) &&
	       client_admit(&m->clients, uid, CLIENT_CLASS_PRIVILEGED, kind, now, out, e);
}

uint64_t call_now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void call_free(struct call *c)
{
	struct manager *m = c->m;

	install_free(c->install);
	client_release(c->client, c->spec->kind);
	sd_bus_message_unref(c->msg);
	free(c);
	m->n_calls--;
	manager_call_finished(m);
}

/* The caller may be gone; the answer is still owed and cannot hurt. */
void call_reply_error(struct call *c, const struct ota_err *e)
{
	_cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;

	ota_bus_error_set(&error, e);
	sd_bus_reply_method_error(c->msg, &error);
	c->m->requests_failed++;
}

/* ---- answers, one per command; a reply that cannot be sent means the caller left ---- */

static int reply_evidence(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
	const struct nlattr *a = res->tb[OTATTEST_A_EVIDENCE];

	if (!a) {
		ota_err_set_statusf(e, OTA_HOST_PROTOCOL, "the kernel's attestation reply has no evidence");
		return -EBADMSG;
	}
	if (sd_bus_message_new_method_return(c->msg, &reply) >= 0 &&
	    sd_bus_message_append_array(reply, 'y', mnl_attr_get_payload(a), mnl_attr_get_payload_len(a)) >= 0)
		sd_bus_send(NULL, reply, NULL);
	return 0;
}

static int reply_stable_sign(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
	const struct nlattr *sig = res->tb[OTATTEST_A_SIGNATURE], *pk = res->tb[OTATTEST_A_PUBKEY];

	if (!sig || !pk) {
		ota_err_set_statusf(e, OTA_HOST_PROTOCOL, "the kernel's signing reply lacks the signature or key");
		return -EBADMSG;
	}
	if (sd_bus_message_new_method_return(c->msg, &reply) >= 0 &&
	    sd_bus_message_append_array(reply, 'y', mnl_attr_get_payload(sig), mnl_attr_get_payload_len(sig)) >= 0 &&
	    sd_bus_message_append_array(reply, 'y', mnl_attr_get_payload(pk), mnl_attr_get_payload_len(pk)) >= 0)
		sd_bus_send(NULL, reply, NULL);
	return 0;
}

static int reply_certs(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
	size_t i;
	int r;

	if (res->n_certs == 0) {
		ota_err_set_status(e, OTA_RUNTIME_NO_CERTS);
		return -ENOENT;
	}
	r = sd_bus_message_new_method_return(c->msg, &reply);
	if (r >= 0)
		r = sd_bus_message_open_container(reply, 'a', "ay");
	for (i = 0; r >= 0 && i < res->n_certs; i++)
		r = sd_bus_message_append_array(reply, 'y', mnl_attr_get_payload(res->certs[i]),
						mnl_attr_get_payload_len(res->certs[i]));
	if (r >= 0)
		r = sd_bus_message_close_container(reply);
	if (r >= 0)
		sd_bus_send(NULL, reply, NULL);
	return 0;
}

static bool get_u32(const struct genl_result *res, int type, uint32_t *v)
{
	if (!res->tb[type])
		return false;
	*v = mnl_attr_get_u32(res->tb[type]);
	return true;
}

static int reply_rotate(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	uint32_t old_kv, new_kv, retagged;

	if (!get_u32(res, OTATTEST_A_KEY_VERSION_OLD, &old_kv) ||
	    !get_u32(res, OTATTEST_A_KEY_VERSION_NEW, &new_kv) ||
	    !get_u32(res, OTATTEST_A_STAGES_RETAGGED, &retagged)) {
		ota_err_set_statusf(e, OTA_HOST_PROTOCOL, "the kernel's rotation reply is incomplete");
		return -EBADMSG;
	}
	log_audit(MID_ROTATION_FINISHED, c->d->name, &c->who, 0,
		  "tag rotation by uid %u finished: key version %u -> %u, %u stage(s) re-tagged",
		  (unsigned)c->who.uid, old_kv, new_kv, retagged);
	bus_emit_rotation_finished(c->d, old_kv, new_kv, retagged, NULL);
	c->d->rotation_reported = true;
	c->d->rotation_reported_kv = new_kv;
	sd_bus_reply_method_return(c->msg, "uuu", old_kv, new_kv, retagged);
	return 0;
}

static const char *slot_name(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "the other";
}

/* UpdateReset and WarmReset: the boot the reset performed. */
static int reply_reset(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	uint32_t boot_status, generation, slot;

	if (!get_u32(res, OTATTEST_A_BOOT_STATUS, &boot_status) ||
	    !get_u32(res, OTATTEST_A_GENERATION, &generation) ||
	    !get_u32(res, OTATTEST_A_SLOT, &slot)) {
		ota_err_set_statusf(e, OTA_HOST_PROTOCOL, "the kernel's %s reply is incomplete",
				    c->who.member);
		return -EBADMSG;
	}
	/*
	 * An update reset into a named slot that reports another slot booted
	 * without a refusal contradicts its own request (the device keeps the
	 * running image only with an error: a refusal of the image, or
	 * TRIAL_BOOTS_USED): never a success to an update agent.
	 */
	if (c->cmd == OTATTEST_CMD_UPDATE_RESET && c->args.slot < OTA_SLOT_COUNT &&
	    slot != c->args.slot) {
		ota_err_set_statusf(e, OTA_HOST_PROTOCOL,
				    "the device answered the update reset into slot %s with slot %s booted",
				    slot_name(c->args.slot), slot_name(slot));
		return -EBADMSG;
	}
	if (c->cmd == OTATTEST_CMD_UPDATE_RESET)
		log_audit(MID_UPDATE_RESET, c->d->name, &c->who, boot_status,
			  "update reset by uid %u to slot %s finished: slot %s booted, record generation %u",
			  (unsigned)c->who.uid, slot_name(c->args.slot), slot_name(slot), generation);
	else
		log_audit(MID_WARM_RESET, c->d->name, &c->who, boot_status,
			  "warm reset by uid %u finished: BL0 slot %s booted, record generation %u",
			  (unsigned)c->who.uid, slot_name(slot), generation);
	sd_bus_reply_method_return(c->msg, "uuu", boot_status, generation, slot);
	return 0;
}

/* Commit, Ratchet, Revoke: the state after the boot that served them. */
static int reply_boot_svc(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	static const int types[] = { OTATTEST_A_BOOT_STATUS,   OTATTEST_A_GENERATION,
				     OTATTEST_A_SLOT,          OTATTEST_A_PRIMARY_SLOT,
				     OTATTEST_A_FLOOR_ROM_EXT, OTATTEST_A_FLOOR_BL0,
				     OTATTEST_A_REVOCATION_SEQUENCE };
	uint32_t v[sizeof(types) / sizeof(types[0])];
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!get_u32(res, types[i], &v[i])) {
			ota_err_set_statusf(e, OTA_HOST_PROTOCOL, "the kernel's %s reply is incomplete",
					    c->who.member);
			return -EBADMSG;
		}
	log_audit(c->spec->audit_mid, c->d->name, &c->who, v[0],
		  "%s by uid %u served: slot %s booted, primary %s, floors ROM_EXT %u BL0 %u, "
		  "revocation sequence %u, record generation %u",
		  c->who.member, (unsigned)c->who.uid, slot_name(v[2]), slot_name(v[3]), v[4], v[5],
		  v[6], v[1]);
	sd_bus_reply_method_return(c->msg, "uuuuuuu", v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
	return 0;
}

static int reply(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	switch (c->cmd) {
	case OTATTEST_CMD_ATTEST: return reply_evidence(c, res, e);
	case OTATTEST_CMD_STABLE_SIGN: return reply_stable_sign(c, res, e);
	case OTATTEST_CMD_GET_CERTS: return reply_certs(c, res, e);
	case OTATTEST_CMD_ROTATE_TAGS: return reply_rotate(c, res, e);
	case OTATTEST_CMD_UPDATE_RESET:
	case OTATTEST_CMD_WARM_RESET: return reply_reset(c, res, e);
	case OTATTEST_CMD_COMMIT:
	case OTATTEST_CMD_RATCHET:
	case OTATTEST_CMD_REVOKE: return reply_boot_svc(c, res, e);
	}
	assert(!"a command without an answer");
	return -EINVAL;
}

/* A failed call: its error to the caller, and once to the log. */
void call_failed(struct call *c, struct ota_err *e)
{
	if (e->status == OTA_HOST_NO_DEVICE) {
		char why[sizeof(e->message)];

		/*
		 * The kernel no longer has the device this object stands for
		 * (unplugged, unbound, or gone while the request waited). To
		 * the caller that is the documented absent device
		 * (DeviceUnavailable), not a name that never existed
		 * (NoSuchDevice, which GetDevice answers).
		 */
		snprintf(why, sizeof(why), "%s", e->message);
		ota_err_set_statusf(e, OTA_HOST_DEVICE_GONE, "%s went away during the request (%s)",
				    c->d->name, why);
	}
	if (c->spec->audit_mid)
		log_audit(c->spec->audit_mid, c->d->name, &c->who, e->status, "%s by uid %u failed: %s",
			  c->who.member, (unsigned)c->who.uid, e->message);
	else
		log_refusal(LOG_INFO, NULL, c->d->name, &c->who, e->status, "%s failed: %s",
			    c->who.member, e->message);
	if (c->cmd == OTATTEST_CMD_ROTATE_TAGS)
		bus_emit_rotation_finished(c->d, 0, 0, 0, e);
	/* Before the reply: a caller that reads RefusedSlots next finds the slot there. */
	if (c->cmd == OTATTEST_CMD_UPDATE_RESET)
		device_note_refused_boot(c->d, c->args.slot, e);
	call_reply_error(c, e);
}

static void on_call_done(void *userdata, const struct genl_result *res)
{
	struct call *c = userdata;
	struct ota_err e;

	ota_err_clear(&e);
	if (c->cmd == OTATTEST_CMD_ROTATE_TAGS) {
		/* Ours, and reported here: not an "observed" rotation as well. */
		c->d->rotation_ours = false;
		c->d->rotating = false;
	}
	if (!res->ok) {
		e = res->err;
		call_failed(c, &e);
	} else if (reply(c, res, &e) < 0) {
		call_failed(c, &e);
	} else {
		c->m->requests_ok++;
	}
	call_free(c);
}

static void call_submit(struct call *c)
{
	uint64_t timeout = c->spec->admin_timeout ? c->m->admin_timeout_usec : c->m->request_timeout_usec;
	struct ota_err e;
	int r;

	if (!device_usable(c->d, c->m, &e)) {
		call_reply_error(c, &e);
		call_free(c);
		return;
	}
	if (c->cmd == OTATTEST_CMD_INSTALL_BEGIN) {
		install_submit(c);
		return;
	}
	if (c->cmd == OTATTEST_CMD_ROTATE_TAGS)
		c->d->rotation_ours = true;
	r = transport_request(&c->m->transport, c->cmd, c->d->index, &c->args, timeout, on_call_done, c);
	if (r < 0) {
		if (c->cmd == OTATTEST_CMD_ROTATE_TAGS)
			c->d->rotation_ours = false;
		ota_err_set_statusf(&e, OTA_HOST_INTERNAL, "cannot send the request: %s", strerror(-r));
		call_failed(c, &e);
		call_free(c);
	}
}

static void on_auth(void *userdata, bool allowed, const sd_bus_error *err)
{
	struct call *c = userdata;
	_cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;

	if (allowed) {
		call_submit(c);
		return;
	}
	log_refusal(LOG_NOTICE, MID_ACCESS_DENIED, c->d->name, &c->who, OTA_HOST_PERMISSION,
		    "refused %s for uid %u: not root, not in group %s, not authorized by polkit",
		    c->who.member, (unsigned)c->who.uid, c->spec->group);
	if (err && sd_bus_error_is_set(err))
		sd_bus_error_copy(&error, err);
	else
		sd_bus_error_set(&error, SD_BUS_ERROR_ACCESS_DENIED, "the caller is not allowed to do this");
	sd_bus_reply_method_error(c->msg, &error);
	c->m->requests_refused++;
	call_free(c);
}

/* Turned away before a call exists: the error, and a (limited) line. */
static int refuse(struct manager *m, struct device *d, const struct log_caller *who,
		  const struct ota_err *e, sd_bus_error *error)
{
	m->requests_refused++;
	log_refusal(LOG_INFO, NULL, d->name, who, e->status, "refused %s for uid %u: %s", who->member,
		    (unsigned)who->uid, e->message);
	return ota_bus_error_set(error, e);
}

int call_start(sd_bus_message *msg, struct device *d, const struct call_spec *spec,
	       const struct genl_args *args, sd_bus_error *error)
{
	uint8_t cmd = spec->cmd;
	struct manager *m = d->m;
	struct log_caller who = { .sender = sd_bus_message_get_sender(msg),
				  .member = sd_bus_message_get_member(msg) };
	struct client *client;
	struct call *c;
	struct ota_err e;
	int r;

	assert(spec);
	assert(!args || !args->nonce || args->nonce_len <= OTA_NONCE_MAX);
	if (!device_usable(d, m, &e))
		return ota_bus_error_set(error, &e);
	r = peer_uid(&m->peers, msg, &who.uid);
	if (r < 0) {
		ota_err_set_statusf(&e, OTA_HOST_PERMISSION, "the bus would not say who is calling: %s",
				    strerror(-r));
		return ota_bus_error_set(error, &e);
	}
	if (!call_admit(m, msg, who.uid, spec->kind, &client, &e))
		return refuse(m, d, &who, &e, error);

	c = calloc(1, sizeof(*c));
	if (!c) {
		client_release(client, spec->kind);
		return -ENOMEM;
	}
	*c = (struct call){ .m = m, .d = d, .msg = sd_bus_message_ref(msg), .spec = spec,
			    .client = client, .who = who, .cmd = cmd };
	if (args)
		c->args = *args;
	if (args && args->nonce) {
		memcpy(c->nonce, args->nonce, args->nonce_len);
		c->args.nonce = c->nonce;
	}
	if (args && args->revocation) {
		memcpy(c->revocation, args->revocation, args->revocation_len);
		c->args.revocation = c->revocation;
	}
	m->n_calls++;

	if (!spec->action) {
		call_submit(c);
		return 1;
	}
	r = auth_check(m, msg, spec->action, spec->group, on_auth, c, error);
	if (r < 0) {
		log_refusal(LOG_NOTICE, MID_ACCESS_DENIED, d->name, &who, OTA_HOST_PERMISSION,
			    "refused %s for uid %u: cannot ask the bus about the caller", who.member,
			    (unsigned)who.uid);
		m->requests_refused++;
		call_free(c);
		return r;
	}
	if (r > 0)
		call_submit(c);
	return 1;
}
