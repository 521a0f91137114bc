// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs: class "otattest", devices otattestN, one value per file, all
 * created by the driver core from the class's attribute groups before
 * the add uevent. Documented in ABI/testing/sysfs-class-otattest.
 *
 * Every show() reads the snapshot (state.c) under state_lock and never
 * the device: reading sysfs cannot be slowed or confused by it. Record
 * fields read -ENODATA while there is no valid record; "state" says why.
 * Nothing here is secret: the record holds measurements, key ids and
 * versions, never keys or tags.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "otattest.h"

static ssize_t state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct otattest_device *od = to_otattest(dev);
	ssize_t ret;

	mutex_lock(&od->state_lock);
	ret = sysfs_emit(buf, "%s\n", otattest_state_name(od->snap.state));
	mutex_unlock(&od->state_lock);
	return ret;
}
static DEVICE_ATTR_RO(state);

static ssize_t state_detail_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct otattest_device *od = to_otattest(dev);
	ssize_t ret;

	mutex_lock(&od->state_lock);
	ret = sysfs_emit(buf, "%#010x\n", od->snap.state_detail);
	mutex_unlock(&od->state_lock);
	return ret;
}
static DEVICE_ATTR_RO(state_detail);

/* What the running BL0 says its code is (GET_INFO, state.c); -ENODATA while unknown. */
static ssize_t runtime_version_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct otattest_device *od = to_otattest(dev);
	ssize_t ret = -ENODATA;

	mutex_lock(&od->state_lock);
	if (od->snap.runtime_version[0])
		ret = sysfs_emit(buf, "%s\n", od->snap.runtime_version);
	mutex_unlock(&od->state_lock);
	return ret;
}
static DEVICE_ATTR_RO(runtime_version);

/* A read-only attribute showing one expression of the record header h. */
#define OTA_RECORD_ATTR(_name, _fmt, ...)                                               \
	static ssize_t _name##_show(struct device *dev, struct device_attribute *attr,  \
				    char *buf)                                          \
	{                                                                               \
		struct otattest_device *od = to_otattest(dev);                          \
		const struct ota_record_header *h = &od->snap.record.hdr;               \
		ssize_t ret = -ENODATA;                                                 \
                                                                                        \
		mutex_lock(&od->state_lock);                                            \
		if (od->snap.record_len)                                                \
			ret = sysfs_emit(buf, _fmt "\n", __VA_ARGS__);                  \
		mutex_unlock(&od->state_lock);                                          \
		return ret;                                                             \
	}                                                                               \
	static DEVICE_ATTR_RO(_name)

OTA_RECORD_ATTR(device_id, "%*phN", (int)OTA_DEVICE_ID_BYTES, h->device_id);
OTA_RECORD_ATTR(lifecycle, "%s", ota_lifecycle_name(h->lifecycle));
OTA_RECORD_ATTR(reset_reason, "%s", ota_reset_reason_name(h->reset_reason));
OTA_RECORD_ATTR(epoch, "%u", h->epoch);
OTA_RECORD_ATTR(min_svn, "%u", h->min_svn);
OTA_RECORD_ATTR(chain_max_svn, "%u", h->chain_max_svn);
OTA_RECORD_ATTR(floor_rom_ext, "%u", h->floor_rom_ext);
OTA_RECORD_ATTR(floor_bl0, "%u", h->floor_bl0);
OTA_RECORD_ATTR(tag_boot_enabled, "%u", !!(h->flags & OTA_RECORD_F_TAG_BOOT_ENABLED));
OTA_RECORD_ATTR(tag_key_version, "%u", h->tag_key_version);
OTA_RECORD_ATTR(generation, "%u", h->generation);
OTA_RECORD_ATTR(boot_status, "%#010x", h->boot_status);
OTA_RECORD_ATTR(boot_data_counter, "%u", h->boot_data_counter);
OTA_RECORD_ATTR(boot_time_ns, "%llu", (unsigned long long)h->boot_time_ns);
OTA_RECORD_ATTR(rom_identity, "%*phN", (int)OTA_SHA256_BYTES, h->rom_identity);
OTA_RECORD_ATTR(stage_count, "%u", h->stage_count);

/* The validated record, byte for byte as the device exported it. */
static ssize_t record_read(struct file *filp, struct kobject *kobj, struct bin_attribute *attr,
			   char *buf, loff_t off, size_t count)
{
	struct otattest_device *od = to_otattest(kobj_to_dev(kobj));
	ssize_t ret = -ENODATA;

	mutex_lock(&od->state_lock);
	if (od->snap.record_len)
		ret = memory_read_from_buffer(buf, count, &off, &od->snap.record,
					      od->snap.record_len);
	mutex_unlock(&od->state_lock);
	return ret;
}
/* Size 0: the length varies with stage_count; reads stop at its end. */
static BIN_ATTR_RO(record, 0);

static struct attribute *otattest_attrs[] = {
	&dev_attr_state.attr,
	&dev_attr_state_detail.attr,
	&dev_attr_device_id.attr,
	&dev_attr_lifecycle.attr,
	&dev_attr_reset_reason.attr,
	&dev_attr_epoch.attr,
	&dev_attr_min_svn.attr,
	&dev_attr_chain_max_svn.attr,
	&dev_attr_floor_rom_ext.attr,
	&dev_attr_floor_bl0.attr,
	&dev_attr_tag_boot_enabled.attr,
	&dev_attr_tag_key_version.attr,
	&dev_attr_generation.attr,
	&dev_attr_boot_status.attr,
	&dev_attr_boot_data_counter.attr,
	&dev_attr_boot_time_ns.attr,
	&dev_attr_rom_identity.attr,
	&dev_attr_stage_count.attr,
	&dev_attr_runtime_version.attr,
	NULL
};

static struct bin_attribute *otattest_bin_attrs[] = {
	&bin_attr_record,
	NULL
};

static const struct attribute_group otattest_group = {
	.attrs = otattest_attrs,
	.bin_attrs = otattest_bin_attrs,
};

/*
 * Per-stage attributes: directories stage0..stage3, one per slot of the
 * record's stage array. A directory's files are visible only while the
 * record has that many stages (state.c calls sysfs_update_group when the
 * count changes); the directories themselves always exist.
 */
enum otattest_stage_field {
	OTA_SF_STAGE,
	OTA_SF_SLOT,
	OTA_SF_STATUS,
	OTA_SF_PATH,
	OTA_SF_SCHEME,
	OTA_SF_DELEGATION_DEPTH,
	OTA_SF_SVN,
	OTA_SF_TAG_KEY_VERSION,
	OTA_SF_MEASUREMENT,
	OTA_SF_KEY_IDS,
	OTA_SF_VERIFY_TIME_NS,
	OTA_SF_VERIFY_CYCLES,
	OTA_SF_BOOTED,
	OTA_SF_FALLBACK,
	OTA_SF_PATH_REASON,
	OTA_SF_DEBUG,
};

struct otattest_stage_attr {
	struct device_attribute attr;
	u8 stage; /* index into the record's stage array */
	u8 field; /* enum otattest_stage_field */
};

static ssize_t otattest_stage_emit(const struct ota_stage_record *s, unsigned int field,
				   char *buf)
{
	ssize_t len = 0;
	u32 k;

	switch (field) {
	case OTA_SF_STAGE:
		return sysfs_emit(buf, "%s\n", ota_stage_name(s->stage));
	case OTA_SF_SLOT:
		return sysfs_emit(buf, "%c\n", 'a' + (int)s->slot); /* validated < 2 */
	case OTA_SF_STATUS:
		return sysfs_emit(buf, "%#010x\n", s->status);
	case OTA_SF_PATH:
		return sysfs_emit(buf, "%s\n", ota_path_name(s->path));
	case OTA_SF_SCHEME:
		return sysfs_emit(buf, "%s\n", ota_scheme_name(s->sig_scheme));
	case OTA_SF_DELEGATION_DEPTH:
		return sysfs_emit(buf, "%u\n", s->delegation_depth);
	case OTA_SF_SVN:
		return sysfs_emit(buf, "%u\n", s->security_version);
	case OTA_SF_TAG_KEY_VERSION:
		return sysfs_emit(buf, "%u\n", s->tag_key_version);
	case OTA_SF_MEASUREMENT:
		return sysfs_emit(buf, "%*phN\n", (int)OTA_SHA256_BYTES, s->measurement);
	case OTA_SF_KEY_IDS:
		/* Root first, then each delegate: depth + 1 ids (validated <= 2). */
		for (k = 0; k <= s->delegation_depth && k < OTA_MAX_CHAIN_KEYS; k++)
			len += sysfs_emit_at(buf, len, "%s%*phN", k ? " " : "",
					     (int)OTA_KEY_ID_BYTES, s->key_ids[k]);
		return len + sysfs_emit_at(buf, len, "\n");
	case OTA_SF_VERIFY_TIME_NS:
		return sysfs_emit(buf, "%llu\n", (unsigned long long)s->verify_time_ns);
	case OTA_SF_VERIFY_CYCLES:
		return sysfs_emit(buf, "%llu\n", (unsigned long long)s->verify_cycles);
	case OTA_SF_BOOTED:
		return sysfs_emit(buf, "%u\n", !!(s->flags & OTA_STAGE_F_BOOTED));
	case OTA_SF_FALLBACK:
		return sysfs_emit(buf, "%u\n", !!(s->flags & OTA_STAGE_F_FALLBACK));
	case OTA_SF_PATH_REASON:
		return sysfs_emit(buf, "%s\n", ota_path_reason_name(s->path_reason));
	case OTA_SF_DEBUG:
		return sysfs_emit(buf, "%u\n", !!(s->effective.usage.flags & OTA_CAP_DEBUG));
	}
	return -EINVAL;
}

static ssize_t otattest_stage_show(struct device *dev, struct device_attribute *attr,
				   char *buf)
{
	const struct otattest_stage_attr *sa = container_of(attr, struct otattest_stage_attr, attr);
	struct otattest_device *od = to_otattest(dev);
	const struct ota_record *r = &od->snap.record;
	ssize_t ret = -ENODATA;

	mutex_lock(&od->state_lock);
	if (od->snap.record_len && sa->stage < r->hdr.stage_count)
		ret = otattest_stage_emit(&r->stage[sa->stage], sa->field, buf);
	mutex_unlock(&od->state_lock);
	return ret;
}

static umode_t otattest_stage_visible(struct kobject *kobj, struct attribute *a, int n)
{
	const struct otattest_stage_attr *sa =
		container_of(a, struct otattest_stage_attr, attr.attr);
	struct otattest_device *od = to_otattest(kobj_to_dev(kobj));

	/* Lockless: refresh publishes the count before updating the group. */
	return sa->stage < READ_ONCE(od->stage_count_visible) ? a->mode : 0;
}

#define OTA_STAGE_ATTR(n, _name, _field)                                        \
	static struct otattest_stage_attr stage##n##_##_name = {                \
		.attr = __ATTR(_name, 0444, otattest_stage_show, NULL),         \
		.stage = n,                                                     \
		.field = _field,                                                \
	}

#define OTA_STAGE_GROUP(n)                                                      \
	OTA_STAGE_ATTR(n, stage, OTA_SF_STAGE);                                 \
	OTA_STAGE_ATTR(n, slot, OTA_SF_SLOT);                                   \
	OTA_STAGE_ATTR(n, status, OTA_SF_STATUS);                               \
	OTA_STAGE_ATTR(n, path, OTA_SF_PATH);                                   \
	OTA_STAGE_ATTR(n, scheme, OTA_SF_SCHEME);                               \
	OTA_STAGE_ATTR(n, delegation_depth, OTA_SF_DELEGATION_DEPTH);           \
	OTA_STAGE_ATTR(n, svn, OTA_SF_SVN);                                     \
	OTA_STAGE_ATTR(n, tag_key_version, OTA_SF_TAG_KEY_VERSION);             \
	OTA_STAGE_ATTR(n, measurement, OTA_SF_MEASUREMENT);                     \
	OTA_STAGE_ATTR(n, key_ids, OTA_SF_KEY_IDS);                             \
	OTA_STAGE_ATTR(n, verify_time_ns, OTA_SF_VERIFY_TIME_NS);               \
	OTA_STAGE_ATTR(n, verify_cycles, OTA_SF_VERIFY_CYCLES);                 \
	OTA_STAGE_ATTR(n, booted, OTA_SF_BOOTED);                               \
	OTA_STAGE_ATTR(n, fallback, OTA_SF_FALLBACK);                           \
	OTA_STAGE_ATTR(n, path_reason, OTA_SF_PATH_REASON);                     \
	OTA_STAGE_ATTR(n, debug, OTA_SF_DEBUG);                                 \
	static struct attribute *stage##n##_attrs[] = {                         \
		&stage##n##_stage.attr.attr,                                    \
		&stage##n##_slot.attr.attr,                                     \
		&stage##n##_status.attr.attr,                                   \
		&stage##n##_path.attr.attr,                                     \
		&stage##n##_scheme.attr.attr,                                   \
		&stage##n##_delegation_depth.attr.attr,                         \
		&stage##n##_svn.attr.attr,                                      \
		&stage##n##_tag_key_version.attr.attr,                          \
		&stage##n##_measurement.attr.attr,                              \
		&stage##n##_key_ids.attr.attr,                                  \
		&stage##n##_verify_time_ns.attr.attr,                           \
		&stage##n##_verify_cycles.attr.attr,                            \
		&stage##n##_booted.attr.attr,                                   \
		&stage##n##_fallback.attr.attr,                                 \
		&stage##n##_path_reason.attr.attr,                              \
		&stage##n##_debug.attr.attr,                                    \
		NULL                                                            \
	};                                                                      \
	static const struct attribute_group stage##n##_group = {                \
		.name = "stage" #n,                                             \
		.attrs = stage##n##_attrs,                                      \
		.is_visible = otattest_stage_visible,                           \
	}

static_assert(OTA_RECORD_MAX_STAGES == 4, "one stage group per record stage");
OTA_STAGE_GROUP(0);
OTA_STAGE_GROUP(1);
OTA_STAGE_GROUP(2);
OTA_STAGE_GROUP(3);

static const struct attribute_group *otattest_stage_groups[OTA_RECORD_MAX_STAGES] = {
	&stage0_group, &stage1_group, &stage2_group, &stage3_group,
};

static const struct attribute_group *otattest_groups[] = {
	&otattest_group,
	&stage0_group,
	&stage1_group,
	&stage2_group,
	&stage3_group,
	&otattest_update_group,
	&otattest_slot_rom_ext_a_group,
	&otattest_slot_rom_ext_b_group,
	&otattest_slot_bl0_a_group,
	&otattest_slot_bl0_b_group,
	NULL
};

/*
 * Called by refresh (refresh_lock held, state_lock not: removing files
 * waits for their readers, which take state_lock).
 */
void otattest_sysfs_update_stages(struct otattest_device *od)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(otattest_stage_groups); i++) {
		ret = sysfs_update_group(&od->dev.kobj, otattest_stage_groups[i]);
		if (ret)
			dev_warn(&od->dev, "cannot update stage%u attributes: %d\n", i, ret);
	}
}

/*
 * Every uevent (add, change, remove) says what state the device is in.
 * The core hands the device const from 6.2 on (OTATTEST_FOR_SLOT); the
 * state lock is ours to take all the same, so the container is not.
 */
static int otattest_uevent_vars(struct otattest_device *od, struct kobj_uevent_env *env)
{
	u32 state, detail, len, gen = 0;
	int ret;

	mutex_lock(&od->state_lock);
	state = od->snap.state;
	detail = od->snap.state_detail;
	len = od->snap.record_len;
	if (len)
		gen = od->snap.record.hdr.generation;
	mutex_unlock(&od->state_lock);

	ret = add_uevent_var(env, "OTATTEST_STATE=%s", otattest_state_name(state));
	if (!ret)
		ret = add_uevent_var(env, "OTATTEST_STATE_DETAIL=%#010x", detail);
	if (!ret && len)
		ret = add_uevent_var(env, "OTATTEST_GENERATION=%u", gen);
	return ret;
}

static int otattest_dev_uevent_const(const struct device *dev, struct kobj_uevent_env *env)
{
	return otattest_uevent_vars(container_of(dev, struct otattest_device, dev), env);
}

static int otattest_dev_uevent(struct device *dev, struct kobj_uevent_env *env)
{
	return otattest_uevent_vars(to_otattest(dev), env);
}

/* No .owner: 6.1 never read it and 6.4 removed it. */
struct class otattest_class = {
	.name = "otattest",
	.dev_groups = otattest_groups,
	.dev_uevent = OTATTEST_FOR_SLOT(struct class, dev_uevent, otattest_dev_uevent_const,
					otattest_dev_uevent),
};
