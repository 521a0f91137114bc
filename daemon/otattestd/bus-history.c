// SPDX-License-Identifier: MIT
/*
 * Manager.GetHistory(s device, t since_usec, u limit) -> a(stay): the boot
 * history (history.h) from memory, never waiting on the device or the
 * disk. Each entry: the device name, when this daemon first saw the
 * record (CLOCK_REALTIME, microseconds) and the record's bytes, which the
 * caller validates and decodes as it does GetRecord's.
 */
#include <errno.h>
#include <string.h>

#include "args.h"
#include "history.h"
#include "manager.h"

static int append_entry(const struct history_entry *e, void *userdata)
{
	sd_bus_message *reply = userdata;
	int r;

	r = sd_bus_message_open_container(reply, 'r', "stay");
	if (r >= 0)
		r = sd_bus_message_append(reply, "st", e->device, e->seen_usec);
	if (r >= 0)
		r = sd_bus_message_append_array(reply, 'y', e->record, e->len);
	if (r >= 0)
		r = sd_bus_message_close_container(reply);
	return r;
}

int bus_method_get_history(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
	struct manager *m = userdata;
	const char *device;
	uint64_t since;
	uint32_t limit, index;
	struct ota_err e;
	int r;

	r = sd_bus_message_read(msg, "stu", &device, &since, &limit);
	if (r < 0)
		return r;
	/* "" is every device; anything else must be a device name (not one seen, though). */
	ota_err_clear(&e);
	if (*device && !args_parse_device_name(device, &index, &e))
		return ota_bus_error_set(error, &e);
	r = sd_bus_message_new_method_return(msg, &reply);
	if (r < 0)
		return r;
	r = sd_bus_message_open_container(reply, 'a', "(stay)");
	if (r < 0)
		return r;
	r = history_query(&m->history, device, since, limit, append_entry, reply);
	if (r < 0)
		return r;
	r = sd_bus_message_close_container(reply);
	if (r < 0)
		return r;
	return sd_bus_send(NULL, reply, NULL);
}
