# Tests of the card itself (qemu-device/; QEMU is built by the top Makefile),
# tests/card/:
#   VM ipu_device_test  the register interface through BAR0
#   VM ipu_queue_test   the command queues driven from user space; it builds
#                       its test graphs with libipudev (tests/common/ipu_graphs.c)
#   VM vm-trace-check   tests/card/trace/run.sh: the card's QEMU trace events
#                       show a reset and a matmul
#   host fabric-check   tests/card/fabric/check.py: the IPU-Link fabric's
#                       topologies, wiring, reset behaviour, a card's slot
#                       powered off (under qtest) and configuration errors,
#                       through QMP of a QEMU without a guest
#   host card-health-check tests/card/health/check.py: heartbeat, progress,
#                       telemetry and every fault injection (QMP) of one
#                       card under QEMU's qtest accelerator (no guest; the
#                       test steps emulated time); an `ipu-mkgraph add`
#                       graph is its long job
#   VM vm-links-check   tests/card/links/run.sh: IPU-Links of 4 test cards
#                       wired as an M2000 (ipu_link_test in the guest, QMP
#                       from the host through tests/common/qmp-serve.py)
# The two kselftests take the card from the driver and give it back
# (tests/card/ipu_bar0.c).
CARD_TDIR := tests/card
CARD_TESTS := $(KSELFTEST_OUT)/ipu_device_test $(KSELFTEST_OUT)/ipu_queue_test
CARD_TEST_DEPS := $(CARD_TDIR)/ipu_bar0.c $(CARD_TDIR)/ipu_bar0.h \
	$(KSELFTEST_COMMON) $(KSELFTEST_HDRS) $(LINUX_SRC)/.stamp
ALL_TARGETS += $(CARD_TESTS)
VM_TESTS += $(CARD_TESTS)
VM_CHECKS += vm-trace-check vm-links-check
HOST_CHECKS += fabric-check card-health-check
# Not in VM_TESTS: it needs the VM that vm-links-check boots.
LINK_TEST := $(B)/tests/ipu_link_test
ALL_TARGETS += $(LINK_TEST)

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

$(LINK_TEST): $(CARD_TDIR)/links/ipu_link_test.c $(CARD_TEST_DEPS) \
		$(TEST_COMMON)/ipu_host_qmp.c $(TEST_COMMON)/ipu_host_qmp.h
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/$(CARD_TDIR) -static -o $@ $< \
		$(CARD_TDIR)/ipu_bar0.c $(TEST_COMMON)/ipu_host_qmp.c \
		$(KSELFTEST_COMMON)

.PHONY: vm-links-check
vm-links-check: $(LINK_TEST)
	@$(CARD_TDIR)/links/run.sh $(CURDIR) $(B) >$(B)/results/vm-links.ktap

.PHONY: fabric-check
fabric-check:
	@mkdir -p $(B)/results
	@$(CARD_TDIR)/fabric/check.py $(B)/qemu/qemu-system-x86_64 \
		>$(B)/results/fabric.ktap

.PHONY: card-health-check
card-health-check: $(B)/tools/ipu-mkgraph
	@mkdir -p $(B)/results
	@$(CARD_TDIR)/health/check.py $(QEMU) $(B)/tools/ipu-mkgraph \
		>$(B)/results/card-health.ktap
