/* SPDX-License-Identifier: MIT */
/*
 * The daemon's state: one sd-event loop, the bus, the netlink client, the
 * device monitor, the devices and the per-client bounds. Each part lives
 * in its own file; this header is the seam between them.
 */
#ifndef OTATTESTD_MANAGER_H
#define OTATTESTD_MANAGER_H

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-device.h>
#include <systemd/sd-event.h>

#include <otattest/record.h>
#include <otattest/shm.h>

#include "../common/dbus-api.h"
#include "../common/errmap.h"
#include "../common/macro.h"
#include "clients.h"
#include "genl.h"
#include "history.h"
#include "peer.h"
#include "transport.h"

#define OTA_MAX_DEVICES 64u
/* At least the number of Device properties (bus-device.c asserts it). */
#define DEVICE_PROPS_MAX 40u

struct manager;

struct device {
	struct device *next;
	struct manager *m;
	uint32_t index;
	char name[OTA_DEVICE_NAME_MAX];
	char path[128];

	bool present;     /* the kernel shows it (sysfs or netlink) */
	bool have_state;  /* state below came from the kernel */
	uint32_t state;   /* enum ota_device_state */
	uint32_t state_detail;
	bool have_record;
	struct ota_record record;
	uint32_t record_len;
	uint32_t generation;
	/*
	 * What the running BL0 says its code is (the kernel's
	 * runtime-version, which it asks with GET_INFO after each boot);
	 * "" while unknown. Comes with GET_DEVICE and GET_RECORD.
	 */
	char runtime_version[OTA_VERSION_STRING_BYTES + 1];
	/* The record generation runtime_version goes with (have_runtime_gen: known). */
	bool have_runtime_gen;
	uint32_t runtime_gen;
	uint64_t tag_mismatches; /* attempts whose tag did not match, seen by this instance */
	uint64_t trial_reverts;  /* update trials the device reverted, seen by this instance */

	/*
	 * Refresh bookkeeping: one request about the cache in flight
	 * (GET_DEVICE then GET_RECORD, or GET_RECORD alone), coalescing the
	 * rest into one more of the larger kind.
	 */
	bool refreshing;
	enum { REFRESH_NONE, REFRESH_RECORD, REFRESH_FULL } refresh_again;

	/* An InstallImage or CheckImage holds the kernel's install session (install.c). */
	bool installing;

	/* Rotation seen through events (ours or a previous instance's). */
	bool rotating;
	bool rotation_ours;
	uint32_t rotate_old_key_version;
	uint32_t progress_done, progress_total;
	/*
	 * The key version the last RotationFinished reported: a progress
	 * event read after that rotation's reply (events and replies come on
	 * two sockets) ends in the same key version and is not reported again.
	 */
	bool rotation_reported;
	uint32_t rotation_reported_kv;

	/*
	 * Slots the device refused to boot when UpdateReset asked (its verdict
	 * on the image there: slot_refusal.c), by ota_tag_index. The record
	 * goes on calling such a slot verified - its flag is the last boot's
	 * or install's verdict - until the next boot looks again.
	 */
	struct slot_refusal {
		bool set;
		ota_status_t status;
		struct ota_record_slot seen; /* the slot as the record showed it then */
	} refused[OTA_STAGE_COUNT * OTA_SLOT_COUNT];

	/* Each property's value as last announced, as JSON (bus-device.c). */
	char *announced[DEVICE_PROPS_MAX];
};

struct manager {
	sd_event *event;
	sd_bus *bus;
	struct genl *genl;           /* main.c owns it; everyone else goes through transport */
	struct transport transport; /* the way to the kernel (transport.h) */
	sd_device_monitor *monitor;

	struct device *devices;
	unsigned n_devices;
	struct client_table clients; /* per user */
	struct peer_cache peers;     /* unique name -> uid */

	/* Method calls waiting for the kernel (drained before exit). */
	unsigned n_calls;
	bool stopping;
	sd_event_source *stop_timer;
	sd_event_source *gc_timer;

	uint64_t request_timeout_usec;
	uint64_t admin_timeout_usec;
	uint64_t image_read_timeout_usec; /* an install image's read (image-read.h); 0: the default */
	const char *bus_address; /* NULL: the system bus */
	const char *state_dir;   /* the boot history's home; NULL: memory only */
	bool skip_polkit;

	struct history history; /* every record seen (history.h) */

	/* Counters for the log and `otattestctl metrics`. */
	uint64_t requests_ok, requests_failed, requests_refused;
};

/* device_link.c */
struct device *device_find(struct manager *m, uint32_t index);
struct device *device_find_by_name(struct manager *m, const char *name);
struct device *device_get(struct manager *m, uint32_t index); /* creates */
void device_set_present(struct device *d, bool present);
/* State and record from the kernel (a device appeared, events were lost, ...). */
void device_refresh(struct device *d);
/* The record alone (the kernel said it changed). */
void device_fetch_record(struct device *d);
void device_refresh_all(struct manager *m);
void device_on_event(struct manager *m, uint32_t event, const struct nlattr *const *tb);
void device_on_family(struct manager *m, bool available);
const char *device_state_string(const struct device *d);
/* Can a request be sent to d? Sets e when it cannot. */
bool device_usable(const struct device *d, const struct manager *m, struct ota_err *e);
void device_free_all(struct manager *m);

/* tag_mismatch.c: journal, signal and counter for each new boot's tag mismatches. */
void device_report_tag_mismatches(struct device *d, const struct ota_record *old, bool had_old,
				  const struct ota_record *rec);

/* trial_revert.c: journal, signal and counter for a trial the device reverted, once. */
void device_report_trial_revert(struct device *d, const struct ota_record *old, bool had_old,
				const struct ota_record *rec);

/*
 * slot_refusal.c: UpdateReset of BL0 slot `slot` (OTA_UPDATE_SLOT_OTHER:
 * the one not running) failed with e; kept when e is the device's verdict
 * on the slot's image. The record moved on from old to rec: refusals of a
 * slot that changed, or of an earlier boot, go. A written install of
 * stage/slot: its refusal was of another image.
 */
void device_note_refused_boot(struct device *d, uint32_t slot, const struct ota_err *e);
void device_refusals_on_record(struct device *d, const struct ota_record *old, bool had_old,
			       const struct ota_record *rec);
void device_refusal_clear(struct device *d, uint32_t stage, uint32_t slot);

/* udev.c */
int udev_setup(struct manager *m);

/* bus.c */
int bus_setup(struct manager *m);
void bus_emit_device_added(struct manager *m, struct device *d);
void bus_emit_record_changed(struct device *d);
void bus_emit_rotation_progress(struct device *d, uint32_t done, uint32_t total);
void bus_emit_rotation_finished(struct device *d, uint32_t old_kv, uint32_t new_kv,
				uint32_t retagged, const struct ota_err *e);
void bus_emit_tag_mismatch(struct device *d, uint32_t generation, const struct ota_stage_record *s);
void bus_emit_trial_reverted(struct device *d, uint32_t generation, const char *slot,
			     const char *reason);
void bus_update_status(struct manager *m);

/* bus-history.c: Manager.GetHistory. */
int bus_method_get_history(sd_bus_message *msg, void *userdata, sd_bus_error *error);

/* bus-device.c */
extern const sd_bus_vtable device_vtable[];
/* PropertiesChanged for the Device properties whose value changed since last announced. */
void bus_emit_properties_changed(struct device *d);
/* The values InterfacesAdded announced: what later changes are compared with. */
void bus_properties_announced(struct device *d);
void device_announced_free(struct device *d);
/* Every Device property as one JSON object (Describe); NULL on failure. */
struct json_object *device_describe(struct device *d);

/* bus-record.c: the typed values of a record (Stages, GetHistory's entries). */
int bus_append_stages(sd_bus_message *m, const struct ota_record *rec, uint32_t n);
int bus_append_history_entry(sd_bus_message *m, const struct history_entry *e);

/*
 * call.c: a method that goes to the device. Admits it against the
 * caller's per-user bounds, authorizes it when the command needs that,
 * sends it and answers it when the kernel replies. Returns 1 (the reply
 * comes later) or a negative errno with error set.
 */
struct call_spec;
/* CLOCK_MONOTONIC in microseconds: the clients' buckets' time. */
uint64_t call_now_usec(void);
/* Admit a request of uid in its class's share of the client table (clients.h). */
bool call_admit(struct manager *m, sd_bus_message *msg, uid_t uid, enum client_kind kind,
		struct client **out, struct ota_err *e);
int call_start(sd_bus_message *msg, struct device *d, const struct call_spec *spec,
	       const struct genl_args *args, sd_bus_error *error);

/* auth.c */
typedef void (*auth_done_fn)(void *userdata, bool allowed, const sd_bus_error *error);
/*
 * Decide whether the sender of msg may perform `action`, from what the bus
 * vouches for (never /proc). Returns 1 when allowed at once (euid 0), 0
 * when the answer will come through done() (`group` from the bus's
 * GetConnectionCredentials, then polkit; a refusal carries AccessDenied),
 * or a negative errno with error set.
 */
int auth_check(struct manager *m, sd_bus_message *msg, const char *action, const char *group,
	       auth_done_fn done, void *userdata, sd_bus_error *error);

/* manager.c */
void manager_maybe_exit(struct manager *m);
/* Called whenever an in-flight call finishes. */
void manager_call_finished(struct manager *m);
int manager_setup_signals(struct manager *m);

#endif /* OTATTESTD_MANAGER_H */
