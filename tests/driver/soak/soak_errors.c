// SPDX-License-Identifier: GPL-2.0
/*
 * Which failures of a job are clear: an errno that the events of the soak
 * document for what user space sees, and a message. Anything else (EINVAL,
 * ENOSPC, an empty message...) is a defect the soak reports.
 */
#include <errno.h>
#include <stddef.h>

#include "soak.h"

/* The errno values, each with the event that documents it. */
struct clear_error {
	int code;
	const char *name;
	bool reopen;	/* a user closes and opens the device again */
	const char *why;
};

static const struct clear_error clear_errors[] = {
	/* docs/uapi.md "Recovery (API 1.8)": IPU_STATUS_HUNG */
	{ ETIMEDOUT, "ETIMEDOUT", true, "the card hung and was recovered" },
	/* RESET (FORCE) while in flight: IPU_STATUS_RESET; old fds (recov2) */
	{ EIO, "EIO", true, "the card was reset" },
	{ ENODEV, "ENODEV", true, "the card went away or the fd predates a reset" },
	/* a command aborted by the reset's queue teardown */
	{ ECANCELED, "ECANCELED", true, "the command was aborted" },
	/* hw-interface "Fault injection": dma-error, DMA_ERROR */
	{ EFAULT, "EFAULT", false, "a transfer failed (injected DMA error)" },
	/* docs/card-exec.md: a corrupt completion on the run's user queue */
	{ EPROTO, "EPROTO", true, "a completion entry was corrupt (its run's outcome unknown)" },
	/* a reset between load and use: the graph is gone (NO_GRAPH) */
	{ ENOENT, "ENOENT", false, "the graph was lost to a reset" },
};

static const struct clear_error *find(int code)
{
	for (size_t i = 0; i < sizeof(clear_errors) / sizeof(clear_errors[0]); i++)
		if (-code == clear_errors[i].code)
			return &clear_errors[i];
	return NULL;
}

const char *soak_unclear(int code, const char *msg)
{
	if (code >= 0)
		return "not an error code";
	if (!find(code))
		return "an errno no soak event documents";
	if (!msg || !msg[0])
		return "an empty message";
	return NULL;
}

bool soak_must_reopen(int code)
{
	const struct clear_error *e = find(code);

	return !e || e->reopen;
}

const char *soak_errno_why(int code)
{
	const struct clear_error *e = find(code);

	return e ? e->why : "undocumented";
}

const char *soak_errno_name(int code)
{
	const struct clear_error *e = find(code);

	return e ? e->name : "?";
}
