// SPDX-License-Identifier: MIT
/*
 * A C client of otattestd on the code gdbus-codegen generates from the
 * shipped introspection XML (daemon/org.otattest.BootAttest1.xml; the
 * org.gtk.GDBus.C.ForceGVariant annotations make every byte array a
 * GVariant, so a nonce or evidence with zero bytes goes through whole).
 * Run by the e2e scenario dbus-clients; built by tests/e2e/build.mk.
 *
 *   otattest-gdbus-client describe           Device.Describe(), printed
 *   otattest-gdbus-client stages             the typed Stages, one line each
 *   otattest-gdbus-client history            GetHistory's first page, one entry a line
 *   otattest-gdbus-client attest NONCE OUT   Attest(nonce hex) -> evidence into OUT
 *   otattest-gdbus-client watch N READY      N RecordChanged signals, one line each;
 *                                            READY touched once subscribed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otattest-gdbus.h"

#define OTA_NAME "org.otattest.BootAttest1"
#define OTA_ROOT "/org/otattest/BootAttest1"

static int fail(const char *what, GError *error)
{
	fprintf(stderr, "otattest-gdbus-client: %s: %s\n", what, error ? error->message : "failed");
	g_clear_error(&error);
	return 1;
}

static GVariant *hex_to_bytes(const char *hex)
{
	size_t n = strlen(hex) / 2;
	guint8 *buf = g_malloc(n ? n : 1);
	GVariant *v;

	for (size_t i = 0; i < n; i++) {
		char byte[3] = { hex[2 * i], hex[2 * i + 1], 0 };
		buf[i] = (guint8)strtoul(byte, NULL, 16);
	}
	v = g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, buf, n, 1);
	g_free(buf);
	return v;
}

struct watch {
	GMainLoop *loop;
	int left;
};

static void on_record_changed(OtaDevice *dev, guint generation, gpointer data)
{
	struct watch *w = data;

	printf("RecordChanged generation=%u\n", generation);
	fflush(stdout);
	if (--w->left == 0)
		g_main_loop_quit(w->loop);
}

static gboolean watch_timeout(gpointer data)
{
	struct watch *w = data;

	fprintf(stderr, "otattest-gdbus-client: watch: %d signals still missing\n", w->left);
	g_main_loop_quit(w->loop);
	return G_SOURCE_REMOVE;
}

int main(int argc, char **argv)
{
	GError *error = NULL;
	OtaManager *manager;
	OtaDevice *device;
	const gchar *const *paths;
	const char *cmd = argc > 1 ? argv[1] : "";

	manager = ota_manager_proxy_new_for_bus_sync(G_BUS_TYPE_SYSTEM, G_DBUS_PROXY_FLAGS_NONE,
						     OTA_NAME, OTA_ROOT, NULL, &error);
	if (!manager)
		return fail("manager", error);
	paths = ota_manager_get_devices(manager);
	if (!paths || !paths[0])
		return fail("no otattest device", NULL);
	device = ota_device_proxy_new_for_bus_sync(G_BUS_TYPE_SYSTEM, G_DBUS_PROXY_FLAGS_NONE,
						   OTA_NAME, paths[0], NULL, &error);
	if (!device)
		return fail("device", error);

	if (strcmp(cmd, "describe") == 0) {
		gchar *json = NULL;
		if (!ota_device_call_describe_sync(device, &json, NULL, &error))
			return fail("Describe", error);
		printf("%s\n", json);
		g_free(json);
	} else if (strcmp(cmd, "stages") == 0) {
		GVariant *stages = ota_device_get_stages(device);
		GVariantIter iter;
		GVariant *stage;
		if (!stages)
			return fail("no Stages property", NULL);
		g_variant_iter_init(&iter, stages);
		while ((stage = g_variant_iter_next_value(&iter))) {
			const gchar *name = "", *slot = "";
			gboolean booted = FALSE;
			guint32 svn = 0;
			GVariant *meas;
			GVariantDict dict;
			g_variant_dict_init(&dict, stage);
			g_variant_dict_lookup(&dict, "stage", "&s", &name);
			g_variant_dict_lookup(&dict, "slot", "&s", &slot);
			g_variant_dict_lookup(&dict, "svn", "u", &svn);
			g_variant_dict_lookup(&dict, "booted", "b", &booted);
			meas = g_variant_dict_lookup_value(&dict, "measurement", G_VARIANT_TYPE_BYTESTRING);
			printf("stage=%s slot=%s svn=%u booted=%d measurement_bytes=%zu\n", name, slot, svn,
			       booted, meas ? g_variant_get_size(meas) : 0);
			if (meas)
				g_variant_unref(meas);
			g_variant_dict_clear(&dict);
			g_variant_unref(stage);
		}
	} else if (strcmp(cmd, "history") == 0) {
		GVariant *entries = NULL;
		guint64 next = 0;
		GVariantIter iter;
		GVariant *entry;
		if (!ota_manager_call_get_history_sync(manager, "", 0, 64, &entries, &next, NULL, &error))
			return fail("GetHistory", error);
		g_variant_iter_init(&iter, entries);
		while ((entry = g_variant_iter_next_value(&iter))) {
			gchar *s = g_variant_print(entry, FALSE);
			printf("%s\n", s);
			g_free(s);
			g_variant_unref(entry);
		}
		g_variant_unref(entries);
	} else if (strcmp(cmd, "attest") == 0 && argc == 4) {
		GVariant *evidence = NULL;
		gsize n = 0;
		const guint8 *bytes;
		FILE *f;
		if (!ota_device_call_attest_sync(device, hex_to_bytes(argv[2]), &evidence, NULL, &error))
			return fail("Attest", error);
		bytes = g_variant_get_fixed_array(evidence, &n, 1);
		f = fopen(argv[3], "wb");
		if (!f || fwrite(bytes, 1, n, f) != n || fclose(f) != 0)
			return fail(argv[3], NULL);
		printf("evidence %zu bytes for nonce %s\n", n, argv[2]);
		g_variant_unref(evidence);
	} else if (strcmp(cmd, "watch") == 0 && argc == 4) {
		struct watch w = { g_main_loop_new(NULL, FALSE), atoi(argv[2]) };
		FILE *ready;
		g_signal_connect(device, "record-changed", G_CALLBACK(on_record_changed), &w);
		/* the proxy's match rule is in the bus once a call has gone through */
		if (!g_dbus_connection_call_sync(g_dbus_proxy_get_connection(G_DBUS_PROXY(device)),
						 "org.freedesktop.DBus", "/org/freedesktop/DBus",
						 "org.freedesktop.DBus", "GetId", NULL, NULL,
						 G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error))
			return fail("GetId", error);
		ready = fopen(argv[3], "w");
		if (ready)
			fclose(ready);
		g_timeout_add_seconds(90, watch_timeout, &w);
		g_main_loop_run(w.loop);
		if (w.left > 0)
			return 1;
	} else {
		fprintf(stderr, "usage: otattest-gdbus-client describe|stages|history|attest NONCE OUT|watch N READY\n");
		return 2;
	}
	g_object_unref(device);
	g_object_unref(manager);
	return 0;
}
