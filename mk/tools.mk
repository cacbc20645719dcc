# tools/: every tools/ipu-*.c becomes $(B)/tools/ipu-*, linked with
# tools/common.c and the shared libipudev (rpath $ORIGIN/../lib: the build
# tree's $(B)/lib, the VM's /usr/lib). Scripts such as tools/ipu-vm are not
# built here (TOOLS_SRCS, TOOLS_BINS: the top Makefile). Other fragments may
# append to TOOLS_LDLIBS.
# Tests (tests/tools/):
#   HOST tools-check        tests/tools/mkgraph_run_host.sh: ipu-mkgraph and
#                           ipu-run on the model device, graphs of 1 to 8
#                           IPUs (--ipus) against numpy, and their refusals
#                           -> $(B)/results/tools.ktap
# and in the VM (busybox sh, KTAP):
#   VM ipu_run_cli.sh       ipu-mkgraph + ipu-run on every card vs the model
#   HOST bench-tool-check   tests/tools/bench/run.sh: ipu-bench --links and
#                           --host-sync on the model device (below)
#   VM vm-bench-links-check tests/tools/bench/links_vm.sh: the same on an
#                           M2000 VM's cards (boots its own VM)
#   VM ipudev_tools_vm.sh   ipu-info, ipu-links and ipu-reset on the cards
#                           (the links and device ids of IPU_VM_TOPOLOGY
#                           when the VM has one, and a program across its
#                           IPUs on the device id of all: ipu-run -d 6 in an
#                           M2000, against the model device of 4 IPUs)
#   VM vm-tools-m2000-check both scripts in an M2000 (4 test-model cards,
#                           tools/ipu-vm --topology m2000)
#                           -> $(B)/results/vm-tools-m2000-*
# tools/topo_view.c and topo_ladder.c are linked into every tool with
# tools/common.c ($(TOOLS_COMMON_OBJ), the top Makefile).
#   VM ipu_train_vm.sh      ipu-train's MLP and CNN on card 0 and on the model
#                           device: the same weights, byte for byte
#   VM ipu_train_group_vm.sh  ipu-train --replicas 4 on device 6 (an M2000:
#                           vm-group-check, mk/library.mk) vs the model
#                           device of 4 IPUs: the same weights; >= 95 %
# ipu-train also links its own files (tools/digits.c, tools/train_*.c) and
# zlib; its host tests (tests/tools/train/run.sh, `make train-check` ->
# $(B)/results/train.ktap) and its benchmark (`make bench-train` ->
# $(B)/bench/mlp_train.json) are below.

TOOLS_CFLAGS = $(USER_CFLAGS) -D_GNU_SOURCE -I$(B)/include -I$(CURDIR)/include \
	-I$(CURDIR)/tools
TOOLS_LDLIBS += -lm

ALL_TARGETS += $(TOOLS_BINS)
VM_BINS += $(TOOLS_BINS)
VM_TESTS += tests/tools/ipu_run_cli.sh tests/tools/ipudev_tools_vm.sh
HOST_CHECKS += tools-check
VM_CHECKS += vm-tools-m2000-check

$(TOOLS_OUT)/%.o: tools/%.c tools/common.h tools/topo_view.h tools/bench.h $(IPUDEV_HDR)
	@mkdir -p $(dir $@)
	@echo "tools: $@"
	@$(CC) $(TOOLS_CFLAGS) -MMD -MP -c -o $@ $<

-include $(TOOLS_BINS:=.d) $(TOOLS_COMMON_OBJ:.o=.d)

$(TOOLS_OUT)/ipu-%: $(TOOLS_OUT)/ipu-%.o $(TOOLS_COMMON_OBJ) $(IPUDEV_SO_LINKS)
	@echo "tools: $@"
	@$(CC) -o $@ $< $(TOOLS_COMMON_OBJ) -L$(B)/lib -lipudev \
		-Wl,-rpath,'$$ORIGIN/../lib' $(TOOLS_LDLIBS)

# --- ipu-bench ---------------------------------------------------------------
# ipu-bench also links its modes' files (tools/bench_*.c: --links and
# --host-sync). Its host tests (tests/tools/bench/run.sh, `make
# bench-tool-check` -> $(B)/results/bench-tool.ktap): --links and
# --host-sync on the model device.
BENCH_TOOL_OBJS := $(patsubst tools/%.c,$(TOOLS_OUT)/%.o,$(wildcard tools/bench_*.c))
HOST_CHECKS += bench-tool-check

-include $(BENCH_TOOL_OBJS:.o=.d)

$(TOOLS_OUT)/ipu-bench: $(TOOLS_OUT)/ipu-bench.o $(BENCH_TOOL_OBJS) $(TOOLS_COMMON_OBJ) \
		$(IPUDEV_SO_LINKS)
	@echo "tools: $@"
	@$(CC) -o $@ $< $(BENCH_TOOL_OBJS) $(TOOLS_COMMON_OBJ) -L$(B)/lib -lipudev \
		-Wl,-rpath,'$$ORIGIN/../lib' $(TOOLS_LDLIBS)

# vm-bench-links-check (tests/tools/bench/links_vm.sh): the same on the cards
# of an M2000 VM (4 test-model cards, m2000 fabric) -> $(B)/results/vm-bench-links.ktap
VM_CHECKS += vm-bench-links-check

.PHONY: bench-tool-check vm-bench-links-check
vm-bench-links-check:
	@mkdir -p $(B)/results
	@tests/tools/bench/links_vm.sh $(CURDIR) $(B) >$(B)/results/vm-bench-links.ktap

bench-tool-check: $(TOOLS_OUT)/ipu-bench
	@mkdir -p $(B)/results
	@tests/tools/bench/run.sh $(B) >$(B)/results/bench-tool.ktap
	@echo "bench-tool: $$(grep -c '^ok' $(B)/results/bench-tool.ktap) passed," \
		"$$(grep -c '^not ok' $(B)/results/bench-tool.ktap) failed"

.PHONY: tools-check
tools-check: $(TOOLS_OUT)/ipu-mkgraph $(TOOLS_OUT)/ipu-run
	@mkdir -p $(B)/results
	@tests/tools/mkgraph_run_host.sh $(B) >$(B)/results/tools.ktap
	@echo "tools: $$(grep -c '^ok' $(B)/results/tools.ktap) passed," \
		"$$(grep -c '^not ok' $(B)/results/tools.ktap) failed"

.PHONY: vm-tools-m2000-check
vm-tools-m2000-check:
	$(call vm_run,vm-tools-m2000,-n 4 --topology m2000 --models test,ipudev_tools_vm.sh ipu_run_cli.sh)

# --- ipu-train ---------------------------------------------------------------
TRAIN_OBJS := $(patsubst tools/%.c,$(TOOLS_OUT)/%.o,tools/digits.c $(wildcard tools/train_*.c))
TRAIN_TEST_DIR := tests/tools/train
# the digits data set, at its Debian path in the VM too (ipu-train's default)
DIGITS_CSV := /usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz

VM_TESTS += tests/tools/ipu_train_vm.sh tests/tools/ipu_train_group_vm.sh
VM_FILES += $(DIGITS_CSV)
HOST_CHECKS += train-check
BENCH_TARGETS += bench-train

-include $(TRAIN_OBJS:.o=.d)

$(TOOLS_OUT)/ipu-train: $(TOOLS_OUT)/ipu-train.o $(TRAIN_OBJS) $(TOOLS_COMMON_OBJ) \
		$(IPUDEV_SO_LINKS)
	@echo "tools: $@"
	@$(CC) -o $@ $< $(TRAIN_OBJS) $(TOOLS_COMMON_OBJ) -L$(B)/lib -lipudev \
		-Wl,-rpath,'$$ORIGIN/../lib' $(TOOLS_LDLIBS) -lz

.PHONY: train-check bench-train
train-check: $(TOOLS_OUT)/ipu-train
	@mkdir -p $(B)/results
	@$(TRAIN_TEST_DIR)/run.sh $(B) >$(B)/results/train.ktap
	@echo "train: $$(grep -c '^ok' $(B)/results/train.ktap) passed," \
		"$$(grep -c '^not ok' $(B)/results/train.ktap) failed"

bench-train: $(TOOLS_OUT)/ipu-train
	@mkdir -p $(B)/bench
	@$(TRAIN_TEST_DIR)/bench.sh $(B) >$(B)/bench/mlp_train.json
