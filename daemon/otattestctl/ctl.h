/* SPDX-License-Identifier: MIT */
/*
 * otattestctl internals. The command files (cmd-*.c) talk to otattestd
 * through the helpers in bus.c; everything that turns data into text
 * (format.c, metrics.c) is pure and unit-tested without a bus.
 */
#ifndef OTATTESTCTL_CTL_H
#define OTATTESTCTL_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <systemd/sd-bus.h>

#include <otattest/record.h>
#include <otu/keynames.h>

#include "../common/dbus-api.h"
#include "../common/errmap.h"

struct ctl_stage {
	char stage[16], slot[8], path[24], scheme[40];
	uint32_t status, svn, depth, tag_key_version;
	uint8_t measurement[OTA_SHA256_BYTES];
	uint8_t key_ids[OTA_MAX_CHAIN_KEYS][OTA_KEY_ID_BYTES];
	size_t n_keys;
	uint64_t verify_time_ns;
	uint64_t verify_cycles; /* 0 from a daemon that sent none */
	bool booted, fallback, debug;
	char path_reason[32]; /* "" from a daemon that sent none */
};

/* A device as its D-Bus properties describe it. */
struct ctl_device {
	char name[OTA_DEVICE_NAME_MAX];
	char path[160];
	char state[32];
	uint32_t state_detail;
	char state_message[256];
	bool record_valid;
	uint8_t device_id[OTA_DEVICE_ID_BYTES];
	size_t device_id_len;
	uint8_t rom_identity[OTA_SHA256_BYTES];
	size_t rom_identity_len;
	char lifecycle[32], reset_reason[16];
	char runtime_version[OTA_VERSION_STRING_BYTES + 1]; /* RuntimeVersion: "" unknown or an older daemon */
	uint32_t epoch, min_svn, chain_max_svn, floor_rom_ext, floor_bl0, tag_key_version;
	uint32_t generation, boot_status, boot_data_counter;
	bool tag_boot_enabled;
	uint64_t boot_time_ns;
	struct ctl_stage stages[OTA_RECORD_MAX_STAGES];
	size_t n_stages;
	/* Key names for the output (not a property): NULL shows every key as short hex. */
	const struct otu_keynames *names;
	uint64_t tag_mismatches; /* TagMismatches: seen by this otattestd instance */
	/* The update trial: TrialBoots, RevertReason ("" without an update section), RevertedSlot. */
	uint32_t trial_boots;
	char revert_reason[16], reverted_slot[4];
	uint64_t trial_reverts; /* TrialReverts: seen by this otattestd instance */
};

/* The stage's path reason and DEBUG flag ("" and false when the daemon sent none). */
const char *ctl_stage_path_reason(const struct ctl_device *d, size_t i);
bool ctl_stage_debug(const struct ctl_device *d, size_t i);

struct ctl {
	sd_bus *bus;
	const char *bus_address; /* NULL: system bus */
	const char *device;      /* -d; NULL: the only/first device */
	bool json;
	bool color;
	bool quiet;
	/* --key-names FILE, or NULL: /etc/otattest/key-names if it exists (docs/keynames.md). */
	const char *key_names_path;
	struct otu_keynames names;
	bool names_loaded;
	bool progress_shown; /* a long operation's first progress line is out */
};

/* ---- exit codes: status.h's class table ---- */
int ctl_exit_for_class(uint32_t cls);
/*
 * Print a bus error and return its class's exit code. A refusal of a
 * privileged method names who may call it; otattestd missing says where to
 * look.
 */
int ctl_fail_bus(const char *what, const sd_bus_error *e, int r);
/* What to do about error_name from what (a method or a step), in buf; NULL: nothing to add. */
const char *ctl_error_hint(const char *what, const char *error_name, char *buf, size_t len);
/* Print a local failure and return its class's exit code. */
int ctl_fail(uint32_t cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- bus.c ---- */
int ctl_connect(struct ctl *c);
/* Object path of the device -d names (or the first one); 0 or an exit code. */
int ctl_device_path(struct ctl *c, char *path, size_t len);
/* Every device's object path; caller frees with ctl_strv_free. 0 or exit code. */
int ctl_list_devices(struct ctl *c, char ***paths);
void ctl_strv_free(char **v);
/* Properties of one device (GetAll); 0 or an exit code. */
int ctl_get_device(struct ctl *c, const char *path, struct ctl_device *d);
/*
 * The properties of each device in paths (which this frees), with the key
 * names loaded (ctl_load_names) and attached: 0 with *devs (free it) and
 * *n, or an exit code.
 */
int ctl_get_devices(struct ctl *c, char **paths, struct ctl_device **devs, size_t *n);
/* Parse a GetAll reply (a{sv}) into d: exposed for tests. */
int ctl_parse_properties(sd_bus_message *m, struct ctl_device *d);

/* ---- admin-call.c ---- */
/*
 * Call a privileged, possibly slow device method (interactive
 * authorization allowed), dispatching progress_signal to on_progress
 * meanwhile (NULL: none). 0 with *reply (unref it), or an exit code after
 * printing the error.
 */
int ctl_admin_call(struct ctl *c, const char *path, const char *method, const char *progress_signal,
		   sd_bus_message_handler_t on_progress, void *progress_data, sd_bus_message **reply,
		   const char *types, ...);
/* --slot a|b (|other when allow_other): 0, or OTA_EXIT_USAGE after saying why. */
int ctl_parse_slot(const char *s, bool allow_other, uint32_t *slot);
/*
 * The arguments of a command that takes --slot and nothing else (shortopts
 * "s:" also takes -s): 0 with *slot set when given, or OTA_EXIT_USAGE after
 * saying why.
 */
int ctl_parse_slot_args(int argc, char **argv, const char *shortopts, bool allow_other,
			uint32_t *slot);
/* The same with one "ay" argument. */
int ctl_admin_call_bytes(struct ctl *c, const char *path, const char *method, const void *p,
			 size_t len, sd_bus_message **reply);
/*
 * Print the (boot_status, generation, booted_slot) reply of UpdateReset or
 * WarmReset and unref it; 0, or the boot status's class exit code when the
 * reset brought up no runtime.
 */
int ctl_reset_result(struct ctl *c, const char *what, sd_bus_message *reply);

/* ---- format.c ---- */
/*
 * Colour for the status table: only on a terminal (tty) whose TERM is set
 * and not "dumb", never with --json, --no-color or NO_COLOR set.
 */
bool ctl_want_color(bool no_color, bool json, bool tty, const char *term);
void ctl_print_status(FILE *out, const struct ctl_device *d, bool color);
/*
 * `status` exits with this when a device is ready but its last boot needs
 * an operator: a tag that did not match its image, no runtime booted, a
 * slot refused and its fallback booted (and, once the record says so, a
 * reverted trial). Distinct from every class's code (status.h).
 */
#define CTL_EXIT_ATTENTION 3
#define CTL_ATTENTION_MAX (OTA_RECORD_MAX_STAGES + 1)
struct ctl_attention {
	const char *kind; /* "tag-mismatch", "boot-failed", "fallback": the metric's label */
	char text[128];
};
/* The findings of d that need an operator; how many (at most max). */
size_t ctl_device_attention(const struct ctl_device *d, struct ctl_attention *out, size_t max);
void ctl_print_status_json(FILE *out, const struct ctl_device *devs, size_t n);
/*
 * A boot record from its bytes: validated first (ota_record_validate); a
 * record that fails is refused with that status, never printed.
 */
ota_status_t ctl_print_record(FILE *out, const uint8_t *buf, size_t len,
			      const struct otu_keynames *names);
ota_status_t ctl_print_record_json(FILE *out, const uint8_t *buf, size_t len,
				   const struct otu_keynames *names);
/* Copy len bytes into r and validate them (ota_record_validate). */
ota_status_t ctl_load_record(struct ota_record *r, const uint8_t *buf, size_t len);
const char *ctl_status_label(uint32_t status); /* "OK", "SIG_ECDSA_INVALID", "0x123456" */
/* A u32 property's value for people: status codes by name, other numbers as they are. */
const char *ctl_u32_property_text(const char *property, uint32_t v, char *buf, size_t len);

/* ---- keys.c: key names (docs/keynames.md) ---- */
/* Load the names once (c->names); 0 or an exit code with the file's line. */
int ctl_load_names(struct ctl *c);
/* "root > delegate > ...": each key by name, or its short hex. */
void ctl_print_key_chain(FILE *out, const uint8_t (*ids)[OTA_KEY_ID_BYTES], size_t n,
			 const struct otu_keynames *names);
/* [{"key_id": hex, "name": name or null}, ...] */
struct json_object;
struct json_object *ctl_key_chain_json(const uint8_t (*ids)[OTA_KEY_ID_BYTES], size_t n,
				       const struct otu_keynames *names);

/* ---- history-format.c: otattestctl history ---- */
struct ctl_history_entry {
	bool boot; /* the first record of a boot, not a change within one (an install) */
	const char *device;
	uint64_t seen_usec; /* when otattestd first saw the record, CLOCK_REALTIME */
	const uint8_t *record;
	size_t len;
};
/* OTA_OK when every entry's record validates, else the first refusal. */
ota_status_t ctl_history_check(const struct ctl_history_entry *v, size_t n);
void ctl_print_history(FILE *out, const struct ctl_history_entry *v, size_t n,
		       const struct otu_keynames *names);
void ctl_print_history_json(FILE *out, const struct ctl_history_entry *v, size_t n,
			    const struct otu_keynames *names);
/* --since: @SECONDS, -N[smhd] or YYYY-MM-DD[ HH:MM[:SS]] (UTC); 0 or -EINVAL. */
int ctl_parse_since(const char *s, uint64_t now_usec, uint64_t *out);

/* ---- metrics.c ---- */
/* Prometheus text exposition format for node_exporter's textfile collector. */
void ctl_metrics_format(FILE *out, const struct ctl_device *devs, size_t n, uint64_t now_sec);

/* ---- commands ---- */
int cmd_status(struct ctl *c, int argc, char **argv);
int cmd_record(struct ctl *c, int argc, char **argv);
int cmd_attest(struct ctl *c, int argc, char **argv);
int cmd_verify(struct ctl *c, int argc, char **argv);
int cmd_rotate(struct ctl *c, int argc, char **argv);
int cmd_update_reset(struct ctl *c, int argc, char **argv);
int cmd_warm_reset(struct ctl *c, int argc, char **argv);
int cmd_install(struct ctl *c, int argc, char **argv);
int cmd_check(struct ctl *c, int argc, char **argv);
int cmd_commit(struct ctl *c, int argc, char **argv);
int cmd_ratchet(struct ctl *c, int argc, char **argv);
int cmd_revoke(struct ctl *c, int argc, char **argv);
int cmd_watch(struct ctl *c, int argc, char **argv);
int cmd_metrics(struct ctl *c, int argc, char **argv);
int cmd_history(struct ctl *c, int argc, char **argv);

/* ---- verify.c ---- */
/*
 * Verify evidence with the libotattest verifier. Returns an exit code:
 * 0 verdict passed, OTA_EXIT_VERDICT_FAILED, or a class exit code.
 */
int ctl_verify_evidence(const uint8_t *ev, size_t len, const char *ca_path,
			const uint8_t *nonce, size_t nonce_len, const char *policy_path,
			bool json, FILE *out);

#endif /* OTATTESTCTL_CTL_H */
