// SPDX-License-Identifier: MIT
/*
 * otattestd on a private dbus-daemon with a fake kernel (bus/bus_fixture.h):
 * the API itself: introspection against the shipped XML, Describe,
 * properties and the record from the cache, PropertiesChanged, named
 * errors for bad arguments and kernel failures, the device going and
 * coming back, SIGTERM.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bus/bus_fixture.h"
#include "tu_json.h"
#include "tu_main.h"

/* sd-bus and sd-event callbacks, as the daemon they test (daemon/build.mk). */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/*
 * Annotations for code generators (org.gtk.GDBus.*) are in the shipped
 * XML only: the bus does not carry them. Drop them, and the <arg ...></arg>
 * they leave becomes the <arg .../> sd-bus writes.
 */
static void strip_codegen_annotations(char *x)
{
	static const char open_ann[] = "<annotationname=\"org.gtk.", empty_arg[] = "></arg>";
	char *p, *end;

	while ((p = strstr(x, open_ann))) {
		end = strstr(p, "/>");
		ck_assert_ptr_nonnull(end);
		memmove(p, end + 2, strlen(end + 2) + 1);
	}
	while ((p = strstr(x, empty_arg))) {
		memcpy(p, "/>", 2);
		memmove(p + 2, p + strlen(empty_arg), strlen(p + strlen(empty_arg)) + 1);
	}
}

/* The <interface> block for iface from an introspection document. */
static char *interface_block(const char *xml, const char *iface)
{
	char open_tag[160], *start, *end, *out, *w;
	const char *p;

	snprintf(open_tag, sizeof(open_tag), "<interface name=\"%s\">", iface);
	start = strstr(xml, open_tag);
	if (!start)
		return NULL;
	end = strstr(start, "</interface>");
	if (!end)
		return NULL;
	end += strlen("</interface>");
	out = malloc((size_t)(end - start) + 1);
	/* Whitespace-insensitive: drop it all outside attribute values. */
	for (p = start, w = out; p < end; p++) {
		bool in_quote = false;
		const char *q;

		for (q = start; q < p; q++)
			if (*q == '"')
				in_quote = !in_quote;
		if (!in_quote && (*p == ' ' || *p == '\n' || *p == '\t'))
			continue;
		*w++ = *p;
	}
	*w = '\0';
	strip_codegen_annotations(out);
	return out;
}

/* Name the first difference briefly (check's messages are bounded). */
static void assert_same_xml(const char *live, const char *stored, const char *iface, const char *file)
{
	size_t i = 0, from;

	while (live[i] && live[i] == stored[i])
		i++;
	if (!live[i] && !stored[i])
		return;
	from = i > 40 ? i - 40 : 0;
	ck_abort_msg("%s: live differs from %s at byte %zu: live \"%.80s\" stored \"%.80s\"", iface,
		     file, i, live + from, stored + from);
}

static char *introspect(sd_bus *bus, const char *path)
{
	sd_bus_message *reply = NULL;
	const char *xml;
	char *copy;

	ck_assert_int_ge(sd_bus_call_method(bus, OTA_BUS_NAME, path, "org.freedesktop.DBus.Introspectable",
					    "Introspect", NULL, &reply, NULL), 0);
	ck_assert_int_ge(sd_bus_message_read(reply, "s", &xml), 0);
	copy = strdup(xml);
	sd_bus_message_unref(reply);
	return copy;
}

START_TEST(introspection_matches_xml)
{
	const char *file = getenv("OTATTEST_XML") ? getenv("OTATTEST_XML") : "daemon/org.otattest.BootAttest1.xml";
	char *live_dev, *live_mgr, *stored = NULL, *a, *b;
	uint8_t *buf;
	FILE *f;
	long n;

	go();
	live_dev = introspect(client, DEV_PATH);
	live_mgr = introspect(client, OTA_BUS_ROOT_PATH);
	if (getenv("OTATTEST_DUMP_XML")) {
		printf("%s\n%s\n", live_mgr, live_dev);
		fflush(stdout);
	}
	f = fopen(file, "r");
	ck_assert_msg(f != NULL, "cannot open %s", file);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	stored = (char *)buf;

	a = interface_block(live_dev, OTA_BUS_DEVICE_IFACE);
	b = interface_block(stored, OTA_BUS_DEVICE_IFACE);
	ck_assert_ptr_nonnull(a);
	ck_assert_msg(b != NULL, "%s lacks interface %s", file, OTA_BUS_DEVICE_IFACE);
	assert_same_xml(a, b, OTA_BUS_DEVICE_IFACE, file);
	free(a);
	free(b);
	a = interface_block(live_mgr, OTA_BUS_MANAGER_IFACE);
	b = interface_block(stored, OTA_BUS_MANAGER_IFACE);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	assert_same_xml(a, b, OTA_BUS_MANAGER_IFACE, file);
	ck_assert_ptr_nonnull(strstr(live_mgr, "org.freedesktop.DBus.ObjectManager"));
	free(a);
	free(b);
	free(live_dev);
	free(live_mgr);
	free(stored);
	finish();
}
END_TEST

START_TEST(properties_and_record_from_cache)
{
	sd_bus_message *reply = NULL;
	struct ota_record want;
	uint32_t want_len, u;
	const void *p;
	size_t n;
	char *s = NULL;

	go();
	build_record(&want, &want_len, 4, 1);
	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "Generation", NULL, 'u', &u), 0);
	ck_assert_uint_eq(u, 4);
	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "MinSvn", NULL, 'u', &u), 0);
	ck_assert_uint_eq(u, 3);
	ck_assert_int_ge(sd_bus_get_property_string(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						    "Lifecycle", NULL, &s), 0);
	ck_assert_str_eq(s, "prod");
	free(s);

	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "GetRecord", NULL, &reply, NULL), 0);
	ck_assert_int_ge(sd_bus_message_read_array(reply, 'y', &p, &n), 0);
	ck_assert_uint_eq(n, want_len);
	ck_assert_int_eq(memcmp(p, &want, n), 0);
	sd_bus_message_unref(reply);

	/* Stages: two dictionaries with the key ids of each chain. */
	reply = NULL;
	ck_assert_int_ge(sd_bus_get_property(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Stages",
					     NULL, &reply, "a" OTA_BUS_DICT_SIG), 0);
	ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', OTA_BUS_DICT_SIG), 0);
	for (u = 0; u < 2; u++) {
		uint32_t svn = 0, depth = 99;
		unsigned keys = 0;
		const char *stage = NULL, *path = NULL;
		struct dict_bytes meas = { 0 };
		const struct dict_field fields[] = {
			{ "stage", "s", &stage },	 { "path", "s", &path },
			{ "svn", "u", &svn },		 { "delegation_depth", "u", &depth },
			{ "measurement", "ay", &meas }, { "key_ids", "aay", &keys },
		};

		ck_assert_int_gt(read_dict(reply, fields, sizeof(fields) / sizeof(fields[0])), 0);
		ck_assert_str_eq(stage, u ? "bl0" : "rom_ext");
		ck_assert_str_eq(path, "tag");
		ck_assert_uint_eq(svn, 2 + u);
		ck_assert_uint_eq(meas.len, 32);
		ck_assert_uint_eq(keys, depth + 1);
	}
	sd_bus_message_unref(reply);
	finish();
}
END_TEST

START_TEST(bad_arguments_get_named_errors)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char *name;

	go();
	name = attest(client, 15, 1);
	ck_assert_str_eq(name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	free(name);
	name = attest(client, 65, 1);
	ck_assert_str_eq(name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	free(name);
	/* Wrong signature: sd-bus's own check, the standard error. */
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Attest",
					    &e, NULL, "s", "0123456789abcdef"), 0);
	ck_assert_str_eq(e.name, SD_BUS_ERROR_INVALID_ARGS);
	sd_bus_error_free(&e);
	{
		sd_bus_message *call = NULL;

		ck_assert_int_ge(sd_bus_message_new_method_call(client, &call, OTA_BUS_NAME, DEV_PATH,
								OTA_BUS_DEVICE_IFACE, "SignWithStableKey"), 0);
		ck_assert_int_ge(sd_bus_message_append_array(call, 'y', "0123456789abcdef", 16), 0);
		ck_assert_int_ge(sd_bus_message_append(call, "u", 256), 0);
		ck_assert_int_lt(sd_bus_call(client, call, 0, &e, NULL), 0);
		sd_bus_message_unref(call);
	}
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	sd_bus_error_free(&e);
	/* A stable-key message of 15 and of 65 bytes, with a valid SVN. */
	for (size_t len = 15; len <= 65; len += 50) {
		static const uint8_t msg[65];
		sd_bus_message *call = NULL;

		ck_assert_int_ge(sd_bus_message_new_method_call(client, &call, OTA_BUS_NAME, DEV_PATH,
								OTA_BUS_DEVICE_IFACE, "SignWithStableKey"), 0);
		ck_assert_int_ge(sd_bus_message_append_array(call, 'y', msg, len), 0);
		ck_assert_int_ge(sd_bus_message_append(call, "u", 0), 0);
		ck_assert_int_lt(sd_bus_call(client, call, 0, &e, NULL), 0);
		sd_bus_message_unref(call);
		ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
		sd_bus_error_free(&e);
	}
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "UpdateReset", &e, NULL, "u", 7), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	sd_bus_error_free(&e);
	/* Unknown device, by name and by path. */
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
					    "GetDevice", &e, NULL, "s", "otattest9"), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "NoSuchDevice");
	sd_bus_error_free(&e);
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
					    "GetDevice", &e, NULL, "s", "../../etc"), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "NoSuchDevice");
	sd_bus_error_free(&e);
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, OTA_BUS_DEVICE_PREFIX "/otattest9",
					    OTA_BUS_DEVICE_IFACE, "GetRecord", &e, NULL, NULL), 0);
	ck_assert_str_eq(e.name, SD_BUS_ERROR_UNKNOWN_OBJECT);
	sd_bus_error_free(&e);
	/* And it keeps serving: the fake kernel saw no nonce out of bounds. */
	ck_assert_ptr_null(attest(client, 16, 2));
	ck_assert_ptr_null(attest(client, 64, 3));
	finish();
}
END_TEST

START_TEST(kernel_errors_keep_their_meaning)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;

	fail_command(OTATTEST_CMD_GET_CERTS, EKEYREJECTED, OTA_SIG_ECDSA_INVALID,
		     ota_status_message(OTA_SIG_ECDSA_INVALID));
	fail_command(OTATTEST_CMD_ATTEST, ETIMEDOUT, OTA_HOST_TIMEOUT,
		     ota_status_message(OTA_HOST_TIMEOUT));
	go();
	ck_assert_int_lt(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "GetCertificates", &e, NULL, NULL), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "VerificationFailed");
	ck_assert_str_eq(e.message, ota_status_message(OTA_SIG_ECDSA_INVALID));
	sd_bus_error_free(&e);
	ck_assert_int_lt(call_bytes(client, "Attest", "0123456789abcdef", 16, &e, NULL), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "Timeout");
	sd_bus_error_free(&e);
	finish();
}
END_TEST

/*
 * The kernel answers HOST_NO_DEVICE when the device went away between the
 * daemon's last look and the request (found by make soak, which unplugs
 * the device under load): a known object's device is absent, which is
 * DeviceUnavailable; NoSuchDevice is for names that never were devices.
 * The status decides, from the extack cookie: the message is another.
 */
START_TEST(device_gone_under_a_request_is_unavailable)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;

	fail_command(OTATTEST_CMD_ATTEST, ENODEV, OTA_HOST_NO_DEVICE, "no such device, in other words");
	go();
	ck_assert_int_lt(call_bytes(client, "Attest", "0123456789abcdef", 16, &e, NULL), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "DeviceUnavailable");
	ck_assert_ptr_nonnull(strstr(e.message, "otattest0 went away"));
	sd_bus_error_free(&e);
	finish();
}
END_TEST

static char *describe(const char *path, const char *iface)
{
	sd_bus_message *reply = NULL;
	const char *json;
	char *copy;

	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, path, iface, "Describe", NULL, &reply,
					    NULL), 0);
	ck_assert_int_ge(sd_bus_message_read(reply, "s", &json), 0);
	copy = strdup(json);
	sd_bus_message_unref(reply);
	return copy;
}

/* Describe(): every property as JSON, the manager's holding each device's. */
START_TEST(describe_is_json_of_every_property)
{
	struct json_object *doc, *devs, *dev, *v, *stages, *one;
	char *mgr, *own;

	go();
	mgr = describe(OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE);
	doc = tu_json_parse_strict(mgr);
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_is_type(tu_json_member(doc, "Version"), json_type_string));
	devs = tu_json_member(doc, "Devices");
	ck_assert_uint_eq(json_object_array_length(devs), 1);
	dev = json_object_array_get_idx(devs, 0);
	ck_assert_str_eq(json_object_get_string(tu_json_member(dev, "Name")), "otattest0");
	ck_assert_int_eq(json_object_get_int64(tu_json_member(dev, "Generation")), 4);
	v = tu_json_member(dev, "RecordValid");
	ck_assert(json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v));
	/* Bytes as hex: all 16 of the device id, its last one 0x11. */
	v = tu_json_member(dev, "DeviceId");
	ck_assert_uint_eq(strlen(json_object_get_string(v)), 32);
	ck_assert_str_eq(json_object_get_string(v) + 30, "11");
	stages = tu_json_member(dev, "Stages");
	ck_assert_uint_eq(json_object_array_length(stages), 2);
	one = json_object_array_get_idx(stages, 1);
	ck_assert_str_eq(json_object_get_string(tu_json_member(one, "stage")), "bl0");
	ck_assert_uint_eq(json_object_array_length(tu_json_member(one, "key_ids")), 2);
	ck_assert(json_object_is_type(tu_json_member(dev, "Slots"), json_type_array));
	/* The device's own Describe is the same object. */
	own = describe(DEV_PATH, OTA_BUS_DEVICE_IFACE);
	ck_assert_str_eq(own, json_object_to_json_string_ext(dev, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	free(mgr);
	free(own);
	finish();
}
END_TEST

struct changed_props {
	int signals;
	char names[64][32];
	int n;
};

static int on_props_changed(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct changed_props *c = userdata;
	const char *iface, *name;

	c->signals++;
	ck_assert_int_ge(sd_bus_message_read(m, "s", &iface), 0);
	ck_assert_int_ge(sd_bus_message_enter_container(m, 'a', "{sv}"), 0);
	while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
		ck_assert_int_ge(sd_bus_message_read(m, "s", &name), 0);
		ck_assert_int_lt(c->n, 64);
		snprintf(c->names[c->n++], sizeof(c->names[0]), "%s", name);
		ck_assert_int_ge(sd_bus_message_skip(m, "v"), 0);
		ck_assert_int_ge(sd_bus_message_exit_container(m), 0);
	}
	return 0;
}

/*
 * PropertiesChanged names what changed, nothing else: the record moving
 * on within one boot changes Generation alone; a reboot with a tag
 * mismatch changes the stages, the generation and the counter, not the
 * device id, lifecycle or floors.
 */
START_TEST(properties_changed_names_only_what_changed)
{
	struct changed_props c = { 0 };
	int i;
	bool stages = false, mismatches = false;

	go();
	ck_assert_int_ge(sd_bus_match_signal(client, NULL, OTA_BUS_NAME, DEV_PATH,
					     "org.freedesktop.DBus.Properties", "PropertiesChanged",
					     on_props_changed, &c), 0);
	kill(server_pid, SIGURG);
	pump_until_generation(5);
	ck_assert_int_eq(c.signals, 1);
	ck_assert_int_eq(c.n, 1);
	ck_assert_str_eq(c.names[0], "Generation");

	memset(&c, 0, sizeof(c));
	kill(server_pid, SIGWINCH);
	pump_until_generation(6);
	ck_assert_int_ge(c.signals, 1);
	for (i = 0; i < c.n; i++) {
		ck_assert_str_ne(c.names[i], "DeviceId");
		ck_assert_str_ne(c.names[i], "Lifecycle");
		ck_assert_str_ne(c.names[i], "FloorBl0");
		ck_assert_str_ne(c.names[i], "State");
		stages |= !strcmp(c.names[i], "Stages");
		mismatches |= !strcmp(c.names[i], "TagMismatches");
	}
	ck_assert(stages);
	ck_assert(mismatches);
	finish();
}
END_TEST

static bool absent(sd_bus *bus)
{
	char *state = NULL;
	bool r;

	if (sd_bus_get_property_string(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "State", NULL,
				       &state) < 0)
		return false;
	r = strcmp(state, OTA_STATE_ABSENT) == 0;
	free(state);
	return r;
}

START_TEST(device_removed_and_readded)
{
	char *name;
	int b;

	go();
	kill(server_pid, SIGUSR1);
	wait_until(client, absent);
	name = attest(client, 16, 1);
	ck_assert_ptr_nonnull(name);
	ck_assert_str_eq(name, OTA_BUS_ERROR_PREFIX "DeviceUnavailable");
	free(name);
	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "RecordValid", NULL, 'b', &b), 0);
	ck_assert(!b);
	kill(server_pid, SIGUSR2);
	wait_until(client, ready);
	ck_assert_ptr_null(attest(client, 16, 1));
	finish();
}
END_TEST

START_TEST(sigterm_answers_accepted_calls)
{
	struct replies rep = { 0 };
	sd_bus_message *call;
	int status;

	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 800000;
	go();
	call = new_attest(client, 16);
	ck_assert_int_ge(sd_bus_call_async(client, NULL, call, on_reply, &rep, 5000000), 0);
	sd_bus_message_unref(call);
	sd_bus_flush(client);
	usleep(200000);
	kill(server_pid, SIGTERM); /* while the "kernel" works on it */
	pump(client, &rep, 1, 4000);
	ck_assert_msg(rep.ok == 1, "the accepted call was not answered (error %s)", rep.last_error);
	/* Then it exits by itself, cleanly, having given up its name. */
	waitpid(server_pid, &status, 0);
	server_pid = 0;
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert(!name_has_owner(client));
	finish();
}
END_TEST

BUS_TEST_MAIN("daemon_bus_api",
	      introspection_matches_xml,
	      properties_and_record_from_cache,
	      bad_arguments_get_named_errors,
	      kernel_errors_keep_their_meaning,
	      device_gone_under_a_request_is_unavailable,
	      describe_is_json_of_every_property,
	      properties_changed_names_only_what_changed,
	      device_removed_and_readded,
	      sigterm_answers_accepted_calls)
