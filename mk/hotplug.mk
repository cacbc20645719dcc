# tests/hotplug/: the hot-unplug test (vm-hotplug-check). Its guest-side
# holder, ipu-hotplug-holder, goes to the VM's /usr/bin: it keeps a card
# busy with every kind of DMA mapping while the host unplugs it. It uses
# the kselftests' helpers and graphs (mk/kselftest.mk is read after this
# file: they are named literally).

HOTPLUG_HOLDER := $(B)/tests/ipu-hotplug-holder
ALL_TARGETS += $(HOTPLUG_HOLDER)
VM_BINS += $(HOTPLUG_HOLDER)

$(HOTPLUG_HOLDER): tests/hotplug/ipu_hotplug_holder.c tests/kselftest/ipu_test.c \
		tests/kselftest/ipu_test.h tests/kselftest/ipu_graphs.c \
		tests/kselftest/ipu_graphs.h include/uapi/linux/ipu.h \
		$(B)/lib/libipudev.so libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "hotplug: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/libipudev -I$(CURDIR)/tests/kselftest \
		-o $@ $< tests/kselftest/ipu_test.c tests/kselftest/ipu_graphs.c \
		-L$(B)/lib -lipudev
