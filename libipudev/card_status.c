// SPDX-License-Identifier: MIT
/*
 * libipudev, card backend: a command's completion status -> errno and a
 * message naming the tensor or program and the reason (docs/card-exec.md
 * lists them). Shared by every card command (card_load.c, card_xfer.c,
 * card_run.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/ipu.h>

#include "card.h"
#include "ipu/graph_format.h"
#include "ipu_engine.h"

static const char *const status_names[] = {
	[IPU_STATUS_OK] = "OK",
	[IPU_STATUS_INVALID_OPCODE] = "INVALID_OPCODE",
	[IPU_STATUS_INVALID_FIELD] = "INVALID_FIELD",
	[IPU_STATUS_DMA_ERROR] = "DMA_ERROR",
	[IPU_STATUS_INVALID_SGL] = "INVALID_SGL",
	[IPU_STATUS_NO_GRAPH] = "NO_GRAPH",
	[IPU_STATUS_LOAD_FAILED] = "LOAD_FAILED",
	[IPU_STATUS_BAD_HANDLE] = "BAD_HANDLE",
	[IPU_STATUS_OUT_OF_RANGE] = "OUT_OF_RANGE",
	[IPU_STATUS_ACCESS] = "ACCESS",
	[IPU_STATUS_ABORTED] = "ABORTED",
	[IPU_STATUS_PROGRAM_ABORT] = "PROGRAM_ABORT",
	[IPU_STATUS_RUN_FAILED] = "RUN_FAILED",
	[IPU_STATUS_TOO_LARGE] = "TOO_LARGE",
	[IPU_STATUS_INTERNAL] = "INTERNAL",
	[IPU_STATUS_UNWRITTEN_INPUT] = "UNWRITTEN_INPUT",
	[IPU_STATUS_LINK_DOWN] = "LINK_DOWN",
	[IPU_STATUS_GROUP_BUSY] = "GROUP_BUSY",
	[IPU_STATUS_SYNC_TIMEOUT] = "SYNC_TIMEOUT",
};

const char *ipu__card_status_name(uint32_t status)
{
	if (status == IPU_STATUS_RESET)
		return "RESET";
	if (status == IPU_STATUS_HUNG)
		return "HUNG";
	if (status < IPU__ARRAY_SIZE(status_names) && status_names[status])
		return status_names[status];
	return "unknown";
}

/* "write of tensor 'w' on ipu0", "program 1 ('main') on ipu0", ... */
static void cmd_what(const struct ipu__cmd_ctx *x, char *b, size_t n)
{
	switch (x->opcode) {
	case IPU_CMD_LOAD:
		snprintf(b, n, "load on %s", x->dev);
		break;
	case IPU_CMD_WRITE:
	case IPU_CMD_READ:
		if (x->tensor)
			snprintf(b, n, "%s of tensor '%s' on %s",
				 x->opcode == IPU_CMD_WRITE ? "write" : "read",
				 x->tensor, x->dev);
		else
			snprintf(b, n, "%s of tensor handle %u on %s",
				 x->opcode == IPU_CMD_WRITE ? "write" : "read",
				 x->handle, x->dev);
		break;
	case IPU_CMD_RUN:
		if (x->program)
			snprintf(b, n, "program %u ('%s') on %s", x->handle,
				 x->program, x->dev);
		else
			snprintf(b, n, "program %u on %s", x->handle, x->dev);
		break;
	default:	/* an asynchronous request: its kind is not kept */
		snprintf(b, n, "request on %s", x->dev);
		break;
	}
}

int ipu__card_status_err(struct ipu_error *err, const struct ipu__cmd_ctx *x,
			 uint32_t status, uint32_t detail, uint32_t detail2)
{
	char w[192];
	int es;

	if (status == IPU_STATUS_OK)
		return 0;
	cmd_what(x, w, sizeof(w));
	switch (status) {
	case IPU_STATUS_LOAD_FAILED: {
		const char *sn = ipu_graph_section_name(detail);
		const char *m = x->load_msg && x->load_msg[0] ? x->load_msg
							      : "(no message)";
		size_t l = strlen(sn);

		/* the card's message starts with the section name: skip it */
		if (!strncmp(m, sn, l) && m[l] == ':' && m[l + 1] == ' ')
			m += l + 2;
		if (detail2 != IPU_GRAPH_NONE)
			return ipu__err(err, ipu__engine_errno(IPUE_EFORMAT),
					"%s: graph refused: section %s record %u: %s",
					w, sn, detail2, m);
		return ipu__err(err, ipu__engine_errno(IPUE_EFORMAT),
				"%s: graph refused: section %s: %s", w, sn, m);
	}
	case IPU_STATUS_OUT_OF_RANGE:
		if (x->tensor)
			return ipu__err(err, ipu__engine_errno(IPUE_ERANGE),
					"tensor '%s': offset %llu + %llu bytes is beyond its %llu bytes (%s on %s)",
					x->tensor, (unsigned long long)x->offset,
					(unsigned long long)x->length,
					(unsigned long long)x->tensor_bytes,
					x->opcode == IPU_CMD_WRITE ? "write" : "read",
					x->dev);
		return ipu__err(err, ipu__engine_errno(IPUE_ERANGE),
				"%s: offset %llu + %llu bytes is beyond the tensor",
				w, (unsigned long long)x->offset,
				(unsigned long long)x->length);
	case IPU_STATUS_NO_GRAPH:
		return ipu__err(err, ipu__engine_errno(IPUE_ENOGRAPH),
				"%s: no graph loaded on the card (ipu_load)", w);
	case IPU_STATUS_BAD_HANDLE:
		if (x->opcode == IPU_CMD_RUN)
			return ipu__err(err, ipu__engine_errno(IPUE_ERANGE),
					"%s: the card's graph has no program %u", w,
					detail);
		return ipu__err(err, ipu__engine_errno(IPUE_ERANGE),
				"%s: the card's graph has no tensor handle %u", w,
				detail);
	case IPU_STATUS_ACCESS:
		return ipu__err(err, ipu__engine_errno(IPUE_EACCES),
				"%s: the card refuses: the tensor is not %s from the host",
				w, x->opcode == IPU_CMD_WRITE ? "writable" : "readable");
	case IPU_STATUS_ABORTED:
		return ipu__err(err, ipu__engine_errno(IPUE_ECANCELED),
				"%s: aborted (ABORT command)", w);
	case IPU_STATUS_PROGRAM_ABORT:
		return ipu__err(err, ipu__engine_errno(IPUE_EABORT),
				"%s: aborted by AbortOnCondition with code %u (program node %u)",
				w, detail, detail2);
	case IPU_STATUS_RUN_FAILED:
		es = -(int)detail;
		return ipu__err(err, ipu__engine_errno(es), "%s: run failed: %s",
				w, ipue_strerror(es));
	case IPU_STATUS_UNWRITTEN_INPUT:
		if (x->tensor)
			return ipu__unwritten_err(err, w, x->tensor);
		return ipu__err(err, ipu__engine_errno(IPUE_EUNWRITTEN),
				"%s: reads tensor handle %u, which was never written", w, detail);
	case IPU_STATUS_LINK_DOWN:
		return ipu__err(err, ipu__engine_errno(IPUE_ELINK),
				"%s: IPU-Link %u.%u (fabric index %u, port %u) is down",
				w, detail >> 8, detail & 0xffu, detail >> 8, detail & 0xffu);
	case IPU_STATUS_SYNC_TIMEOUT:
		return ipu__err(err, ipu__engine_errno(IPUE_ESYNC),
				"%s: a member of the group did not reach an external sync in time "
				"(not running, reset or reloaded)", w);
	case IPU_STATUS_GROUP_BUSY:
		return ipu__err(err, -EBUSY,
				"%s: the card with fabric index %u is in another group (load it "
				"with this group's mask, or unload it)", w, detail);
	case IPU_STATUS_TOO_LARGE:
		return ipu__err(err, -EFBIG,
				"%s: the graph binary is %llu bytes; the card takes 1 byte to 256 MiB",
				w, (unsigned long long)x->length);
	case IPU_STATUS_INTERNAL:
		return ipu__err(err, ipu__engine_errno(IPUE_ENOMEM),
				"%s: the card ran out of host resources (INTERNAL)", w);
	case IPU_STATUS_DMA_ERROR:
		return ipu__err(err, -EFAULT,
				"%s: the card could not reach host memory at 0x%llx (DMA error)",
				w, (unsigned long long)detail |
				   ((unsigned long long)detail2 << 32));
	case IPU_STATUS_INVALID_OPCODE:
	case IPU_STATUS_INVALID_FIELD:
	case IPU_STATUS_INVALID_SGL:
		return ipu__err(err, -EPROTO,
				"%s: the card rejected the command as malformed (%s, detail %u): a driver bug",
				w, ipu__card_status_name(status), detail);
	case IPU_STATUS_RESET:
		return ipu__err(err, -EIO,
				"%s: the card was reset while the command was in flight",
				w);
	case IPU_STATUS_HUNG:
		/* uAPI 1.8: the driver recovered a hung or failed card. */
		return ipu__err(err, -ETIMEDOUT,
				"%s: the card hung (%s) and was recovered: the command was lost",
				w, detail == IPU_HUNG_CARD ? "heartbeat stopped" :
				detail == IPU_HUNG_COMMAND ? "a command stalled" :
				detail == IPU_HUNG_FATAL ? "fatal error" :
				detail == IPU_HUNG_CORRUPT ? "corrupt completion" :
				"unknown cause");
	default:
		return ipu__err(err, -EIO, "%s: unknown completion status %u "
				"(detail %u/%u)", w, status, detail, detail2);
	}
}

