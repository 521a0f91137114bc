/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "fu-otattest-common.h"

const gchar *
fu_otattest_slot_name(guint32 slot)
{
	if (slot == OTA_SLOT_A)
		return "a";
	if (slot == OTA_SLOT_B)
		return "b";
	return "none";
}

/* otattestd's named errors (org.otattest.BootAttest1.Error.<class>, the
 * class table in status.h) as fwupd's, the daemon's message kept. */
static FwupdError
fu_otattest_error_code(guint cls)
{
	switch (cls) {
	case OTA_CLASS_INVALID_ARGUMENT:
		return FWUPD_ERROR_INVALID_DATA;
	case OTA_CLASS_MALFORMED:
		return FWUPD_ERROR_INVALID_FILE;
	case OTA_CLASS_VERIFICATION:
	case OTA_CLASS_REVOKED:
		return FWUPD_ERROR_SIGNATURE_INVALID;
	case OTA_CLASS_ROLLBACK:
		return FWUPD_ERROR_VERSION_NEWER;
	case OTA_CLASS_POLICY:
	case OTA_CLASS_LIMIT:
		return FWUPD_ERROR_NOT_SUPPORTED;
	case OTA_CLASS_NOT_FOUND:
	case OTA_CLASS_UNAVAILABLE:
		return FWUPD_ERROR_NOT_FOUND;
	case OTA_CLASS_BUSY:
		return FWUPD_ERROR_BUSY;
	case OTA_CLASS_TIMEOUT:
		return FWUPD_ERROR_TIMED_OUT;
	case OTA_CLASS_PERMISSION:
		return FWUPD_ERROR_PERMISSION_DENIED;
	case OTA_CLASS_IO:
		return FWUPD_ERROR_WRITE;
	default:
		return FWUPD_ERROR_INTERNAL;
	}
}

void
fu_otattest_error_from_dbus(GError **error, const GError *dbus_error, const gchar *method)
{
	g_autofree gchar *remote = g_dbus_error_get_remote_error(dbus_error);
	g_autofree gchar *message = g_strdup(dbus_error->message);
	FwupdError code = FWUPD_ERROR_INTERNAL;

	g_dbus_error_strip_remote_error((GError *)dbus_error);
	g_free(message);
	message = g_strdup(dbus_error->message);
	if (remote != NULL && g_str_has_prefix(remote, OTA_BUS_ERROR_PREFIX)) {
		const gchar *name = remote + strlen(OTA_BUS_ERROR_PREFIX);
#define FU_OTATTEST_X_CLASS(cname, num, errv, dbus, exitc)                                  \
	if (g_strcmp0(name, dbus) == 0)                                                     \
		code = fu_otattest_error_code(num);
		OTA_CLASS_LIST(FU_OTATTEST_X_CLASS)
#undef FU_OTATTEST_X_CLASS
	} else if (remote != NULL &&
		   (g_str_equal(remote, "org.freedesktop.DBus.Error.AccessDenied") ||
		    g_str_equal(remote,
				"org.freedesktop.DBus.Error.InteractiveAuthorizationRequired"))) {
		code = FWUPD_ERROR_PERMISSION_DENIED;
	} else if (g_error_matches(dbus_error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
		   g_error_matches(dbus_error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
		   g_error_matches(dbus_error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT)) {
		code = FWUPD_ERROR_NOT_FOUND;
	} else if (g_error_matches(dbus_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ||
		   g_error_matches(dbus_error, G_DBUS_ERROR, G_DBUS_ERROR_TIMEOUT) ||
		   g_error_matches(dbus_error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY)) {
		code = FWUPD_ERROR_TIMED_OUT;
	}
	g_set_error(error, FWUPD_ERROR, code, "otattestd %s: %s%s%s%s", method, message,
		    remote != NULL ? " (" : "", remote != NULL ? remote : "",
		    remote != NULL ? ")" : "");
}

static guint32
fu_otattest_running_svn(GVariantDict *props, const gchar *want_stage)
{
	g_autoptr(GVariant) slots =
	    g_variant_dict_lookup_value(props, "Slots", G_VARIANT_TYPE("a(ssusas)"));
	GVariantIter iter;
	const gchar *stage = NULL, *slot = NULL, *version = NULL;
	guint32 svn = 0, found = 0;
	GVariant *flags = NULL;

	if (slots == NULL)
		return 0;
	g_variant_iter_init(&iter, slots);
	while (g_variant_iter_next(&iter, "(&s&su&s@as)", &stage, &slot, &svn, &version, &flags)) {
		g_autofree const gchar **strv = g_variant_get_strv(flags, NULL);
		if (g_strcmp0(stage, want_stage) == 0 && g_strv_contains(strv, "running"))
			found = svn;
		g_variant_unref(flags);
	}
	return found;
}

static FwupdSecurityAttr *
fu_otattest_attr_new(FuDevice *device,
		     const gchar *id,
		     FwupdSecurityAttrLevel level,
		     const gchar *name)
{
	FwupdSecurityAttr *attr = fu_device_security_attr_new(device, id);
	g_autofree gchar *full = g_strdup_printf("%s: %s", fu_device_get_physical_id(device), name);
	fwupd_security_attr_set_level(attr, level);
	fwupd_security_attr_set_name(attr, full);
	fwupd_security_attr_set_title(attr, full);
	return attr;
}

static void
fu_otattest_attr_finish(FuSecurityAttrs *attrs,
			FwupdSecurityAttr *attr,
			gboolean good,
			FwupdSecurityAttrResult result,
			FwupdSecurityAttrResult good_result)
{
	fwupd_security_attr_set_result_success(attr, good_result);
	fwupd_security_attr_set_result(attr, result);
	if (good)
		fwupd_security_attr_add_flag(attr, FWUPD_SECURITY_ATTR_FLAG_SUCCESS);
	fu_security_attrs_append(attrs, attr);
	g_object_unref(attr);
}

void
fu_otattest_security_attrs_from_record(FuDevice *device, GVariantDict *props, FuSecurityAttrs *attrs)
{
	gboolean tag_boot = FALSE, valid = FALSE, debug = FALSE, hybrid = FALSE;
	const gchar *lifecycle = "";
	guint32 floor_bl0 = 0, floor_rom_ext = 0, svn_bl0, svn_rom_ext;
	g_autoptr(GVariant) stages = NULL;
	g_autofree gchar *floors = NULL;
	FwupdSecurityAttr *attr;
	gboolean floors_ok, locked;

	(void)g_variant_dict_lookup(props, "RecordValid", "b", &valid);
	(void)g_variant_dict_lookup(props, "TagBootEnabled", "b", &tag_boot);
	(void)g_variant_dict_lookup(props, "Lifecycle", "&s", &lifecycle);
	(void)g_variant_dict_lookup(props, "FloorBl0", "u", &floor_bl0);
	(void)g_variant_dict_lookup(props, "FloorRomExt", "u", &floor_rom_ext);
	stages = g_variant_dict_lookup_value(props, "Stages", G_VARIANT_TYPE("aa{sv}"));

	/* which booted stages were debug images, which carried SLH-DSA too
	 * (Stages: one a{sv} per attempt, docs/dbus-api.md) */
	if (stages != NULL) {
		GVariantIter iter;
		GVariant *stage;
		g_variant_iter_init(&iter, stages);
		while ((stage = g_variant_iter_next_value(&iter)) != NULL) {
			g_autoptr(GVariantDict) dict = g_variant_dict_new(stage);
			const gchar *scheme = "";
			gboolean booted = FALSE, dbg = FALSE;
			(void)g_variant_dict_lookup(dict, "scheme", "&s", &scheme);
			(void)g_variant_dict_lookup(dict, "booted", "b", &booted);
			(void)g_variant_dict_lookup(dict, "debug", "b", &dbg);
			if (booted) {
				debug |= dbg;
				hybrid |= strstr(scheme, "slh-dsa") != NULL;
			}
			g_variant_unref(stage);
		}
	}

	attr = fu_otattest_attr_new(device, "org.fwupd.hsi.Otattest.Lifecycle",
				    FWUPD_SECURITY_ATTR_LEVEL_CRITICAL, "lifecycle");
	fwupd_security_attr_add_metadata(attr, "lifecycle", lifecycle);
	locked = valid && (g_str_equal(lifecycle, "prod") || g_str_equal(lifecycle, "prod_end"));
	fu_otattest_attr_finish(attrs, attr, locked,
				locked ? FWUPD_SECURITY_ATTR_RESULT_LOCKED
				       : FWUPD_SECURITY_ATTR_RESULT_NOT_LOCKED,
				FWUPD_SECURITY_ATTR_RESULT_LOCKED);

	attr = fu_otattest_attr_new(device, "org.fwupd.hsi.Otattest.DebugImage",
				    FWUPD_SECURITY_ATTR_LEVEL_CRITICAL, "debug image booted");
	fu_otattest_attr_finish(attrs, attr, valid && !debug,
				debug ? FWUPD_SECURITY_ATTR_RESULT_ENABLED
				      : FWUPD_SECURITY_ATTR_RESULT_NOT_ENABLED,
				FWUPD_SECURITY_ATTR_RESULT_NOT_ENABLED);

	attr = fu_otattest_attr_new(device, "org.fwupd.hsi.Otattest.TagBoot",
				    FWUPD_SECURITY_ATTR_LEVEL_IMPORTANT, "tag boot");
	fu_otattest_attr_finish(attrs, attr, valid && tag_boot,
				tag_boot ? FWUPD_SECURITY_ATTR_RESULT_ENABLED
					 : FWUPD_SECURITY_ATTR_RESULT_NOT_ENABLED,
				FWUPD_SECURITY_ATTR_RESULT_ENABLED);

	/* the floors hold the running SVNs: nothing older boots again */
	svn_bl0 = fu_otattest_running_svn(props, "bl0");
	svn_rom_ext = fu_otattest_running_svn(props, "rom_ext");
	floors_ok = valid && floor_bl0 >= svn_bl0 && floor_rom_ext >= svn_rom_ext;
	attr = fu_otattest_attr_new(device, "org.fwupd.hsi.Otattest.RollbackFloors",
				    FWUPD_SECURITY_ATTR_LEVEL_IMPORTANT, "anti-rollback floors");
	floors = g_strdup_printf("rom_ext %u (running SVN %u), bl0 %u (running SVN %u)",
				 floor_rom_ext, svn_rom_ext, floor_bl0, svn_bl0);
	fwupd_security_attr_add_metadata(attr, "floors", floors);
	fu_otattest_attr_finish(attrs, attr, floors_ok,
				floors_ok ? FWUPD_SECURITY_ATTR_RESULT_VALID
					  : FWUPD_SECURITY_ATTR_RESULT_NOT_VALID,
				FWUPD_SECURITY_ATTR_RESULT_VALID);

	attr = fu_otattest_attr_new(device, "org.fwupd.hsi.Otattest.HybridSignatures",
				    FWUPD_SECURITY_ATTR_LEVEL_THEORETICAL,
				    "hybrid (post-quantum) signatures");
	fu_otattest_attr_finish(attrs, attr, valid && hybrid,
				hybrid ? FWUPD_SECURITY_ATTR_RESULT_ENABLED
				       : FWUPD_SECURITY_ATTR_RESULT_NOT_ENABLED,
				FWUPD_SECURITY_ATTR_RESULT_ENABLED);
}
