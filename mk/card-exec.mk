# Card execution path of libipudev (libipudev/card_exec.c, card_buf.c):
# host unit tests that need no card (status messages, the graph-table
# parser against builder-made binaries, ranged/async/buffer calls on the
# model device, the engine loader's and the card pre-check's verdicts on
# corrupted binaries) -> $(B)/results/card-exec.ktap. Built with ASan/UBSan,
# on the kernel's kselftest harness (container_verdicts_tests.h is included
# by test_card_exec.c: one test list per binary).

CARD_EXEC_TEST := $(B)/tests/card-exec/test_card_exec
CARD_EXEC_SRC := tests/host/card-exec/test_card_exec.c

ALL_TARGETS += $(CARD_EXEC_TEST)
HOST_CHECKS += card-exec-check

# libipudev's sources are compiled into the test with the sanitizers and
# link the engine's sanitizer build ($(ENG_LIB_SAN), mk/engine.mk), so that
# the corrupted binaries go through a checked loader too. (mk/libipudev.mk is
# read after this file: its sources are named literally here.)
$(CARD_EXEC_TEST): $(CARD_EXEC_SRC) tests/host/card-exec/container_verdicts_tests.h \
		$(wildcard libipudev/*.c) $(HARNESS_HDR) \
		libipudev/card.h libipudev/internal.h libipudev/ipudev.h \
		qemu-device/engine/graph_container.h include/ipu/graph_format.h $(ENG_LIB_SAN)
	@mkdir -p $(dir $@)
	@echo "card-exec: $@"
	@$(CC) $(IPUDEV_CFLAGS) $(HARNESS_CFLAGS) $(ENG_SAN_FLAGS) -o $@ $(CARD_EXEC_SRC) \
		$(IPUDEV_SRCS) \
		$(ENG_LIB_SAN) $(IPUDEV_LDLIBS)

.PHONY: card-exec-check
card-exec-check: $(CARD_EXEC_TEST)
	@mkdir -p $(B)/results
	@rc=0; ASAN_OPTIONS=detect_leaks=1 $(CARD_EXEC_TEST) >$(B)/results/card-exec.ktap 2>&1 \
		|| rc=$$?; \
	if [ $$rc -gt 1 ]; then \
		echo "not ok 999 card-exec tests crashed (exit $$rc)" >>$(B)/results/card-exec.ktap; \
	fi; \
	exit $$rc
