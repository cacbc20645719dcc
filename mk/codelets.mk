# Built-in codelet library (qemu-device/engine/codelets*.c, docs/codelets.md).
# The library itself is compiled into libipuengine.a by mk/engine.mk; the
# tests here compile the codelet sources directly so they stand alone.
#   codelets-check  host tests, plain and with ASan+UBSan:
#                   $(B)/results/codelets.ktap, $(B)/results/codelets-san.ktap
#   codelets-bench  fp32 matmul kernel vs OpenBLAS sgemm, one thread:
#                   $(B)/bench/codelets.json

CODELETS_SRCS := $(sort $(wildcard qemu-device/engine/codelets*.c))
CODELETS_HDRS := $(wildcard qemu-device/engine/codelets*.h) $(wildcard include/ipu/graph_format.h)
CODELETS_CFLAGS = $(USER_CFLAGS) -I$(CURDIR)/include -I$(CURDIR)/qemu-device/engine
# the stricter warning set the engine gets inside QEMU
CODELETS_QEMU_WARN := -std=gnu11 -Wall -Wextra -Werror -Wundef -Wstrict-prototypes \
	-Wmissing-prototypes -Wshadow=local -Wvla
CODELETS_SAN := -O1 -fsanitize=address,undefined,float-cast-overflow \
	-fno-sanitize-recover=all -fno-omit-frame-pointer
CODELETS_CBLAS := $(firstword $(wildcard /usr/include/cblas.h /usr/include/*/cblas.h))

HOST_CHECKS += codelets-check
BENCH_TARGETS += codelets-bench

.PHONY: codelets-check codelets-bench codelets-warn

$(B)/codelets/test_codelets: tests/host/codelets/test_codelets.c $(CODELETS_SRCS) $(CODELETS_HDRS)
	@mkdir -p $(dir $@)
	@echo "codelets: $@"
	@$(CC) $(CODELETS_CFLAGS) -o $@ $< $(CODELETS_SRCS) -lm

$(B)/codelets/test_codelets-san: tests/host/codelets/test_codelets.c $(CODELETS_SRCS) $(CODELETS_HDRS)
	@mkdir -p $(dir $@)
	@echo "codelets: $@"
	@$(CC) $(CODELETS_CFLAGS) $(CODELETS_SAN) -o $@ $< $(CODELETS_SRCS) -lm

# every codelet source with QEMU's warning set (objects discarded)
$(B)/codelets/warn.stamp: $(CODELETS_SRCS) $(CODELETS_HDRS)
	@mkdir -p $(dir $@)
	@for f in $(CODELETS_SRCS); do \
		$(CC) $(CODELETS_QEMU_WARN) -O2 -I$(CURDIR)/include -c -o /dev/null $$f || exit 1; \
	done
	@touch $@
codelets-warn: $(B)/codelets/warn.stamp

# test failures are reported in the KTAP files, not as a make error
codelets-check: $(B)/codelets/test_codelets $(B)/codelets/test_codelets-san $(B)/codelets/warn.stamp
	@mkdir -p $(B)/results
	@rc=0; \
	$(B)/codelets/test_codelets >$(B)/results/codelets.ktap || rc=1; \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		$(B)/codelets/test_codelets-san >$(B)/results/codelets-san.ktap 2>$(B)/results/codelets-san.log || rc=1; \
	if ! grep -q '^1\.\.' $(B)/results/codelets-san.ktap; then \
		printf 'KTAP version 1\n1..1\nnot ok 1 codelets-san # crashed, see codelets-san.log\n' \
			>$(B)/results/codelets-san.ktap; \
	fi; \
	echo "codelets: $$(grep -c '^ok' $(B)/results/codelets.ktap) + $$(grep -c '^ok' $(B)/results/codelets-san.ktap) groups passed$$( [ $$rc = 0 ] || echo ', FAILURES: see the KTAP files')"

$(B)/codelets/bench_matmul: tests/host/codelets/bench_matmul.c $(CODELETS_SRCS) $(CODELETS_HDRS)
	@mkdir -p $(dir $@)
	@echo "codelets: $@"
	@$(CC) $(CODELETS_CFLAGS) $(if $(CODELETS_CBLAS),-DHAVE_CBLAS) -o $@ $< $(CODELETS_SRCS) \
		$(if $(CODELETS_CBLAS),-lopenblas) -lm

codelets-bench: $(B)/codelets/bench_matmul
	@mkdir -p $(B)/bench
	@OPENBLAS_NUM_THREADS=1 $(B)/codelets/bench_matmul >$(B)/bench/codelets.json
