/*
 * An otattest device as otattestd exports it, or one of its firmware
 * stages (BL0, ROM_EXT) as a child of it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <gio/gunixfdlist.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fu-otattest-common.h"
#include "fu-otattest-device.h"

struct _FuOtattestDevice {
	FuDevice parent_instance;
	GDBusConnection *connection;
	gchar *object_path;
	gchar *stage; /* NULL for the device itself, else "bl0" or "rom_ext" */
	guint32 written_slot; /* OTA_RECORD_NO_SLOT until write_firmware wrote one */
	GVariantDict *props; /* the last GetAll of org.otattest.BootAttest1.Device */
};

G_DEFINE_TYPE(FuOtattestDevice, fu_otattest_device, FU_TYPE_DEVICE)

/* One method of the device object; the reply checked against REPLY_TYPE. */
static GVariant *
fu_otattest_device_call(FuOtattestDevice *self,
			const gchar *method,
			GVariant *params,
			const GVariantType *reply_type,
			GUnixFDList *fd_list,
			GError **error)
{
	g_autoptr(GError) error_local = NULL;
	GVariant *reply;

	reply = g_dbus_connection_call_with_unix_fd_list_sync(self->connection,
							      OTA_BUS_NAME,
							      self->object_path,
							      OTA_BUS_DEVICE_IFACE,
							      method,
							      params,
							      reply_type,
							      G_DBUS_CALL_FLAGS_NO_AUTO_START,
							      FU_OTATTEST_CALL_TIMEOUT_MS,
							      fd_list,
							      NULL,
							      NULL,
							      &error_local);
	if (reply == NULL) {
		fu_otattest_error_from_dbus(error, error_local, method);
		return NULL;
	}
	return reply;
}

const gchar *
fu_otattest_device_get_object_path(FuOtattestDevice *self)
{
	g_return_val_if_fail(FU_IS_OTATTEST_DEVICE(self), NULL);
	return self->object_path;
}

const gchar *
fu_otattest_device_get_stage(FuOtattestDevice *self)
{
	g_return_val_if_fail(FU_IS_OTATTEST_DEVICE(self), NULL);
	return self->stage;
}

static const gchar *
fu_otattest_device_prop_str(FuOtattestDevice *self, const gchar *name)
{
	const gchar *value = NULL;
	if (self->props == NULL ||
	    !g_variant_dict_lookup(self->props, name, "&s", &value))
		return "";
	return value;
}

static guint32
fu_otattest_device_prop_u32(FuOtattestDevice *self, const gchar *name)
{
	guint32 value = 0;
	if (self->props != NULL)
		(void)g_variant_dict_lookup(self->props, name, "u", &value);
	return value;
}

/* This stage's slots from the Slots property, a(ssusas): the version is the
 * SVN of the running slot (what a rollback floor is compared with), the
 * summary every slot with its manifest's version string and flags. */
static void
fu_otattest_device_set_stage_slots(FuOtattestDevice *self)
{
	g_autoptr(GVariant) slots = NULL;
	g_autoptr(GString) summary = g_string_new(NULL);
	GVariantIter iter;
	const gchar *stage = NULL, *slot = NULL, *version = NULL;
	guint32 svn = 0;
	GVariant *flags = NULL;
	gboolean running_found = FALSE;
	guint32 floor;

	if (self->props != NULL)
		slots = g_variant_dict_lookup_value(self->props, "Slots", G_VARIANT_TYPE("a(ssusas)"));
	if (slots != NULL) {
		g_variant_iter_init(&iter, slots);
		while (g_variant_iter_next(&iter, "(&s&su&s@as)", &stage, &slot, &svn, &version, &flags)) {
			g_autofree gchar *flags_str = NULL;
			g_autofree const gchar **strv = NULL;
			if (g_strcmp0(stage, self->stage) != 0) {
				g_variant_unref(flags);
				continue;
			}
			strv = g_variant_get_strv(flags, NULL);
			flags_str = g_strjoinv(",", (gchar **)strv);
			if (summary->len > 0)
				g_string_append(summary, "; ");
			g_string_append_printf(summary,
					       "slot %s: %s SVN %u [%s]",
					       slot,
					       version[0] != '\0' ? version : "(no version)",
					       svn,
					       flags_str);
			if (g_strv_contains(strv, "running")) {
				fu_device_set_version_raw(FU_DEVICE(self), svn);
				running_found = TRUE;
			}
			g_variant_unref(flags);
		}
	}
	if (summary->len > 0)
		fu_device_set_summary(FU_DEVICE(self), summary->str);
	if (!running_found)
		fu_device_set_version_raw(FU_DEVICE(self), 0);

	/* the boot data's anti-rollback floor: nothing below it installs */
	floor = fu_otattest_device_prop_u32(self,
					    g_strcmp0(self->stage, "bl0") == 0 ? "FloorBl0"
									      : "FloorRomExt");
	if (floor > 0)
		fu_device_set_version_lowest_raw(FU_DEVICE(self), floor);
}

/* Reads every property again (GetAll: a sync call, so a reload right after a
 * reset sees the new record, not the proxy cache of before). */
gboolean
fu_otattest_device_refresh(FuOtattestDevice *self, GError **error)
{
	g_autoptr(GError) error_local = NULL;
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(GVariant) dict = NULL;
	const gchar *state;

	reply = g_dbus_connection_call_sync(self->connection,
					    OTA_BUS_NAME,
					    self->object_path,
					    "org.freedesktop.DBus.Properties",
					    "GetAll",
					    g_variant_new("(s)", OTA_BUS_DEVICE_IFACE),
					    G_VARIANT_TYPE("(a{sv})"),
					    G_DBUS_CALL_FLAGS_NO_AUTO_START,
					    FU_OTATTEST_CALL_TIMEOUT_MS,
					    NULL,
					    &error_local);
	if (reply == NULL) {
		fu_otattest_error_from_dbus(error, error_local, "GetAll");
		return FALSE;
	}
	dict = g_variant_get_child_value(reply, 0);
	if (self->props != NULL)
		g_variant_dict_unref(self->props);
	self->props = g_variant_dict_new(dict);

	state = fu_otattest_device_prop_str(self, "State");
	if (self->stage != NULL) {
		fu_otattest_device_set_stage_slots(self);
		/* only a device that booted its runtime takes an update */
		if (g_strcmp0(state, "ready") == 0) {
			fu_device_add_flag(FU_DEVICE(self), FWUPD_DEVICE_FLAG_UPDATABLE);
			fu_device_remove_flag(FU_DEVICE(self), FWUPD_DEVICE_FLAG_UPDATABLE_HIDDEN);
		} else {
			g_autofree gchar *why = g_strdup_printf("device state is %s", state);
			fu_device_remove_flag(FU_DEVICE(self), FWUPD_DEVICE_FLAG_UPDATABLE);
			fu_device_add_flag(FU_DEVICE(self), FWUPD_DEVICE_FLAG_UPDATABLE_HIDDEN);
			fu_device_set_update_error(FU_DEVICE(self), why);
		}
	} else {
		g_autofree gchar *summary =
		    g_strdup_printf("state %s, lifecycle %s, primary BL0 slot %s, update %s",
				    state,
				    fu_otattest_device_prop_str(self, "Lifecycle"),
				    fu_otattest_device_prop_str(self, "PrimarySlot"),
				    fu_otattest_device_prop_str(self, "UpdateState"));
		fu_device_set_summary(FU_DEVICE(self), summary);
	}
	return TRUE;
}

gboolean
fu_otattest_device_is_present(FuOtattestDevice *self)
{
	const gchar *state = fu_otattest_device_prop_str(self, "State");
	return g_strcmp0(state, OTA_STATE_ABSENT) != 0 && g_strcmp0(state, OTA_STATE_UNREACHABLE) != 0 &&
	       state[0] != '\0';
}

static gboolean
fu_otattest_device_probe(FuDevice *device, GError **error)
{
	FuOtattestDevice *self = FU_OTATTEST_DEVICE(device);
	g_autofree gchar *name = g_path_get_basename(self->object_path);

	fu_device_set_physical_id(device, name);
	fu_device_set_backend_id(device, self->object_path);
	fu_device_build_vendor_id(device, "OTATTEST", "otattest");
	if (self->stage == NULL) {
		/* the device itself: what the record says, no firmware of its own */
		fu_device_add_instance_id(device, "OTATTEST\\DEVICE");
		return TRUE;
	}
	fu_device_set_logical_id(device, self->stage);
	fu_device_add_instance_strup(device, "STAGE", self->stage);
	return fu_device_build_instance_id(device, error, "OTATTEST", "STAGE", NULL);
}

static gboolean
fu_otattest_device_setup(FuDevice *device, GError **error)
{
	return fu_otattest_device_refresh(FU_OTATTEST_DEVICE(device), error);
}

static gboolean
fu_otattest_device_reload(FuDevice *device, GError **error)
{
	FuOtattestDevice *self = FU_OTATTEST_DEVICE(device);
	/* a stage's reset changed the whole record: the device's too */
	if (self->stage != NULL) {
		FuDevice *parent = fu_device_get_parent(device, error);
		if (parent == NULL)
			return FALSE;
		if (!fu_otattest_device_refresh(FU_OTATTEST_DEVICE(parent), error))
			return FALSE;
	}
	return fu_otattest_device_refresh(self, error);
}

/* The image in a sealed memfd: otattestd takes a file descriptor (it never
 * opens a path a caller names) of a regular file, which a memfd is. */
static gint
fu_otattest_device_image_fd(GBytes *blob, GError **error)
{
	gsize size = 0;
	const guint8 *data = g_bytes_get_data(blob, &size);
	gsize done = 0;
	gint fd = memfd_create("otattest-image", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0) {
		g_set_error(error, FWUPD_ERROR, FWUPD_ERROR_INTERNAL, "memfd_create: %s",
			    g_strerror(errno));
		return -1;
	}
	while (done < size) {
		gssize n = write(fd, data + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			g_set_error(error, FWUPD_ERROR, FWUPD_ERROR_WRITE, "memfd write: %s",
				    g_strerror(errno));
			close(fd);
			return -1;
		}
		done += (gsize)n;
	}
	/* the daemon reads it by offset; nobody changes it meanwhile */
	(void)fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	return fd;
}

static gboolean
fu_otattest_device_write_firmware(FuDevice *device,
				  FuFirmware *firmware,
				  FuProgress *progress,
				  FwupdInstallFlags flags,
				  GError **error)
{
	FuOtattestDevice *self = FU_OTATTEST_DEVICE(device);
	g_autoptr(GBytes) blob = NULL;
	g_autoptr(GUnixFDList) fd_list = g_unix_fd_list_new();
	g_autoptr(GVariant) reply = NULL;
	const gchar *stage = NULL, *version = NULL;
	guint32 slot = 0, svn = 0;
	gint fd, idx;

	blob = fu_firmware_get_bytes(firmware, error);
	if (blob == NULL)
		return FALSE;
	fd = fu_otattest_device_image_fd(blob, error);
	if (fd < 0)
		return FALSE;
	idx = g_unix_fd_list_append(fd_list, fd, error);
	close(fd);
	if (idx < 0)
		return FALSE;

	/* the device checks the whole image as a boot would, then writes the
	 * slot not running */
	fu_progress_set_status(progress, FWUPD_STATUS_DEVICE_WRITE);
	self->written_slot = OTA_RECORD_NO_SLOT;
	reply = fu_otattest_device_call(self,
					"InstallImage",
					g_variant_new("(hsu)", idx, self->stage, FU_OTATTEST_SLOT_OTHER),
					G_VARIANT_TYPE("(suusay)"),
					fd_list,
					error);
	if (reply == NULL)
		return FALSE;
	g_variant_get(reply, "(&suu&s@ay)", &stage, &slot, &svn, &version, NULL);
	self->written_slot = slot;
	g_info("%s: %s written to slot %s, SVN %u, version %s",
	       self->object_path, stage, fu_otattest_slot_name(slot), svn, version);
	fu_progress_set_percentage(progress, 100);
	return TRUE;
}

/* Boot the slot just written on trial and make it the primary only when it
 * came up healthy: the boot status OTA_OK, running the new slot. A BL0 goes
 * through UpdateReset then Commit; a ROM_EXT is activated by WarmReset
 * (the boot data selects it; there is nothing to commit). */
static gboolean
fu_otattest_device_attach(FuDevice *device, FuProgress *progress, GError **error)
{
	FuOtattestDevice *self = FU_OTATTEST_DEVICE(device);
	g_autoptr(GVariant) reply = NULL;
	guint32 boot_status = 0, generation = 0, booted_slot = 0, written_slot;
	gboolean is_bl0 = g_strcmp0(self->stage, "bl0") == 0;

	/* fwupd attaches after a failed write too: nothing was written, the
	 * device never left its slot, there is nothing to boot or commit */
	if (self->written_slot == OTA_RECORD_NO_SLOT)
		return TRUE;
	written_slot = self->written_slot;
	self->written_slot = OTA_RECORD_NO_SLOT;

	fu_progress_set_id(progress, G_STRLOC);
	fu_progress_add_step(progress, FWUPD_STATUS_DEVICE_RESTART, 80, "reset");
	fu_progress_add_step(progress, FWUPD_STATUS_DEVICE_VERIFY, 20, "commit");

	if (is_bl0)
		reply = fu_otattest_device_call(self,
						"UpdateReset",
						g_variant_new("(u)", written_slot),
						G_VARIANT_TYPE("(uuu)"),
						NULL,
						error);
	else
		reply = fu_otattest_device_call(self, "WarmReset", NULL, G_VARIANT_TYPE("(uuu)"),
						NULL, error);
	if (reply == NULL)
		return FALSE;
	g_variant_get(reply, "(uuu)", &boot_status, &generation, &booted_slot);
	fu_progress_step_done(progress);

	if (!fu_otattest_device_reload(device, error))
		return FALSE;
	if (boot_status != OTA_OK) {
		g_set_error(error,
			    FWUPD_ERROR,
			    FWUPD_ERROR_NOT_SUPPORTED,
			    "the new %s in slot %s did not boot (status 0x%x); the device "
			    "stays on its primary",
			    self->stage,
			    fu_otattest_slot_name(written_slot),
			    boot_status);
		return FALSE;
	}
	if (!is_bl0) {
		const gchar *running = fu_otattest_device_prop_str(self, "RunningRomExtSlot");
		if (g_strcmp0(running, fu_otattest_slot_name(written_slot)) != 0) {
			g_set_error(error, FWUPD_ERROR, FWUPD_ERROR_NOT_SUPPORTED,
				    "the warm reset kept ROM_EXT slot %s, not the new slot %s",
				    running, fu_otattest_slot_name(written_slot));
			return FALSE;
		}
		fu_progress_step_done(progress);
		return TRUE;
	}
	if (booted_slot != written_slot) {
		g_set_error(error, FWUPD_ERROR, FWUPD_ERROR_NOT_SUPPORTED,
			    "the device booted BL0 slot %s, not the new slot %s; not committed",
			    fu_otattest_slot_name(booted_slot),
			    fu_otattest_slot_name(written_slot));
		return FALSE;
	}

	/* healthy: keep it across cold boots */
	g_clear_pointer(&reply, g_variant_unref);
	reply = fu_otattest_device_call(self,
					"Commit",
					g_variant_new("(u)", written_slot),
					G_VARIANT_TYPE("(uuuuuuu)"),
					NULL,
					error);
	if (reply == NULL)
		return FALSE;
	fu_progress_step_done(progress);
	return fu_otattest_device_reload(device, error);
}

static void
fu_otattest_device_set_progress(FuDevice *device, FuProgress *progress)
{
	fu_progress_set_id(progress, G_STRLOC);
	fu_progress_add_step(progress, FWUPD_STATUS_DECOMPRESSING, 0, "prepare-fw");
	fu_progress_add_step(progress, FWUPD_STATUS_DEVICE_RESTART, 0, "detach");
	fu_progress_add_step(progress, FWUPD_STATUS_DEVICE_WRITE, 60, "write");
	fu_progress_add_step(progress, FWUPD_STATUS_DEVICE_RESTART, 38, "attach");
	fu_progress_add_step(progress, FWUPD_STATUS_DEVICE_BUSY, 2, "reload");
}

static gchar *
fu_otattest_device_convert_version(FuDevice *device, guint64 version_raw)
{
	return fu_version_from_uint64(version_raw, fu_device_get_version_format(device));
}

/* HSI attributes from the boot record; the device itself adds them, its
 * stages do not (one set per device). */
static void
fu_otattest_device_add_security_attrs(FuDevice *device, FuSecurityAttrs *attrs)
{
	FuOtattestDevice *self = FU_OTATTEST_DEVICE(device);
	if (self->stage != NULL || self->props == NULL)
		return;
	fu_otattest_security_attrs_from_record(device, self->props, attrs);
}

static void
fu_otattest_device_to_string(FuDevice *device, guint idt, GString *str)
{
	FuOtattestDevice *self = FU_OTATTEST_DEVICE(device);
	fwupd_codec_string_append(str, idt, "ObjectPath", self->object_path);
	fwupd_codec_string_append(str, idt, "Stage", self->stage);
}

static void
fu_otattest_device_init(FuOtattestDevice *self)
{
	self->written_slot = OTA_RECORD_NO_SLOT;
	fu_device_set_version_format(FU_DEVICE(self), FWUPD_VERSION_FORMAT_NUMBER);
	fu_device_add_protocol(FU_DEVICE(self), FU_OTATTEST_PROTOCOL);
	fu_device_add_flag(FU_DEVICE(self), FWUPD_DEVICE_FLAG_INTERNAL);
	fu_device_add_private_flag(FU_DEVICE(self), FU_DEVICE_PRIVATE_FLAG_NO_SERIAL_NUMBER);
}

static void
fu_otattest_device_finalize(GObject *object)
{
	FuOtattestDevice *self = FU_OTATTEST_DEVICE(object);
	g_clear_object(&self->connection);
	g_free(self->object_path);
	g_free(self->stage);
	if (self->props != NULL)
		g_variant_dict_unref(self->props);
	G_OBJECT_CLASS(fu_otattest_device_parent_class)->finalize(object);
}

static void
fu_otattest_device_class_init(FuOtattestDeviceClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	FuDeviceClass *device_class = FU_DEVICE_CLASS(klass);
	object_class->finalize = fu_otattest_device_finalize;
	device_class->probe = fu_otattest_device_probe;
	device_class->setup = fu_otattest_device_setup;
	device_class->reload = fu_otattest_device_reload;
	device_class->write_firmware = fu_otattest_device_write_firmware;
	device_class->attach = fu_otattest_device_attach;
	device_class->set_progress = fu_otattest_device_set_progress;
	device_class->convert_version = fu_otattest_device_convert_version;
	device_class->add_security_attrs = fu_otattest_device_add_security_attrs;
	device_class->to_string = fu_otattest_device_to_string;
}

/* STAGE: NULL for the device object itself, else the stage child's. */
FuOtattestDevice *
fu_otattest_device_new(FuContext *ctx,
		       GDBusConnection *connection,
		       const gchar *object_path,
		       const gchar *stage)
{
	FuOtattestDevice *self = g_object_new(FU_TYPE_OTATTEST_DEVICE, "context", ctx, NULL);
	self->connection = g_object_ref(connection);
	self->object_path = g_strdup(object_path);
	self->stage = g_strdup(stage);
	if (stage != NULL) {
		fu_device_add_flag(FU_DEVICE(self), FWUPD_DEVICE_FLAG_DUAL_IMAGE);
		fu_device_add_flag(FU_DEVICE(self), FWUPD_DEVICE_FLAG_SIGNED_PAYLOAD);
		fu_device_add_flag(FU_DEVICE(self), FWUPD_DEVICE_FLAG_UPDATABLE);
	}
	return self;
}
