# tools/: every tools/ipu-*.c becomes $(B)/tools/ipu-*, linked with
# tools/common.c and the shared libipudev (rpath $ORIGIN/../lib: the build
# tree's $(B)/lib, the VM's /usr/lib). Scripts such as tools/ipu-vm are not
# built here (TOOLS_SRCS, TOOLS_BINS: the top Makefile). Other fragments may
# append to TOOLS_LDLIBS.
# Tests (tests/tools/), both in the VM (busybox sh, KTAP):
#   VM ipu_run_cli.sh       ipu-mkgraph + ipu-run on every card vs the model
#   VM ipudev_tools_vm.sh   ipu-info, ipu-links and ipu-reset on the cards
#                           (the links and device ids of IPU_VM_TOPOLOGY
#                           when the VM has one)
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

$(TOOLS_OUT)/%.o: tools/%.c tools/common.h tools/topo_view.h $(IPUDEV_HDR)
	@mkdir -p $(dir $@)
	@echo "tools: $@"
	@$(CC) $(TOOLS_CFLAGS) -MMD -MP -c -o $@ $<

-include $(TOOLS_BINS:=.d) $(TOOLS_COMMON_OBJ:.o=.d)

$(TOOLS_OUT)/ipu-%: $(TOOLS_OUT)/ipu-%.o $(TOOLS_COMMON_OBJ) $(IPUDEV_SO_LINKS)
	@echo "tools: $@"
	@$(CC) -o $@ $< $(TOOLS_COMMON_OBJ) -L$(B)/lib -lipudev \
		-Wl,-rpath,'$$ORIGIN/../lib' $(TOOLS_LDLIBS)

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
