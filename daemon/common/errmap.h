/* SPDX-License-Identifier: MIT */
/*
 * One failure, end to end: a status class from status.h (which decides the
 * D-Bus error name and the CLI exit code), the exact status when it is
 * known, and a message a person can act on. The kernel reports a failed
 * request as an errno (the class's), an extack message (the status's, for
 * people) and the status itself in the extack cookie; otattestd takes the
 * status from the cookie, sends it as a named D-Bus error, and otattestctl
 * turns the name back into the class's exit code.
 * No second table: everything here derives from OTA_CLASS_LIST and
 * OTA_STATUS_LIST.
 */
#ifndef OTATTESTD_ERRMAP_H
#define OTATTESTD_ERRMAP_H

#include <stddef.h>
#include <stdint.h>

#include <otattest/status.h>

#define OTA_ERR_MESSAGE_MAX 256

struct ota_err {
	uint32_t cls;        /* enum ota_status_class; OTA_CLASS_OK when no failure */
	ota_status_t status; /* exact status, or 0 when only the class is known */
	char message[OTA_ERR_MESSAGE_MAX];
};

void ota_err_clear(struct ota_err *e);
/* The failure a status code names (its class and message). */
void ota_err_set_status(struct ota_err *e, ota_status_t s);
/* A status with a more specific message than the table's. */
void ota_err_set_statusf(struct ota_err *e, ota_status_t s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Class of a positive errno: the class table's, then the generic ones. */
uint32_t ota_errno_class(int err);

/*
 * A netlink error back to the failure: err is the positive errno, status
 * the one from the extack cookie (0 when none came), extack the message
 * (may be NULL). With a status, that status, provided the errno is its
 * class's (else a protocol error); without, the errno's class with the
 * kernel's message. Never the message's text to find a status.
 */
void ota_err_from_netlink(struct ota_err *e, int err, ota_status_t status, const char *extack);

/* "org.otattest.BootAttest1.Error.<Suffix>" for a class, into buf. */
const char *ota_class_dbus_name(uint32_t cls, char *buf, size_t len);

/*
 * Class of a D-Bus error name: ours by suffix, the standard ones where
 * they mean the same thing, and OTA_CLASS_PROTOCOL for anything else.
 */
uint32_t ota_dbus_error_class(const char *name);

/* CLI exit code for a D-Bus error name (via its class). */
int ota_dbus_error_exit_code(const char *name);

#endif /* OTATTESTD_ERRMAP_H */
