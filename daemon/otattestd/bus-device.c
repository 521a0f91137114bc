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

#include "args.h"
#include "log.h"
#include "manager.h"

/* ---- properties ---- */

#define REC(field) offsetof(struct device, record.hdr.field)

/* A u32 at the vtable's offset into the device (sd-bus adds it to userdata). */
static int get_u32(sd_bus *bus, const char *path, const char *interface, const char *property,
		   sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	return sd_bus_message_append_basic(reply, 'u', userdata);
}

static int get_u64(sd_bus *bus, const char *path, const char *interface, const char *property,
		   sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	return sd_bus_message_append_basic(reply, 't', userdata);
}

static int get_string(sd_bus *bus, const char *path, const char *interface, const char *property,
		      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	return sd_bus_message_append_basic(reply, 's', userdata);
}

static int get_state(sd_bus *bus, const char *path, const char *interface, const char *property,
		     sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "s", device_state_string(d));
}

static int get_state_detail(sd_bus *bus, const char *path, const char *interface,
			    const char *property, sd_bus_message *reply, void *userdata,
			    sd_bus_error *error)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "u", d->have_state ? d->state_detail : 0);
}

static int get_state_message(sd_bus *bus, const char *path, const char *interface,
			     const char *property, sd_bus_message *reply, void *userdata,
			     sd_bus_error *error)
{
	const struct device *d = userdata;
	const char *msg = "";

	if (d->have_state && d->state_detail)
		msg = ota_status_message(d->state_detail) ?: "unknown status";
	return sd_bus_message_append(reply, "s", msg);
}

static int get_record_valid(sd_bus *bus, const char *path, const char *interface,
			    const char *property, sd_bus_message *reply, void *userdata,
			    sd_bus_error *error)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "b", d->have_record);
}

static int get_tag_boot(sd_bus *bus, const char *path, const char *interface, const char *property,
			sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "b", !!(d->record.hdr.flags & OTA_RECORD_F_TAG_BOOT_ENABLED));
}

static int get_device_id(sd_bus *bus, const char *path, const char *interface, const char *property,
			 sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	const struct device *d = userdata;

	return sd_bus_message_append_array(reply, 'y', d->record.hdr.device_id,
					   d->have_record ? sizeof(d->record.hdr.device_id) : 0);
}

static int get_rom_identity(sd_bus *bus, const char *path, const char *interface,
			    const char *property, sd_bus_message *reply, void *userdata,
			    sd_bus_error *error)
{
	const struct device *d = userdata;

	return sd_bus_message_append_array(reply, 'y', d->record.hdr.rom_identity,
					   d->have_record ? sizeof(d->record.hdr.rom_identity) : 0);
}

static int get_lifecycle(sd_bus *bus, const char *path, const char *interface, const char *property,
			 sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "s", d->have_record ? ota_lifecycle_name(d->record.hdr.lifecycle) : "");
}

static int get_reset_reason(sd_bus *bus, const char *path, const char *interface,
			    const char *property, sd_bus_message *reply, void *userdata,
			    sd_bus_error *error)
{
	const struct device *d = userdata;

	return sd_bus_message_append(reply, "s",
				     d->have_record ? ota_reset_reason_name(d->record.hdr.reset_reason) : "");
}

static const char *slot_name(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "unknown";
}

static int append_stage(sd_bus_message *reply, const struct ota_stage_record *s)
{
	uint32_t k;
	int r;

	r = sd_bus_message_open_container(reply, 'r', "ssssuuuuayaaytbb");
	if (r < 0)
		return r;
	r = sd_bus_message_append(reply, "ssssuuuu", ota_stage_name(s->stage), slot_name(s->slot),
				  ota_path_name(s->path), ota_scheme_name(s->sig_scheme), s->status,
				  s->security_version, s->delegation_depth, s->tag_key_version);
	if (r < 0)
		return r;
	r = sd_bus_message_append_array(reply, 'y', s->measurement, sizeof(s->measurement));
	if (r < 0)
		return r;
	r = sd_bus_message_open_container(reply, 'a', "ay");
	if (r < 0)
		return r;
	/* Validated: delegation_depth < OTA_MAX_CHAIN_KEYS. */
	for (k = 0; k <= s->delegation_depth && k < OTA_MAX_CHAIN_KEYS; k++) {
		r = sd_bus_message_append_array(reply, 'y', s->key_ids[k], OTA_KEY_ID_BYTES);
		if (r < 0)
			return r;
	}
	r = sd_bus_message_close_container(reply);
	if (r < 0)
		return r;
	r = sd_bus_message_append(reply, "tbb", s->verify_time_ns, !!(s->flags & OTA_STAGE_F_BOOTED),
				  !!(s->flags & OTA_STAGE_F_FALLBACK));
	if (r < 0)
		return r;
	return sd_bus_message_close_container(reply);
}

static int get_stages(sd_bus *bus, const char *path, const char *interface, const char *property,
		      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	const struct device *d = userdata;
	uint32_t i, n = d->have_record ? d->record.hdr.stage_count : 0;
	int r;

	r = sd_bus_message_open_container(reply, 'a', OTA_STAGE_STRUCT_SIG);
	for (i = 0; r >= 0 && i < n; i++)
		r = append_stage(reply, &d->record.stage[i]);
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

/* One entry per element of Stages, in the same order. */
static int get_stage_path_reasons(sd_bus *bus, const char *path, const char *interface,
				  const char *property, sd_bus_message *reply, void *userdata,
				  sd_bus_error *error)
{
	const struct device *d = userdata;
	uint32_t i, n = d->have_record ? d->record.hdr.stage_count : 0;
	int r;

	r = sd_bus_message_open_container(reply, 'a', "s");
	for (i = 0; r >= 0 && i < n; i++)
		r = sd_bus_message_append(reply, "s", ota_path_reason_name(d->record.stage[i].path_reason));
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_stage_debug(sd_bus *bus, const char *path, const char *interface,
			   const char *property, sd_bus_message *reply, void *userdata,
			   sd_bus_error *error)
{
	const struct device *d = userdata;
	uint32_t i, n = d->have_record ? d->record.hdr.stage_count : 0;
	int r;

	r = sd_bus_message_open_container(reply, 'a', "b");
	for (i = 0; r >= 0 && i < n; i++)
		r = sd_bus_message_append(reply, "b",
					  !!(d->record.stage[i].effective.usage.flags & OTA_CAP_DEBUG));
	return r < 0 ? r : sd_bus_message_close_container(reply);
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

static int get_update_string(sd_bus *bus, const char *path, const char *interface,
			     const char *property, sd_bus_message *reply, void *userdata,
			     sd_bus_error *error)
{
	const struct ota_record_update *u = update_of(userdata);
	const char *v = "";

	if (u && !strcmp(property, "UpdateState"))
		v = ota_update_state_name(u->update_state);
	else if (u && !strcmp(property, "PrimarySlot"))
		v = slot_or_none(u->primary_slot);
	else if (u && !strcmp(property, "RunningRomExtSlot"))
		v = slot_or_none(u->running_rom_ext_slot);
	else if (u && !strcmp(property, "RunningBl0Slot"))
		v = slot_or_none(u->running_bl0_slot);
	else if (u && !strcmp(property, "PendingStage") && u->pending_stage)
		v = ota_stage_name(u->pending_stage);
	else if (u && !strcmp(property, "PendingSlot") && u->pending_stage)
		v = slot_or_none(u->pending_slot);
	return sd_bus_message_append(reply, "s", v);
}

static int get_revocation_sequence(sd_bus *bus, const char *path, const char *interface,
				   const char *property, sd_bus_message *reply, void *userdata,
				   sd_bus_error *error)
{
	const struct ota_record_update *u = update_of(userdata);

	return sd_bus_message_append(reply, "u", u ? u->revocation_sequence : 0);
}

/* Slots: (stage, slot, svn, version, flags) of every slot the device reported. */
static int get_slots(sd_bus *bus, const char *path, const char *interface, const char *property,
		     sd_bus_message *reply, void *userdata, sd_bus_error *error)
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
	return call_start(msg, userdata, OTATTEST_CMD_ATTEST, &args, error);
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
	return call_start(msg, userdata, OTATTEST_CMD_STABLE_SIGN, &args, error);
}

static int method_get_certs(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return call_start(msg, userdata, OTATTEST_CMD_GET_CERTS, NULL, error);
}

static int method_rotate(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return call_start(msg, userdata, OTATTEST_CMD_ROTATE_TAGS, NULL, error);
}

/* UpdateReset(u slot) and Commit(u slot): the slot checked by check, then the call. */
static int start_with_slot(sd_bus_message *msg, void *userdata, uint8_t cmd,
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
	return call_start(msg, userdata, cmd, &args, error);
}

static int method_update_reset(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return start_with_slot(msg, userdata, OTATTEST_CMD_UPDATE_RESET, args_check_slot, error);
}

static int method_warm_reset(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	return call_start(msg, userdata, OTATTEST_CMD_WARM_RESET, NULL, error);
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
	return call_start(msg, userdata, OTATTEST_CMD_INSTALL_BEGIN, &args, error);
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
	return start_with_slot(msg, userdata, OTATTEST_CMD_COMMIT, args_check_real_slot, error);
}

static int method_ratchet(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	struct genl_args args = { .has_stage = true, .has_floor = true };
	const char *stage;
	struct ota_err e;
	int r;

	r = sd_bus_message_read(msg, "su", &stage, &args.floor);
	if (r < 0)
		return r;
	if (!args_parse_stage(stage, &args.stage, &e) || !args_check_floor(args.floor, &e))
		return ota_bus_error_set(error, &e);
	return call_start(msg, userdata, OTATTEST_CMD_RATCHET, &args, error);
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
	return call_start(msg, userdata, OTATTEST_CMD_REVOKE, &args, error);
}

/* Commit, Ratchet and Revoke answer the state after the boot that served them. */
#define BOOT_SVC_RESULT                                                                       \
	SD_BUS_RESULT("u", boot_status, "u", generation, "u", booted_slot, "u", primary_slot, \
		      "u", floor_rom_ext, "u", floor_bl0, "u", revocation_sequence)

#define PROP(name, sig, get, offset) \
	SD_BUS_PROPERTY(name, sig, get, offset, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)

const sd_bus_vtable device_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("Name", "s", get_string, offsetof(struct device, name), SD_BUS_VTABLE_PROPERTY_CONST),
	PROP("State", "s", get_state, 0),
	PROP("StateDetail", "u", get_state_detail, 0),
	PROP("StateMessage", "s", get_state_message, 0),
	PROP("RecordValid", "b", get_record_valid, 0),
	PROP("DeviceId", "ay", get_device_id, 0),
	PROP("Lifecycle", "s", get_lifecycle, 0),
	PROP("ResetReason", "s", get_reset_reason, 0),
	PROP("Epoch", "u", get_u32, REC(epoch)),
	PROP("MinSvn", "u", get_u32, REC(min_svn)),
	PROP("ChainMaxSvn", "u", get_u32, REC(chain_max_svn)),
	PROP("FloorRomExt", "u", get_u32, REC(floor_rom_ext)),
	PROP("FloorBl0", "u", get_u32, REC(floor_bl0)),
	PROP("TagBootEnabled", "b", get_tag_boot, 0),
	PROP("TagKeyVersion", "u", get_u32, REC(tag_key_version)),
	PROP("Generation", "u", get_u32, REC(generation)),
	PROP("BootStatus", "u", get_u32, REC(boot_status)),
	PROP("BootDataCounter", "u", get_u32, REC(boot_data_counter)),
	PROP("BootTimeNs", "t", get_u64, REC(boot_time_ns)),
	PROP("RomIdentity", "ay", get_rom_identity, 0),
	PROP("Stages", "a" OTA_STAGE_STRUCT_SIG, get_stages, 0),
	PROP("StagePathReasons", "as", get_stage_path_reasons, 0),
	PROP("StageDebug", "ab", get_stage_debug, 0),
	PROP("TagMismatches", "t", get_u64, offsetof(struct device, tag_mismatches)),
	PROP("UpdateState", "s", get_update_string, 0),
	PROP("PrimarySlot", "s", get_update_string, 0),
	PROP("RunningRomExtSlot", "s", get_update_string, 0),
	PROP("RunningBl0Slot", "s", get_update_string, 0),
	PROP("PendingStage", "s", get_update_string, 0),
	PROP("PendingSlot", "s", get_update_string, 0),
	PROP("RevocationSequence", "u", get_revocation_sequence, 0),
	PROP("Slots", "a" OTA_SLOT_STRUCT_SIG, get_slots, 0),
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
	SD_BUS_METHOD_WITH_ARGS("Revoke", SD_BUS_ARGS("ay", command), BOOT_SVC_RESULT,
				method_revoke, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_SIGNAL_WITH_ARGS("RecordChanged", SD_BUS_ARGS("u", generation), 0),
	SD_BUS_SIGNAL_WITH_ARGS("TagMismatch",
				SD_BUS_ARGS("u", generation, "s", stage, "s", slot, "u",
					    tag_key_version, "ay", measurement, "u", status),
				0),
	SD_BUS_SIGNAL_WITH_ARGS("RotationProgress", SD_BUS_ARGS("u", done, "u", total), 0),
	SD_BUS_SIGNAL_WITH_ARGS("InstallProgress", SD_BUS_ARGS("u", done, "u", total), 0),
	SD_BUS_SIGNAL_WITH_ARGS("RotationFinished",
				SD_BUS_ARGS("u", old_key_version, "u", new_key_version, "u",
					    stages_retagged, "s", error_name, "s", error_message),
				0),
	SD_BUS_VTABLE_END,
};
