# Built-in codelet library (qemu-device/engine/codelets*.c, docs/codelets.md),
# part of the engine: its tests and benchmark link the engine's archives
# (mk/engine.mk).
#   codelets-check  host tests, plain ($(ENG_LIB)) and with ASan+UBSan
#                   ($(ENG_LIB_SAN)): $(B)/results/codelets.ktap,
#                   $(B)/results/codelets-san.ktap
#   codelets-bench  fp32 matmul kernel vs OpenBLAS sgemm, one thread:
#                   $(B)/bench/codelets.json

CODELETS_CBLAS := $(firstword $(wildcard /usr/include/cblas.h /usr/include/*/cblas.h))

HOST_CHECKS += codelets-check
BENCH_TARGETS += codelets-bench

.PHONY: codelets-check codelets-bench

$(B)/codelets/test_codelets: tests/host/codelets/test_codelets.c $(ENG_LIB)
	@mkdir -p $(dir $@)
	@echo "codelets: $@"
	@$(CC) $(ENG_CFLAGS) -o $@ $< $(ENG_LIB) $(ENG_LDLIBS)

$(B)/codelets/test_codelets-san: tests/host/codelets/test_codelets.c $(ENG_LIB_SAN)
	@mkdir -p $(dir $@)
	@echo "codelets: $@"
	@$(CC) $(ENG_CFLAGS) $(ENG_SAN_FLAGS) -o $@ $< $(ENG_LIB_SAN) $(ENG_LDLIBS)

# test failures are reported in the KTAP files, not as a make error
codelets-check: $(B)/codelets/test_codelets $(B)/codelets/test_codelets-san
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

$(B)/codelets/bench_matmul: tests/host/codelets/bench_matmul.c $(ENG_LIB)
	@mkdir -p $(dir $@)
	@echo "codelets: $@"
	@$(CC) $(ENG_CFLAGS) $(if $(CODELETS_CBLAS),-DHAVE_CBLAS) -o $@ $< $(ENG_LIB) \
		$(if $(CODELETS_CBLAS),-lopenblas) $(ENG_LDLIBS)

codelets-bench: $(B)/codelets/bench_matmul
	@mkdir -p $(B)/bench
	@OPENBLAS_NUM_THREADS=1 $(B)/codelets/bench_matmul >$(B)/bench/codelets.json
