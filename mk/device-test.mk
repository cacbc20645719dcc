# (mk/libipudev.mk is read after this file: its outputs are named literally.)
# Tests of the card itself, run in the VM with the card taken from the driver
# (tests/kselftest/ipu_bar0.c does the taking and giving back):
#   ipu_device_test: the register interface through BAR0
#   ipu_queue_test:  the command queues driven from user space; it builds
#                    its test graphs with libipudev (tests/kselftest/ipu_graphs.c)
DEVICE_TESTS := $(B)/kselftest/ipu_device_test $(B)/kselftest/ipu_queue_test
DEVICE_TEST_DEPS := tests/kselftest/ipu_bar0.c tests/kselftest/ipu_bar0.h \
	$(KSELFTEST_COMMON) $(KSELFTEST_HDRS) $(LINUX_SRC)/.stamp
ALL_TARGETS += $(DEVICE_TESTS)
VM_TESTS += $(DEVICE_TESTS)

$(B)/kselftest/ipu_device_test: tests/kselftest/ipu_device_test.c $(DEVICE_TEST_DEPS)
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -static -o $@ $< tests/kselftest/ipu_bar0.c \
		$(KSELFTEST_COMMON)

$(B)/kselftest/ipu_queue_test: tests/kselftest/ipu_queue_test.c $(DEVICE_TEST_DEPS) \
		tests/kselftest/ipu_graphs.c tests/kselftest/ipu_graphs.h \
		$(B)/lib/libipudev.so libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/libipudev -o $@ $< \
		tests/kselftest/ipu_bar0.c tests/kselftest/ipu_graphs.c \
		$(KSELFTEST_COMMON) -L$(B)/lib -lipudev
