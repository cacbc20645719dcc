/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IPU driver tracepoints (tracefs events/ipu/): commands submitted and
 * completed (by the card or failed by the driver), resets and remove.
 * ipu_main.c instantiates them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ipu

#if !defined(_IPU_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _IPU_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(ipu_cmd_submit,
	    TP_PROTO(int card, unsigned int queue, u16 cid, u64 seq, u8 opcode,
		     bool sync),
	    TP_ARGS(card, queue, cid, seq, opcode, sync),
	    TP_STRUCT__entry(__field(int, card)
			     __field(unsigned int, queue)
			     __field(u16, cid)
			     __field(u64, seq)
			     __field(u8, opcode)
			     __field(bool, sync)),
	    TP_fast_assign(__entry->card = card;
			   __entry->queue = queue;
			   __entry->cid = cid;
			   __entry->seq = seq;
			   __entry->opcode = opcode;
			   __entry->sync = sync;),
	    TP_printk("ipu%d queue %u cid %u seq %llu opcode %u %s",
		      __entry->card, __entry->queue, __entry->cid,
		      __entry->seq, __entry->opcode,
		      __entry->sync ? "sync" : "async")
);

TRACE_EVENT(ipu_cmd_complete,
	    TP_PROTO(int card, u16 cid, u64 seq, u8 opcode, u32 status,
		     u32 detail),
	    TP_ARGS(card, cid, seq, opcode, status, detail),
	    TP_STRUCT__entry(__field(int, card)
			     __field(u16, cid)
			     __field(u64, seq)
			     __field(u8, opcode)
			     __field(u32, status)
			     __field(u32, detail)),
	    TP_fast_assign(__entry->card = card;
			   __entry->cid = cid;
			   __entry->seq = seq;
			   __entry->opcode = opcode;
			   __entry->status = status;
			   __entry->detail = detail;),
	    TP_printk("ipu%d cid %u seq %llu opcode %u status %u detail %#x",
		      __entry->card, __entry->cid, __entry->seq,
		      __entry->opcode, __entry->status, __entry->detail)
);

TRACE_EVENT(ipu_reset,
	    TP_PROTO(int card, u32 flags, u32 reset_count),
	    TP_ARGS(card, flags, reset_count),
	    TP_STRUCT__entry(__field(int, card)
			     __field(u32, flags)
			     __field(u32, reset_count)),
	    TP_fast_assign(__entry->card = card;
			   __entry->flags = flags;
			   __entry->reset_count = reset_count;),
	    TP_printk("ipu%d flags %#x after %u resets", __entry->card,
		      __entry->flags, __entry->reset_count)
);

TRACE_EVENT(ipu_reset_done,
	    TP_PROTO(int card, int ret, u32 reset_count),
	    TP_ARGS(card, ret, reset_count),
	    TP_STRUCT__entry(__field(int, card)
			     __field(int, ret)
			     __field(u32, reset_count)),
	    TP_fast_assign(__entry->card = card;
			   __entry->ret = ret;
			   __entry->reset_count = reset_count;),
	    TP_printk("ipu%d %d, %u resets", __entry->card, __entry->ret,
		      __entry->reset_count)
);

TRACE_EVENT(ipu_remove,
	    TP_PROTO(int card, bool attached),
	    TP_ARGS(card, attached),
	    TP_STRUCT__entry(__field(int, card)
			     __field(bool, attached)),
	    TP_fast_assign(__entry->card = card;
			   __entry->attached = attached;),
	    TP_printk("ipu%d%s", __entry->card,
		      __entry->attached ? " with a context attached" : "")
);

#endif /* _IPU_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ipu_trace
#include <trace/define_trace.h>
