# tests/kselftest/ipu_device_test.c: the card's register interface driven
# through BAR0 with the driver unbound (built like the driver's kselftests,
# by the pattern rule of mk/kselftest.mk).
DEVICE_TEST := $(B)/kselftest/ipu_device_test
ALL_TARGETS += $(DEVICE_TEST)
VM_TESTS += $(DEVICE_TEST)

# tests/kselftest/ipu_queue_test.c: the card's command queues driven from
# user space (driver unbound); it builds its test graph with libipudev.
QUEUE_TEST := $(B)/kselftest/ipu_queue_test
ALL_TARGETS += $(QUEUE_TEST)
VM_TESTS += $(QUEUE_TEST)
$(QUEUE_TEST): tests/kselftest/ipu_queue_test.c $(KSELFTEST_COMMON) \
		$(KSELFTEST_HDRS) $(LINUX_SRC)/.stamp $(IPUDEV_SO) libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/libipudev -o $@ $< $(KSELFTEST_COMMON) \
		-L$(B)/lib -lipudev
