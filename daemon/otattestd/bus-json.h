/* SPDX-License-Identifier: MIT */
/*
 * D-Bus values as JSON, for Describe() (as hostnamed's Describe) and for
 * telling which properties changed: a property's value is what its one
 * getter appends, rendered here, so Describe, PropertiesChanged and Get
 * can never disagree.
 *
 * Mapping: strings and object paths are JSON strings, booleans booleans,
 * integers numbers (all of uint64_t), `ay` a lowercase hex string, a
 * dictionary (`a{sv}`, `a{s…}`) an object, any other array or a struct a
 * JSON array, a variant its value.
 */
#ifndef OTATTESTD_BUS_JSON_H
#define OTATTESTD_BUS_JSON_H

#include <systemd/sd-bus.h>

struct json_object;

/* The next complete value of m as JSON; 0 with *out, or a negative errno. */
int bus_json_read_value(sd_bus_message *m, struct json_object **out);

/*
 * One property's value: get() appends it to a scratch message of bus,
 * which is read back as JSON. 0 with *out, or a negative errno.
 */
int bus_json_property(sd_bus *bus, const char *path, const char *interface, const char *property,
		      sd_bus_property_get_t get, void *userdata, struct json_object **out);

#endif /* OTATTESTD_BUS_JSON_H */
