// SPDX-License-Identifier: MIT
/*
 * Manager.GetHistory(s device, t since_usec, u count) -> (aa{sv} entries,
 * t next_since_usec): the boot history (history.h) from memory, a page at
 * a time, never waiting on the device or the disk. Each entry is a
 * dictionary (bus-record.c): the device, when this daemon first saw the
 * record (CLOCK_REALTIME, microseconds), its main numbers, its stages as
 * Stages types them, and the record's bytes, which a verifier validates
 * and decodes as it does GetRecord's. A page holds at most
 * HISTORY_PAGE_MAX entries; next_since_usec is the since_usec of the
 * next page, 0 when there is none. Pages are rate-limited per user
 * (clients.h, CLIENT_REQ_HISTORY).
 */
#include <errno.h>
#include <string.h>

#include "args.h"
#include "history.h"
#include "manager.h"

static int append_entry(const struct history_entry *e, void *userdata)
{
	return bus_append_history_entry(userdata, e);
}

int bus_method_get_history(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
	struct manager *m = userdata;
	const char *device;
	uint64_t since, next = 0;
	uint32_t count, index;
	struct client *client;
	struct ota_err e;
	uid_t uid;
	int r;

	r = sd_bus_message_read(msg, "stu", &device, &since, &count);
	if (r < 0)
		return r;
	/* "" is every device; anything else must be a device name (not one seen, though). */
	ota_err_clear(&e);
	if (*device && !args_parse_device_name(device, &index, &e))
		return ota_bus_error_set(error, &e);
	if (count == 0 || count > HISTORY_PAGE_MAX)
		count = HISTORY_PAGE_MAX;
	/*
	 * A page is up to 64 records (about 80 KB) for a 60-byte call: each
	 * user gets pages at a bounded rate (Busy beyond, with when to retry),
	 * in its class's share of the client table.
	 */
	r = peer_uid(&m->peers, msg, &uid);
	if (r < 0) {
		ota_err_set_statusf(&e, OTA_HOST_PERMISSION, "the bus would not say who is calling: %s",
				    strerror(-r));
		return ota_bus_error_set(error, &e);
	}
	if (!call_admit(m, msg, uid, CLIENT_REQ_HISTORY, &client, &e)) {
		m->requests_refused++;
		return ota_bus_error_set(error, &e);
	}
	r = sd_bus_message_new_method_return(msg, &reply);
	if (r < 0)
		return r;
	r = sd_bus_message_open_container(reply, 'a', OTA_BUS_DICT_SIG);
	if (r < 0)
		return r;
	r = history_query(&m->history, device, since, count, append_entry, reply, &next);
	if (r < 0)
		return r;
	r = sd_bus_message_close_container(reply);
	if (r >= 0)
		r = sd_bus_message_append(reply, "t", next);
	if (r < 0)
		return r;
	return sd_bus_send(NULL, reply, NULL);
}
