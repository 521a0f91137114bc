// SPDX-License-Identifier: MIT
/*
 * org.otattest.BootAttest1.Device: properties from the cached record and
 * state (never a round trip to the device), and the methods that do go to
 * the device, answered asynchronously when the kernel replies.
 *
 * Every method checks its arguments first, then the caller's bounds
 * (queue, attestation rate), then, for RotateTags and UpdateReset, the
 * caller's authorization; only then does a request reach the kernel. A
 * request the kernel accepted is always answered, even when the caller
 * has gone (the reply is simply not delivered) and even while stopping:
 * SIGTERM waits for it (see main.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "log.h"
#include "manager.h"

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* ---- properties ---- */

static const struct ota_record_header *hdr(const struct device *d)
{
	static const struct ota_record_header zero;

	return d->have_record ? &d->record.hdr : &zero;
}

static int append_bytes(sd_bus_message *reply, const void *p, size_t len)
{
	return sd_bus_message_append_array(reply, 'y', p, len);
}

static const char *slot_name(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "unknown";
}

static int append_stages(sd_bus_message *reply, const struct device *d)
{
	uint32_t i, k, n = d->have_record ? d->record.hdr.stage_count : 0;
	int r;

	r = sd_bus_message_open_container(reply, 'a', OTA_STAGE_STRUCT_SIG + 0);
	if (r < 0)
		return r;
	for (i = 0; i < n; i++) {
		const struct ota_stage_record *s = &d->record.stage[i];

		r = sd_bus_message_open_container(reply, 'r', "ssssuuuuayaaytbb");
		if (r < 0)
			return r;
		r = sd_bus_message_append(reply, "ssssuuuu", ota_stage_name(s->stage),
					  slot_name(s->slot), ota_path_name(s->path),
					  ota_scheme_name(s->sig_scheme), s->status, s->security_version,
					  s->delegation_depth, s->tag_key_version);
		if (r < 0)
			return r;
		r = append_bytes(reply, s->measurement, sizeof(s->measurement));
		if (r < 0)
			return r;
		r = sd_bus_message_open_container(reply, 'a', "ay");
		if (r < 0)
			return r;
		for (k = 0; k <= s->delegation_depth && k < OTA_MAX_CHAIN_KEYS; k++) {
			r = append_bytes(reply, s->key_ids[k], OTA_KEY_ID_BYTES);
			if (r < 0)
				return r;
		}
		r = sd_bus_message_close_container(reply);
		if (r < 0)
			return r;
		r = sd_bus_message_append(reply, "tbb", s->verify_time_ns,
					  !!(s->flags & OTA_STAGE_F_BOOTED),
					  !!(s->flags & OTA_STAGE_F_FALLBACK));
		if (r < 0)
			return r;
		r = sd_bus_message_close_container(reply);
		if (r < 0)
			return r;
	}
	return sd_bus_message_close_container(reply);
}

static int prop_get(sd_bus *bus, const char *path, const char *interface, const char *p,
		    sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	const struct device *d = userdata;
	const struct ota_record_header *h = hdr(d);

	(void)bus;
	(void)path;
	(void)interface;
	(void)error;
	if (!strcmp(p, "Name"))
		return sd_bus_message_append(reply, "s", d->name);
	if (!strcmp(p, "State"))
		return sd_bus_message_append(reply, "s", device_state_string(d));
	if (!strcmp(p, "StateDetail"))
		return sd_bus_message_append(reply, "u", d->have_state ? d->state_detail : 0);
	if (!strcmp(p, "StateMessage")) {
		const char *msg = d->have_state && d->state_detail ? ota_status_message(d->state_detail) : "";

		return sd_bus_message_append(reply, "s", msg ? msg : "unknown status");
	}
	if (!strcmp(p, "RecordValid"))
		return sd_bus_message_append(reply, "b", d->have_record);
	if (!strcmp(p, "DeviceId"))
		return append_bytes(reply, h->device_id, d->have_record ? sizeof(h->device_id) : 0);
	if (!strcmp(p, "Lifecycle"))
		return sd_bus_message_append(reply, "s", d->have_record ? ota_lifecycle_name(h->lifecycle) : "");
	if (!strcmp(p, "ResetReason"))
		return sd_bus_message_append(reply, "s", d->have_record ? ota_reset_reason_name(h->reset_reason) : "");
	if (!strcmp(p, "Epoch"))
		return sd_bus_message_append(reply, "u", h->epoch);
	if (!strcmp(p, "MinSvn"))
		return sd_bus_message_append(reply, "u", h->min_svn);
	if (!strcmp(p, "ChainMaxSvn"))
		return sd_bus_message_append(reply, "u", h->chain_max_svn);
	if (!strcmp(p, "FloorRomExt"))
		return sd_bus_message_append(reply, "u", h->floor_rom_ext);
	if (!strcmp(p, "FloorBl0"))
		return sd_bus_message_append(reply, "u", h->floor_bl0);
	if (!strcmp(p, "TagBootEnabled"))
		return sd_bus_message_append(reply, "b", !!(h->flags & OTA_RECORD_F_TAG_BOOT_ENABLED));
	if (!strcmp(p, "TagKeyVersion"))
		return sd_bus_message_append(reply, "u", h->tag_key_version);
	if (!strcmp(p, "Generation"))
		return sd_bus_message_append(reply, "u", h->generation);
	if (!strcmp(p, "BootStatus"))
		return sd_bus_message_append(reply, "u", h->boot_status);
	if (!strcmp(p, "BootDataCounter"))
		return sd_bus_message_append(reply, "u", h->boot_data_counter);
	if (!strcmp(p, "BootTimeNs"))
		return sd_bus_message_append(reply, "t", h->boot_time_ns);
	if (!strcmp(p, "RomIdentity"))
		return append_bytes(reply, h->rom_identity, d->have_record ? sizeof(h->rom_identity) : 0);
	if (!strcmp(p, "Stages"))
		return append_stages(reply, d);
	return -ENOENT;
}

/* ---- calls ---- */

struct call {
	struct manager *m;
	struct device *d;
	sd_bus_message *msg;
	struct client *client;
	uint8_t cmd;
	struct genl_args args;
	uint8_t nonce[OTA_NONCE_MAX];
	const char *sender;
};

static void call_free(struct call *c)
{
	struct manager *m = c->m;

	client_release(&m->clients, c->client);
	sd_bus_message_unref(c->msg);
	free(c);
	m->n_calls--;
	manager_call_finished(m);
}

static void call_reply_error(struct call *c, const struct ota_err *e)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;

	bus_reply_error(&error, e);
	/* The caller may be gone; the answer is still owed and cannot hurt. */
	sd_bus_reply_method_error(c->msg, &error);
	sd_bus_error_free(&error);
	c->m->requests_failed++;
}

static int reply_evidence(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	const struct nlattr *a = res->tb[OTATTEST_A_EVIDENCE];
	sd_bus_message *reply = NULL;
	int r;

	if (!a) {
		ota_err_set_statusf(e, OTA_HOST_PROTOCOL, "the kernel's attestation reply has no evidence");
		return -EBADMSG;
	}
	r = sd_bus_message_new_method_return(c->msg, &reply);
	if (r >= 0)
		r = append_bytes(reply, mnl_attr_get_payload(a), mnl_attr_get_payload_len(a));
	if (r >= 0)
		r = sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	/* A send failure means the caller is gone; the work is done regardless. */
	return 0;
}

static int reply_stable_sign(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	const struct nlattr *sig = res->tb[OTATTEST_A_SIGNATURE], *pk = res->tb[OTATTEST_A_PUBKEY];
	sd_bus_message *reply = NULL;
	int r;

	if (!sig || !pk) {
		ota_err_set_statusf(e, OTA_HOST_PROTOCOL, "the kernel's signing reply lacks the signature or key");
		return -EBADMSG;
	}
	r = sd_bus_message_new_method_return(c->msg, &reply);
	if (r >= 0)
		r = append_bytes(reply, mnl_attr_get_payload(sig), mnl_attr_get_payload_len(sig));
	if (r >= 0)
		r = append_bytes(reply, mnl_attr_get_payload(pk), mnl_attr_get_payload_len(pk));
	if (r >= 0)
		sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	return 0;
}

static int reply_certs(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	sd_bus_message *reply = NULL;
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
		r = append_bytes(reply, mnl_attr_get_payload(res->certs[i]),
				 mnl_attr_get_payload_len(res->certs[i]));
	if (r >= 0)
		r = sd_bus_message_close_container(reply);
	if (r >= 0)
		sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
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
	log_event(LOG_NOTICE, 0, MID_ROTATION_FINISHED, c->d->name, c->sender, 0,
		  "tag rotation finished: key version %u -> %u, %u stage(s) re-tagged", old_kv, new_kv,
		  retagged);
	bus_emit_rotation_finished(c->d, old_kv, new_kv, retagged, NULL);
	sd_bus_reply_method_return(c->msg, "uuu", old_kv, new_kv, retagged);
	return 0;
}

static int reply_update(struct call *c, const struct genl_result *res, struct ota_err *e)
{
	uint32_t boot_status, generation, slot;

	if (!get_u32(res, OTATTEST_A_BOOT_STATUS, &boot_status) ||
	    !get_u32(res, OTATTEST_A_GENERATION, &generation) ||
	    !get_u32(res, OTATTEST_A_SLOT, &slot)) {
		ota_err_set_statusf(e, OTA_HOST_PROTOCOL, "the kernel's update reset reply is incomplete");
		return -EBADMSG;
	}
	log_event(LOG_NOTICE, 0, MID_UPDATE_RESET, c->d->name, c->sender, boot_status,
		  "update reset finished: slot %s booted, record generation %u", slot_name(slot),
		  generation);
	sd_bus_reply_method_return(c->msg, "uuu", boot_status, generation, slot);
	return 0;
}

static void on_call_done(void *userdata, const struct genl_result *res)
{
	struct call *c = userdata;
	struct ota_err e;
	int r = 0;

	ota_err_clear(&e);
	if (!res->ok) {
		e = res->err;
		r = -EIO;
	} else {
		switch (c->cmd) {
		case OTATTEST_CMD_ATTEST: r = reply_evidence(c, res, &e); break;
		case OTATTEST_CMD_STABLE_SIGN: r = reply_stable_sign(c, res, &e); break;
		case OTATTEST_CMD_GET_CERTS: r = reply_certs(c, res, &e); break;
		case OTATTEST_CMD_ROTATE_TAGS: r = reply_rotate(c, res, &e); break;
		case OTATTEST_CMD_UPDATE_RESET: r = reply_update(c, res, &e); break;
		}
	}
	if (r < 0 && e.status == OTA_HOST_NO_DEVICE) {
		char why[sizeof(e.message)];

		/*
		 * The kernel no longer has the device this object stands for
		 * (unplugged, unbound, or gone while the request waited). To
		 * the caller that is the documented absent device
		 * (DeviceUnavailable), not a name that never existed
		 * (NoSuchDevice, which GetDevice answers).
		 */
		snprintf(why, sizeof(why), "%s", e.message);
		ota_err_set_statusf(&e, OTA_HOST_DEVICE_GONE, "%s went away during the request (%s)",
				    c->d->name, why);
	}
	if (c->cmd == OTATTEST_CMD_ROTATE_TAGS) {
		/* Ours, and reported here: not an "observed" rotation as well. */
		c->d->rotation_ours = false;
		c->d->rotating = false;
		if (r < 0)
			bus_emit_rotation_finished(c->d, 0, 0, 0, &e);
	}
	if (r < 0) {
		log_event(LOG_INFO, 0, NULL, c->d->name, c->sender, e.status, "%s failed: %s",
			  sd_bus_message_get_member(c->msg), e.message);
		call_reply_error(c, &e);
	} else {
		c->m->requests_ok++;
	}
	if (c->cmd == OTATTEST_CMD_ROTATE_TAGS || c->cmd == OTATTEST_CMD_UPDATE_RESET)
		device_refresh(c->d);
	call_free(c);
}

static void call_submit(struct call *c)
{
	uint64_t timeout = (c->cmd == OTATTEST_CMD_ROTATE_TAGS || c->cmd == OTATTEST_CMD_UPDATE_RESET)
				   ? c->m->admin_timeout_usec
				   : c->m->request_timeout_usec;
	struct ota_err e;
	int r;

	if (!device_usable(c->d, c->m, &e)) {
		call_reply_error(c, &e);
		call_free(c);
		return;
	}
	if (c->cmd == OTATTEST_CMD_ROTATE_TAGS)
		c->d->rotation_ours = true;
	r = genl_request(c->m->genl, c->cmd, c->d->index, &c->args, timeout, on_call_done, c);
	if (r < 0) {
		ota_err_set_statusf(&e, OTA_HOST_INTERNAL, "cannot send the request: %s", strerror(-r));
		if (c->cmd == OTATTEST_CMD_ROTATE_TAGS)
			c->d->rotation_ours = false;
		call_reply_error(c, &e);
		call_free(c);
	}
}

/* Admit and create a call; NULL with error set when refused. */
static struct call *call_new(sd_bus_message *msg, struct device *d, uint8_t cmd,
			     enum client_kind kind, sd_bus_error *error, int *ret)
{
	struct manager *m = d->m;
	const char *sender = sd_bus_message_get_sender(msg);
	struct client *cl;
	struct call *c;
	struct ota_err e;

	if (!device_usable(d, m, &e)) {
		*ret = bus_reply_error(error, &e);
		return NULL;
	}
	/* Direct connections (tests) have no sender: bound them as one client. */
	if (!client_admit(&m->clients, sender ? sender : ":direct", kind, now_usec(), &cl, &e)) {
		m->requests_refused++;
		log_event(LOG_INFO, 0, NULL, d->name, sender, e.status, "refused %s: %s",
			  sd_bus_message_get_member(msg), e.message);
		*ret = bus_reply_error(error, &e);
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		client_release(&m->clients, cl);
		*ret = -ENOMEM;
		return NULL;
	}
	c->m = m;
	c->d = d;
	c->msg = sd_bus_message_ref(msg);
	c->client = cl;
	c->cmd = cmd;
	c->sender = sd_bus_message_get_sender(msg);
	m->n_calls++;
	return c;
}

static int read_nonce(sd_bus_message *msg, struct call *tmp, sd_bus_error *error, int *ret)
{
	const void *p;
	size_t len;
	struct ota_err e;
	int r;

	r = sd_bus_message_read_array(msg, 'y', &p, &len);
	if (r < 0) {
		*ret = r;
		return -1;
	}
	if (!args_check_nonce(len, &e)) {
		*ret = bus_reply_error(error, &e);
		return -1;
	}
	memcpy(tmp->nonce, p, len);
	tmp->args.nonce_len = len;
	return 0;
}

static int method_attest(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	struct call tmp = { 0 }, *c;
	int r = 0;

	if (read_nonce(msg, &tmp, error, &r) < 0)
		return r;
	c = call_new(msg, userdata, OTATTEST_CMD_ATTEST, CLIENT_REQ_ATTEST, error, &r);
	if (!c)
		return r;
	memcpy(c->nonce, tmp.nonce, sizeof(c->nonce));
	c->args.nonce = c->nonce;
	c->args.nonce_len = tmp.args.nonce_len;
	call_submit(c);
	return 1;
}

static int method_stable_sign(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	struct call tmp = { 0 }, *c;
	struct ota_err e;
	uint32_t svn;
	int r = 0;

	if (read_nonce(msg, &tmp, error, &r) < 0)
		return r;
	r = sd_bus_message_read(msg, "u", &svn);
	if (r < 0)
		return r;
	if (!args_check_svn(svn, &e))
		return bus_reply_error(error, &e);
	c = call_new(msg, userdata, OTATTEST_CMD_STABLE_SIGN, CLIENT_REQ_ATTEST, error, &r);
	if (!c)
		return r;
	memcpy(c->nonce, tmp.nonce, sizeof(c->nonce));
	c->args.nonce = c->nonce;
	c->args.nonce_len = tmp.args.nonce_len;
	c->args.has_svn = true;
	c->args.svn = svn;
	call_submit(c);
	return 1;
}

static int method_get_certs(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	struct call *c;
	int r = 0;

	c = call_new(msg, userdata, OTATTEST_CMD_GET_CERTS, CLIENT_REQ_PLAIN, error, &r);
	if (!c)
		return r;
	call_submit(c);
	return 1;
}

static int method_get_record(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	struct device *d = userdata;
	sd_bus_message *reply = NULL;
	struct ota_err e;
	int r;

	if (!d->present) {
		ota_err_set_statusf(&e, OTA_HOST_DEVICE_GONE, "%s went away", d->name);
		return bus_reply_error(error, &e);
	}
	if (!d->have_record) {
		ota_err_set_statusf(&e, OTA_MBOX_NOT_READY, "%s has no valid boot record (state %s)",
				    d->name, device_state_string(d));
		return bus_reply_error(error, &e);
	}
	r = sd_bus_message_new_method_return(msg, &reply);
	if (r >= 0)
		r = append_bytes(reply, &d->record, d->record_len);
	if (r >= 0)
		r = sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	return r < 0 ? r : 1;
}

static void on_auth(void *userdata, bool allowed, const sd_bus_error *err)
{
	struct call *c = userdata;

	if (!allowed) {
		sd_bus_error error = SD_BUS_ERROR_NULL;

		log_event(LOG_NOTICE, 0, MID_ACCESS_DENIED, c->d->name, c->sender, OTA_HOST_PERMISSION,
			  "refused %s: not root, not in group %s, not authorized by polkit",
			  sd_bus_message_get_member(c->msg), OTA_UPDATE_GROUP);
		if (err && sd_bus_error_is_set(err))
			sd_bus_error_copy(&error, err);
		else
			sd_bus_error_set(&error, SD_BUS_ERROR_ACCESS_DENIED,
					 "the caller is not allowed to do this");
		sd_bus_reply_method_error(c->msg, &error);
		sd_bus_error_free(&error);
		c->m->requests_refused++;
		call_free(c);
		return;
	}
	call_submit(c);
}

static int privileged(sd_bus_message *msg, struct device *d, uint8_t cmd, const char *action,
		      const struct genl_args *args, sd_bus_error *error)
{
	struct call *c;
	int r = 0;

	c = call_new(msg, d, cmd, CLIENT_REQ_PLAIN, error, &r);
	if (!c)
		return r;
	if (args)
		c->args = *args;
	r = auth_check(d->m, msg, action, on_auth, c, error);
	if (r < 0) {
		log_event(LOG_NOTICE, 0, MID_ACCESS_DENIED, d->name, c->sender, OTA_HOST_PERMISSION,
			  "refused %s: cannot ask the bus who the caller is", sd_bus_message_get_member(msg));
		d->m->requests_refused++;
		call_free(c);
		return r;
	}
	if (r > 0)
		call_submit(c);
	return 1;
}

static int method_rotate(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return privileged(msg, userdata, OTATTEST_CMD_ROTATE_TAGS, OTA_POLKIT_ACTION_ROTATE, NULL, error);
}

static int method_update_reset(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	struct genl_args args = { .has_slot = true };
	struct ota_err e;
	int r;

	r = sd_bus_message_read(msg, "u", &args.slot);
	if (r < 0)
		return r;
	if (!args_check_slot(args.slot, &e))
		return bus_reply_error(error, &e);
	return privileged(msg, userdata, OTATTEST_CMD_UPDATE_RESET, OTA_POLKIT_ACTION_UPDATE, &args,
			  error);
}

#define PROP(name, sig) SD_BUS_PROPERTY(name, sig, prop_get, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)

const sd_bus_vtable device_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("Name", "s", prop_get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	PROP("State", "s"),
	PROP("StateDetail", "u"),
	PROP("StateMessage", "s"),
	PROP("RecordValid", "b"),
	PROP("DeviceId", "ay"),
	PROP("Lifecycle", "s"),
	PROP("ResetReason", "s"),
	PROP("Epoch", "u"),
	PROP("MinSvn", "u"),
	PROP("ChainMaxSvn", "u"),
	PROP("FloorRomExt", "u"),
	PROP("FloorBl0", "u"),
	PROP("TagBootEnabled", "b"),
	PROP("TagKeyVersion", "u"),
	PROP("Generation", "u"),
	PROP("BootStatus", "u"),
	PROP("BootDataCounter", "u"),
	PROP("BootTimeNs", "t"),
	PROP("RomIdentity", "ay"),
	PROP("Stages", "a" OTA_STAGE_STRUCT_SIG),
	SD_BUS_METHOD_WITH_ARGS("GetRecord", SD_BUS_NO_ARGS, SD_BUS_RESULT("ay", record),
				method_get_record, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Attest", SD_BUS_ARGS("ay", nonce), SD_BUS_RESULT("ay", evidence),
				method_attest, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("SignWithStableKey", SD_BUS_ARGS("ay", nonce, "u", svn),
				SD_BUS_RESULT("ay", signature, "ay", pubkey), method_stable_sign,
				SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("GetCertificates", SD_BUS_NO_ARGS, SD_BUS_RESULT("aay", certificates),
				method_get_certs, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("RotateTags", SD_BUS_NO_ARGS,
				SD_BUS_RESULT("u", old_key_version, "u", new_key_version, "u",
					      stages_retagged),
				method_rotate, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("UpdateReset", SD_BUS_ARGS("u", slot),
				SD_BUS_RESULT("u", boot_status, "u", generation, "u", booted_slot),
				method_update_reset, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_SIGNAL_WITH_ARGS("RecordChanged", SD_BUS_ARGS("u", generation), 0),
	SD_BUS_SIGNAL_WITH_ARGS("RotationProgress", SD_BUS_ARGS("u", done, "u", total), 0),
	SD_BUS_SIGNAL_WITH_ARGS("RotationFinished",
				SD_BUS_ARGS("u", old_key_version, "u", new_key_version, "u",
					    stages_retagged, "s", error_name, "s", error_message),
				0),
	SD_BUS_VTABLE_END,
};
