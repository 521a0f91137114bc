// SPDX-License-Identifier: MIT
/*
 * The D-Bus side: requests to otattestd exactly as any client makes them,
 * one sd-bus connection per client, synchronous calls (a client waits for
 * its answer before it asks again, as otattestctl does).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <otattest/record.h>

#include "../../../daemon/common/dbus-api.h"
#include "loadgen.h"

#define DEVICE_PATH OTA_BUS_DEVICE_PREFIX "/otattest0"

/* RotateTags re-verifies every stage: give it the daemon's admin deadline. */
#define ROTATE_TIMEOUT_USEC (150ull * 1000000ull)

int lg_bus_open(struct lg_client *c)
{
	const char *unique;
	int r = sd_bus_open_system(&c->bus);

	/*
	 * sd-bus authenticates lazily, at the first call: a client that waits
	 * longer than the bus's auth_timeout (dbus-daemon: 30 s) before it
	 * (the soak's rotator, with its think time) is closed unauthenticated
	 * and then fails every call with ENOTCONN. Asking for the unique name
	 * finishes the authentication and Hello now.
	 */
	if (r >= 0)
		r = sd_bus_get_unique_name(c->bus, &unique);
	if (r < 0) {
		fprintf(stderr, "otattest-loadgen: client %u: cannot connect to the system bus: %s\n",
			c->index, strerror(-r));
		c->bus = sd_bus_flush_close_unref(c->bus);
		return -1;
	}
	return 0;
}

void lg_bus_close(struct lg_client *c)
{
	c->bus = sd_bus_flush_close_unref(c->bus);
	free(c->evidence);
	c->evidence = NULL;
}

/* Record why a call failed: the D-Bus error's name, or a local reason. */
static int fail(struct lg_client *c, int r, const sd_bus_error *e)
{
	if (e && sd_bus_error_is_set(e)) {
		snprintf(c->err_name, sizeof(c->err_name), "%s", e->name);
		snprintf(c->err_msg, sizeof(c->err_msg), "%s", e->message ? e->message : "");
	} else {
		snprintf(c->err_name, sizeof(c->err_name), "local:%s", strerror(r < 0 ? -r : EIO));
		c->err_msg[0] = '\0';
	}
	return -1;
}

int lg_op_ping(struct lg_client *c)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL;
	int r;

	/* org.freedesktop.DBus.Peer is answered by sd-bus inside otattestd:
	 * the round trip through the bus with nothing behind it. */
	r = sd_bus_call_method(c->bus, OTA_BUS_NAME, DEVICE_PATH, "org.freedesktop.DBus.Peer",
			       "Ping", &e, &m, "");
	if (r < 0)
		r = fail(c, r, &e);
	sd_bus_message_unref(m);
	sd_bus_error_free(&e);
	return r < 0 ? -1 : 0;
}

int lg_op_property(struct lg_client *c)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char *state = NULL;
	int r;

	r = sd_bus_get_property_string(c->bus, OTA_BUS_NAME, DEVICE_PATH, OTA_BUS_DEVICE_IFACE,
				       "State", &e, &state);
	if (r < 0)
		r = fail(c, r, &e);
	else if (!state[0])
		r = fail(c, -EBADMSG, NULL);
	free(state);
	sd_bus_error_free(&e);
	return r < 0 ? -1 : 0;
}

int lg_op_stages(struct lg_client *c)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL;
	unsigned n = 0;
	int r;

	r = sd_bus_get_property(c->bus, OTA_BUS_NAME, DEVICE_PATH, OTA_BUS_DEVICE_IFACE, "Stages",
				&e, &m, "a" OTA_BUS_DICT_SIG);
	if (r < 0) {
		r = fail(c, r, &e);
		goto out;
	}
	/* Every stage's dictionary, decoded. Empty is a right answer too: it is
	 * what the property reads while the device has no valid record
	 * (absent, re-plugged, booting), which the soak provokes. */
	r = sd_bus_message_enter_container(m, 'a', OTA_BUS_DICT_SIG);
	while (r >= 0) {
		r = sd_bus_message_skip(m, OTA_BUS_DICT_SIG);
		if (r <= 0)
			break;
		n++;
	}
	if (r < 0 || n > OTA_RECORD_MAX_STAGES)
		r = fail(c, r < 0 ? r : -EBADMSG, NULL);
out:
	sd_bus_message_unref(m);
	sd_bus_error_free(&e);
	return r < 0 ? -1 : 0;
}

int lg_op_record(struct lg_client *c)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL;
	const void *rec;
	size_t len = 0;
	int r;

	r = sd_bus_call_method(c->bus, OTA_BUS_NAME, DEVICE_PATH, OTA_BUS_DEVICE_IFACE, "GetRecord",
			       &e, &m, "");
	if (r < 0) {
		r = fail(c, r, &e);
		goto out;
	}
	r = sd_bus_message_read_array(m, 'y', &rec, &len);
	/* A record that does not validate is a wrong answer, not an error. */
	if (r < 0 || len > UINT32_MAX || ota_record_validate(rec, (uint32_t)len) != OTA_OK) {
		snprintf(c->err_name, sizeof(c->err_name), "wrong:record");
		snprintf(c->err_msg, sizeof(c->err_msg), "GetRecord returned %zu bytes that do not validate",
			 len);
		r = -1;
	}
out:
	sd_bus_message_unref(m);
	sd_bus_error_free(&e);
	return r < 0 ? -1 : 0;
}

int lg_op_attest(struct lg_client *c)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *call = NULL, *m = NULL;
	const void *ev;
	size_t len = 0;
	int r;

	/* A fresh nonce every time, as a verifier would send. */
	if (getrandom(c->nonce, sizeof(c->nonce), 0) != (ssize_t)sizeof(c->nonce))
		return fail(c, -errno, NULL);
	r = sd_bus_message_new_method_call(c->bus, &call, OTA_BUS_NAME, DEVICE_PATH,
					   OTA_BUS_DEVICE_IFACE, "Attest");
	if (r >= 0)
		r = sd_bus_message_append_array(call, 'y', c->nonce, sizeof(c->nonce));
	if (r < 0) {
		r = fail(c, r, NULL);
		goto out;
	}
	r = sd_bus_call(c->bus, call, 0, &e, &m);
	if (r < 0) {
		r = fail(c, r, &e);
		goto out;
	}
	r = sd_bus_message_read_array(m, 'y', &ev, &len);
	if (r < 0 || len == 0) {
		r = fail(c, r < 0 ? r : -EBADMSG, NULL);
		goto out;
	}
	free(c->evidence);
	c->evidence = malloc(len);
	if (!c->evidence) {
		r = fail(c, -ENOMEM, NULL);
		goto out;
	}
	memcpy(c->evidence, ev, len);
	c->evidence_len = len;
out:
	sd_bus_message_unref(call);
	sd_bus_message_unref(m);
	sd_bus_error_free(&e);
	return r < 0 ? -1 : 0;
}

int lg_op_rotate(struct lg_client *c)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *call = NULL, *m = NULL;
	uint32_t old_kv, new_kv, n;
	int r;

	r = sd_bus_message_new_method_call(c->bus, &call, OTA_BUS_NAME, DEVICE_PATH,
					   OTA_BUS_DEVICE_IFACE, "RotateTags");
	if (r < 0)
		return fail(c, r, NULL);
	r = sd_bus_call(c->bus, call, ROTATE_TIMEOUT_USEC, &e, &m);
	if (r < 0) {
		r = fail(c, r, &e);
		goto out;
	}
	r = sd_bus_message_read(m, "uuu", &old_kv, &new_kv, &n);
	if (r < 0) {
		r = fail(c, r, NULL);
	} else if (new_kv != old_kv + 1) {
		snprintf(c->err_name, sizeof(c->err_name), "wrong:rotate");
		snprintf(c->err_msg, sizeof(c->err_msg), "RotateTags went from key version %u to %u",
			 old_kv, new_kv);
		r = -1;
	}
out:
	sd_bus_message_unref(call);
	sd_bus_message_unref(m);
	sd_bus_error_free(&e);
	return r < 0 ? -1 : 0;
}

int lg_bus_wait_name(const char *name, double secs)
{
	uint64_t deadline = lg_now_ns() + (uint64_t)(secs * 1e9);
	sd_bus *bus = NULL;
	int r;

	r = sd_bus_open_system(&bus);
	if (r < 0)
		return -1;
	do {
		sd_bus_error e = SD_BUS_ERROR_NULL;
		sd_bus_message *m = NULL;
		int has = 0;

		r = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
				       "org.freedesktop.DBus", "NameHasOwner", &e, &m, "s", name);
		if (r >= 0 && sd_bus_message_read(m, "b", &has) >= 0 && has)
			r = 1;
		else
			r = 0;
		sd_bus_message_unref(m);
		sd_bus_error_free(&e);
		if (r == 1)
			break;
		usleep(100000);
	} while (lg_now_ns() < deadline);
	sd_bus_flush_close_unref(bus);
	return r == 1 ? 0 : -1;
}
