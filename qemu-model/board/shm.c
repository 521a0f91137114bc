// SPDX-License-Identifier: MIT
/* The device's shared memory: info block, record seqlock, mailbox regions. */
#include "shm.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otattest/record.h>

#include "fault.h"
#include "log.h"

/*
 * Shared-memory stores. The guest reads with its own barriers (the
 * driver's smp_rmb between the generation and the data), so the device
 * side needs its stores ordered: the odd generation before the data, the
 * data before the even generation.
 */
static void store32(volatile void *p, uint32_t v)
{
	__atomic_store_n((volatile uint32_t *)p, v, __ATOMIC_RELAXED);
}

static void store32_release(volatile void *p, uint32_t v)
{
	__atomic_store_n((volatile uint32_t *)p, v, __ATOMIC_RELEASE);
}

static void store_fence(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/* Copy into shared memory; the ordering comes from the fences around it. */
static void shm_copy(volatile uint8_t *dst, const void *src, uint32_t len)
{
	memcpy((void *)dst, src, len);
}

static void shm_zero(volatile uint8_t *dst, uint32_t len)
{
	memset((void *)dst, 0, len);
}

static volatile struct ota_shm_info *info_block(const struct shm *s)
{
	return (volatile struct ota_shm_info *)s->base;
}

static volatile uint8_t *record_region(const struct shm *s)
{
	return s->base + s->info.record_offset;
}

/* The info block the device means to show: the default layout, state OFF. */
static int fill_info(struct shm *s)
{
	s->info.magic = OTA_SHM_MAGIC;
	s->info.abi_major = OTA_SHM_ABI_MAJOR;
	s->info.abi_minor = OTA_SHM_ABI_MINOR;
	s->info.info_size = sizeof(struct ota_shm_info);
	s->info.shm_size = OTA_SHM_SIZE;
	s->info.device_state = OTA_DEV_OFF;
	s->info.state_detail = OTA_OK;
	s->info.record_offset = OTA_SHM_RECORD_OFFSET;
	s->info.record_size = OTA_SHM_RECORD_SIZE;
	s->info.request_offset = OTA_SHM_REQUEST_OFFSET;
	s->info.request_size = OTA_SHM_REQUEST_SIZE;
	s->info.response_offset = OTA_SHM_RESPONSE_OFFSET;
	s->info.response_size = OTA_SHM_RESPONSE_SIZE;
	/* The device checks its own layout with the driver's check. */
	return ota_shm_info_validate(&s->info, OTA_SHM_SIZE) == OTA_OK ? 0 : -EINVAL;
}

/* Map all of s->fd and decide what the info block says. 0 or -errno. */
static int map_whole(struct shm *s)
{
	s->base = mmap(NULL, OTA_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (s->base == MAP_FAILED) {
		s->base = NULL;
		return -errno;
	}
	return fill_info(s);
}

int shm_create(struct shm *s)
{
	int r;

	memset(s, 0, sizeof(*s));
	s->fd = memfd_create("otattest-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (s->fd < 0)
		return -errno;
	/*
	 * Sealed at its size: every peer maps all of it, and a peer that
	 * could shrink it would turn the others' accesses into SIGBUS.
	 */
	if (ftruncate(s->fd, OTA_SHM_SIZE) < 0 ||
	    fcntl(s->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
		r = -errno;
		goto fail;
	}
	r = map_whole(s);
	if (r < 0)
		goto fail;
	/* The magic goes last: a reader never sees a valid magic over a half-made block. */
	shm_zero(s->base, OTA_SHM_SIZE);
	shm_copy(s->base + sizeof(uint32_t), (const uint8_t *)&s->info + sizeof(uint32_t),
		 sizeof(s->info) - sizeof(uint32_t));
	store32_release(&info_block(s)->magic, s->info.magic);
	return 0;

fail:
	shm_destroy(s);
	return r;
}

void shm_destroy(struct shm *s)
{
	if (s->base)
		munmap(s->base, OTA_SHM_SIZE);
	s->base = NULL;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/*
 * Write the whole info block under the event seqlock: the mutable fields
 * change, and every other field is rewritten from the private copy so a
 * guest that scribbled on it sees the truth again at the next change.
 */
static void write_info(struct shm *s)
{
	volatile struct ota_shm_info *in = info_block(s);

	s->info.event_counter += 1; /* odd: being written */
	store32(&in->event_counter, s->info.event_counter);
	store_fence();
	shm_copy((volatile uint8_t *)in, &s->info, offsetof(struct ota_shm_info, event_counter));
	shm_copy((volatile uint8_t *)in + offsetof(struct ota_shm_info, record_offset),
		 &s->info.record_offset,
		 sizeof(s->info) - offsetof(struct ota_shm_info, record_offset));
	s->info.event_counter += 1; /* even: consistent */
	store32_release(&in->event_counter, s->info.event_counter);
}

void shm_set_state(struct shm *s, uint32_t state, uint32_t detail)
{
	s->info.device_state = state;
	s->info.state_detail = detail;
	write_info(s);
}

void shm_set_progress(struct shm *s, uint32_t done, uint32_t total)
{
	s->info.progress_done = done;
	s->info.progress_total = total;
	write_info(s);
}

static void write_record(struct shm *s, const struct faults *f)
{
	volatile uint8_t *region = record_region(s);
	volatile struct ota_shm_record *hdr = (volatile struct ota_shm_record *)region;
	uint32_t cap = s->info.record_size - (uint32_t)sizeof(struct ota_shm_record);
	uint8_t shown[OTA_RECORD_MAX_BYTES];
	uint32_t len = s->record_len, reported;

	if (len > cap || len > sizeof(shown))
		len = cap < sizeof(shown) ? cap : (uint32_t)sizeof(shown);
	memcpy(shown, s->record, len);
	reported = len;
	if (f) {
		fault_corrupt_bytes(f->corrupt_record, f->n_corrupt_record, shown, len);
		if (f->record_length_set)
			reported = f->record_length;
	}

	s->record_seq += 1; /* odd: a reader that sees this retries */
	store32(&hdr->generation, s->record_seq);
	store_fence();
	store32(&hdr->length, reported);
	store32(&hdr->reserved[0], 0);
	store32(&hdr->reserved[1], 0);
	shm_copy(region + sizeof(*hdr), shown, len);
	/* Leave no bytes of a longer previous record behind the new one. */
	if (s->shown_record_len > len)
		shm_zero(region + sizeof(*hdr) + len, s->shown_record_len - len);
	s->shown_record_len = len;
	s->record_seq += 1;
	store32_release(&hdr->generation, s->record_seq);

	/* A record change moves the event counter too (by a whole write). */
	write_info(s);
}

void shm_publish_record(struct shm *s, const void *record, uint32_t len,
			const struct faults *f)
{
	ota_status_t st;

	if (len > sizeof(s->record)) {
		log_warn("record-too-long", "length=%u capacity=%zu", len, sizeof(s->record));
		len = (uint32_t)sizeof(s->record);
	}
	/* The device publishes what it has; a firmware bug is worth a loud line. */
	st = ota_record_validate(record, len);
	if (st != OTA_OK)
		log_warn("record-invalid", "status=%s length=%u", status_str(st), len);
	memcpy(s->record, record, len);
	s->record_len = len;
	s->have_record = true;
	write_record(s, f);
}

void shm_republish_record(struct shm *s, const struct faults *f)
{
	if (s->have_record)
		write_record(s, f);
}

/* The next even value at or after v: where a seqlock counter carries on. */
static uint32_t round_up_even(uint32_t v)
{
	return (v + 1u) & ~1u;
}

int shm_attach(struct shm *s, int fd)
{
	struct stat st;
	int seals, r;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	/* Mapped whole, and nobody may shrink it under us (SIGBUS): as shm_create makes it. */
	seals = fcntl(s->fd, F_GET_SEALS);
	if (seals < 0 || fstat(s->fd, &st) < 0) {
		r = -errno;
		goto fail;
	}
	if (st.st_size != OTA_SHM_SIZE || !(seals & F_SEAL_SHRINK)) {
		r = -EPROTO;
		goto fail;
	}
	r = map_whole(s);
	if (r < 0)
		goto fail;
	/*
	 * The memory outlives device processes, and the driver has been
	 * watching its two seqlock counters all along: it takes "the event
	 * counter moved" as the device being back, and a counter that
	 * returned to a value it saw before could pass a torn copy as
	 * whole. So both carry on from the values found here. That is the
	 * only thing read back, and any value will do: the guest can write
	 * them too, and all it can get is its own driver confused.
	 */
	s->info.event_counter = round_up_even(__atomic_load_n(&info_block(s)->event_counter,
							      __ATOMIC_ACQUIRE));
	s->record_seq = round_up_even(__atomic_load_n(
		&((volatile struct ota_shm_record *)record_region(s))->generation, __ATOMIC_ACQUIRE));
	/*
	 * Everything else is stale, from a device that died at any moment:
	 * the record region is emptied whole (this power-on has no record
	 * yet) and the info block rewritten, state OFF; the response region
	 * is cleared (no answer is owed). The request region is the guest's
	 * and stays: a request rung after this device joined is a real one.
	 */
	s->shown_record_len = s->info.record_size - (uint32_t)sizeof(struct ota_shm_record);
	write_record(s, NULL);
	shm_zero(shm_response(s), s->info.response_size);
	store_fence();
	return 0;

fail:
	shm_destroy(s);
	return r;
}

volatile uint8_t *shm_request(const struct shm *s)
{
	return s->base + s->info.request_offset;
}

volatile uint8_t *shm_response(const struct shm *s)
{
	return s->base + s->info.response_offset;
}

uint32_t shm_request_capacity(const struct shm *s)
{
	return s->info.request_size - (uint32_t)sizeof(struct ota_mbox_header);
}

uint32_t shm_response_capacity(const struct shm *s)
{
	return s->info.response_size - (uint32_t)sizeof(struct ota_mbox_header);
}

void shm_clear_mailbox(struct shm *s)
{
	shm_zero(shm_request(s), s->info.request_size);
	shm_zero(shm_response(s), s->info.response_size);
	store_fence();
}
