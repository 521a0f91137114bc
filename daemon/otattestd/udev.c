// SPDX-License-Identifier: MIT
/*
 * Devices that come and go: enumerate the "otattest" class at start, then
 * follow uevents through sd-device. The netlink family's DEVICE_ADDED and
 * DEVICE_REMOVED events say the same thing; whichever arrives first wins
 * and the other is a no-op. What changed on a device comes through the
 * family's events (device_link.c); a "change" uevent, which the driver
 * sends for the same changes, refreshes the cache only while those events
 * cannot be received, so each change is acted on once.
 */
#include <errno.h>
#include <string.h>

#include "args.h"
#include "log.h"
#include "manager.h"

static struct device *device_for(struct manager *m, sd_device *dev, bool create)
{
	const char *sysname;
	struct ota_err e;
	uint32_t index;

	if (sd_device_get_sysname(dev, &sysname) < 0)
		return NULL;
	if (!args_parse_device_name(sysname, &index, &e)) {
		log_debug("ignoring %s in class otattest: %s", sysname, e.message);
		return NULL;
	}
	return create ? device_get(m, index) : device_find(m, index);
}

static int on_uevent(sd_device_monitor *mon, sd_device *dev, void *userdata)
{
	struct manager *m = userdata;
	sd_device_action_t action;
	struct device *d;

	if (sd_device_get_action(dev, &action) < 0)
		return 0;
	switch (action) {
	case SD_DEVICE_ADD:
	case SD_DEVICE_BIND:
		d = device_for(m, dev, true);
		if (!d)
			return 0;
		if (!transport_available(&m->transport))
			transport_resolve(&m->transport); /* the module was just loaded */
		device_set_present(d, true); /* refreshes a device that was not present */
		break;
	case SD_DEVICE_CHANGE:
		d = device_for(m, dev, true);
		if (!d)
			return 0;
		if (!d->present)
			device_set_present(d, true);
		else if (!transport_events_joined(&m->transport))
			device_refresh(d);
		break;
	case SD_DEVICE_REMOVE:
	case SD_DEVICE_UNBIND:
		d = device_for(m, dev, false);
		if (d)
			device_set_present(d, false);
		break;
	default:
		break;
	}
	return 0;
}

int udev_setup(struct manager *m)
{
	_cleanup_(sd_device_enumerator_unrefp) sd_device_enumerator *en = NULL;
	sd_device *dev;
	int r;

	r = sd_device_monitor_new(&m->monitor);
	if (r < 0)
		return log_error_errno(r, "cannot create the device monitor: %m");
	r = sd_device_monitor_filter_add_match_subsystem_devtype(m->monitor, "otattest", NULL);
	if (r < 0)
		return log_error_errno(r, "cannot filter the device monitor: %m");
	r = sd_device_monitor_attach_event(m->monitor, m->event);
	if (r < 0)
		return log_error_errno(r, "cannot attach the device monitor: %m");
	r = sd_device_monitor_start(m->monitor, on_uevent, m);
	if (r < 0)
		return log_error_errno(r, "cannot start the device monitor: %m");

	/* After the monitor started, so a device added meanwhile is not missed. */
	r = sd_device_enumerator_new(&en);
	if (r < 0)
		return log_error_errno(r, "cannot enumerate devices: %m");
	r = sd_device_enumerator_add_match_subsystem(en, "otattest", true);
	if (r < 0)
		return r;
	for (dev = sd_device_enumerator_get_device_first(en); dev;
	     dev = sd_device_enumerator_get_device_next(en)) {
		struct device *d = device_for(m, dev, true);

		if (d)
			device_set_present(d, true);
	}
	return 0;
}
