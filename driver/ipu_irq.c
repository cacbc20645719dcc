// SPDX-License-Identifier: GPL-2.0
/*
 * IPU PCIe card driver: interrupts. One events vector (MSI-X vector 0, the
 * MSI vector or INTx pin A, in that order of preference) carries the READY,
 * ERROR, LINK (once ipu_links_start() unmasked it) and TEST causes of
 * IRQ_STATUS; with MSI-X each queue has its own vector (1..8), otherwise
 * its completions are the QUEUE(n) causes.
 */
#include <linux/interrupt.h>
#include <linux/pci.h>

#include "ipu_drv.h"

/* How long the probe-time interrupt self-test waits for the TEST cause. */
#define IPU_IRQ_SELFTEST_MS	100

static irqreturn_t ipu_irq_events(int irq, void *data)
{
	struct ipu_device *idev = data;
	u32 cause;

	cause = ipu_read(idev, IPU_REG_IRQ_STATUS);
	/* All ones: the function is gone from the bus, not ours to claim. */
	if (cause == ~0u)
		return IRQ_NONE;
	cause &= READ_ONCE(idev->irq_causes);
	if (!cause)
		return IRQ_NONE;	/* INTx may be shared */

	/* RW1C: clear what we handle before acting, so new causes re-raise. */
	ipu_write(idev, IPU_REG_IRQ_STATUS, cause);

	if (cause & IPU_IRQ_QUEUES) {
		unsigned int q;

		for (q = 0; q < IPU_NUM_QUEUES; q++)
			if (cause & IPU_IRQ_QUEUE(q))
				ipu_queue_process(&idev->queues[q]);
	}
	if (cause & (IPU_IRQ_READY | IPU_IRQ_ERROR)) {
		atomic_inc(&idev->events);
		/* Queues of attached contexts are re-programmed after resets. */
		schedule_work(&idev->recover_work);
	}
	if (cause & IPU_IRQ_LINK)
		ipu_links_changed(idev);	/* uevents from link_work */
	if (cause & IPU_IRQ_TEST)
		atomic_inc(&idev->test_irqs);
	wake_up_all(&idev->event_wq);

	return IRQ_HANDLED;
}

int ipu_irq_init(struct ipu_device *idev)
{
	struct pci_dev *pdev = idev->pdev;
	unsigned long flags = 0;
	unsigned int q;
	int nvec, ret;

	/*
	 * MSI-X: vector 0 for events and one per queue (1..8). Otherwise one
	 * vector whose IRQ_STATUS also carries the queues' completions.
	 */
	nvec = pci_alloc_irq_vectors(pdev, IPU_MSIX_VECTORS, IPU_MSIX_VECTORS,
				     PCI_IRQ_MSIX);
	if (nvec < 0)
		nvec = pci_alloc_irq_vectors(pdev, 1, 1,
					     PCI_IRQ_MSI | PCI_IRQ_LEGACY);
	if (nvec < 0) {
		dev_err(&pdev->dev, "no interrupt vector: %d\n", nvec);
		return nvec;
	}

	idev->msix = pdev->msix_enabled;
	idev->irq_causes = idev->msix ? IPU_IRQ_HANDLED_CAUSES :
					IPU_IRQ_HANDLED_NOMSIX;
	if (pdev->msix_enabled) {
		idev->irq_mode = "msix";
	} else if (pdev->msi_enabled) {
		idev->irq_mode = "msi";
	} else {
		idev->irq_mode = "intx";
		flags = IRQF_SHARED;
	}
	idev->irq = pci_irq_vector(pdev, IPU_VECTOR_EVENTS);

	/* Nothing stale may fire on the new handler: mask, then clear. */
	ipu_write(idev, IPU_REG_IRQ_MASK, ~0u);
	ipu_write(idev, IPU_REG_IRQ_STATUS, IPU_IRQ_VALID);

	ret = request_irq(idev->irq, ipu_irq_events, flags, IPU_DRIVER_NAME,
			  idev);
	if (ret) {
		dev_err(&pdev->dev, "cannot request irq %d (%s): %d\n",
			idev->irq, idev->irq_mode, ret);
		pci_free_irq_vectors(pdev);
		return ret;
	}

	for (q = 0; idev->msix && q < IPU_NUM_QUEUES; q++) {
		struct ipu_queue *queue = &idev->queues[q];

		queue->irq = pci_irq_vector(pdev, q + 1);
		ret = request_irq(queue->irq, ipu_irq_queue, 0,
				  IPU_DRIVER_NAME, queue);
		if (ret) {
			dev_err(&pdev->dev, "cannot request irq %d (queue %u): %d\n",
				queue->irq, q, ret);
			queue->irq = 0;
			ipu_irq_fini(idev);
			return ret;
		}
	}

	ipu_write(idev, IPU_REG_IRQ_MASK, ~idev->irq_causes);
	return 0;
}

void ipu_irq_fini(struct ipu_device *idev)
{
	unsigned int q;

	ipu_write(idev, IPU_REG_IRQ_MASK, ~0u);
	for (q = 0; q < IPU_NUM_QUEUES; q++) {
		if (idev->queues[q].irq)
			free_irq(idev->queues[q].irq, &idev->queues[q]);
		idev->queues[q].irq = 0;
	}
	free_irq(idev->irq, idev);
	pci_free_irq_vectors(idev->pdev);
}

static bool ipu_test_irq_seen(struct ipu_device *idev, void *arg)
{
	return atomic_read(&idev->test_irqs) != *(int *)arg;
}

/*
 * Checks that the events vector reaches us. Failure is not fatal: every wait
 * of the driver also polls the card, only slower.
 */
void ipu_irq_selftest(struct ipu_device *idev)
{
	int seen = atomic_read(&idev->test_irqs);
	long left;

	ipu_write(idev, IPU_REG_IRQ_TEST, IPU_IRQ_TEST);
	left = wait_event_timeout(idev->event_wq,
				  ipu_test_irq_seen(idev, &seen),
				  msecs_to_jiffies(IPU_IRQ_SELFTEST_MS));
	if (!left)
		dev_warn(&idev->pdev->dev,
			 "test interrupt (%s) not received; state changes will be polled every %d ms\n",
			 idev->irq_mode, IPU_POLL_MS);
	/* A TEST cause left pending (no interrupt) is harmless: clear it. */
	ipu_write(idev, IPU_REG_IRQ_STATUS, IPU_IRQ_TEST);
}
