# tests/kselftest/: the driver's in-VM tests on the kernel's kselftest harness
# ($(LINUX_SRC)/tools/testing/selftests). Static binaries, one per area,
# copied to the VM's /tests; each prints KTAP.

KSELFTEST_NAMES := ipu_probe_test ipu_info_test ipu_ioctl_test ipu_reset_test \
	ipu_module_test ipu_cmd_test ipu_uqueue_test ipu_inflight_test \
	ipu_fuzz_test ipu_debug_test
KSELFTEST_BINS := $(addprefix $(B)/kselftest/,$(KSELFTEST_NAMES))
KSELFTEST_COMMON := tests/kselftest/ipu_test.c
KSELFTEST_HDRS := tests/kselftest/ipu_test.h include/uapi/linux/ipu.h \
	include/ipu/ipu_models.h include/ipu/ipu_hw.h
# The harness needs GNU C (gnu11, not c11), and its TEST() wrappers have
# unused parameters by design (-Wno-unused-parameter).
KSELFTEST_CFLAGS := $(filter-out -std=c11,$(USER_CFLAGS)) -std=gnu11 \
	-Wno-unused-parameter \
	-D_GNU_SOURCE -I$(LINUX_SRC)/tools/testing/selftests -I$(CURDIR)/include

ALL_TARGETS += $(KSELFTEST_BINS)
VM_TESTS += $(KSELFTEST_BINS)

$(B)/kselftest/%: tests/kselftest/%.c $(KSELFTEST_COMMON) $(KSELFTEST_HDRS) \
		$(LINUX_SRC)/.stamp
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -static -o $@ $< $(KSELFTEST_COMMON)

# ipu_cmd_test (uAPI 1.1 through the driver) builds its graphs with
# libipudev, so it links the library like ipu_queue_test (mk/device-test.mk).
# Test graphs shared with ipu_queue_test.
KSELFTEST_GRAPHS := tests/kselftest/ipu_graphs.c tests/kselftest/ipu_graphs.h
$(B)/kselftest/ipu_cmd_test $(B)/kselftest/ipu_uqueue_test \
		$(B)/kselftest/ipu_inflight_test: $(B)/kselftest/%: \
		tests/kselftest/%.c $(KSELFTEST_COMMON) \
		$(KSELFTEST_HDRS) $(KSELFTEST_GRAPHS) $(LINUX_SRC)/.stamp $(B)/lib/libipudev.so \
		libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/libipudev -o $@ $< $(KSELFTEST_COMMON) \
		tests/kselftest/ipu_graphs.c -L$(B)/lib -lipudev -lpthread

# ipu_fuzz_test (a seeded fuzz of every ioctl, mmap and poll; threads and a
# killed process on one card) loads the shared test graphs, built with
# libipudev, and runs threads.
$(B)/kselftest/ipu_fuzz_test: tests/kselftest/ipu_fuzz_test.c $(KSELFTEST_COMMON) \
		$(KSELFTEST_HDRS) $(KSELFTEST_GRAPHS) $(LINUX_SRC)/.stamp $(B)/lib/libipudev.so \
		libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -pthread -I$(CURDIR)/libipudev -o $@ $< $(KSELFTEST_COMMON) \
		tests/kselftest/ipu_graphs.c -L$(B)/lib -lipudev
