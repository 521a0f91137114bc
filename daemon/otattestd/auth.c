// SPDX-License-Identifier: MIT
/*
 * Authorization of RotateTags and UpdateReset. The shipped D-Bus policy
 * already lets only root and the otattest-update group send them; this is
 * the second check, because a policy file can be edited or overridden and
 * the daemon must not rely on it alone.
 *
 *  1. The sender's credentials as the bus reports them (effective uid and
 *     supplementary groups, augmented from /proc when the bus lacks them):
 *     root or a member of otattest-update is allowed at once, no round
 *     trip.
 *  2. Otherwise, when polkit is on the bus, its CheckAuthorization (over
 *     D-Bus, asynchronously) decides, with the action ids shipped in
 *     org.otattest.BootAttest1.policy; interactive authentication only
 *     when the caller allowed it.
 *  3. Otherwise: AccessDenied.
 */
#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "manager.h"

static bool in_update_group(sd_bus_creds *creds)
{
	const gid_t *gids;
	struct group *gr;
	gid_t gid;
	int n, i;

	/* Looked up per call: the group may be created after we started. */
	gr = getgrnam(OTA_UPDATE_GROUP);
	if (!gr)
		return false;
	gid = gr->gr_gid;
	n = sd_bus_creds_get_supplementary_gids(creds, &gids);
	for (i = 0; i < n; i++)
		if (gids[i] == gid)
			return true;
	{
		gid_t egid;

		if (sd_bus_creds_get_egid(creds, &egid) >= 0 && egid == gid)
			return true;
	}
	return false;
}

struct polkit_call {
	auth_done_fn done;
	void *userdata;
};

static int on_polkit_reply(sd_bus_message *reply, void *userdata, sd_bus_error *ret_error)
{
	struct polkit_call *pc = userdata;
	int authorized = 0, challenge = 0, r;

	(void)ret_error;
	if (sd_bus_message_is_method_error(reply, NULL)) {
		const sd_bus_error *e = sd_bus_message_get_error(reply);

		/* No polkit after all, or it failed: refuse, do not guess. */
		log_debug("polkit did not answer: %s", e && e->message ? e->message : "error");
		pc->done(pc->userdata, false, NULL);
		goto out;
	}
	r = sd_bus_message_enter_container(reply, 'r', "bba{ss}");
	if (r >= 0)
		r = sd_bus_message_read(reply, "bb", &authorized, &challenge);
	if (r < 0) {
		pc->done(pc->userdata, false, NULL);
		goto out;
	}
	if (authorized) {
		pc->done(pc->userdata, true, NULL);
	} else if (challenge) {
		sd_bus_error e = SD_BUS_ERROR_NULL;

		sd_bus_error_set(&e, SD_BUS_ERROR_INTERACTIVE_AUTHORIZATION_REQUIRED,
				 "interactive authentication is required");
		pc->done(pc->userdata, false, &e);
		sd_bus_error_free(&e);
	} else {
		pc->done(pc->userdata, false, NULL);
	}
out:
	free(pc);
	return 0;
}

static int polkit_check(struct manager *m, sd_bus_message *msg, const char *action,
			auth_done_fn done, void *userdata)
{
	sd_bus_message *call = NULL;
	struct polkit_call *pc;
	const char *sender = sd_bus_message_get_sender(msg);
	int r;

	if (!sender)
		return -EPERM;
	pc = calloc(1, sizeof(*pc));
	if (!pc)
		return -ENOMEM;
	pc->done = done;
	pc->userdata = userdata;
	r = sd_bus_message_new_method_call(m->bus, &call, "org.freedesktop.PolicyKit1",
					   "/org/freedesktop/PolicyKit1/Authority",
					   "org.freedesktop.PolicyKit1.Authority", "CheckAuthorization");
	if (r >= 0)
		r = sd_bus_message_append(call, "(sa{sv})sa{ss}us", "system-bus-name", 1, "name", "s",
					  sender, action, 0,
					  sd_bus_message_get_allow_interactive_authorization(msg) ? 1u : 0u,
					  "");
	if (r >= 0)
		/* polkit may wait for a person to type a password: 5 minutes. */
		r = sd_bus_call_async(m->bus, NULL, call, on_polkit_reply, pc, 300ull * 1000000u);
	sd_bus_message_unref(call);
	if (r < 0) {
		free(pc);
		return r;
	}
	return 0;
}

int auth_check(struct manager *m, sd_bus_message *msg, const char *action, auth_done_fn done,
	       void *userdata, sd_bus_error *error)
{
	sd_bus_creds *creds = NULL;
	uid_t euid;
	int r;

	r = sd_bus_query_sender_creds(msg,
				      SD_BUS_CREDS_EUID | SD_BUS_CREDS_EGID |
					      SD_BUS_CREDS_SUPPLEMENTARY_GIDS | SD_BUS_CREDS_AUGMENT,
				      &creds);
	if (r >= 0 && sd_bus_creds_get_euid(creds, &euid) >= 0) {
		if (euid == 0 || in_update_group(creds)) {
			sd_bus_creds_unref(creds);
			return 1;
		}
	}
	sd_bus_creds_unref(creds);

	/*
	 * Ask polkit asynchronously; when it is not installed the bus answers
	 * ServiceUnknown at once and the caller gets AccessDenied from done().
	 */
	if (!m->skip_polkit && polkit_check(m, msg, action, done, userdata) == 0)
		return 0;
	return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
				 "%s requires root, membership in group %s, or polkit authorization",
				 sd_bus_message_get_member(msg), OTA_UPDATE_GROUP);
}
