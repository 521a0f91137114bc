/* SPDX-License-Identifier: GPL-2.0 */
/*
 * otattest.ko internals: the per-device state shared by the module's
 * files. Each file has one job:
 *
 *   main.c     module init/exit, parameters, PCI probe/remove, IRQs,
 *              the device registry netlink looks devices up in
 *   shm.c      copy the info block and the record out of BAR2 and
 *              validate them (every byte there is untrusted)
 *   state.c    fold what shm.c read and what the mailbox learnt into
 *              the state userspace sees, and publish changes
 *              (sysfs_notify, uevent, multicast); ask the runtime its
 *              version (GET_INFO) in a work of its own when other images
 *              booted
 *   mailbox.c  the transport: who gets the mailbox next (two lanes,
 *              bounded per caller), one request in flight, sequence
 *              numbers, timeouts, killable waits; each command's request
 *              length and response bound from the one command table
 *              (otattest/mailbox.h). It reports liveness to state.c and
 *              never publishes anything itself.
 *   sysfs.c    class "otattest", attribute groups, binary record
 *   sysfs-update.c  the record's update section: update state, slots
 *   netlink.c  generic netlink family "otattest": who may send which
 *              command, the handlers, the events
 *   netlink-update.c  the update agent's commands: install sessions
 *              (each chunk held to the session before it is sent),
 *              commit, ratchet, revoke
 *
 * Locking, outermost first:
 *   install_lock  one install-session step at a time (held across its
 *                 mailbox request)
 *   refresh_lock  one refresh + publish at a time
 *   state_lock    the snapshot below; held only to copy in or out
 *   lock          a spinlock: gone, the mailbox queue and its owner;
 *                 held only briefly, never while sleeping
 * The mailbox is not a lock a task sleeps in: a request waits (killably)
 * in its lane's queue until it is granted the mailbox, and holds it
 * (mbox_busy) while it writes, rings and waits for the answer.
 * sysfs show() takes only state_lock, so refresh may add and remove
 * sysfs files (which waits for readers) while holding refresh_lock.
 */
#ifndef OTATTEST_KERNEL_H
#define OTATTEST_KERNEL_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <otattest/driver-state.h>
#include <otattest/genl.h>
#include <otattest/record.h>
#include <otattest/shm.h>
#include <otattest/status.h>

#define OTATTEST_DRV_NAME "otattest"

/* event_flags: the IRQ already armed the coalesced refresh. */
#define OTATTEST_EVENT_QUEUED 0
/* Event interrupts in a row without an event that make a storm (state.c). */
#define OTATTEST_STORM_IRQS 200

/* Module parameters (main.c). */
extern unsigned int otattest_timeout_ms;
extern unsigned int otattest_poll_ms;
extern unsigned int otattest_event_interval_ms;
extern unsigned int otattest_caller_queue;

/*
 * The mailbox's two lanes. A request in the privileged lane (rotation,
 * update reset) is granted the mailbox before any waiting reader: it
 * waits at most for the one request the device is serving.
 */
enum otattest_lane {
	OTATTEST_LANE_READER,
	OTATTEST_LANE_PRIVILEGED,
	OTATTEST_LANES
};

/* Requests one lane holds at most (waiting or being served), all callers. */
#define OTATTEST_LANE_MAX 32u

/* Where the regions live; fixed at probe from the validated info block. */
struct otattest_layout {
	u32 record_offset, record_size;
	u32 request_offset, request_size;
	u32 response_offset, response_size;
};

/* What userspace sees; protected by state_lock. */
struct otattest_snapshot {
	struct ota_shm_info info; /* last info block that validated */
	struct ota_record record; /* last record that validated */
	u32 record_len;           /* 0: no valid record to show */
	u32 state;                /* enum ota_device_state or otattest_driver_state */
	u32 state_detail;         /* status code saying why */
	ota_status_t info_status;   /* the last refresh's verdict on the info block */
	ota_status_t record_status; /* ... and on the record */
	/*
	 * What the running BL0 says its code is (GET_INFO), asked after
	 * probe and after each new record; "" while unknown.
	 */
	char runtime_version[OTA_VERSION_STRING_BYTES + 1];
};

/*
 * The install session the driver lets through (netlink-update.c): the
 * device keeps one, and the driver holds each chunk to it before it
 * reaches the mailbox. Under install_lock.
 */
struct otattest_install {
	bool open;
	u32 owner;    /* netlink port id of the socket that began it */
	u32 stage;    /* enum ota_stage */
	u32 slot;     /* the slot the device resolved */
	u32 length;   /* bytes announced */
	u32 received; /* bytes the device acknowledged */
	bool dry_run; /* a check: the device writes nothing */
};

struct otattest_device {
	struct device dev; /* class device otattestN; its refcount frees this */
	int index;         /* N of otattestN */
	struct pci_dev *pdev;
	void __iomem *regs; /* BAR0: ivshmem registers */
	void __iomem *shm;  /* BAR2: shared memory */
	u32 shm_size;
	u32 peer_id; /* our ivshmem peer id (IVPosition); the device's is OTA_SHM_DEVICE_PEER_ID */
	struct otattest_layout layout;

	spinlock_t lock; /* gone and the mailbox fields below */
	/*
	 * Set once by remove, under lock and refresh_lock; after that
	 * nothing touches BAR0/BAR2 (their mappings go away with the PCI
	 * device) and no refresh is queued.
	 */
	bool gone;
	bool registered; /* device_add done: refresh may publish (refresh_lock) */
	u32 stages_shown; /* stage groups as sysfs has them (refresh_lock) */

	/* mailbox.c, under lock */
	wait_queue_head_t mbox_wq;     /* waiters for a grant, an answer or idleness */
	struct list_head mbox_queue[OTATTEST_LANES]; /* waiters, FIFO in each lane */
	u32 mbox_queued[OTATTEST_LANES]; /* waiting or being served, per lane */
	bool mbox_busy;       /* a request holds the mailbox */
	bool mbox_orphan;     /* the request in flight lost its sender; still owed an answer */
	kuid_t mbox_holder;   /* caller of the request holding (or orphaning) the mailbox */
	enum otattest_lane mbox_holder_lane;
	bool mbox_unresponsive; /* the last request got no answer in time */
	u32 mbox_seq;         /* last sequence number sent */
	u32 mbox_awaited;     /* sequence in flight, 0 when none; READ_ONCE from IRQ */
	unsigned long mbox_deadline; /* jiffies: when the request in flight times out */

	/* state.c */
	struct mutex refresh_lock;
	struct mutex state_lock;
	struct otattest_snapshot snap;
	u32 published_state;    /* state and detail as last published (refresh_lock) */
	u32 published_detail;
	u32 last_event_counter; /* info.event_counter at the last refresh */
	u32 stage_count_visible; /* stage groups shown; READ_ONCE in is_visible */
	struct delayed_work event_work;
	unsigned long event_next; /* jiffies before which events are coalesced */
	atomic_t event_irqs;     /* event interrupts since the last refresh */
	u32 storm_irqs;          /* event interrupts since the device last moved (event work) */
	u32 storm_counter;       /* info.event_counter they are counted against */
	unsigned long storm_since; /* jiffies: when that count began */
	unsigned long event_flags; /* OTATTEST_EVENT_QUEUED */
	struct ota_record scratch; /* refresh's copy before it is judged (refresh_lock) */
	/*
	 * The runtime's version (state.c), under refresh_lock: stale until
	 * the device answered GET_INFO (or refused it) since the record's
	 * stages last changed; version_epoch counts those changes, so the
	 * work drops an answer that came from the images before.
	 */
	bool version_stale;
	u32 version_epoch;
	struct work_struct version_work;

	/* netlink-update.c: one install at a time, in order */
	struct mutex install_lock;
	struct otattest_install install;
};

static inline struct otattest_device *to_otattest(struct device *dev)
{
	return container_of(dev, struct otattest_device, dev);
}

/*
 * Two kernel series (docs/kernel-abi.md, "Two kernel series"): a few
 * callbacks the driver hands the core changed their pointer types between
 * 6.1 and 6.12 (a const device for dev_uevent; the split op for genetlink's
 * pre/post doit). The driver writes the body once and a wrapper per
 * signature, and the slot gets the wrapper whose type is the slot's own,
 * chosen at compile time by _Generic on that type, the way the kernel's
 * container_of_const() chooses, not by a version number. A third
 * signature in some later kernel is a build error, not a silent cast.
 *   OTATTEST_FOR_SLOT(struct class, dev_uevent, fn_a, fn_b)
 */
#define OTATTEST_FOR_SLOT(type, member, fn_a, fn_b) \
	_Generic((typeof_member(type, member))NULL, typeof(&(fn_a)): (fn_a), default: (fn_b))

/* main.c: device registry, references held across a netlink request. */
struct otattest_device *otattest_get(u32 index);
struct otattest_device *otattest_get_next(unsigned long *index);
void otattest_put(struct otattest_device *od);

/* shm.c */
ota_status_t otattest_shm_read_info(struct otattest_device *od, struct ota_shm_info *out);
ota_status_t otattest_shm_check_layout(const struct otattest_device *od,
				       const struct ota_shm_info *info);
void otattest_layout_from_info(struct otattest_layout *l, const struct ota_shm_info *info);
ota_status_t otattest_shm_read_record(struct otattest_device *od, struct ota_record *out,
				      u32 *len);

/* state.c */
void otattest_refresh(struct otattest_device *od);
void otattest_event_irq(struct otattest_device *od);
void otattest_event_work(struct work_struct *work);
void otattest_version_work(struct work_struct *work);
void otattest_state_init(struct otattest_device *od);
/* The mailbox's verdict on liveness changed: show it now, publish soon. */
void otattest_state_liveness_changed(struct otattest_device *od);
/* Publish soon from the event work; a no-op once the device is gone. */
void otattest_state_kick(struct otattest_device *od);
const char *otattest_state_name(u32 state);

/* mailbox.c */
void otattest_mbox_init(struct otattest_device *od, u32 last_answered_seq);
void otattest_mbox_irq(struct otattest_device *od);
void otattest_mbox_shutdown(struct otattest_device *od);
bool otattest_mbox_unresponsive(struct otattest_device *od);
/* The device showed life on its own (its event counter moved). */
void otattest_mbox_device_moved(struct otattest_device *od);
ota_status_t otattest_mbox_call(struct otattest_device *od, enum otattest_lane lane, u32 command,
				const void *req, u32 req_len, void *resp, u32 resp_cap,
				u32 *resp_len);

/* sysfs.c */
extern struct class otattest_class;
/* sysfs-update.c: the record's update section (update/, slot_<stage>_<slot>/) */
extern const struct attribute_group otattest_update_group;
extern const struct attribute_group otattest_slot_rom_ext_a_group;
extern const struct attribute_group otattest_slot_rom_ext_b_group;
extern const struct attribute_group otattest_slot_bl0_a_group;
extern const struct attribute_group otattest_slot_bl0_b_group;
void otattest_sysfs_update_stages(struct otattest_device *od);

/* netlink.c */
int otattest_genl_register(void);
void otattest_genl_unregister(void);
void otattest_genl_notify_device(struct otattest_device *od, u32 event);
void otattest_genl_notify_record(struct otattest_device *od, u32 generation);
void otattest_genl_notify_state(struct otattest_device *od, u32 state, u32 detail);
void otattest_genl_notify_progress(struct otattest_device *od, u32 done, u32 total);
/*
 * The runtime's version became known ("": unknown again), as of the
 * record of this generation (0: no record).
 */
void otattest_genl_notify_runtime(struct otattest_device *od, const char *version, u32 generation);

#endif /* OTATTEST_KERNEL_H */
