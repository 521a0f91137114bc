/* SPDX-License-Identifier: MIT */
/*
 * otattest-model: QEMU's ivshmem server and the device peer behind it,
 * in one process (the default) or split in two (docs/model.md, "Split
 * mode"): a server process that keeps QEMU's connection and the shared
 * memory, and a device process that joins it and may die and come back.
 * Every part of a process works on this one structure from one sd-event
 * loop; nothing here runs on another thread, so the firmware, the mailbox
 * and the control socket never race each other.
 */
#ifndef MODEL_MODEL_H
#define MODEL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include <otattest/shm.h>

#include "fault.h"
#include "ivshmem_client.h"
#include "log.h"
#include "peer.h"
#include "seat.h"
#include "shm.h"

#define CONTROL_MAX_CLIENTS 8u
#define CONTROL_LINE_MAX 4096u

/* Which part of the device this process is. */
enum model_role {
	MODEL_ROLE_WHOLE,  /* ivshmem server and device in one process: the default */
	MODEL_ROLE_SERVER, /* 'otattest-model server': QEMU and a device process join it */
	MODEL_ROLE_DEVICE, /* --connect: the device, joined to a server as its device peer */
};

struct model_options {
	enum model_role role;
	const char *socket_path;  /* ivshmem server socket QEMU connects to */
	const char *device_socket_path; /* server: where the device process joins */
	const char *connect_path; /* device: the server's device socket */
	const char *control_path; /* control socket for the harness */
	const char *state_dir;    /* the emulated hardware's persistent state */
	const char *load_flash;   /* factory images programmed before power-on */
	const char *load_otp;
	uint32_t flash_size;      /* for a state directory without flash yet */
	bool no_fsync;
	enum log_level log_level;
	bool core_rv32;           /* --core=rv32: the stage images on the emulated core */
	const char *rom_image;    /* --rom-image: the mask ROM (rv32 ELF) the core starts in */
};

/*
 * The ivshmem side: the listening socket, the device peer, one guest. A
 * device process (MODEL_ROLE_DEVICE) has no socket of its own here, only
 * the two peers, as its server announced them (link.c).
 */
struct server {
	struct seat seat;   /* the socket QEMU connects to, one guest at a time */
	struct peer device; /* guests ring these; the device reads them */
	sd_event_source *device_src[OTA_VEC_COUNT];
	struct peer guest;  /* the device rings these; QEMU reads them */
	uint32_t next_guest_id;
	uint64_t guests_accepted; /* a device process: guests announced to it */
};

/* MODEL_ROLE_SERVER: the socket a separate device process joins (devsock.c). */
struct devsock {
	struct seat seat;
	uint64_t joins;
};

/* MODEL_ROLE_DEVICE: the connection to the server (link.c). */
struct link {
	struct ivshmem_client cl;
	sd_event_source *src;
	uint32_t disconnects_handled; /* cl.disconnects_seen when last looked at */
};

/* The device's mailbox engine. */
struct mbox {
	uint32_t last_seq;   /* last accepted sequence (0: none yet) */
	bool pending;        /* an answer is held back by the delay fault */
	struct ota_mbox_header pending_hdr;
	uint32_t pending_len;
	sd_event_source *delay_src;
	uint64_t requests, answered, refused, dropped;
	/* Private copies: the request is copied out before it is looked at. */
	uint8_t req[OTA_SHM_REQUEST_SIZE];
	uint8_t resp[OTA_SHM_RESPONSE_SIZE];
};

struct control_client {
	int fd;
	sd_event_source *src;
	char buf[CONTROL_LINE_MAX];
	uint32_t used;
};

struct control {
	int listen_fd;
	sd_event_source *listen_src;
	struct control_client client[CONTROL_MAX_CLIENTS];
};

/* The interrupt storm fault's run. */
struct storm {
	int fd;          /* periodic timerfd pacing the rings, -1 when none */
	sd_event_source *src;
	uint32_t count;  /* rings to raise in all; 0 when no storm runs */
	uint32_t hz;
	uint32_t vector; /* FAULT_STORM_ALL_VECTORS or one vector */
	uint64_t start_usec;
	uint64_t raised;
};

/* The emulated hardware and the firmware on it. */
struct device {
	bool open;
	bool powered;
	uint32_t boot_status; /* of the last boot */
	uint32_t boots;
	uint64_t flash_writes; /* since the model started */
	uint32_t hang_slots;  /* BL0 slots (bit per slot) whose runtime the board plays hung */
	uint64_t bites;       /* watchdog bites performed */
	sd_event_source *tick_src; /* BL0's main loop and the watchdog (watchdog.c) */
};

struct model {
	sd_event *event;
	struct model_options opt;
	struct shm shm;
	struct server server;
	struct devsock devsock;
	struct link link;
	struct mbox mbox;
	struct control control;
	struct faults faults;
	struct storm storm;
	struct device device;
	bool stopping;
	int exit_code; /* what the process exits with once the loop ends */
};

/* server.c */
int server_start(struct model *m);
void server_stop(struct model *m);
bool server_has_guest(const struct model *m);
/* Ring a guest vector; with no guest the doorbell vanishes, as on ivshmem. */
void server_ring_guest(struct model *m, unsigned vector);

/* doorbell.c: rings at the device peer's eventfds become mailbox requests. */
int doorbell_watch(struct model *m);
void doorbell_unwatch(struct model *m);

/* devsock.c (MODEL_ROLE_SERVER) */
int devsock_start(struct model *m);
void devsock_stop(struct model *m);
/* Tell the device process about the guest (before the guest's greeting). */
void devsock_guest_arrived(struct model *m);
void devsock_guest_left(struct model *m, uint32_t guest_id);

/* link.c (MODEL_ROLE_DEVICE): join the server; -EBUSY when it refused us. */
int link_connect(struct model *m);
void link_close(struct model *m);

/* mailbox.c */
void mbox_doorbell(struct model *m);
/* A new guest starts from a clean mailbox and sequence. */
void mbox_reset(struct model *m);
/* Only the sequence and a held-back answer; the shared regions stay. */
void mbox_forget(struct model *m);
/* Forget an answer held back by the delay fault (a reset or power cut). */
void mbox_cancel_pending(struct model *m);

/* control.c */
int control_start(struct model *m);
void control_stop(struct model *m);

/* storm.c */
int storm_start(struct model *m, uint32_t count, uint32_t hz, uint32_t vector);
void storm_stop(struct model *m);

/* watchdog.c: BL0's idle loop and the watchdog's bites on the board's clock. */
int watchdog_start(struct model *m);
void watchdog_stop(struct model *m);

/* device.c: the glue to the software HAL and the firmware. */
int device_open(struct model *m);
void device_close(struct model *m);
/* Power-on: a cold boot. Returns the boot status. */
ota_status_t device_power_cycle(struct model *m);
ota_status_t device_command(struct model *m, uint32_t command, const uint8_t *req,
			    uint32_t req_len, uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);
/*
 * One tick of BL0's main loop: the runtime services the watchdog unless
 * it is played hung; a watchdog that reached its bite threshold bites (a
 * WARM reset and a boot).
 */
void device_watchdog_tick(struct model *m);
/* Whether the runtime that runs is one the board plays hung (control "hang"). */
bool device_runtime_hung(const struct model *m);
/* Arm (or with 0 disarm) the die-at-Nth-flash-write fault. */
void device_set_flash_fault(struct model *m, uint64_t nth);
/* How much of the write that fault tears lands: m->faults.flash_tear. */
void device_set_flash_tear(struct model *m);
void device_set_flash_latency(struct model *m);
/* What an update agent's flash write does: an image file into a slot. */
ota_status_t device_install(struct model *m, uint32_t stage, uint32_t slot, const char *path,
			    uint32_t *written);
/* OTP edits the harness needs: raise a floor or the epoch, revoke a key. */
ota_status_t device_otp_floor(struct model *m, uint32_t stage, uint32_t value);
ota_status_t device_otp_epoch(struct model *m, uint32_t value);
ota_status_t device_otp_revoke(struct model *m, bool creator, uint32_t index);
/* Leave test_unlocked for dev, prod or prod_end (enum ota_lifecycle), once. */
ota_status_t device_otp_lifecycle(struct model *m, uint32_t lifecycle);
/*
 * Play a compromised runtime: edit the runtime's own RAM copy of the boot
 * record (what GET_RECORD serves and ATTEST signs) until the next reset
 * (compromise.c). MBOX_NOT_READY with no runtime; HOST_BAD_ARGUMENT for
 * an unknown field or value.
 */
ota_status_t device_compromise(struct model *m, const char *what, const char *value);
/*
 * A flash programmer's attack (tamper.c): flip a bit of the boot tag of
 * stage/slot in the tag table copy the device picks, and reseal it.
 * MODEL_NO_TAG when that copy has no tag for the slot.
 */
ota_status_t device_tamper_tag(struct model *m, uint32_t stage, uint32_t slot);

/* The state and record changes the device publishes (called by device.c). */
void model_publish_state(struct model *m, uint32_t state, uint32_t detail);
void model_publish_progress(struct model *m, uint32_t done, uint32_t total);
void model_publish_record(struct model *m, const void *record, uint32_t len);
/* A guest is being admitted: before its greeting (server.c). */
void model_guest_connected(struct model *m);
/* A guest has its greeting and can be rung. */
void model_guest_started(struct model *m);
/* The guest with this id is gone (its peer is closed already). */
void model_guest_gone(struct model *m, uint32_t guest_id);
/* Fault knobs changed: apply what must take effect at once. */
void model_faults_changed(struct model *m, const char *name);

/* The process's event loop, which SIGTERM and SIGINT stop cleanly. 0 or -errno. */
int model_event_new(struct model *m);
void model_request_stop(struct model *m, const char *why);
/* Stop, and exit with code once stopped (a device whose server is gone). */
void model_request_exit(struct model *m, const char *why, int code);

#endif /* MODEL_MODEL_H */
