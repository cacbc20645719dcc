# Tests of the card itself (qemu-device/; QEMU is built by the top Makefile),
# tests/card/:
#   VM ipu_device_test  the register interface through BAR0
#   VM ipu_queue_test   the command queues driven from user space; it builds
#                       its test graphs with libipudev (tests/common/ipu_graphs.c)
#   VM vm-trace-check   tests/card/trace/run.sh: the card's QEMU trace events
#                       show a reset and a matmul
# The two kselftests take the card from the driver and give it back
# (tests/card/ipu_bar0.c).
CARD_TDIR := tests/card
CARD_TESTS := $(KSELFTEST_OUT)/ipu_device_test $(KSELFTEST_OUT)/ipu_queue_test
CARD_TEST_DEPS := $(CARD_TDIR)/ipu_bar0.c $(CARD_TDIR)/ipu_bar0.h \
	$(KSELFTEST_COMMON) $(KSELFTEST_HDRS) $(LINUX_SRC)/.stamp
ALL_TARGETS += $(CARD_TESTS)
VM_TESTS += $(CARD_TESTS)
VM_CHECKS += vm-trace-check

$(KSELFTEST_OUT)/ipu_device_test: $(CARD_TDIR)/ipu_device_test.c $(CARD_TEST_DEPS)
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -static -o $@ $< $(CARD_TDIR)/ipu_bar0.c \
		$(KSELFTEST_COMMON)

$(KSELFTEST_OUT)/ipu_queue_test: $(CARD_TDIR)/ipu_queue_test.c $(CARD_TEST_DEPS) \
		$(KSELFTEST_GRAPHS) $(IPUDEV_SO_LINKS) libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/libipudev -o $@ $< \
		$(CARD_TDIR)/ipu_bar0.c $(TEST_COMMON)/ipu_graphs.c \
		$(KSELFTEST_COMMON) -L$(B)/lib -lipudev

.PHONY: vm-trace-check
vm-trace-check:
	@$(CARD_TDIR)/trace/run.sh $(CURDIR) $(B) >$(B)/results/vm-trace.ktap
