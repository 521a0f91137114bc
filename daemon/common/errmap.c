// SPDX-License-Identifier: MIT
#include "errmap.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dbus-api.h"

void ota_err_clear(struct ota_err *e)
{
	e->cls = OTA_CLASS_OK;
	e->status = 0;
	e->message[0] = '\0';
}

void ota_err_set_status(struct ota_err *e, ota_status_t s)
{
	const char *msg = ota_status_message(s);

	if (!msg) {
		/* Not one of ours: say so rather than guess a meaning. */
		e->cls = OTA_CLASS_PROTOCOL;
		e->status = 0;
		snprintf(e->message, sizeof(e->message),
			 "the device returned an unknown status 0x%06x", (unsigned)s);
		return;
	}
	e->cls = ota_status_class(s);
	e->status = s;
	snprintf(e->message, sizeof(e->message), "%s", msg);
}

void ota_err_set_statusf(struct ota_err *e, ota_status_t s, const char *fmt, ...)
{
	va_list ap;

	ota_err_set_status(e, s);
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
}

uint32_t ota_errno_class(int err)
{
	if (err < 0)
		err = -err;
	if (err == 0)
		return OTA_CLASS_OK;
#define OTA_X_ERRNO_CLASS(name, num, errv, dbus, exitc) \
	if ((errv) != 0 && err == (errv))              \
		return num;
	OTA_CLASS_LIST(OTA_X_ERRNO_CLASS)
#undef OTA_X_ERRNO_CLASS
	/* errnos generic netlink itself produces, outside the class table. */
	switch (err) {
	case ENOENT:
		return OTA_CLASS_NOT_FOUND; /* no such family, command or device */
	case EOPNOTSUPP:
	case EAFNOSUPPORT:
		return OTA_CLASS_PROTOCOL;
	case EAGAIN:
	case EINTR:
	case ENOBUFS:
		return OTA_CLASS_BUSY;
	case ENOMEM:
	case EMSGSIZE:
		return OTA_CLASS_INTERNAL;
	case ESHUTDOWN:
	case ENXIO:
		return OTA_CLASS_UNAVAILABLE;
	}
	return OTA_CLASS_PROTOCOL;
}

void ota_err_from_netlink(struct ota_err *e, int err, ota_status_t status, const char *extack)
{
	if (err < 0)
		err = -err;
	if (status != 0) {
		/*
		 * The exact status, from the extack cookie. It must be a failure
		 * whose class the errno is, or the two halves of the error
		 * disagree and neither can be believed.
		 */
		if (!ota_status_message(status)) {
			ota_err_set_status(e, status); /* says "unknown status" */
		} else if (status == OTA_OK || ota_status_errno(status) != err) {
			ota_err_set_statusf(e, OTA_HOST_PROTOCOL,
					    "the kernel sent status 0x%06x with errno %d, not its class's",
					    (unsigned)status, err);
		} else {
			ota_err_set_status(e, status);
		}
		return;
	}
	/* No status: a failure of the request itself (policy, selector, ...). */
	e->cls = ota_errno_class(err);
	e->status = 0;
	if (extack && *extack)
		snprintf(e->message, sizeof(e->message), "%s", extack);
	else
		snprintf(e->message, sizeof(e->message), "kernel: %s", strerror(err));
}

/*
 * One entry per class, indexed by the class number, from OTA_CLASS_LIST.
 * The OK class (number 0, errno 0) is not an error: the map handed to
 * sd-bus starts at entry 1 (sd-bus demands a positive errno).
 */
#define OTA_X_COUNT(name, num, errv, dbus, exitc) +1
enum { OTA_CLASS_COUNT = 0 OTA_CLASS_LIST(OTA_X_COUNT) };
#undef OTA_X_COUNT
_Static_assert(OTA_CLASS_OK == 0, "the class map skips entry 0, the OK class");

static const sd_bus_error_map class_map[OTA_CLASS_COUNT + 1] = {
#define OTA_X_MAP(name, num, errv, dbus, exitc) [num] = SD_BUS_ERROR_MAP(OTA_BUS_ERROR_PREFIX dbus, errv),
	OTA_CLASS_LIST(OTA_X_MAP)
#undef OTA_X_MAP
	[OTA_CLASS_COUNT] = SD_BUS_ERROR_MAP_END,
};
const sd_bus_error_map *const ota_bus_class_errors = &class_map[1];

/*
 * The standard errors, each with the errno of the class it means to
 * otattestctl. Registered maps take precedence over sd-bus's own, which
 * gives AccessDenied EACCES (our POLICY class's errno, not PERMISSION's).
 */
#define STD(suffix, cls) SD_BUS_ERROR_MAP("org.freedesktop.DBus.Error." suffix, cls##_ERRNO)
enum {
	PERMISSION_ERRNO = EPERM,
	INVALID_ARGUMENT_ERRNO = EINVAL,
	NOT_FOUND_ERRNO = ENODEV,
	UNAVAILABLE_ERRNO = ENXIO,
	TIMEOUT_ERRNO = ETIMEDOUT,
	LIMIT_ERRNO = ERANGE,
	INTERNAL_ERRNO = EREMOTEIO,
	IO_ERRNO = EIO,
};
const sd_bus_error_map ota_bus_standard_errors[] = {
	STD("AccessDenied", PERMISSION),
	STD("AuthFailed", PERMISSION),
	STD("InteractiveAuthorizationRequired", PERMISSION),
	STD("InvalidArgs", INVALID_ARGUMENT),
	STD("InvalidSignature", INVALID_ARGUMENT),
	STD("UnknownMethod", INVALID_ARGUMENT),
	STD("UnknownObject", NOT_FOUND),
	STD("UnknownInterface", NOT_FOUND),
	STD("UnknownProperty", NOT_FOUND),
	STD("ServiceUnknown", UNAVAILABLE),
	STD("NameHasNoOwner", UNAVAILABLE),
	STD("NoServer", UNAVAILABLE),
	STD("Disconnected", UNAVAILABLE),
	STD("NoReply", TIMEOUT),
	STD("Timeout", TIMEOUT),
	STD("TimedOut", TIMEOUT),
	STD("LimitsExceeded", LIMIT),
	STD("NoMemory", INTERNAL),
	STD("Failed", INTERNAL),
	STD("IOError", IO),
	SD_BUS_ERROR_MAP_END,
};
#undef STD

int ota_bus_errors_register(void)
{
	int r = sd_bus_error_add_map(ota_bus_class_errors);

	return r < 0 ? r : sd_bus_error_add_map(ota_bus_standard_errors);
}

const char *ota_class_error_name(uint32_t cls)
{
	if (cls == OTA_CLASS_OK || cls >= OTA_CLASS_COUNT)
		cls = OTA_CLASS_PROTOCOL;
	return class_map[cls].name;
}

int ota_bus_error_set(sd_bus_error *error, const struct ota_err *e)
{
	return sd_bus_error_set(error, ota_class_error_name(e->cls), e->message);
}

/* The errno a map gives name, or 0. */
static int map_errno(const sd_bus_error_map *m, const char *name)
{
	for (; m->name; m++)
		if (strcmp(m->name, name) == 0)
			return m->code;
	return 0;
}

uint32_t ota_dbus_error_class(const char *name)
{
	int err;

	if (!name)
		return OTA_CLASS_INTERNAL;
	err = map_errno(ota_bus_class_errors, name);
	if (!err)
		err = map_errno(ota_bus_standard_errors, name);
	/* Every class has an errno of its own, so the errno names the class. */
	return err ? ota_errno_class(err) : OTA_CLASS_PROTOCOL;
}

int ota_dbus_error_exit_code(const char *name)
{
	return ota_class_exit_code(ota_dbus_error_class(name));
}
