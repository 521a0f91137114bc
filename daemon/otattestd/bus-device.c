// SPDX-License-Identifier: MIT
/*
 * org.otattest.BootAttest1.Device: its vtable, the properties (getters
 * over the cached record and state, never a round trip to the device),
 * GetRecord from the same cache, and the methods that go to the device,
 * whose arguments are checked here before call.c takes over.
 *
 * Record properties read zero, empty strings or empty arrays while there
 * is no valid record: device_link.c zeroes the cached record whenever it
 * drops it, so the getters need no special case but for strings and
 * byte arrays, which say "none" by being empty.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <otu/json.h>

#include "args.h"
#include "bus-json.h"
#include "call.h"
#include "log.h"
#include "manager.h"

/* ---- properties: one getter each, over the cache (never a round trip) ---- */

#define GETTER(fn)                                                                          \
	static int fn(sd_bus *bus, const char *path, const char *interface, const char *property, \
		      sd_bus_message *reply, void *userdata, sd_bus_error *error)

/* A u32 or u64 field of the record header (zero while there is none: drop_record). */
#define RECORD_U32(fn, field)                                                            \
	GETTER(fn)                                                                       \
	{                                                                                \
		const struct device *d = userdata;                                       \
		return sd_bus_message_append(reply, "u", (uint32_t)d->record.hdr.field); \
	}
RECORD_U32(get_epoch, epoch)
RECORD_U32(get_min_svn, min_svn)
RECORD_U32(get_chain_max_svn, chain_max_svn)
RECORD_U32(get_floor_rom_ext, floor_rom_ext)
RECORD_U32(get_floor_bl0, floor_bl0)
RECORD_U32(get_tag_key_version, tag_key_version)
RECORD_U32(get_generation, generation)
RECORD_U32(get_boot_status, boot_status)
RECORD_U32(get_boot_data_counter, boot_data_counter)
#undef RECORD_U32

GETTER(get_name)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "s", d->name);
}

GETTER(get_boot_time_ns)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "t", (uint64_t)d->record.hdr.boot_time_ns);
}

GETTER(get_tag_mismatches)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "t", d->tag_mismatches);
}

GETTER(get_state)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "s", device_state_string(d));
}

GETTER(get_state_detail)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "u", d->have_state ? d->state_detail : 0);
}

GETTER(get_state_message)
{
	const struct device *d = userdata;
	const char *msg = "";

	if (d->have_state && d->state_detail)
		msg = ota_status_message(d->state_detail) ?: "unknown status";
	return sd_bus_message_append(reply, "s", msg);
}

GETTER(get_record_valid)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "b", d->have_record);
}

GETTER(get_tag_boot)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "b", !!(d->record.hdr.flags & OTA_RECORD_F_TAG_BOOT_ENABLED));
}

GETTER(get_device_id)
{
	const struct device *d = userdata;

	return sd_bus_message_append_array(reply, 'y', d->record.hdr.device_id,
					   d->have_record ? sizeof(d->record.hdr.device_id) : 0);
}

GETTER(get_rom_identity)
{
	const struct device *d = userdata;

	return sd_bus_message_append_array(reply, 'y', d->record.hdr.rom_identity,
					   d->have_record ? sizeof(d->record.hdr.rom_identity) : 0);
}

/* What the running BL0 says its code is (GET_INFO, through the kernel); "" while unknown. */
GETTER(get_runtime_version)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "s", d->runtime_version);
}

GETTER(get_lifecycle)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "s", d->have_record ? ota_lifecycle_name(d->record.hdr.lifecycle) : "");
}

GETTER(get_reset_reason)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "s",
				     d->have_record ? ota_reset_reason_name(d->record.hdr.reset_reason) : "");
}

GETTER(get_stages)
{
	const struct device *d = userdata;

	return bus_append_stages(reply, &d->record, d->have_record ? d->record.hdr.stage_count : 0);
}

/* ---- what an update agent reads: the record's update section ---- */

/* "a", "b", or "" for none (no record, nothing booted, nothing pending). */
static const char *slot_or_none(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "";
}

/* The validated record's update section; NULL without one (firmware that predates it). */
static const struct ota_record_update *update_of(const struct device *d)
{
	if (!d->have_record || !(d->record.hdr.flags & OTA_RECORD_F_UPDATE_SECTION))
		return NULL;
	return ota_record_update_of(&d->record);
}

GETTER(get_update_state)
{
	const struct ota_record_update *u = update_of(userdata);

	return sd_bus_message_append(reply, "s", u ? ota_update_state_name(u->update_state) : "");
}

/* A slot of the update section, "" without one. */
#define UPDATE_SLOT(fn, field)                                                                  \
	GETTER(fn)                                                                              \
	{                                                                                       \
		const struct ota_record_update *u = update_of(userdata);                        \
		return sd_bus_message_append(reply, "s", u ? slot_or_none(u->field) : "");      \
	}
UPDATE_SLOT(get_primary_slot, primary_slot)
UPDATE_SLOT(get_running_rom_ext_slot, running_rom_ext_slot)
UPDATE_SLOT(get_running_bl0_slot, running_bl0_slot)
#undef UPDATE_SLOT

GETTER(get_pending_stage)
{
	const struct ota_record_update *u = update_of(userdata);

	return sd_bus_message_append(reply, "s", u && u->pending_stage ? ota_stage_name(u->pending_stage) : "");
}

GETTER(get_pending_slot)
{
	const struct ota_record_update *u = update_of(userdata);

	return sd_bus_message_append(reply, "s", u && u->pending_stage ? slot_or_none(u->pending_slot) : "");
}

/* TrialBoots: boots of the running trial so far (1..3), 0 off trial. */
GETTER(get_trial_boots)
{
	const struct ota_record_update *u = update_of(userdata);

	return sd_bus_message_append(reply, "u", u ? u->trial_boots : 0);
}

/* RevertReason: why the device gave up a trial ("none" when it did not; "" without a section). */
GETTER(get_revert_reason)
{
	const struct ota_record_update *u = update_of(userdata);

	return sd_bus_message_append(reply, "s", u ? ota_revert_reason_name(u->revert_reason) : "");
}

GETTER(get_reverted_slot)
{
	const struct ota_record_update *u = update_of(userdata);

	return sd_bus_message_append(reply, "s",
				     u && u->revert_reason != OTA_REVERT_NONE ? slot_or_none(u->reverted_slot) : "");
}

GETTER(get_trial_reverts)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "t", d->trial_reverts);
}

GETTER(get_revocation_sequence)
{
	const struct ota_record_update *u = update_of(userdata);

	return sd_bus_message_append(reply, "u", u ? u->revocation_sequence : 0);
}

/* Slots: (stage, slot, svn, version, flags) of every slot the device reported. */
GETTER(get_slots)
{
	const struct ota_record_update *u = update_of(userdata);
	char version[OTA_VERSION_STRING_BYTES + 1];
	uint32_t bit;
	size_t i;
	int r;

	r = sd_bus_message_open_container(reply, 'a', OTA_SLOT_STRUCT_SIG);
	for (i = 0; r >= 0 && u && i < OTA_STAGE_COUNT * OTA_SLOT_COUNT; i++) {
		const struct ota_record_slot *s = &u->slot[i];

		if (!s->stage) /* not reported */
			continue;
		/* Validated: printable, then NULs; it may fill the field. */
		memcpy(version, s->version, OTA_VERSION_STRING_BYTES);
		version[OTA_VERSION_STRING_BYTES] = '\0';
		r = sd_bus_message_open_container(reply, 'r', "ssusas");
		if (r >= 0)
			r = sd_bus_message_append(reply, "ssus", ota_stage_name(s->stage),
						  slot_or_none(s->slot), s->security_version, version);
		if (r >= 0)
			r = sd_bus_message_open_container(reply, 'a', "s");
		/* Validated: only OTA_RECORD_SLOT_F_ALL's bits, each with a name. */
		for (bit = 1; r >= 0 && (bit & OTA_RECORD_SLOT_F_ALL); bit <<= 1)
			if (s->flags & bit)
				r = sd_bus_message_append(reply, "s", ota_record_slot_flag_name(bit));
		if (r >= 0)
			r = sd_bus_message_close_container(reply);
		if (r >= 0)
			r = sd_bus_message_close_container(reply);
	}
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

/* RefusedSlots: (stage, slot, status, message) of each slot the device refused to boot (slot_refusal.c). */
GETTER(get_refused_slots)
{
	const struct device *d = userdata;
	size_t i;
	int r;

	r = sd_bus_message_open_container(reply, 'a', OTA_REFUSED_SLOT_STRUCT_SIG);
	for (i = 0; r >= 0 && i < OTA_STAGE_COUNT * OTA_SLOT_COUNT; i++) {
		const struct slot_refusal *f = &d->refused[i];

		if (f->set)
			r = sd_bus_message_append(reply, OTA_REFUSED_SLOT_STRUCT_SIG,
						  ota_stage_name(f->seen.stage), slot_or_none(f->seen.slot),
						  f->status, ota_status_message(f->status) ?: "");
	}
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

/*
 * Every property, once: the vtable, Describe() and PropertiesChanged are
 * made from this list. CONST: never changes (Name).
 */
#define DEVICE_PROPERTIES(X)                                    \
	X("Name", "s", get_name, CONST)                          \
	X("State", "s", get_state, CHANGE)                       \
	X("StateDetail", "u", get_state_detail, CHANGE)          \
	X("StateMessage", "s", get_state_message, CHANGE)        \
	X("RecordValid", "b", get_record_valid, CHANGE)          \
	X("DeviceId", "ay", get_device_id, CHANGE)               \
	X("Lifecycle", "s", get_lifecycle, CHANGE)               \
	X("ResetReason", "s", get_reset_reason, CHANGE)          \
	X("Epoch", "u", get_epoch, CHANGE)                       \
	X("MinSvn", "u", get_min_svn, CHANGE)                    \
	X("ChainMaxSvn", "u", get_chain_max_svn, CHANGE)         \
	X("FloorRomExt", "u", get_floor_rom_ext, CHANGE)         \
	X("FloorBl0", "u", get_floor_bl0, CHANGE)                \
	X("TagBootEnabled", "b", get_tag_boot, CHANGE)           \
	X("TagKeyVersion", "u", get_tag_key_version, CHANGE)     \
	X("Generation", "u", get_generation, CHANGE)             \
	X("BootStatus", "u", get_boot_status, CHANGE)            \
	X("BootDataCounter", "u", get_boot_data_counter, CHANGE) \
	X("BootTimeNs", "t", get_boot_time_ns, CHANGE)           \
	X("RomIdentity", "ay", get_rom_identity, CHANGE)         \
	X("RuntimeVersion", "s", get_runtime_version, CHANGE)    \
	X("Stages", "a" OTA_BUS_DICT_SIG, get_stages, CHANGE)    \
	X("TagMismatches", "t", get_tag_mismatches, CHANGE)      \
	X("UpdateState", "s", get_update_state, CHANGE)          \
	X("PrimarySlot", "s", get_primary_slot, CHANGE)          \
	X("RunningRomExtSlot", "s", get_running_rom_ext_slot, CHANGE) \
	X("RunningBl0Slot", "s", get_running_bl0_slot, CHANGE)   \
	X("PendingStage", "s", get_pending_stage, CHANGE)        \
	X("PendingSlot", "s", get_pending_slot, CHANGE)          \
	X("TrialBoots", "u", get_trial_boots, CHANGE)            \
	X("RevertReason", "s", get_revert_reason, CHANGE)        \
	X("RevertedSlot", "s", get_reverted_slot, CHANGE)        \
	X("TrialReverts", "t", get_trial_reverts, CHANGE)        \
	X("RevocationSequence", "u", get_revocation_sequence, CHANGE) \
	X("Slots", "a" OTA_SLOT_STRUCT_SIG, get_slots, CHANGE)        \
	X("RefusedSlots", "a" OTA_REFUSED_SLOT_STRUCT_SIG, get_refused_slots, CHANGE)

static const struct {
	const char *name;
	sd_bus_property_get_t get;
	bool emits_change;
} device_props[] = {
#define CONST false
#define CHANGE true
#define X(name, sig, get, change) { name, get, change },
	DEVICE_PROPERTIES(X)
#undef X
#undef CONST
#undef CHANGE
};
_Static_assert(ELEMENTSOF(device_props) <= DEVICE_PROPS_MAX, "DEVICE_PROPS_MAX too small");

/* Every property of d as one JSON object: Describe(). NULL on failure. */
struct json_object *device_describe(struct device *d)
{
	struct json_object *obj = json_object_new_object();
	size_t i;

	for (i = 0; obj && i < ELEMENTSOF(device_props); i++) {
		struct json_object *v = NULL;

		if (bus_json_property(d->m->bus, d->path, OTA_BUS_DEVICE_IFACE, device_props[i].name,
				      device_props[i].get, d, &v) < 0) {
			json_object_put(obj);
			return NULL;
		}
		json_object_object_add(obj, device_props[i].name, v);
	}
	return obj;
}

/*
 * PropertiesChanged with the properties whose value differs from the one
 * last announced (or, for a device just added, from what InterfacesAdded
 * carried): each is rendered by its getter and compared as JSON.
 */
void bus_emit_properties_changed(struct device *d)
{
	char *changed[DEVICE_PROPS_MAX + 1];
	size_t i, n = 0;

	if (!d->m->bus)
		return;
	for (i = 0; i < ELEMENTSOF(device_props); i++) {
		struct json_object *v = NULL;
		const char *now;

		if (!device_props[i].emits_change)
			continue;
		if (bus_json_property(d->m->bus, d->path, OTA_BUS_DEVICE_IFACE, device_props[i].name,
				      device_props[i].get, d, &v) < 0) {
			/* Cannot tell: announce it, and compare afresh next time. */
			free(d->announced[i]);
			d->announced[i] = NULL;
			changed[n++] = (char *)device_props[i].name;
			continue;
		}
		now = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
		if (!d->announced[i] || strcmp(d->announced[i], now) != 0) {
			free(d->announced[i]);
			d->announced[i] = strdup(now);
			changed[n++] = (char *)device_props[i].name;
		}
		json_object_put(v);
	}
	changed[n] = NULL;
	if (n)
		sd_bus_emit_properties_changed_strv(d->m->bus, d->path, OTA_BUS_DEVICE_IFACE, changed);
}

/* What InterfacesAdded carries: the values later changes are compared with. */
void bus_properties_announced(struct device *d)
{
	size_t i;

	if (!d->m->bus)
		return;
	for (i = 0; i < ELEMENTSOF(device_props); i++) {
		struct json_object *v = NULL;

		free(d->announced[i]);
		d->announced[i] = NULL;
		if (device_props[i].emits_change &&
		    bus_json_property(d->m->bus, d->path, OTA_BUS_DEVICE_IFACE, device_props[i].name,
				      device_props[i].get, d, &v) >= 0)
			d->announced[i] = strdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
		json_object_put(v);
	}
}

void device_announced_free(struct device *d)
{
	size_t i;

	for (i = 0; i < DEVICE_PROPS_MAX; i++) {
		free(d->announced[i]);
		d->announced[i] = NULL;
	}
}

/* ---- methods ---- */

static int method_get_record(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
	struct device *d = userdata;
	struct ota_err e;
	int r;

	if (!d->present) {
		ota_err_set_statusf(&e, OTA_HOST_DEVICE_GONE, "%s went away", d->name);
		return ota_bus_error_set(error, &e);
	}
	if (!d->have_record) {
		ota_err_set_statusf(&e, OTA_MBOX_NOT_READY, "%s has no valid boot record (state %s)",
				    d->name, device_state_string(d));
		return ota_bus_error_set(error, &e);
	}
	r = sd_bus_message_new_method_return(msg, &reply);
	if (r < 0)
		return r;
	r = sd_bus_message_append_array(reply, 'y', &d->record, d->record_len);
	if (r < 0)
		return r;
	return sd_bus_send(NULL, reply, NULL);
}

/*
 * Each method that goes to the device, with its policy: the command, the
 * lane (client.h), who may call it (polkit action and the group allowed
 * without polkit; none: every user), whether it re-verifies images (the
 * longer deadline) and its audit line. OTA_PRIVILEGED_METHODS (dbus-api.h)
 * lists the same actions for the shipped policy files and the tests.
 */
#define PRIVILEGED(c, act, grp, mid) \
	{ .cmd = (c), .kind = CLIENT_REQ_PRIVILEGED, .action = (act), .group = (grp), .admin_timeout = true, .audit_mid = (mid) }
static const struct call_spec spec_attest = { .cmd = OTATTEST_CMD_ATTEST, .kind = CLIENT_REQ_ATTEST };
static const struct call_spec spec_sign = { .cmd = OTATTEST_CMD_STABLE_SIGN, .kind = CLIENT_REQ_ATTEST,
					    .action = OTA_POLKIT_ACTION_SIGN, .group = OTA_SIGN_GROUP };
static const struct call_spec spec_certs = { .cmd = OTATTEST_CMD_GET_CERTS, .kind = CLIENT_REQ_PLAIN };
static const struct call_spec spec_rotate =
	PRIVILEGED(OTATTEST_CMD_ROTATE_TAGS, OTA_POLKIT_ACTION_ROTATE, OTA_UPDATE_GROUP, MID_ROTATION_FINISHED);
static const struct call_spec spec_update_reset =
	PRIVILEGED(OTATTEST_CMD_UPDATE_RESET, OTA_POLKIT_ACTION_UPDATE, OTA_UPDATE_GROUP, MID_UPDATE_RESET);
static const struct call_spec spec_warm_reset =
	PRIVILEGED(OTATTEST_CMD_WARM_RESET, OTA_POLKIT_ACTION_WARM_RESET, OTA_UPDATE_GROUP, MID_WARM_RESET);
static const struct call_spec spec_install =
	PRIVILEGED(OTATTEST_CMD_INSTALL_BEGIN, OTA_POLKIT_ACTION_INSTALL, OTA_UPDATE_GROUP, MID_IMAGE_INSTALL);
/* A dry run writes nothing: its own action, which a local active session holds by default. */
static const struct call_spec spec_check =
	PRIVILEGED(OTATTEST_CMD_INSTALL_BEGIN, OTA_POLKIT_ACTION_CHECK, OTA_UPDATE_GROUP, MID_IMAGE_INSTALL);
static const struct call_spec spec_commit =
	PRIVILEGED(OTATTEST_CMD_COMMIT, OTA_POLKIT_ACTION_COMMIT, OTA_UPDATE_GROUP, MID_COMMIT);
static const struct call_spec spec_ratchet =
	PRIVILEGED(OTATTEST_CMD_RATCHET, OTA_POLKIT_ACTION_RATCHET, OTA_UPDATE_GROUP, MID_RATCHET);
static const struct call_spec spec_revoke =
	PRIVILEGED(OTATTEST_CMD_REVOKE, OTA_POLKIT_ACTION_REVOKE, OTA_UPDATE_GROUP, MID_REVOKE);
#undef PRIVILEGED

/* Device.Describe(): every property as one JSON object, as hostnamed's Describe. */
static int method_describe(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	struct json_object *doc = device_describe(userdata);
	int r;

	if (!doc)
		return -ENOMEM;
	r = sd_bus_reply_method_return(msg, "s", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	return r;
}

/* The nonce argument, checked before anything reaches the kernel. */
static int read_nonce(sd_bus_message *msg, uint8_t nonce[OTA_NONCE_MAX], size_t *len,
		      sd_bus_error *error)
{
	const void *p;
	struct ota_err e;
	int r;

	r = sd_bus_message_read_array(msg, 'y', &p, len);
	if (r < 0)
		return r;
	if (!args_check_nonce(*len, &e))
		return ota_bus_error_set(error, &e);
	memcpy(nonce, p, *len);
	return 0;
}

static int method_attest(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	uint8_t nonce[OTA_NONCE_MAX];
	struct genl_args args = { .nonce = nonce };
	int r;

	r = read_nonce(msg, nonce, &args.nonce_len, error);
	if (r < 0)
		return r;
	return call_start(msg, userdata, &spec_attest, &args, error);
}

static int method_stable_sign(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	uint8_t nonce[OTA_NONCE_MAX];
	struct genl_args args = { .nonce = nonce, .has_svn = true };
	struct ota_err e;
	int r;

	r = read_nonce(msg, nonce, &args.nonce_len, error);
	if (r < 0)
		return r;
	r = sd_bus_message_read(msg, "u", &args.svn);
	if (r < 0)
		return r;
	if (!args_check_svn(args.svn, &e))
		return ota_bus_error_set(error, &e);
	return call_start(msg, userdata, &spec_sign, &args, error);
}

static int method_get_certs(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return call_start(msg, userdata, &spec_certs, NULL, error);
}

static int method_rotate(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return call_start(msg, userdata, &spec_rotate, NULL, error);
}

/* UpdateReset(u slot) and Commit(u slot): the slot checked by check, then the call. */
static int start_with_slot(sd_bus_message *msg, void *userdata, const struct call_spec *spec,
			   bool (*check)(uint32_t slot, struct ota_err *e), sd_bus_error *error)
{
	struct genl_args args = { .has_slot = true };
	struct ota_err e;
	int r;

	r = sd_bus_message_read(msg, "u", &args.slot);
	if (r < 0)
		return r;
	if (!check(args.slot, &e))
		return ota_bus_error_set(error, &e);
	return call_start(msg, userdata, spec, &args, error);
}

static int method_update_reset(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return start_with_slot(msg, userdata, &spec_update_reset, args_check_slot, error);
}

static int method_warm_reset(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return call_start(msg, userdata, &spec_warm_reset, NULL, error);
}

/*
 * InstallImage(h image, s stage, u slot) and CheckImage (the same, a dry
 * run): the arguments are checked here; the descriptor is read by
 * install.c only after the caller was authorized.
 */
static int start_install(sd_bus_message *msg, void *userdata, bool dry_run, sd_bus_error *error)
{
	struct genl_args args = { .has_stage = true, .has_slot = true, .has_install_flags = true,
				  .install_flags = dry_run ? OTA_INSTALL_F_DRY_RUN : 0 };
	const char *stage;
	struct ota_err e;
	int fd, r;

	r = sd_bus_message_read(msg, "hsu", &fd, &stage, &args.slot);
	if (r < 0)
		return r;
	if (!args_parse_stage(stage, &args.stage, &e) || !args_check_slot(args.slot, &e))
		return ota_bus_error_set(error, &e);
	return call_start(msg, userdata, dry_run ? &spec_check : &spec_install, &args, error);
}

static int method_install_image(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return start_install(msg, userdata, false, error);
}

static int method_check_image(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return start_install(msg, userdata, true, error);
}

static int method_commit(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return start_with_slot(msg, userdata, &spec_commit, args_check_real_slot, error);
}

/* Ratchet(su) and RatchetWithFlags(sut): flags OTA_RATCHET_F_* (1: force). */
static int ratchet(sd_bus_message *msg, void *userdata, bool with_flags, sd_bus_error *error)
{
	struct genl_args args = { .has_stage = true, .has_floor = true, .has_ratchet_flags = true };
	const char *stage;
	uint64_t flags = 0;
	struct ota_err e;
	int r;

	r = with_flags ? sd_bus_message_read(msg, "sut", &stage, &args.floor, &flags)
		       : sd_bus_message_read(msg, "su", &stage, &args.floor);
	if (r < 0)
		return r;
	if (!args_parse_stage(stage, &args.stage, &e) || !args_check_floor(args.floor, &e))
		return ota_bus_error_set(error, &e);
	if (flags & ~(uint64_t)OTA_RATCHET_F_ALL) {
		ota_err_set_statusf(&e, OTA_HOST_BAD_ARGUMENT, "unknown ratchet flags 0x%llx",
				    (unsigned long long)flags);
		return ota_bus_error_set(error, &e);
	}
	args.ratchet_flags = (uint32_t)flags;
	return call_start(msg, userdata, &spec_ratchet, &args, error);
}

static int method_ratchet(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return ratchet(msg, userdata, false, error);
}

static int method_ratchet_with_flags(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return ratchet(msg, userdata, true, error);
}

static int method_revoke(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	struct genl_args args = { 0 };
	const void *cmd;
	struct ota_err e;
	size_t len;
	int r;

	r = sd_bus_message_read_array(msg, 'y', &cmd, &len);
	if (r < 0)
		return r;
	if (!args_check_revocation(len, &e))
		return ota_bus_error_set(error, &e);
	args.revocation = cmd; /* call_start copies it */
	args.revocation_len = (uint32_t)len;
	return call_start(msg, userdata, &spec_revoke, &args, error);
}

/* Commit, Ratchet and Revoke answer the state after the boot that served them. */
#define BOOT_SVC_RESULT                                                                       \
	SD_BUS_RESULT("u", boot_status, "u", generation, "u", booted_slot, "u", primary_slot, \
		      "u", floor_rom_ext, "u", floor_bl0, "u", revocation_sequence)

const sd_bus_vtable device_vtable[] = {
	SD_BUS_VTABLE_START(0),
#define CONST SD_BUS_VTABLE_PROPERTY_CONST
#define CHANGE SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
#define X(name, sig, get, flags) SD_BUS_PROPERTY(name, sig, get, 0, flags),
	DEVICE_PROPERTIES(X)
#undef X
#undef CONST
#undef CHANGE
	SD_BUS_METHOD_WITH_ARGS("Describe", SD_BUS_NO_ARGS, SD_BUS_RESULT("s", json), method_describe,
				SD_BUS_VTABLE_UNPRIVILEGED),
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
	SD_BUS_METHOD_WITH_ARGS("WarmReset", SD_BUS_NO_ARGS,
				SD_BUS_RESULT("u", boot_status, "u", generation, "u", booted_slot),
				method_warm_reset, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("InstallImage", SD_BUS_ARGS("h", image, "s", stage, "u", slot),
				SD_BUS_RESULT("s", stage, "u", slot, "u", svn, "s", version, "ay",
					      measurement),
				method_install_image, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("CheckImage", SD_BUS_ARGS("h", image, "s", stage, "u", slot),
				SD_BUS_RESULT("s", stage, "u", slot, "u", svn, "s", version, "ay",
					      measurement),
				method_check_image, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Commit", SD_BUS_ARGS("u", slot), BOOT_SVC_RESULT, method_commit,
				SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Ratchet", SD_BUS_ARGS("s", stage, "u", floor), BOOT_SVC_RESULT,
				method_ratchet, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("RatchetWithFlags", SD_BUS_ARGS("s", stage, "u", floor, "t", flags),
				BOOT_SVC_RESULT, method_ratchet_with_flags, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Revoke", SD_BUS_ARGS("ay", command), BOOT_SVC_RESULT,
				method_revoke, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_SIGNAL_WITH_ARGS("RecordChanged", SD_BUS_ARGS("u", generation), 0),
	SD_BUS_SIGNAL_WITH_ARGS("TagMismatch",
				SD_BUS_ARGS("u", generation, "s", stage, "s", slot, "u",
					    tag_key_version, "ay", measurement, "u", status),
				0),
	SD_BUS_SIGNAL_WITH_ARGS("TrialReverted",
				SD_BUS_ARGS("u", generation, "s", slot, "s", reason), 0),
	SD_BUS_SIGNAL_WITH_ARGS("RotationProgress", SD_BUS_ARGS("u", done, "u", total), 0),
	SD_BUS_SIGNAL_WITH_ARGS("InstallProgress", SD_BUS_ARGS("u", done, "u", total), 0),
	SD_BUS_SIGNAL_WITH_ARGS("RotationFinished",
				SD_BUS_ARGS("u", old_key_version, "u", new_key_version, "u",
					    stages_retagged, "s", error_name, "s", error_message),
				0),
	SD_BUS_VTABLE_END,
};
