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

const char *ota_class_dbus_name(uint32_t cls, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", OTA_BUS_ERROR_PREFIX, ota_class_dbus_suffix(cls));
	return buf;
}

uint32_t ota_dbus_error_class(const char *name)
{
	static const struct {
		const char *name;
		uint32_t cls;
	} standard[] = {
		{ "org.freedesktop.DBus.Error.AccessDenied", OTA_CLASS_PERMISSION },
		{ "org.freedesktop.DBus.Error.AuthFailed", OTA_CLASS_PERMISSION },
		{ "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired", OTA_CLASS_PERMISSION },
		{ "org.freedesktop.DBus.Error.InvalidArgs", OTA_CLASS_INVALID_ARGUMENT },
		{ "org.freedesktop.DBus.Error.InvalidSignature", OTA_CLASS_INVALID_ARGUMENT },
		{ "org.freedesktop.DBus.Error.UnknownMethod", OTA_CLASS_INVALID_ARGUMENT },
		{ "org.freedesktop.DBus.Error.UnknownObject", OTA_CLASS_NOT_FOUND },
		{ "org.freedesktop.DBus.Error.UnknownInterface", OTA_CLASS_NOT_FOUND },
		{ "org.freedesktop.DBus.Error.UnknownProperty", OTA_CLASS_NOT_FOUND },
		{ "org.freedesktop.DBus.Error.ServiceUnknown", OTA_CLASS_UNAVAILABLE },
		{ "org.freedesktop.DBus.Error.NameHasNoOwner", OTA_CLASS_UNAVAILABLE },
		{ "org.freedesktop.DBus.Error.NoServer", OTA_CLASS_UNAVAILABLE },
		{ "org.freedesktop.DBus.Error.Disconnected", OTA_CLASS_UNAVAILABLE },
		{ "org.freedesktop.DBus.Error.NoReply", OTA_CLASS_TIMEOUT },
		{ "org.freedesktop.DBus.Error.Timeout", OTA_CLASS_TIMEOUT },
		{ "org.freedesktop.DBus.Error.TimedOut", OTA_CLASS_TIMEOUT },
		{ "org.freedesktop.DBus.Error.LimitsExceeded", OTA_CLASS_LIMIT },
		{ "org.freedesktop.DBus.Error.NoMemory", OTA_CLASS_INTERNAL },
		{ "org.freedesktop.DBus.Error.Failed", OTA_CLASS_INTERNAL },
		{ "org.freedesktop.DBus.Error.IOError", OTA_CLASS_IO },
	};
	size_t plen = strlen(OTA_BUS_ERROR_PREFIX), i;

	if (!name)
		return OTA_CLASS_INTERNAL;
	if (strncmp(name, OTA_BUS_ERROR_PREFIX, plen) == 0) {
		const char *suffix = name + plen;
#define OTA_X_SUFFIX(cname, num, errv, dbus, exitc) \
	if (strcmp(suffix, (dbus)) == 0)           \
		return num;
		OTA_CLASS_LIST(OTA_X_SUFFIX)
#undef OTA_X_SUFFIX
		return OTA_CLASS_PROTOCOL;
	}
	for (i = 0; i < sizeof(standard) / sizeof(standard[0]); i++)
		if (strcmp(name, standard[i].name) == 0)
			return standard[i].cls;
	return OTA_CLASS_PROTOCOL;
}

int ota_dbus_error_exit_code(const char *name)
{
	return ota_class_exit_code(ota_dbus_error_class(name));
}
