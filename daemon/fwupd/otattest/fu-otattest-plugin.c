/*
 * The otattest plugin: one fwupd device per device otattestd exports, with
 * its BL0 and ROM_EXT as updatable children. It follows otattestd on the
 * system bus: devices come when the name has an owner and the device is
 * present, and go when otattestd leaves the bus or reports the device
 * absent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "fu-otattest-common.h"
#include "fu-otattest-device.h"
#include "fu-otattest-plugin.h"

struct _FuOtattestPlugin {
	FuPlugin parent_instance;
	GDBusConnection *connection;
	guint watch_id;
	guint props_changed_id;
	GHashTable *devices; /* object path -> FuOtattestDevice (the device, not a stage) */
};

G_DEFINE_TYPE(FuOtattestPlugin, fu_otattest_plugin, FU_TYPE_PLUGIN)

static const gchar *fu_otattest_stages[] = {"bl0", "rom_ext"};

static void
fu_otattest_plugin_remove_device(FuOtattestPlugin *self, const gchar *object_path)
{
	FuOtattestDevice *device = g_hash_table_lookup(self->devices, object_path);
	if (device == NULL)
		return;
	g_info("%s is gone", object_path);
	fu_plugin_device_remove(FU_PLUGIN(self), FU_DEVICE(device));
	g_hash_table_remove(self->devices, object_path);
}

static void
fu_otattest_plugin_add_device(FuOtattestPlugin *self, const gchar *object_path)
{
	FuContext *ctx = fu_plugin_get_context(FU_PLUGIN(self));
	g_autoptr(FuOtattestDevice) device = NULL;
	g_autoptr(GError) error = NULL;

	if (g_hash_table_contains(self->devices, object_path))
		return;
	device = fu_otattest_device_new(ctx, self->connection, object_path, NULL);
	if (!fu_device_probe(FU_DEVICE(device), &error)) {
		g_warning("%s: %s", object_path, error->message);
		return;
	}
	for (guint i = 0; i < G_N_ELEMENTS(fu_otattest_stages); i++) {
		g_autoptr(FuOtattestDevice) child =
		    fu_otattest_device_new(ctx, self->connection, object_path, fu_otattest_stages[i]);
		if (!fu_device_probe(FU_DEVICE(child), &error)) {
			g_warning("%s %s: %s", object_path, fu_otattest_stages[i], error->message);
			return;
		}
		fu_device_add_child(FU_DEVICE(device), FU_DEVICE(child));
	}
	if (!fu_device_setup(FU_DEVICE(device), &error)) {
		g_warning("%s: %s", object_path, error->message);
		return;
	}
	/* an object for a device that went away stays on the bus, absent */
	if (!fu_otattest_device_is_present(device)) {
		g_debug("%s is not present", object_path);
		return;
	}
	g_hash_table_insert(self->devices, g_strdup(object_path), g_object_ref(device));
	fu_plugin_device_add(FU_PLUGIN(self), FU_DEVICE(device));
}

/* Every device object the manager lists; a failure leaves what we have. */
static void
fu_otattest_plugin_enumerate(FuOtattestPlugin *self)
{
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(GVariant) value = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree const gchar **paths = NULL;

	reply = g_dbus_connection_call_sync(self->connection,
					    OTA_BUS_NAME,
					    OTA_BUS_ROOT_PATH,
					    "org.freedesktop.DBus.Properties",
					    "Get",
					    g_variant_new("(ss)", OTA_BUS_MANAGER_IFACE, "Devices"),
					    G_VARIANT_TYPE("(v)"),
					    G_DBUS_CALL_FLAGS_NO_AUTO_START,
					    FU_OTATTEST_CALL_TIMEOUT_MS,
					    NULL,
					    &error);
	if (reply == NULL) {
		g_debug("no otattest devices: %s", error->message);
		return;
	}
	g_variant_get(reply, "(v)", &value);
	if (!g_variant_is_of_type(value, G_VARIANT_TYPE_OBJECT_PATH_ARRAY)) {
		g_warning("otattestd's Devices is %s, not ao", g_variant_get_type_string(value));
		return;
	}
	paths = g_variant_get_objv(value, NULL);
	for (guint i = 0; paths[i] != NULL; i++)
		fu_otattest_plugin_add_device(self, paths[i]);
}

static void
fu_otattest_plugin_name_appeared_cb(GDBusConnection *connection,
				    const gchar *name,
				    const gchar *name_owner,
				    gpointer user_data)
{
	FuOtattestPlugin *self = FU_OTATTEST_PLUGIN(user_data);
	g_info("%s appeared as %s", name, name_owner);
	fu_otattest_plugin_enumerate(self);
}

/* otattestd stopped: every device it gave us is gone with it. */
static void
fu_otattest_plugin_name_vanished_cb(GDBusConnection *connection,
				    const gchar *name,
				    gpointer user_data)
{
	FuOtattestPlugin *self = FU_OTATTEST_PLUGIN(user_data);
	g_autoptr(GList) paths = g_hash_table_get_keys(self->devices);
	g_autoptr(GPtrArray) copy = g_ptr_array_new_with_free_func(g_free);

	for (GList *l = paths; l != NULL; l = l->next)
		g_ptr_array_add(copy, g_strdup(l->data));
	for (guint i = 0; i < copy->len; i++)
		fu_otattest_plugin_remove_device(self, g_ptr_array_index(copy, i));
}

/* A device's properties changed: it came, went, or its record moved (an
 * update by another agent, a cold boot); the manager's Devices grew. */
static void
fu_otattest_plugin_properties_changed_cb(GDBusConnection *connection,
					 const gchar *sender_name,
					 const gchar *object_path,
					 const gchar *interface_name,
					 const gchar *signal_name,
					 GVariant *parameters,
					 gpointer user_data)
{
	FuOtattestPlugin *self = FU_OTATTEST_PLUGIN(user_data);
	const gchar *iface = NULL;
	FuOtattestDevice *device;
	g_autoptr(GVariant) changed = NULL;
	g_autoptr(GError) error = NULL;
	GPtrArray *children;

	if (!g_variant_is_of_type(parameters, G_VARIANT_TYPE("(sa{sv}as)")))
		return;
	g_variant_get(parameters, "(&s@a{sv}^a&s)", &iface, &changed, NULL);
	if (g_strcmp0(iface, OTA_BUS_MANAGER_IFACE) == 0) {
		fu_otattest_plugin_enumerate(self);
		return;
	}
	if (g_strcmp0(iface, OTA_BUS_DEVICE_IFACE) != 0)
		return;

	device = g_hash_table_lookup(self->devices, object_path);
	if (device == NULL) {
		fu_otattest_plugin_add_device(self, object_path);
		return;
	}
	if (!fu_otattest_device_refresh(device, &error) || !fu_otattest_device_is_present(device)) {
		fu_otattest_plugin_remove_device(self, object_path);
		return;
	}
	children = fu_device_get_children(FU_DEVICE(device));
	for (guint i = 0; i < children->len; i++) {
		g_autoptr(GError) error_child = NULL;
		if (!fu_otattest_device_refresh(g_ptr_array_index(children, i), &error_child))
			g_debug("%s: %s", object_path, error_child->message);
	}
}

static gboolean
fu_otattest_plugin_startup(FuPlugin *plugin, FuProgress *progress, GError **error)
{
	FuOtattestPlugin *self = FU_OTATTEST_PLUGIN(plugin);
	self->connection = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, error);
	if (self->connection == NULL) {
		g_prefix_error_literal(error, "failed to connect to the system bus: ");
		return FALSE;
	}
	return TRUE;
}

static gboolean
fu_otattest_plugin_coldplug(FuPlugin *plugin, FuProgress *progress, GError **error)
{
	FuOtattestPlugin *self = FU_OTATTEST_PLUGIN(plugin);

	self->props_changed_id =
	    g_dbus_connection_signal_subscribe(self->connection,
					       OTA_BUS_NAME,
					       "org.freedesktop.DBus.Properties",
					       "PropertiesChanged",
					       NULL,
					       NULL,
					       G_DBUS_SIGNAL_FLAGS_NONE,
					       fu_otattest_plugin_properties_changed_cb,
					       self,
					       NULL);
	/* the devices there now, before fwupd answers its first client; the
	 * watch's first callback then finds them known */
	fu_otattest_plugin_enumerate(self);
	self->watch_id = g_bus_watch_name_on_connection(self->connection,
							OTA_BUS_NAME,
							G_BUS_NAME_WATCHER_FLAGS_NONE,
							fu_otattest_plugin_name_appeared_cb,
							fu_otattest_plugin_name_vanished_cb,
							self,
							NULL);
	return TRUE;
}

static void
fu_otattest_plugin_to_string(FuPlugin *plugin, guint idt, GString *str)
{
	FuOtattestPlugin *self = FU_OTATTEST_PLUGIN(plugin);
	fwupd_codec_string_append_int(str, idt, "Devices", g_hash_table_size(self->devices));
}

static void
fu_otattest_plugin_constructed(GObject *obj)
{
	FuPlugin *plugin = FU_PLUGIN(obj);
	fu_plugin_add_device_gtype(plugin, FU_TYPE_OTATTEST_DEVICE);
}

static void
fu_otattest_plugin_init(FuOtattestPlugin *self)
{
	self->devices = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_object_unref);
}

static void
fu_otattest_plugin_finalize(GObject *obj)
{
	FuOtattestPlugin *self = FU_OTATTEST_PLUGIN(obj);
	if (self->watch_id != 0)
		g_bus_unwatch_name(self->watch_id);
	if (self->props_changed_id != 0)
		g_dbus_connection_signal_unsubscribe(self->connection, self->props_changed_id);
	g_hash_table_unref(self->devices);
	g_clear_object(&self->connection);
	G_OBJECT_CLASS(fu_otattest_plugin_parent_class)->finalize(obj);
}

static void
fu_otattest_plugin_class_init(FuOtattestPluginClass *klass)
{
	FuPluginClass *plugin_class = FU_PLUGIN_CLASS(klass);
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	plugin_class->constructed = fu_otattest_plugin_constructed;
	object_class->finalize = fu_otattest_plugin_finalize;
	plugin_class->startup = fu_otattest_plugin_startup;
	plugin_class->coldplug = fu_otattest_plugin_coldplug;
	plugin_class->to_string = fu_otattest_plugin_to_string;
}
