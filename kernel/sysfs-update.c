// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs: what an update agent reads, from the record's update section
 * (otattest/record.h, struct ota_record_update): the update state, which
 * slots are primary, running and pending, the revocation sequence, the
 * trial's boots and a reverted trial (ROM_EXT's count, its reason), and
 * per flash slot its SVN, version string and flags. Directory "update"
 * and one directory per slot (slot_rom_ext_a .. slot_bl0_b). Every file
 * reads -ENODATA while there is no valid record or the record has no
 * update section (firmware that predates it). Documented in
 * ABI/testing/sysfs-class-otattest.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "otattest.h"

/* The snapshot's update section, or NULL; state_lock held. */
static const struct ota_record_update *otattest_update_of(const struct otattest_device *od)
{
	if (!od->snap.record_len || !(od->snap.record.hdr.flags & OTA_RECORD_F_UPDATE_SECTION))
		return NULL;
	return ota_record_update_of(&od->snap.record);
}

/* "a", "b", or "none" (validated: < OTA_SLOT_COUNT or OTA_RECORD_NO_SLOT). */
static const char *otattest_slot_label(u32 slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "none";
}

enum otattest_update_field {
	OTA_UF_STATE,
	OTA_UF_PRIMARY,
	OTA_UF_RUNNING_ROM_EXT,
	OTA_UF_RUNNING_BL0,
	OTA_UF_PENDING,
	OTA_UF_REVOCATION_SEQUENCE,
	OTA_UF_TRIAL_BOOTS,
	OTA_UF_REVERT_REASON,
	OTA_UF_REVERTED_SLOT,
};

struct otattest_update_attr {
	struct device_attribute attr;
	u8 field;
};

static ssize_t otattest_update_emit(const struct ota_record_update *u, unsigned int field,
				    char *buf)
{
	switch (field) {
	case OTA_UF_STATE:
		return sysfs_emit(buf, "%s\n", ota_update_state_name(u->update_state));
	case OTA_UF_PRIMARY:
		return sysfs_emit(buf, "%s\n", otattest_slot_label(u->primary_slot));
	case OTA_UF_RUNNING_ROM_EXT:
		return sysfs_emit(buf, "%s\n", otattest_slot_label(u->running_rom_ext_slot));
	case OTA_UF_RUNNING_BL0:
		return sysfs_emit(buf, "%s\n", otattest_slot_label(u->running_bl0_slot));
	case OTA_UF_PENDING:
		if (!u->pending_stage)
			return sysfs_emit(buf, "none\n");
		return sysfs_emit(buf, "%s %s\n", ota_stage_name(u->pending_stage),
				  otattest_slot_label(u->pending_slot));
	case OTA_UF_REVOCATION_SEQUENCE:
		return sysfs_emit(buf, "%u\n", u->revocation_sequence);
	case OTA_UF_TRIAL_BOOTS:
		return sysfs_emit(buf, "%u\n", u->trial_boots);
	case OTA_UF_REVERT_REASON:
		return sysfs_emit(buf, "%s\n", ota_revert_reason_name(u->revert_reason));
	case OTA_UF_REVERTED_SLOT:
		/* Validated: 0 without a revert, else a slot. */
		return sysfs_emit(buf, "%s\n", u->revert_reason == OTA_REVERT_NONE
							 ? "none" : otattest_slot_label(u->reverted_slot));
	}
	return -EINVAL;
}

static ssize_t otattest_update_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	const struct otattest_update_attr *ua = container_of(attr, struct otattest_update_attr, attr);
	struct otattest_device *od = to_otattest(dev);
	const struct ota_record_update *u;
	ssize_t ret = -ENODATA;

	mutex_lock(&od->state_lock);
	u = otattest_update_of(od);
	if (u)
		ret = otattest_update_emit(u, ua->field, buf);
	mutex_unlock(&od->state_lock);
	return ret;
}

#define OTA_UPDATE_ATTR(_name, _field)                                           \
	static struct otattest_update_attr update_##_name = {                    \
		.attr = __ATTR(_name, 0444, otattest_update_show, NULL),         \
		.field = _field,                                                 \
	}

OTA_UPDATE_ATTR(state, OTA_UF_STATE);
OTA_UPDATE_ATTR(primary_slot, OTA_UF_PRIMARY);
OTA_UPDATE_ATTR(running_rom_ext_slot, OTA_UF_RUNNING_ROM_EXT);
OTA_UPDATE_ATTR(running_bl0_slot, OTA_UF_RUNNING_BL0);
OTA_UPDATE_ATTR(pending, OTA_UF_PENDING);
OTA_UPDATE_ATTR(revocation_sequence, OTA_UF_REVOCATION_SEQUENCE);
OTA_UPDATE_ATTR(trial_boots, OTA_UF_TRIAL_BOOTS);
OTA_UPDATE_ATTR(revert_reason, OTA_UF_REVERT_REASON);
OTA_UPDATE_ATTR(reverted_slot, OTA_UF_REVERTED_SLOT);

static struct attribute *update_attrs[] = {
	&update_state.attr.attr,
	&update_primary_slot.attr.attr,
	&update_running_rom_ext_slot.attr.attr,
	&update_running_bl0_slot.attr.attr,
	&update_pending.attr.attr,
	&update_revocation_sequence.attr.attr,
	&update_trial_boots.attr.attr,
	&update_revert_reason.attr.attr,
	&update_reverted_slot.attr.attr,
	NULL
};

const struct attribute_group otattest_update_group = {
	.name = "update",
	.attrs = update_attrs,
};

/* ---- one directory per flash slot ---- */

enum otattest_slot_field {
	OTA_SLF_SVN,
	OTA_SLF_VERSION,
	OTA_SLF_FLAGS,
};

struct otattest_slot_attr {
	struct device_attribute attr;
	u8 index; /* into ota_record_update.slot[]: (stage - 1) * 2 + slot */
	u8 field;
};

static ssize_t otattest_slot_emit(const struct ota_record_slot *s, unsigned int field, char *buf)
{
	ssize_t len = 0;
	u32 bit;

	switch (field) {
	case OTA_SLF_SVN:
		return sysfs_emit(buf, "%u\n", s->security_version);
	case OTA_SLF_VERSION:
		/* Validated: printable ASCII, then NULs; it may fill the field. */
		return sysfs_emit(buf, "%.*s\n", (int)OTA_VERSION_STRING_BYTES, s->version);
	case OTA_SLF_FLAGS:
		/* Validated: only OTA_RECORD_SLOT_F_ALL's bits, each with a name. */
		for (bit = 1; bit & OTA_RECORD_SLOT_F_ALL; bit <<= 1)
			if (s->flags & bit)
				len += sysfs_emit_at(buf, len, "%s%s", len ? " " : "",
						     ota_record_slot_flag_name(bit));
		return len + sysfs_emit_at(buf, len, "\n");
	}
	return -EINVAL;
}

static ssize_t otattest_slot_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	const struct otattest_slot_attr *sa = container_of(attr, struct otattest_slot_attr, attr);
	struct otattest_device *od = to_otattest(dev);
	const struct ota_record_update *u;
	ssize_t ret = -ENODATA;

	mutex_lock(&od->state_lock);
	u = otattest_update_of(od);
	/* An entry the device did not report is all zero: no data. */
	if (u && u->slot[sa->index].stage)
		ret = otattest_slot_emit(&u->slot[sa->index], sa->field, buf);
	mutex_unlock(&od->state_lock);
	return ret;
}

#define OTA_SLOT_ATTR(dir, n, _name, _field)                                    \
	static struct otattest_slot_attr dir##_##_name = {                      \
		.attr = __ATTR(_name, 0444, otattest_slot_show, NULL),          \
		.index = n,                                                     \
		.field = _field,                                                \
	}

#define OTA_SLOT_GROUP(dir, n)                                                  \
	OTA_SLOT_ATTR(dir, n, svn, OTA_SLF_SVN);                                \
	OTA_SLOT_ATTR(dir, n, version, OTA_SLF_VERSION);                        \
	OTA_SLOT_ATTR(dir, n, flags, OTA_SLF_FLAGS);                            \
	static struct attribute *dir##_attrs[] = {                              \
		&dir##_svn.attr.attr,                                           \
		&dir##_version.attr.attr,                                       \
		&dir##_flags.attr.attr,                                         \
		NULL                                                            \
	};                                                                      \
	const struct attribute_group otattest_##dir##_group = {                 \
		.name = #dir,                                                   \
		.attrs = dir##_attrs,                                           \
	}

static_assert(OTA_STAGE_COUNT * OTA_SLOT_COUNT == 4, "one directory per flash slot");
static_assert(OTA_STAGE_ROM_EXT == 1 && OTA_STAGE_BL0 == 2, "slot[] index is (stage - 1) * 2 + slot");
OTA_SLOT_GROUP(slot_rom_ext_a, 0);
OTA_SLOT_GROUP(slot_rom_ext_b, 1);
OTA_SLOT_GROUP(slot_bl0_a, 2);
OTA_SLOT_GROUP(slot_bl0_b, 3);
