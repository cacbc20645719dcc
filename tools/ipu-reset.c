// SPDX-License-Identifier: MIT
/*
 * ipu-reset: soft-reset one, several or all IPU cards.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define MAX_IDS	256

static const char *prog = "ipu-reset";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s -d N [-d N]... | --all [OPTION]...\n"
"Soft-reset IPU cards and show their state afterwards.\n"
"\n"
"  -d, --device N     reset card N (ipuN); may be repeated\n"
"  -a, --all          reset every card\n"
"  -t, --timeout MS   wait at most MS milliseconds for each card to become\n"
"                     ready (default: the driver's, 2000; at most %u)\n"
"  -n, --nowait       do not wait for the cards to become ready\n"
"  -f, --force        reset a card even if another process holds it (that\n"
"                     process's work in flight fails, its graph is gone)\n"
"  -j, --json         write JSON instead of text\n"
"  -h, --help         show this help and exit\n"
"  -V, --version      show the version and exit\n"
"\n"
"A card that another process is attached to is not reset without --force:\n"
"the holder (pid and command) is named instead.\n"
"\n"
"Exit status: 0 all resets succeeded, 1 a reset failed, 2 usage error,\n"
"3 no card or no driver, 4 a card is held by another process (see --force).\n",
		prog, IPU_RESET_TIMEOUT_MAX);
}

struct result {
	unsigned id;
	bool ok;
	bool tried;		/* the driver was asked (else: not reset) */
	int code;		/* the failure's negative errno */
	int holder_pid;		/* -EBUSY: who holds the card */
	char holder_comm[16];
	int state;
	uint32_t reset_count;
	bool have_count;
	double elapsed_ms;
	struct ipu_error err;
};

static void reset_one(unsigned id, unsigned timeout_ms, unsigned flags,
		      struct result *r)
{
	struct ipu_device *dev;
	struct ipu_reset_result rr;
	struct ipu_device_info info;
	struct ipu_error e2;

	memset(r, 0, sizeof(*r));
	memset(&rr, 0, sizeof(rr));
	r->id = id;
	r->state = IPU_STATE_UNKNOWN;
	r->code = ipu_device_open(id, 0, &dev, &r->err);
	if (r->code)
		return;
	r->code = ipu_device_reset(dev, timeout_ms, flags, &rr, &r->err);
	/* Refused before the card was touched: nothing was reset. */
	r->tried = r->code != -EBUSY && r->code != -EPERM;
	if (r->code == 0) {
		r->ok = true;
		r->state = rr.state;
		r->reset_count = rr.reset_count;
		r->have_count = true;
	} else if (r->code == -EBUSY) {
		r->holder_pid = rr.holder_pid;
		memcpy(r->holder_comm, rr.holder_comm, sizeof(r->holder_comm));
		r->holder_comm[sizeof(r->holder_comm) - 1] = '\0';
	}
	r->elapsed_ms = (double)rr.elapsed_us / 1000.0;
	/* After a failure, report what the card says now. */
	if (!r->ok && ipu_device_info(dev, &info, &e2) == 0) {
		r->state = info.state;
		r->reset_count = info.reset_count;
		r->have_count = true;
	}
	ipu_device_close(dev);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ "timeout", required_argument, NULL, 't' },
		{ "nowait", no_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned ids[MAX_IDS], nids = 0, timeout = 0, flags = 0;
	bool all = false, json = false;
	struct ipu_card *cards;
	struct result *res;
	size_t n, nres;
	struct ipu_error e;
	int opt, ret = EXIT_OK;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":d:at:nfjhV", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (nids == MAX_IDS) {
				fprintf(stderr, "%s: too many -d options\n",
					prog);
				return EXIT_USAGE;
			}
			if (tool_parse_uint(optarg, 0xffffffu, &ids[nids])) {
				fprintf(stderr, "%s: invalid card id '%s'\n",
					prog, optarg);
				return EXIT_USAGE;
			}
			nids++;
			break;
		case 'a':
			all = true;
			break;
		case 't':
			if (tool_parse_uint(optarg, IPU_RESET_TIMEOUT_MAX,
					    &timeout)) {
				fprintf(stderr,
					"%s: invalid timeout '%s' (milliseconds, 0 to %u)\n",
					prog, optarg, IPU_RESET_TIMEOUT_MAX);
				return EXIT_USAGE;
			}
			break;
		case 'n':
			flags |= IPU_RESET_NOWAIT;
			break;
		case 'f':
			flags |= IPU_RESET_FORCE;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("%s (libipudev) %s\n", prog, ipu_version());
			return EXIT_OK;
		default:
			return tool_bad_option(prog, opt, argv);
		}
	}
	if (optind < argc)
		return tool_usage_error(prog, "unexpected argument '%s'",
					argv[optind]);
	if (all == (nids > 0))
		return tool_usage_error(prog, "give either -d N or --all");

	if (ipu_enumerate(&cards, &n, &e))
		return tool_no_cards(prog, &e);

	if (all) {
		nids = 0;
		for (size_t i = 0; i < n && nids < MAX_IDS; i++)
			ids[nids++] = cards[i].id;
	} else {
		for (unsigned k = 0; k < nids; k++) {
			bool found = false;

			for (size_t i = 0; i < n; i++)
				found |= cards[i].id == ids[k];
			if (!found) {
				fprintf(stderr,
					"%s: no IPU with id %u (found:", prog,
					ids[k]);
				for (size_t i = 0; i < n; i++)
					fprintf(stderr, " %u", cards[i].id);
				fprintf(stderr, ")\n");
				ipu_cards_free(cards);
				return EXIT_NODEV;
			}
		}
	}
	ipu_cards_free(cards);

	res = calloc(nids, sizeof(*res));
	if (!res) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	nres = nids;
	for (size_t i = 0; i < nres; i++) {
		reset_one(ids[i], timeout, flags, &res[i]);
		if (res[i].ok)
			continue;
		fprintf(stderr, "%s: %s\n", prog, res[i].err.msg);
		if (res[i].code == -EBUSY) {
			fprintf(stderr,
				"%s: ipu%u is held by process %d (%s); use --force to reset it anyway\n",
				prog, res[i].id, res[i].holder_pid,
				res[i].holder_comm[0] ? res[i].holder_comm : "?");
			if (ret == EXIT_OK)
				ret = EXIT_BUSY;
		} else {
			ret = EXIT_RUNTIME;
		}
	}

	/* Where a failed card could not be asked (e.g. no permission to open
	 * it), report what sysfs says now. */
	for (size_t i = 0; i < nres; i++) {
		if (res[i].have_count)
			continue;
		if (ipu_enumerate(&cards, &n, &e) == 0) {
			for (size_t k = 0; k < nres; k++)
				for (size_t j = 0; j < n; j++)
					if (!res[k].have_count &&
					    cards[j].id == res[k].id) {
						res[k].state = cards[j].state;
						res[k].reset_count =
							cards[j].reset_count;
						res[k].have_count = true;
					}
			ipu_cards_free(cards);
		}
		break;
	}

	if (json) {
		struct jw w;

		jw_init(&w, stdout);
		jw_obj_begin(&w, NULL);
		jw_arr_begin(&w, "resets");
		for (size_t i = 0; i < nres; i++) {
			struct result *r = &res[i];
			char name[24];

			snprintf(name, sizeof(name), "ipu%u", r->id);
			jw_obj_begin(&w, NULL);
			jw_u64(&w, "id", r->id);
			jw_str(&w, "name", name);
			jw_bool(&w, "ok", r->ok);
			jw_bool(&w, "reset_attempted", r->ok || r->tried);
			if (r->code == -EBUSY) {
				jw_u64(&w, "holder_pid", (uint64_t)r->holder_pid);
				jw_str(&w, "holder_comm", r->holder_comm);
			} else {
				jw_null(&w, "holder_pid");
				jw_null(&w, "holder_comm");
			}
			jw_str(&w, "state", ipu_state_name(r->state));
			if (r->have_count)
				jw_u64(&w, "reset_count", r->reset_count);
			else
				jw_null(&w, "reset_count");
			jw_double(&w, "elapsed_ms", r->elapsed_ms);
			jw_str(&w, "error", r->ok ? NULL : r->err.msg);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_obj_end(&w);
		jw_end(&w);
	} else {
		for (size_t i = 0; i < nres; i++) {
			struct result *r = &res[i];

			if (r->ok)
				printf("ipu%u: reset", r->id);
			else if (r->code == -EBUSY)
				printf("ipu%u: not reset (held by process %d, %s)",
				       r->id, r->holder_pid,
				       r->holder_comm[0] ? r->holder_comm : "?");
			else if (!r->tried)
				printf("ipu%u: not reset (%s)", r->id,
				       strerror(-r->code));
			else
				printf("ipu%u: reset FAILED", r->id);
			printf(", state %s, reset count ",
			       ipu_state_name(r->state));
			if (r->have_count)
				printf("%u", r->reset_count);
			else
				printf("n/a");
			if (r->ok)
				printf(" (%.1f ms)", r->elapsed_ms);
			putchar('\n');
		}
	}
	free(res);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		return EXIT_RUNTIME;
	}
	return ret;
}
