// SPDX-License-Identifier: GPL-2.0
/*
 * Hang detection and recovery (uAPI 1.8, docs/uapi.md "Recovery"): a
 * watchdog reads the card's health registers (docs/hw-interface.md "What a
 * driver may conclude") and tells a hung card, a hung command or a failed
 * card from a slow one; one recovery at a time resets the card under the
 * RESET ioctl's locks, and the commands lost complete with IPU_STATUS_HUNG
 * once the card confirmed the reset (READY).
 */
#include <linux/jiffies.h>
#include <linux/kobject.h>
#include <linux/module.h>

#include "ipu_drv.h"
#include "ipu_trace.h"

static unsigned int watchdog_period_ms = 100;
module_param(watchdog_period_ms, uint, 0644);
MODULE_PARM_DESC(watchdog_period_ms,
		 "Hang detection: watchdog period in ms (0: off)");

static unsigned int heartbeat_timeout_ms = IPU_HEARTBEAT_TIMEOUT_MS;
module_param(heartbeat_timeout_ms, uint, 0644);
MODULE_PARM_DESC(heartbeat_timeout_ms,
		 "A READY card whose heartbeat stands still this long is hung");

static unsigned int progress_timeout_ms = IPU_PROGRESS_TIMEOUT_MS;
module_param(progress_timeout_ms, uint, 0644);
MODULE_PARM_DESC(progress_timeout_ms,
		 "A command that stalls PROGRESS this long is hung");

/* While off, the watchdog looks once a second whether it was turned on. */
#define IPU_WDT_IDLE_MS		1000

static const char *const ipu_hung_names[] = {
	[IPU_HUNG_CARD] = "heartbeat stopped",
	[IPU_HUNG_COMMAND] = "command stalled",
	[IPU_HUNG_FATAL] = "card failed",
	[IPU_HUNG_CORRUPT] = "corrupt completion",
};

/* Start the watchdog's spans again from what the card shows now. */
static void ipu_wdt_rebase(struct ipu_device *idev, u32 reset_count)
{
	idev->wdt_reset_count = reset_count;
	idev->wdt_heartbeat = ipu_read(idev, IPU_REG_HEARTBEAT);
	idev->wdt_progress = ipu_read(idev, IPU_REG_PROGRESS);
	idev->wdt_active = ipu_read(idev, IPU_REG_ACTIVE);
	idev->wdt_hb_since = jiffies;
	idev->wdt_progress_since = jiffies;
}

static bool ipu_wdt_expired(unsigned long since, unsigned int ms)
{
	return time_after(jiffies, since + msecs_to_jiffies(ms));
}

/*
 * A card in a group may wait at an external sync without PROGRESS for up
 * to the fabric's sync timeout (hw-interface "What a driver may conclude"):
 * a card with IPU-Links may be in one, so it is allowed that much more.
 * Not a closing queue's command (@active's queue): the detach runs only
 * UNLOAD, unbinds and ABORTs there, which wait at no sync, and it holds
 * the card meanwhile.
 */
static unsigned int ipu_wdt_progress_limit(struct ipu_device *idev,
					   u32 active)
{
	unsigned int ms = READ_ONCE(progress_timeout_ms);
	unsigned int qi = IPU_ACTIVE_QUEUE(active);

	if (idev->feat.links &&
	    !(qi < IPU_NUM_QUEUES && READ_ONCE(idev->queues[qi].closing)))
		ms += IPU_SYNC_TIMEOUT_MS_DEFAULT;
	return ms;
}

/* hw_rwsem (read) held, !gone: the IPU_HUNG_* cause, or 0 for healthy. */
static u32 ipu_wdt_check(struct ipu_device *idev)
{
	u32 state = ipu_read(idev, IPU_REG_STATUS) & IPU_CARD_STATE_MASK;
	u32 count = ipu_read(idev, IPU_REG_RESET_COUNT);
	u32 hb, progress, active;

	/* A fatal error, not a reset that failed: that waits for a RESET. */
	if (state == IPU_CARD_STATE_FAILED &&
	    (ipu_read(idev, IPU_REG_HEALTH) & IPU_HEALTH_FATAL))
		return IPU_HUNG_FATAL;
	if (state != IPU_CARD_STATE_READY || count != idev->wdt_reset_count ||
	    READ_ONCE(idev->halted)) {
		ipu_wdt_rebase(idev, count);
		return 0;
	}

	hb = ipu_read(idev, IPU_REG_HEARTBEAT);
	if (hb != idev->wdt_heartbeat) {
		idev->wdt_heartbeat = hb;
		idev->wdt_hb_since = jiffies;
	} else if (ipu_wdt_expired(idev->wdt_hb_since,
				   READ_ONCE(heartbeat_timeout_ms))) {
		return IPU_HUNG_CARD;
	}

	/* The same command busy, PROGRESS still: hung; else slow or idle. */
	progress = ipu_read(idev, IPU_REG_PROGRESS);
	active = ipu_read(idev, IPU_REG_ACTIVE);
	if (!(active & IPU_ACTIVE_BUSY) || active != idev->wdt_active ||
	    progress != idev->wdt_progress) {
		idev->wdt_active = active;
		idev->wdt_progress = progress;
		idev->wdt_progress_since = jiffies;
	} else if (ipu_wdt_expired(idev->wdt_progress_since,
				   ipu_wdt_progress_limit(idev, active))) {
		return IPU_HUNG_COMMAND;
	}
	return 0;
}

static void ipu_wdt_arm(struct ipu_device *idev)
{
	unsigned int ms = READ_ONCE(watchdog_period_ms) ?: IPU_WDT_IDLE_MS;

	if (!READ_ONCE(idev->gone))
		schedule_delayed_work(&idev->wdt_work, msecs_to_jiffies(ms));
}

static void ipu_wdt_work(struct work_struct *work)
{
	struct ipu_device *idev = container_of(to_delayed_work(work),
					       struct ipu_device, wdt_work);
	u32 cause = 0;

	/* Lost waiters: recovered even with hang detection off. */
	if (atomic_xchg(&idev->corrupt_cqe, 0)) {
		cause = IPU_HUNG_CORRUPT;
	} else if (READ_ONCE(watchdog_period_ms)) {
		down_read(&idev->hw_rwsem);
		if (!READ_ONCE(idev->gone))
			cause = ipu_wdt_check(idev);
		/* The recovery re-checks against the count of the finding. */
		if (cause)
			idev->wdt_reset_count = ipu_read(idev,
							 IPU_REG_RESET_COUNT);
		up_read(&idev->hw_rwsem);
	}
	if (!cause) {
		ipu_wdt_arm(idev);
		return;
	}
	/* Single flight: the watchdog rests until the recovery re-arms it. */
	WRITE_ONCE(idev->hung_cause, cause);
	if (!READ_ONCE(idev->gone))
		schedule_work(&idev->recovery_work);
}

/*
 * KOBJ_CHANGE with IPU_EVENT=@event and, for a recovery, IPU_HUNG=@cause
 * (docs/uapi.md "Recovery"). Takes no lock.
 */
void ipu_health_uevent(struct ipu_device *idev, const char *event, u32 cause)
{
	char ev[32], hung[16];
	char *envp[3];

	snprintf(ev, sizeof(ev), "IPU_EVENT=%s", event);
	snprintf(hung, sizeof(hung), "IPU_HUNG=%u", cause);
	envp[0] = ev;
	envp[1] = cause ? hung : NULL;
	envp[2] = NULL;
	kobject_uevent_env(&idev->dev.kobj, KOBJ_CHANGE, envp);
}

/*
 * attach_lock and hw_rwsem (read) held, !gone (attach_lock excludes every
 * other reset: RESET and recovery_work take it, a function reset takes
 * hw_rwsem for writing): reset the card for @cause; the lost commands of
 * the kernel queues complete HUNG once it is READY.
 */
static int ipu_recover_locked(struct ipu_device *idev, u32 cause)
{
	struct ipu_reset rst = { .argsz = sizeof(rst) };
	int ret;

	dev_warn(&idev->dev, "card hung (%s): recovering\n",
		 ipu_hung_names[cause]);
	trace_ipu_reset(idev->minor, 0, ipu_read(idev, IPU_REG_RESET_COUNT));
	ipu_queues_mark_hung(idev, cause);
	ret = ipu_do_reset(idev, &rst);
	trace_ipu_reset_done(idev->minor, ret, rst.reset_count);
	if (ret)
		dev_warn(&idev->dev, "recovery failed: %d\n", ret);
	else
		atomic_inc(&idev->recoveries);
	return ret;
}

/*
 * The watchdog's finding @cause (0: none, the work was queued by a detach)
 * re-checked under RESET's locks: a detach that recovered the card already
 * gives its cause in *@done and 0; a card reset by someone else since the
 * finding and READY is left alone (-EALREADY); else it is reset.
 */
static int ipu_recover(struct ipu_device *idev, u32 cause, u32 *done)
{
	int ret = -ENODEV;

	mutex_lock(&idev->reset_lock);
	mutex_lock(&idev->attach_lock);
	down_read(&idev->hw_rwsem);
	*done = cause;
	if (READ_ONCE(idev->gone))
		goto out;
	ret = -EALREADY;
	if (idev->detach_recovered) {
		*done = idev->detach_recovered;
		WRITE_ONCE(idev->detach_recovered, 0);
		ret = 0;
	} else if (cause && !(ipu_card_ready(idev) &&
			      ipu_read(idev, IPU_REG_RESET_COUNT) !=
			      idev->wdt_reset_count)) {
		ret = ipu_recover_locked(idev, cause);
	}
	/* Only the watchdog's flight rests it: nobody else runs it now. */
	if (cause)
		ipu_wdt_rebase(idev, ipu_read(idev, IPU_REG_RESET_COUNT));
out:
	up_read(&idev->hw_rwsem);
	mutex_unlock(&idev->attach_lock);
	mutex_unlock(&idev->reset_lock);
	return ret;
}

static void ipu_recovery_work(struct work_struct *work)
{
	struct ipu_device *idev = container_of(work, struct ipu_device,
					       recovery_work);
	u32 cause = READ_ONCE(idev->hung_cause);
	u32 done;

	/* Only a recovery that happened is announced, after it. */
	if (!ipu_recover(idev, cause, &done)) {
		if (done == IPU_HUNG_FATAL)
			ipu_health_uevent(idev, "fatal", 0);
		ipu_health_uevent(idev, "recovery", done);
	}
	if (cause)
		WRITE_ONCE(idev->hung_cause, 0);
	ipu_wdt_arm(idev);
}

/**
 * ipu_card_stuck() - is waiting for the card to finish or let go futile?
 * @idev: the card; hw_rwsem held (read or write), the BAR mapped
 *
 * True when the card FAILED, or the watchdog found it hung and no detach
 * recovered it since: only a reset makes it let go. A card being removed
 * is never stuck (remove halts it after the usual waits).
 */
bool ipu_card_stuck(struct ipu_device *idev)
{
	u32 status;

	if (READ_ONCE(idev->gone))
		return false;
	if (READ_ONCE(idev->hung_cause) && !READ_ONCE(idev->detach_recovered))
		return true;
	status = ipu_read(idev, IPU_REG_STATUS);
	return status != ~0u &&
	       (status & IPU_CARD_STATE_MASK) == IPU_CARD_STATE_FAILED;
}

/**
 * ipu_recover_detaching() - recover, for a detach, a card that needs it
 * @idev: the card; the caller holds attach_lock, ctx->mutex and hw_rwsem
 *	(read), the card not gone
 *
 * The recovery that recovery_work would do once it gets attach_lock, done
 * now by the detach that holds it (there is one attached context: its
 * queue is closing and left alone); recovery_work, queued, then finds the
 * card recovered and only announces it. Only for a card the watchdog found
 * hung or that failed with HEALTH.FATAL, and the watchdog on.
 * Return: true when the card is READY after the reset: it let go of
 * everything; false when there was nothing to recover or it failed.
 */
bool ipu_recover_detaching(struct ipu_device *idev)
{
	u32 cause = 0;

	/* remove stops the queues without attach_lock: it halts the card. */
	if (READ_ONCE(idev->gone) || !idev->feat.health ||
	    !idev->feat.soft_reset || !READ_ONCE(watchdog_period_ms))
		return false;
	lockdep_assert_held(&idev->attach_lock);
	/* A finding a detach recovered already is not recovered again. */
	if (!idev->detach_recovered)
		cause = READ_ONCE(idev->hung_cause);
	if (!cause &&
	    (ipu_read(idev, IPU_REG_STATUS) & IPU_CARD_STATE_MASK) ==
	    IPU_CARD_STATE_FAILED &&
	    (ipu_read(idev, IPU_REG_HEALTH) & IPU_HEALTH_FATAL))
		cause = IPU_HUNG_FATAL;
	if (!cause || ipu_recover_locked(idev, cause) || !ipu_card_ready(idev))
		return false;
	WRITE_ONCE(idev->detach_recovered, cause);
	schedule_work(&idev->recovery_work);
	return true;
}

void ipu_recovery_init(struct ipu_device *idev)
{
	INIT_DELAYED_WORK(&idev->wdt_work, ipu_wdt_work);
	INIT_WORK(&idev->recovery_work, ipu_recovery_work);
	atomic_set(&idev->recoveries, 0);
	atomic_set(&idev->corrupt_cqe, 0);
	atomic64_set(&idev->generation, 0);
	idev->detach_recovered = 0;
}

/*
 * End of probe, the card settled: a card with CAPS.HEALTH is watched, if
 * the driver can recover it (CAPS.SOFT_RESET).
 */
void ipu_recovery_start(struct ipu_device *idev)
{
	if (!idev->feat.health || !idev->feat.soft_reset)
		return;
	down_read(&idev->hw_rwsem);
	ipu_wdt_rebase(idev, ipu_read(idev, IPU_REG_RESET_COUNT));
	up_read(&idev->hw_rwsem);
	ipu_wdt_arm(idev);
}

/*
 * remove, gone set, hw_rwsem not held: each work re-arms the other only
 * while !gone, so after these three neither runs or is queued.
 */
void ipu_recovery_stop(struct ipu_device *idev)
{
	cancel_delayed_work_sync(&idev->wdt_work);
	cancel_work_sync(&idev->recovery_work);
	cancel_delayed_work_sync(&idev->wdt_work);
}
