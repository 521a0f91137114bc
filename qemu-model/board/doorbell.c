// SPDX-License-Identifier: MIT
/*
 * The device's doorbells: a guest rings vector v at the device peer by
 * writing the device's eventfd for v (QEMU does it for a Doorbell
 * register write). Vector 0 means "a request is in the request region";
 * vector 1 has no meaning for the device. Whoever runs the device reads
 * these: the whole model on the eventfds it made, a split model's device
 * process on the copies its server handed it.
 */
#include "model.h"

static int on_device_doorbell(sd_event_source *src, int fd, uint32_t revents, void *userdata)
{
	struct model *m = userdata;
	unsigned vector = fd == m->server.device.eventfd[OTA_VEC_MAILBOX] ? OTA_VEC_MAILBOX
									    : OTA_VEC_EVENT;
	uint64_t rings;

	(void)src;
	(void)revents;
	rings = peer_drain(fd);
	if (rings == 0)
		return 0;
	if (vector != OTA_VEC_MAILBOX) {
		/* The device has no meaning for this vector; say so and move on. */
		log_warn("doorbell-unexpected", "vector=%u rings=%llu", vector,
			 (unsigned long long)rings);
		return 0;
	}
	if (rings > 1)
		log_debug("doorbell-coalesced", "rings=%llu", (unsigned long long)rings);
	mbox_doorbell(m);
	return 0;
}

int doorbell_watch(struct model *m)
{
	int r;

	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		r = sd_event_add_io(m->event, &m->server.device_src[v], m->server.device.eventfd[v],
				    EPOLLIN, on_device_doorbell, m);
		if (r < 0)
			return r;
	}
	return 0;
}

void doorbell_unwatch(struct model *m)
{
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++)
		m->server.device_src[v] = sd_event_source_disable_unref(m->server.device_src[v]);
}
