# Benchmarks across the parts (tests/bench/; a part's own benchmarks are in
# its fragment and its tests' directory). `make bench` figures measured in the
# VM (one boot): ipu-bench --json on card 0 and the baselines of the same VM,
# a 64 MiB O_DIRECT read through QEMU's NVMe device on the null-co backend
# (tests/bench/nvme_read.c), and the host's memcpy (tests/bench/memcpy_bw.c,
# on the machine running QEMU; the guest's own memcpy, under TCG, is reported
# for information). A second NVMe drive with read-zeroes=on (the device really
# writes the pages) gives an informational figure: plain null-co completes
# reads without touching memory. The 64 MiB target is taken in three NVMe/card
# pairs back to back (the host's memory bandwidth moves within seconds).
# Records: $(B)/bench/vm.json (tests/bench/vm_records.py).

BENCH_VM_SHARE := $(B)/bench-vm-share
BENCH_NVME_READ := $(B)/bench-bin/nvme_read
BENCH_MEMCPY := $(B)/bench-bin/memcpy_bw

BENCH_TARGETS += bench-vm
ALL_TARGETS += $(BENCH_NVME_READ) $(BENCH_MEMCPY)

$(BENCH_MEMCPY): tests/bench/memcpy_bw.c $(BENCH_JSON)
	@mkdir -p $(dir $@)
	@echo "bench-vm: $@"
	@$(CC) $(USER_CFLAGS) -o $@ $<

$(BENCH_NVME_READ): tests/bench/nvme_read.c $(BENCH_JSON)
	@mkdir -p $(dir $@)
	@echo "bench-vm: $@"
	@$(CC) $(USER_CFLAGS) -static -o $@ $<

.PHONY: bench-vm
bench-vm: $(BENCH_NVME_READ) $(BENCH_MEMCPY)
	@rm -rf $(BENCH_VM_SHARE) && mkdir -p $(BENCH_VM_SHARE) $(B)/bench
	@$(BENCH_MEMCPY) 64 1 >$(BENCH_VM_SHARE)/host-memcpy.json
	@cp $(BENCH_NVME_READ) tests/bench/vm-bench.sh $(BENCH_VM_SHARE)/
	@$(VM) -q --share $(BENCH_VM_SHARE) --timeout 1200 \
		--qemu-arg -drive --qemu-arg driver=null-co,size=1G,if=none,id=nvm \
		--qemu-arg -device --qemu-arg nvme,drive=nvm,serial=bench \
		--qemu-arg -drive --qemu-arg driver=null-co,size=1G,read-zeroes=on,if=none,id=nvz \
		--qemu-arg -device --qemu-arg nvme,drive=nvz,serial=benchz \
		-- sh ./vm-bench.sh; \
	rc=$$?; \
	tests/bench/vm_records.py $(BENCH_VM_SHARE) $(B)/bench/vm.json; \
	exit $$rc

# `make bench-links`: card-to-card IPU-Link bandwidth and host sync latency
# in an M2000 VM (4 gc200 cards on an m2000 fabric, one boot;
# tests/bench/links-bench.sh): ipu-bench --links (every linked pair, both
# directions summed) against the host's memcpy measured in the same run
# (tests/bench/memcpy_bw.c) and against the links' modelled limit, and
# ipu-bench --host-sync on card 0 and on the group of four against the null
# ioctl of the same VM. Records: $(B)/bench/links.json
# (tests/bench/links_records.py; docs/benchmarks.md).
BENCH_LINKS_SHARE := $(B)/bench-links-share
BENCH_TARGETS += bench-links

.PHONY: bench-links
bench-links: $(BENCH_MEMCPY)
	@rm -rf $(BENCH_LINKS_SHARE) && mkdir -p $(BENCH_LINKS_SHARE) $(B)/bench
	@$(BENCH_MEMCPY) 64 1 >$(BENCH_LINKS_SHARE)/host-memcpy.json
	@cp tests/bench/links-bench.sh $(BENCH_LINKS_SHARE)/
	@$(VM) -q -n 4 -m gc200 --topology m2000 --share $(BENCH_LINKS_SHARE) --timeout 1200 \
		-- sh ./links-bench.sh; \
	rc=$$?; \
	tests/bench/links_records.py $(BENCH_LINKS_SHARE) $(B)/bench/links.json; \
	exit $$rc
