/* SPDX-License-Identifier: GPL-2.0 */
/*
 * otattest.ko internals: the per-device state shared by the module's
 * files. Each file has one job:
 *
 *   main.c     module init/exit, parameters, PCI probe/remove, IRQs,
 *              the device registry netlink looks devices up in
 *   shm.c      copy the info block and the record out of BAR2 and
 *              validate them (every byte there is untrusted)
 *   state.c    fold what shm.c read into the state userspace sees and
 *              publish changes (sysfs_notify, uevent, multicast)
 *   mailbox.c  one request in flight, sequence numbers, timeouts; each
 *              command's request length and response bound from the
 *              one command table (otattest/mailbox.h)
 *   sysfs.c    class "otattest", attribute groups, binary record
 *   netlink.c  generic netlink family "otattest"
 *
 * Locking, outermost first:
 *   mbox_lock     one mailbox request at a time (held while waiting)
 *   refresh_lock  one refresh + publish at a time
 *   state_lock    the snapshot below; held only to copy in or out
 * sysfs show() takes only state_lock, so refresh may add and remove
 * sysfs files (which waits for readers) while holding refresh_lock.
 */
#ifndef OTATTEST_KERNEL_H
#define OTATTEST_KERNEL_H

#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/pci.h>
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

/* Module parameters (main.c). */
extern unsigned int otattest_timeout_ms;
extern unsigned int otattest_poll_ms;
extern unsigned int otattest_event_interval_ms;

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
};

struct otattest_device {
	struct device dev; /* class device otattestN; its refcount frees this */
	int index;         /* N of otattestN */
	struct pci_dev *pdev;
	void __iomem *regs; /* BAR0: ivshmem registers */
	void __iomem *shm;  /* BAR2: shared memory */
	u32 shm_size;
	u32 peer_id; /* our ivshmem peer id (IVPosition) */
	struct otattest_layout layout;

	/*
	 * Set once by remove, under mbox_lock and refresh_lock; after that
	 * nothing touches BAR0/BAR2 (their mappings go away with the PCI
	 * device).
	 */
	bool gone;
	bool registered; /* device_add done: refresh may publish (refresh_lock) */
	u32 stages_shown; /* stage groups as sysfs has them (refresh_lock) */

	/* mailbox.c */
	struct mutex mbox_lock;
	wait_queue_head_t mbox_wq;
	u32 mbox_seq;     /* last sequence number sent */
	u32 mbox_awaited; /* sequence awaited, 0 when idle; READ_ONCE from IRQ */

	/* state.c */
	struct mutex refresh_lock;
	struct mutex state_lock;
	struct otattest_snapshot snap;
	bool unresponsive;      /* the last request timed out */
	u32 last_event_counter; /* info.event_counter at the last refresh */
	u32 stage_count_visible; /* stage groups shown; READ_ONCE in is_visible */
	struct delayed_work event_work;
	unsigned long event_next; /* jiffies before which events are coalesced */
	atomic_t event_irqs;     /* event interrupts since the last refresh */
	unsigned long event_flags; /* OTATTEST_EVENT_QUEUED */
	struct ota_record scratch; /* refresh's copy before it is judged (refresh_lock) */
};

static inline struct otattest_device *to_otattest(struct device *dev)
{
	return container_of(dev, struct otattest_device, dev);
}

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
void otattest_state_init(struct otattest_device *od);
void otattest_set_unresponsive(struct otattest_device *od, bool unresponsive);
const char *otattest_state_name(u32 state);

/* mailbox.c */
void otattest_mbox_init(struct otattest_device *od, u32 last_answered_seq);
void otattest_mbox_irq(struct otattest_device *od);
void otattest_mbox_shutdown(struct otattest_device *od);
ota_status_t otattest_mbox_call(struct otattest_device *od, u32 command, const void *req,
				u32 req_len, void *resp, u32 resp_cap, u32 *resp_len);

/* sysfs.c */
extern struct class otattest_class;
void otattest_sysfs_update_stages(struct otattest_device *od);

/* netlink.c */
int otattest_genl_register(void);
void otattest_genl_unregister(void);
void otattest_genl_notify_device(struct otattest_device *od, u32 event);
void otattest_genl_notify_record(struct otattest_device *od, u32 generation);
void otattest_genl_notify_state(struct otattest_device *od, u32 state, u32 detail);
void otattest_genl_notify_progress(struct otattest_device *od, u32 done, u32 total);

#endif /* OTATTEST_KERNEL_H */
