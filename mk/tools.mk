# tools/: every tools/ipu-*.c becomes $(B)/tools/ipu-*, linked with
# tools/common.c and the shared libipudev (rpath $ORIGIN/../lib: the build
# tree's $(B)/lib, the VM's /usr/lib). Scripts such as tools/ipu-vm are not
# built here. Other fragments may append to TOOLS_LDLIBS.
# Tests (tests/tools/), both in the VM (busybox sh, KTAP):
#   VM ipu_run_cli.sh       ipu-mkgraph + ipu-run on every card vs the model
#   VM ipudev_tools_vm.sh   ipu-info and ipu-reset on the cards

TOOLS_SRCS := $(sort $(wildcard tools/ipu-*.c))
TOOLS_BINS := $(patsubst tools/%.c,$(TOOLS_OUT)/%,$(TOOLS_SRCS))
TOOLS_CFLAGS = $(USER_CFLAGS) -D_GNU_SOURCE -I$(B)/include -I$(CURDIR)/include \
	-I$(CURDIR)/tools
TOOLS_LDLIBS += -lm

ALL_TARGETS += $(TOOLS_BINS)
VM_BINS += $(TOOLS_BINS)
VM_TESTS += tests/tools/ipu_run_cli.sh tests/tools/ipudev_tools_vm.sh

$(TOOLS_OUT)/%.o: tools/%.c tools/common.h $(IPUDEV_HDR)
	@mkdir -p $(dir $@)
	@echo "tools: $@"
	@$(CC) $(TOOLS_CFLAGS) -MMD -MP -c -o $@ $<

-include $(TOOLS_BINS:=.d) $(TOOLS_COMMON_OBJ:.o=.d)

$(TOOLS_OUT)/ipu-%: $(TOOLS_OUT)/ipu-%.o $(TOOLS_COMMON_OBJ) $(IPUDEV_SO_LINKS)
	@echo "tools: $@"
	@$(CC) -o $@ $< $(TOOLS_COMMON_OBJ) -L$(B)/lib -lipudev \
		-Wl,-rpath,'$$ORIGIN/../lib' $(TOOLS_LDLIBS)
