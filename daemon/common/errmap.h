/* SPDX-License-Identifier: MIT */
/*
 * One failure, end to end: a status class from status.h (which decides the
 * D-Bus error name and the CLI exit code), the exact status when it is
 * known, and a message a person can act on. The kernel reports a failed
 * request as an errno (the class's), an extack message (the status's, for
 * people) and the status itself in the extack cookie; otattestd takes the
 * status from the cookie, sends it as a named D-Bus error, and otattestctl
 * turns the name back into the class's exit code.
 * No second table: the statuses are OTA_STATUS_LIST, and the D-Bus error
 * of each class is an sd-bus error map generated from OTA_CLASS_LIST,
 * which both programs register, so sd-bus itself turns a name into the
 * class's errno and back.
 */
#ifndef OTATTESTD_ERRMAP_H
#define OTATTESTD_ERRMAP_H

#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-bus.h>

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

/*
 * The sd-bus error maps: "org.otattest.BootAttest1.Error.<Suffix>" of
 * every failure class with the class's errno, and the standard
 * org.freedesktop.DBus.Error names with the errno of the class they mean
 * here (AccessDenied is a refusal, EPERM; sd-bus's own map says EACCES,
 * which is POLICY's). Registered by ota_bus_errors_register(), so that
 * sd_bus_error_set() returns the class's -errno and a client's
 * sd_bus_error_get_errno() gives it back.
 */
extern const sd_bus_error_map *const ota_bus_class_errors;
extern const sd_bus_error_map ota_bus_standard_errors[];
int ota_bus_errors_register(void);

/* "org.otattest.BootAttest1.Error.<Suffix>" for a class (ProtocolError for an unknown one). */
const char *ota_class_error_name(uint32_t cls);

/* Set error to the failure e, a class's named error; returns the class's -errno. */
int ota_bus_error_set(sd_bus_error *error, const struct ota_err *e);

/*
 * Class of a D-Bus error name, through the maps above:
 * OTA_CLASS_PROTOCOL for a name neither knows.
 */
uint32_t ota_dbus_error_class(const char *name);

/* CLI exit code for a D-Bus error name (via its class). */
int ota_dbus_error_exit_code(const char *name);

#endif /* OTATTESTD_ERRMAP_H */
