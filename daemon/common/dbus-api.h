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
/* The update agent's life-cycle methods (docs/dbus-api.md, "Updates"). */
#define OTA_POLKIT_ACTION_INSTALL "org.otattest.BootAttest1.install-image"
/* CheckImage, a dry run that writes nothing: its own action (an active local session holds it). */
#define OTA_POLKIT_ACTION_CHECK "org.otattest.BootAttest1.check-image"
#define OTA_POLKIT_ACTION_COMMIT "org.otattest.BootAttest1.commit"
#define OTA_POLKIT_ACTION_RATCHET "org.otattest.BootAttest1.ratchet"
#define OTA_POLKIT_ACTION_REVOKE "org.otattest.BootAttest1.revoke"
#define OTA_POLKIT_ACTION_WARM_RESET "org.otattest.BootAttest1.warm-reset"

/* The group whose members may rotate tags, install, activate, commit and revoke. */
#define OTA_UPDATE_GROUP "otattest-update"
/*
 * The group whose members may have the device sign with its stable keys
 * (SignWithStableKey): a signature over a message of the caller's choosing
 * with a key bound to the device, not something every local user gets.
 */
#define OTA_SIGN_GROUP "otattest-sign"

/*
 * Every privileged Device method: its name, the polkit action otattestd
 * asks about and the group whose members it allows without polkit. The
 * shipped D-Bus policy, polkit actions and rules name the same; the tests
 * walk this list (an unprivileged caller refused for each).
 */
#define OTA_PRIVILEGED_METHODS(X)                                   \
	X("RotateTags", OTA_POLKIT_ACTION_ROTATE, OTA_UPDATE_GROUP)  \
	X("UpdateReset", OTA_POLKIT_ACTION_UPDATE, OTA_UPDATE_GROUP) \
	X("SignWithStableKey", OTA_POLKIT_ACTION_SIGN, OTA_SIGN_GROUP) \
	X("InstallImage", OTA_POLKIT_ACTION_INSTALL, OTA_UPDATE_GROUP) \
	X("CheckImage", OTA_POLKIT_ACTION_CHECK, OTA_UPDATE_GROUP) \
	X("Commit", OTA_POLKIT_ACTION_COMMIT, OTA_UPDATE_GROUP)      \
	X("Ratchet", OTA_POLKIT_ACTION_RATCHET, OTA_UPDATE_GROUP)    \
	X("RatchetWithFlags", OTA_POLKIT_ACTION_RATCHET, OTA_UPDATE_GROUP) \
	X("Revoke", OTA_POLKIT_ACTION_REVOKE, OTA_UPDATE_GROUP)      \
	X("WarmReset", OTA_POLKIT_ACTION_WARM_RESET, OTA_UPDATE_GROUP)

/* Device names are the kernel's: "otattest" followed by a decimal index. */
#define OTA_DEVICE_NAME_PREFIX "otattest"
#define OTA_DEVICE_NAME_MAX 32

/*
 * State strings beyond enum ota_device_state's names: the daemon knows the
 * device but the kernel no longer shows it, or cannot be asked.
 */
#define OTA_STATE_ABSENT "absent"
#define OTA_STATE_UNREACHABLE "unreachable"

/*
 * One element of Stages and of GetHistory's entries: a dictionary whose
 * keys docs/dbus-api.md lists ("Stage dictionaries", "Boot history").
 */
#define OTA_BUS_DICT_SIG "a{sv}"
/* One element of the Slots property: stage, slot, SVN, version, flags. */
#define OTA_SLOT_STRUCT_SIG "(ssusas)"
/* One element of RefusedSlots: stage, slot, the device's status, its message. */
#define OTA_REFUSED_SLOT_STRUCT_SIG "(ssus)"

#endif /* OTATTESTD_DBUS_API_H */
