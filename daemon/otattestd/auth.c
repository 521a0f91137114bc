// SPDX-License-Identifier: MIT
/*
 * Authorization of the privileged methods: RotateTags and UpdateReset
 * (group otattest-update), SignWithStableKey (group otattest-sign). The
 * shipped D-Bus policy already lets only root and the method's group send
 * them; this is the second check, because a policy file can be edited or
 * overridden and the daemon must not rely on it alone.
 *
 * Only what the bus itself vouches for may authorize: dbus-daemon took
 * the caller's uid and groups from its socket when it connected. Data
 * augmented from /proc/<pid> (SD_BUS_CREDS_AUGMENT) never does: the
 * caller may exit and its pid be reused by a privileged process before
 * /proc is read.
 *
 *  1. Effective uid 0 (sd-bus has it from GetConnectionCredentials'
 *     UnixUserID): allowed at once.
 *  2. Otherwise the caller's groups, from GetConnectionCredentials'
 *     UnixGroupIDs, asked for asynchronously (sd-bus does not read that
 *     key): a member of the method's group is allowed.
 *  3. Otherwise, when polkit is on the bus, its CheckAuthorization (over
 *     D-Bus, asynchronously) decides, with the action ids shipped in
 *     org.otattest.BootAttest1.policy; interactive authentication only
 *     when the caller allowed it.
 *  4. Otherwise: AccessDenied.
 */
#include <assert.h>
#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "manager.h"

/* One decision in progress; holds a reference to the call being judged. */
struct auth_call {
	struct manager *m;
	sd_bus_message *msg;
	const char *action;
	const char *group;
	auth_done_fn done;
	void *userdata;
};

static void auth_finish(struct auth_call *a, bool allowed, const sd_bus_error *error)
{
	a->done(a->userdata, allowed, error);
	sd_bus_message_unref(a->msg);
	free(a);
}

static void auth_deny(struct auth_call *a)
{
	_cleanup_(sd_bus_error_free) sd_bus_error e = SD_BUS_ERROR_NULL;

	sd_bus_error_setf(&e, SD_BUS_ERROR_ACCESS_DENIED,
			  "%s requires root, membership in group %s, or polkit authorization",
			  sd_bus_message_get_member(a->msg), a->group);
	auth_finish(a, false, &e);
}

/* The caller's effective uid, only when the bus reported it. */
static bool bus_euid(struct manager *m, sd_bus_message *msg, uid_t *euid)
{
	return peer_uid(&m->peers, msg, euid) >= 0;
}

/*
 * Whether a GetConnectionCredentials reply (a{sv}) lists gid in
 * UnixGroupIDs. A reply without that key (an old bus) lists nothing.
 */
bool creds_reply_has_group(sd_bus_message *reply, gid_t gid)
{
	bool found = false;
	const char *key;
	int r;

	if (sd_bus_message_enter_container(reply, 'a', "{sv}") < 0)
		return false;
	while ((r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
		if (sd_bus_message_read(reply, "s", &key) < 0)
			return false;
		if (strcmp(key, "UnixGroupIDs") == 0) {
			const uint32_t *gids;
			size_t n, i;

			if (sd_bus_message_enter_container(reply, 'v', "au") < 0 ||
			    sd_bus_message_read_array(reply, 'u', (const void **)&gids, &n) < 0)
				return false;
			for (i = 0; i < n / sizeof(*gids); i++)
				if (gids[i] == gid)
					found = true;
			if (sd_bus_message_exit_container(reply) < 0)
				return false;
		} else if (sd_bus_message_skip(reply, "v") < 0) {
			return false;
		}
		if (sd_bus_message_exit_container(reply) < 0)
			return false;
	}
	return r == 0 && found;
}

static int on_polkit_reply(sd_bus_message *reply, void *userdata, sd_bus_error *ret_error)
{
	struct auth_call *a = userdata;
	int authorized = 0, challenge = 0, r;

	if (sd_bus_message_is_method_error(reply, NULL)) {
		const sd_bus_error *e = sd_bus_message_get_error(reply);

		/* No polkit after all, or it failed: refuse, do not guess. */
		log_debug("polkit did not answer: %s", e && e->message ? e->message : "error");
		auth_deny(a);
		return 0;
	}
	r = sd_bus_message_enter_container(reply, 'r', "bba{ss}");
	if (r >= 0)
		r = sd_bus_message_read(reply, "bb", &authorized, &challenge);
	if (r < 0) {
		auth_deny(a);
	} else if (authorized) {
		auth_finish(a, true, NULL);
	} else if (challenge) {
		_cleanup_(sd_bus_error_free) sd_bus_error e = SD_BUS_ERROR_NULL;

		sd_bus_error_set(&e, SD_BUS_ERROR_INTERACTIVE_AUTHORIZATION_REQUIRED,
				 "interactive authentication is required");
		auth_finish(a, false, &e);
	} else {
		auth_deny(a);
	}
	return 0;
}

static int polkit_check(struct auth_call *a)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *call = NULL;
	const char *sender = sd_bus_message_get_sender(a->msg);
	int r;

	if (!sender)
		return -EPERM;
	r = sd_bus_message_new_method_call(a->m->bus, &call, "org.freedesktop.PolicyKit1",
					   "/org/freedesktop/PolicyKit1/Authority",
					   "org.freedesktop.PolicyKit1.Authority", "CheckAuthorization");
	if (r >= 0)
		r = sd_bus_message_append(call, "(sa{sv})sa{ss}us", "system-bus-name", 1, "name", "s",
					  sender, a->action, 0,
					  sd_bus_message_get_allow_interactive_authorization(a->msg) ? 1u : 0u,
					  "");
	if (r >= 0)
		/* polkit may wait for a person to type a password: 5 minutes. */
		r = sd_bus_call_async(a->m->bus, NULL, call, on_polkit_reply, a, 300ull * 1000000u);
	return r < 0 ? r : 0;
}

static int on_creds_reply(sd_bus_message *reply, void *userdata, sd_bus_error *ret_error)
{
	struct auth_call *a = userdata;
	struct group *gr;

	/* Looked up per call: the group may be created after we started. */
	gr = getgrnam(a->group);
	if (!sd_bus_message_is_method_error(reply, NULL) && gr &&
	    creds_reply_has_group(reply, gr->gr_gid)) {
		auth_finish(a, true, NULL);
		return 0;
	}
	/*
	 * Ask polkit; when it is not installed the bus answers ServiceUnknown
	 * at once and on_polkit_reply refuses.
	 */
	if (a->m->skip_polkit || polkit_check(a) < 0)
		auth_deny(a);
	return 0;
}

int auth_check(struct manager *m, sd_bus_message *msg, const char *action, const char *group,
	       auth_done_fn done, void *userdata, sd_bus_error *error)
{
	const char *sender = sd_bus_message_get_sender(msg);
	struct auth_call *a;
	uid_t euid;
	int r;

	assert(action);
	assert(group);
	assert(done);
	if (bus_euid(m, msg, &euid) && euid == 0)
		return 1;
	a = calloc(1, sizeof(*a));
	if (!a)
		return sd_bus_error_set_errno(error, -ENOMEM);
	a->m = m;
	a->msg = sd_bus_message_ref(msg);
	a->action = action;
	a->group = group;
	a->done = done;
	a->userdata = userdata;
	r = sender ? sd_bus_call_method_async(m->bus, NULL, "org.freedesktop.DBus",
					      "/org/freedesktop/DBus", "org.freedesktop.DBus",
					      "GetConnectionCredentials", on_creds_reply, a, "s",
					      sender)
		   : -EPERM;
	if (r < 0) {
		sd_bus_message_unref(a->msg);
		free(a);
		return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
					 "%s requires root, membership in group %s, or polkit authorization",
					 sd_bus_message_get_member(msg), group);
	}
	return 0;
}
