// SPDX-License-Identifier: MIT
/*
 * libipudev: ipu_model_topology(), the IPUs of a model device and their
 * links as a struct ipu_topology (docs/libipudev.md "The model device of
 * several IPUs"), so that tools number and pair the model's IPUs as they
 * do linked cards: one struct ipu_links per IPU, read from the model's
 * in-process fabric, numbered by the same ipu__groups_compute().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "fabric_local.h"
#include "topology.h"

/* IPU @k's links: card k, fabric index k, serial "@name.k", @ports ports. */
static struct ipu_links *ipu_links_of(const struct ipue_fabric_local *fab, const char *name,
				      unsigned k, unsigned ports)
{
	char serial[IPU__SERIAL_MAX];
	struct ipu_links *l;

	snprintf(serial, sizeof(serial), "%s.%u", name, k);
	l = ipu__links_new(k, serial, fab ? ports : 0);
	if (!l)
		return NULL;
	l->fabric_index = (int)k;
	for (unsigned p = 0; p < l->nports; p++) {
		struct ipu_link_info *li = &l->ports[p];
		uint32_t peer, peer_port;

		if (ipue_fabric_local_peer(fab, k, p, &peer, &peer_port) != 1)
			continue;
		snprintf(li->peer_serial, sizeof(li->peer_serial), "%s.%u", name, peer);
		li->peer_port = (int)peer_port;
		li->state = ipue_fabric_local_link_up(fab, k, p) == 1 ? IPU_LINK_UP : IPU_LINK_DOWN;
	}
	return l;
}

IPU_API int ipu_model_topology(struct ipu_device *dev, struct ipu_topology **out,
			       struct ipu_error *err)
{
	const struct ipue_fabric_local *fab;
	struct ipu_links **cards;
	unsigned ipus, ports;
	int r;

	if (!out)
		return ipu__err(err, -EINVAL, "ipu_model_topology: out must not be NULL");
	*out = NULL;
	r = ipu__model_fabric(dev, &fab, &ipus, &ports, err);
	if (r)
		return r;
	cards = calloc(ipus, sizeof(*cards));
	if (!cards)
		return ipu__err(err, -ENOMEM, "ipu_model_topology: out of memory");
	for (unsigned k = 0; k < ipus; k++) {
		cards[k] = ipu_links_of(fab, dev->name, k, ports);
		if (!cards[k]) {
			while (k--)
				ipu_links_free(cards[k]);
			free(cards);
			return ipu__err(err, -ENOMEM, "ipu_model_topology: out of memory");
		}
	}
	return ipu__topology_from_links(cards, ipus, out, err);
}
