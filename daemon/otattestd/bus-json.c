// SPDX-License-Identifier: MIT
#include "bus-json.h"

#include <errno.h>
#include <string.h>

#include <otu/json.h>

#include "../common/macro.h"

static int read_basic(sd_bus_message *m, char type, struct json_object **out)
{
	union {
		uint8_t y;
		int b;
		int16_t n;
		uint16_t q;
		int32_t i;
		uint32_t u;
		int64_t x;
		uint64_t t;
		double d;
		const char *s;
		int h;
	} v;
	int r;

	r = sd_bus_message_read_basic(m, type, &v);
	if (r < 0)
		return r;
	switch (type) {
	case 'y': *out = json_object_new_uint64(v.y); break;
	case 'b': *out = json_object_new_boolean(v.b); break;
	case 'n': *out = json_object_new_int64(v.n); break;
	case 'q': *out = json_object_new_uint64(v.q); break;
	case 'i': *out = json_object_new_int64(v.i); break;
	case 'u': *out = json_object_new_uint64(v.u); break;
	case 'x': *out = json_object_new_int64(v.x); break;
	case 't': *out = json_object_new_uint64(v.t); break;
	case 'd': *out = json_object_new_double(v.d); break;
	case 's':
	case 'o':
	case 'g': *out = otu_json_string(v.s); break;
	default: return -EOPNOTSUPP; /* 'h': a descriptor means nothing in JSON */
	}
	return *out ? 0 : -ENOMEM;
}

/* The elements of the container m is in, as a JSON array. */
static int read_elements(sd_bus_message *m, struct json_object **out)
{
	struct json_object *arr = json_object_new_array();
	int r;

	if (!arr)
		return -ENOMEM;
	for (;;) {
		struct json_object *v = NULL;

		r = sd_bus_message_at_end(m, false);
		if (r != 0)
			break;
		r = bus_json_read_value(m, &v);
		if (r < 0)
			break;
		json_object_array_add(arr, v);
	}
	if (r < 0) {
		json_object_put(arr);
		return r;
	}
	*out = arr;
	return 0;
}

/* a{…} as an object: keys as strings (they are basic types). */
static int read_dict(sd_bus_message *m, const char *entry, struct json_object **out)
{
	struct json_object *obj = json_object_new_object();
	int r;

	if (!obj)
		return -ENOMEM;
	while ((r = sd_bus_message_enter_container(m, 'e', entry)) > 0) {
		struct json_object *k = NULL, *v = NULL;

		r = bus_json_read_value(m, &k);
		if (r >= 0)
			r = bus_json_read_value(m, &v);
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
		if (r < 0) {
			json_object_put(k);
			json_object_put(v);
			break;
		}
		json_object_object_add(obj, json_object_get_string(k), v);
		json_object_put(k);
	}
	if (r < 0) {
		json_object_put(obj);
		return r;
	}
	*out = obj;
	return 0;
}

int bus_json_read_value(sd_bus_message *m, struct json_object **out)
{
	const char *contents;
	char type;
	int r;

	r = sd_bus_message_peek_type(m, &type, &contents);
	if (r < 0)
		return r;
	if (r == 0)
		return -EBADMSG;
	if (!contents)
		return read_basic(m, type, out);
	if (type == 'a' && !strcmp(contents, "y")) {
		const void *p;
		size_t n;

		r = sd_bus_message_read_array(m, 'y', &p, &n);
		if (r < 0)
			return r;
		*out = otu_json_hex(p, n);
		return *out ? 0 : -ENOMEM;
	}
	r = sd_bus_message_enter_container(m, type, contents);
	if (r < 0)
		return r;
	if (type == 'a' && contents[0] == '{') {
		char entry[256];
		size_t len = strlen(contents);

		if (len < 2 || len - 2 >= sizeof(entry))
			return -EBADMSG;
		memcpy(entry, contents + 1, len - 2);
		entry[len - 2] = '\0';
		r = read_dict(m, entry, out);
	} else if (type == 'v') {
		r = bus_json_read_value(m, out);
	} else {
		r = read_elements(m, out); /* arrays and structs */
	}
	if (r < 0)
		return r;
	r = sd_bus_message_exit_container(m);
	if (r < 0) {
		json_object_put(*out);
		*out = NULL;
	}
	return r < 0 ? r : 0;
}

int bus_json_property(sd_bus *bus, const char *path, const char *interface, const char *property,
		      sd_bus_property_get_t get, void *userdata, struct json_object **out)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *m = NULL;
	sd_bus_error error = SD_BUS_ERROR_NULL;
	int r;

	r = sd_bus_message_new_signal(bus, &m, path, interface, property);
	if (r < 0)
		return r;
	r = get(bus, path, interface, property, m, userdata, &error);
	sd_bus_error_free(&error);
	if (r < 0)
		return r;
	/* Sealed, a message can be read from its start. */
	r = sd_bus_message_seal(m, 1, 0);
	if (r >= 0)
		r = sd_bus_message_rewind(m, true);
	if (r < 0)
		return r;
	return bus_json_read_value(m, out);
}
