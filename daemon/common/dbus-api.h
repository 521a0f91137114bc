/* SPDX-License-Identifier: MIT */
/*
 * Names of the D-Bus API, shared by otattestd, otattestctl and the tests so
 * each is spelt once. The API itself is described in
 * daemon/org.otattest.BootAttest1.xml and docs/dbus-api.md.
 */
#ifndef OTATTESTD_DBUS_API_H
#define OTATTESTD_DBUS_API_H

#define OTA_BUS_NAME "org.otattest.BootAttest1"
#define OTA_BUS_ROOT_PATH "/org/otattest/BootAttest1"
#define OTA_BUS_DEVICE_PREFIX "/org/otattest/BootAttest1/device"
#define OTA_BUS_MANAGER_IFACE "org.otattest.BootAttest1.Manager"
#define OTA_BUS_DEVICE_IFACE "org.otattest.BootAttest1.Device"
#define OTA_BUS_ERROR_PREFIX "org.otattest.BootAttest1.Error."

/* polkit action ids, shipped in systemd/org.otattest.BootAttest1.policy. */
#define OTA_POLKIT_ACTION_ROTATE "org.otattest.BootAttest1.rotate-tags"
#define OTA_POLKIT_ACTION_UPDATE "org.otattest.BootAttest1.update-reset"
#define OTA_POLKIT_ACTION_SIGN "org.otattest.BootAttest1.sign-with-stable-key"

/* The group whose members may rotate tags and reset into updates. */
#define OTA_UPDATE_GROUP "otattest-update"
/*
 * The group whose members may have the device sign with its stable keys
 * (SignWithStableKey): a signature over a message of the caller's choosing
 * with a key bound to the device, not something every local user gets.
 */
#define OTA_SIGN_GROUP "otattest-sign"

/* Device names are the kernel's: "otattest" followed by a decimal index. */
#define OTA_DEVICE_NAME_PREFIX "otattest"
#define OTA_DEVICE_NAME_MAX 32

/*
 * State strings beyond enum ota_device_state's names: the daemon knows the
 * device but the kernel no longer shows it, or cannot be asked.
 */
#define OTA_STATE_ABSENT "absent"
#define OTA_STATE_UNREACHABLE "unreachable"

/* Signature of one element of the Stages property. */
#define OTA_STAGE_STRUCT_SIG "(ssssuuuuayaaytbb)"

#endif /* OTATTESTD_DBUS_API_H */
