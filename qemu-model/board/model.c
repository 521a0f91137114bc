// SPDX-License-Identifier: MIT
/*
 * Glue between the parts: what the device publishes goes to shared memory
 * and rings the guest; guest arrivals and fault-knob changes take effect.
 */
#include <signal.h>
#include <string.h>

#include <otattest/record.h>

#include "model.h"

void model_publish_state(struct model *m, uint32_t state, uint32_t detail)
{
	shm_set_state(&m->shm, state, detail);
	log_info("state", "state=%s detail=%s event-counter=%u", ota_device_state_name(state),
		 status_str(detail), m->shm.info.event_counter);
	server_ring_guest(m, OTA_VEC_EVENT);
}

void model_publish_progress(struct model *m, uint32_t done, uint32_t total)
{
	shm_set_progress(&m->shm, done, total);
	log_info("progress", "done=%u total=%u event-counter=%u", done, total,
		 m->shm.info.event_counter);
	server_ring_guest(m, OTA_VEC_EVENT);
}

void model_publish_record(struct model *m, const void *record, uint32_t len)
{
	struct ota_record_header h;
	const struct ota_record_update *u = NULL;

	shm_publish_record(&m->shm, record, len, &m->faults);
	memset(&h, 0, sizeof(h));
	memcpy(&h, record, len < sizeof(h) ? len : sizeof(h));
	/* What a soak's judge asks of each boot: the BL0 slot that runs, the trial, a revert. */
	if (len >= sizeof(h) && ota_record_validate(record, len) == OTA_OK &&
	    (h.flags & OTA_RECORD_F_UPDATE_SECTION))
		u = ota_record_update_of(record);
	log_info("record", "generation=%u length=%u stages=%u reset=%u boot-status=%s "
		 "shm-generation=%u event-counter=%u bl0-slot=%d primary=%d trial-boots=%u "
		 "revert=%u reverted-slot=%u",
		 h.generation, len, h.stage_count, h.reset_reason, status_str(h.boot_status),
		 m->shm.record_seq, m->shm.info.event_counter,
		 u && u->running_bl0_slot < OTA_SLOT_COUNT ? (int)u->running_bl0_slot : -1,
		 u ? (int)u->primary_slot : -1, u ? u->trial_boots : 0, u ? u->revert_reason : 0,
		 u ? u->reverted_slot : 0);
	server_ring_guest(m, OTA_VEC_EVENT);
}

static void run_storm(struct model *m)
{
	int r = storm_start(m, m->faults.storm_count, m->faults.storm_hz, m->faults.storm_vector);

	if (r < 0)
		log_warn("irq-storm-failed", "errno=%d", -r);
}

void model_guest_connected(struct model *m)
{
	if (m->opt.role != MODEL_ROLE_SERVER) {
		mbox_reset(m);
		return;
	}
	/*
	 * The device is another process: the server clears the mailbox
	 * regions itself and tells the device of the guest before greeting
	 * it, so the guest cannot ring a device that does not know it yet;
	 * the device forgets the last guest's sequence when it hears.
	 */
	shm_clear_mailbox(&m->shm);
	devsock_guest_arrived(m);
}

void model_guest_gone(struct model *m, uint32_t guest_id)
{
	storm_stop(m);
	if (m->opt.role == MODEL_ROLE_SERVER)
		devsock_guest_left(m, guest_id);
}

void model_guest_started(struct model *m)
{
	/* A storm knob set at start (or left set) greets every guest. */
	if (m->faults.storm_count)
		run_storm(m);
}

void model_faults_changed(struct model *m, const char *name)
{
	bool all = strcmp(name, "clear") == 0;
	char desc[1024];

	if (all || strcmp(name, "corrupt-record") == 0 || strcmp(name, "record-length") == 0) {
		/* Show the record as the knobs now say, as a change the guest is told of. */
		shm_republish_record(&m->shm, &m->faults);
		server_ring_guest(m, OTA_VEC_EVENT);
	}
	if (all || strcmp(name, "irq-storm") == 0) {
		if (m->faults.storm_count && server_has_guest(m))
			run_storm(m);
		else
			storm_stop(m);
	}
	if (all || strcmp(name, "die-at-flash-write") == 0)
		device_set_flash_fault(m, m->faults.die_at_flash_write);
	if (all || strcmp(name, "flash-tear") == 0)
		device_set_flash_tear(m);
	if (all || strcmp(name, "flash-latency") == 0)
		device_set_flash_latency(m);
	fault_describe(&m->faults, desc, sizeof(desc));
	log_info("faults", "%s", desc);
}

void model_request_exit(struct model *m, const char *why, int code)
{
	if (m->stopping)
		return;
	m->stopping = true;
	m->exit_code = code;
	log_info("stopping", "reason=%s", why);
	sd_event_exit(m->event, 0);
}

void model_request_stop(struct model *m, const char *why)
{
	model_request_exit(m, why, 0);
}

static int on_signal(sd_event_source *src, const struct signalfd_siginfo *si, void *userdata)
{
	(void)src;
	model_request_stop(userdata, si->ssi_signo == SIGTERM ? "sigterm" : "sigint");
	return 0;
}

int model_event_new(struct model *m)
{
	sigset_t mask;
	int r;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	r = sd_event_new(&m->event);
	if (r < 0)
		return r;
	r = sd_event_add_signal(m->event, NULL, SIGTERM, on_signal, m);
	if (r >= 0)
		r = sd_event_add_signal(m->event, NULL, SIGINT, on_signal, m);
	return r < 0 ? r : 0;
}
