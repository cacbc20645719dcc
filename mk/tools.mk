# tools/: every tools/ipu-*.c becomes $(B)/tools/ipu-*, linked with
# tools/common.c and the shared libipudev (rpath $ORIGIN/../lib: the build
# tree's $(B)/lib, the VM's /usr/lib). Scripts such as tools/ipu-vm are not
# built here. Other fragments may append to TOOLS_LDLIBS.

TOOLS_SRCS := $(sort $(wildcard tools/ipu-*.c))
TOOLS_BINS := $(patsubst tools/%.c,$(B)/tools/%,$(TOOLS_SRCS))
TOOLS_COMMON_OBJ := $(B)/tools/common.o
TOOLS_CFLAGS = $(USER_CFLAGS) -D_GNU_SOURCE -I$(B)/include -I$(CURDIR)/include \
	-I$(CURDIR)/tools
TOOLS_LDLIBS += -lm

ALL_TARGETS += $(TOOLS_BINS)
VM_BINS += $(TOOLS_BINS)

$(B)/tools/%.o: tools/%.c tools/common.h $(IPUDEV_HDR)
	@mkdir -p $(dir $@)
	@echo "tools: $@"
	@$(CC) $(TOOLS_CFLAGS) -MMD -MP -c -o $@ $<

-include $(TOOLS_BINS:=.d) $(TOOLS_COMMON_OBJ:.o=.d)

$(B)/tools/ipu-%: $(B)/tools/ipu-%.o $(TOOLS_COMMON_OBJ) $(IPUDEV_SO_LINKS)
	@echo "tools: $@"
	@$(CC) -o $@ $< $(TOOLS_COMMON_OBJ) -L$(B)/lib -lipudev \
		-Wl,-rpath,'$$ORIGIN/../lib' $(TOOLS_LDLIBS)
