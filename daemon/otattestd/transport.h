/* SPDX-License-Identifier: MIT */
/*
 * The way to the kernel, as the rest of otattestd sees it: requests for a
 * device, whether the driver's family is there, whether its events come.
 * main.c plugs in the generic netlink client (genl.h); the unit tests plug
 * in a fake kernel of their own (tests/unit/bus/bus_fixture.c), an
 * explicit seam instead of a link-time override of genl.o's symbols.
 */
#ifndef OTATTESTD_TRANSPORT_H
#define OTATTESTD_TRANSPORT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "genl.h"

struct transport_ops {
	/* As genl_request: done() exactly once, from the loop, unless this fails. */
	int (*request)(void *impl, uint8_t cmd, uint32_t index, const struct genl_args *args,
		       uint64_t timeout_usec, genl_done_fn done, void *userdata);
	bool (*available)(const void *impl);     /* the driver's family is registered */
	bool (*events_joined)(const void *impl); /* its events group is joined */
	int (*resolve)(void *impl);              /* look for the family again now */
};

struct transport {
	const struct transport_ops *ops;
	void *impl;
};

/* The generic netlink client's (genl.c). */
extern const struct transport_ops genl_transport_ops;

static inline int transport_request(const struct transport *t, uint8_t cmd, uint32_t index,
				    const struct genl_args *args, uint64_t timeout_usec,
				    genl_done_fn done, void *userdata)
{
	return t->ops->request(t->impl, cmd, index, args, timeout_usec, done, userdata);
}

static inline bool transport_available(const struct transport *t)
{
	return t->ops && t->ops->available(t->impl);
}

static inline bool transport_events_joined(const struct transport *t)
{
	return t->ops && t->ops->events_joined(t->impl);
}

static inline int transport_resolve(const struct transport *t)
{
	return t->ops ? t->ops->resolve(t->impl) : -ENOENT;
}

#endif /* OTATTESTD_TRANSPORT_H */
