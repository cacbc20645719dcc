# Tile/BSP engine (qemu-device/engine, with its built-in codelet library,
# docs/codelets.md): the one build of it, its tests, fuzzer and benchmarks.
# Its archives' paths ($(ENG_LIB), $(ENG_LIB_SAN), $(ENG_LIB_FUZZ)) are
# defined in the top Makefile; other parts link them with the flags below.
# Tests (tests/engine/), all on the host:
#   HOST engine-check    tests/engine/test_engine.c -> $(B)/results/engine.ktap
#   HOST codelets-check  tests/engine/codelets/test_codelets.c, plain
#                        ($(ENG_LIB)) and with ASan+UBSan ($(ENG_LIB_SAN)):
#                        $(B)/results/codelets.ktap, codelets-san.ktap
#   HOST fuzz-check      tests/engine/fuzz/: the graph loader under libFuzzer
#                        (clang) for $(FUZZ_SECONDS)s -> $(B)/results/fuzz.ktap
# Benchmarks (`make bench`):
#   bench-engine    tests/engine/bench_engine.c -> $(B)/bench/engine.json
#   codelets-bench  fp32 matmul kernel vs OpenBLAS sgemm, one thread:
#                   $(B)/bench/codelets.json
# OpenBLAS baselines run in a child without OPENBLAS_CORETYPE and
# OPENBLAS_L2_SIZE ($(BLAS_BASELINE), also used by bench-matmul); tests keep
# the environment as it is.
# `make engine-corpus` regenerates the fuzzer's committed seed corpus.
#
# The engine is compiled once, with one set of flags, into $(ENG_LIB); every
# user links that archive: QEMU's card (scripts/qemu-build.sh links it into
# QEMU's tree, qemu-device/meson.build names it), libipudev.so/.a and the
# host tests. The sanitizer tests link a second configuration of the same
# rule (eng_build below), not a copy of it.

ENG_DIR      := qemu-device/engine
ENG_SRCS     := $(sort $(wildcard $(ENG_DIR)/*.c))
# The engine's flags. Warnings: QEMU 7.2's set (its configure's QEMU_CFLAGS
# and warn_flags; -Wextra already has the stricter -Wimplicit-fallthrough=3)
# plus -Wvla and -Wshadow=local; clang (the fuzz build) lacks the two in
# ENG_WARN_GCC. -fPIC: QEMU links PIE and libipudev.so is shared.
ENG_WARN     := -Wundef -Wwrite-strings -Wmissing-prototypes -Wstrict-prototypes \
	-Wredundant-decls -Wold-style-definition -Wtype-limits -Wformat-security \
	-Wformat-y2k -Winit-self -Wignored-qualifiers -Wempty-body -Wnested-externs \
	-Wendif-labels -Wexpansion-to-defined -Wvla
ENG_WARN_GCC := -Wold-style-declaration -Wshadow=local
# $(call eng_cflags,CC): the flags for that compiler (programs using the
# engine's headers are compiled with them too)
eng_cflags    = $(USER_CFLAGS) $(ENG_WARN) $(if $(findstring clang,$(1)),,$(ENG_WARN_GCC)) \
	-fPIC -pthread -I$(CURDIR)/$(ENG_DIR)
ENG_CFLAGS   := $(call eng_cflags,$(CC))
# what a program linking the engine also needs
ENG_LDLIBS   := -pthread -lm

# The second configurations, for tests only:
#   ENG_LIB_SAN   gcc + ASan/UBSan: codelets-check's -san run, card-exec-check
#   ENG_LIB_FUZZ  clang + libFuzzer's instrumentation + ASan/UBSan: fuzz-check
# A program linking one is compiled and linked with the same ENG_*_FLAGS.
ENG_SAN_FLAGS  := -O1 -fsanitize=address,undefined,float-cast-overflow \
	-fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CC        ?= clang
ENG_FUZZ_FLAGS := -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined

# $(call eng_build,DIR,CC,EXTRA_FLAGS): every engine source compiled into
# DIR/obj and archived as DIR/libipuengine.a. The objects depend on this file
# (their flags live here) and on the headers they include (-MMD).
define eng_build
$(1)/libipuengine.a: $(patsubst $(ENG_DIR)/%.c,$(1)/obj/%.o,$(ENG_SRCS))
	@echo "engine: $$@"
	@rm -f $$@ && ar rcs $$@ $$^
$(1)/obj/%.o: $(ENG_DIR)/%.c mk/engine.mk
	@mkdir -p $$(dir $$@)
	@echo "engine: $$@"
	@$(2) $(call eng_cflags,$(2)) $(3) -MMD -MP -c -o $$@ $$<
-include $(patsubst $(ENG_DIR)/%.c,$(1)/obj/%.d,$(ENG_SRCS))
endef
$(eval $(call eng_build,$(ENG_LIB:/libipuengine.a=),$(CC),))
$(eval $(call eng_build,$(ENG_LIB_SAN:/libipuengine.a=),$(CC),$(ENG_SAN_FLAGS)))
# (libFuzzer's main comes with the fuzz target's link, -fsanitize=fuzzer)
$(eval $(call eng_build,$(ENG_LIB_FUZZ:/libipuengine.a=),$(FUZZ_CC),$(ENG_FUZZ_FLAGS) -fsanitize=fuzzer-no-link))

# --- tests, fuzzer, benchmark -------------------------------------------------
ENG_TDIR     := tests/engine
ENG_TSUPPORT := $(ENG_TDIR)/gw.c $(ENG_TDIR)/tcodelets.c libipudev/graph_pack.c
ENG_THDRS    := $(wildcard $(ENG_TDIR)/*.h) libipudev/graph_pack.h
ENG_TEST     := $(B)/engine/test_engine
ENG_GEN      := $(B)/engine/gen_corpus
ENG_BENCH    := $(B)/engine/bench_engine
ENG_FUZZ     := $(B)/engine/fuzz_graph_loader
ENG_CORPUS   := $(ENG_TDIR)/fuzz/corpus/graph_loader
FUZZ_SECONDS ?= 60

ALL_TARGETS   += $(ENG_LIB) $(ENG_TEST)
HOST_CHECKS   += engine-check fuzz-check codelets-check
BENCH_TARGETS += bench-engine codelets-bench

# $(call eng_program,MAIN.c[,FLAGS]): the recipe for a test program with the
# test support files, linked with $(ENG_LIB)
eng_program = @echo "engine: $@" && $(CC) $(ENG_CFLAGS) $(2) -I$(ENG_TDIR) -o $@ $(1) \
	$(ENG_TSUPPORT) $(ENG_LIB) $(ENG_LDLIBS)

$(ENG_TEST): $(ENG_TDIR)/test_engine.c $(ENG_TSUPPORT) $(ENG_THDRS) $(ENG_LIB) $(HARNESS_HDR)
	$(call eng_program,$<,$(HARNESS_CFLAGS))
$(ENG_GEN): $(ENG_TDIR)/gen_corpus.c $(ENG_TSUPPORT) $(ENG_THDRS) $(ENG_LIB)
	$(call eng_program,$<)
$(ENG_BENCH): $(ENG_TDIR)/bench_engine.c $(ENG_TSUPPORT) $(ENG_THDRS) $(ENG_LIB) \
		$(BENCH_JSON)
	$(call eng_program,$<)

$(ENG_FUZZ): $(ENG_TDIR)/fuzz/fuzz_graph_loader.c $(ENG_TSUPPORT) $(ENG_THDRS) $(ENG_LIB_FUZZ)
	@echo "engine: $@"
	@$(FUZZ_CC) $(call eng_cflags,$(FUZZ_CC)) $(ENG_FUZZ_FLAGS) -fsanitize=fuzzer \
		-I$(ENG_TDIR) -o $@ $< $(ENG_TSUPPORT) $(ENG_LIB_FUZZ) $(ENG_LDLIBS)

# codelets: on the harness, plain and with the sanitizers
CODELETS_TDIR  := $(ENG_TDIR)/codelets
CODELETS_TEST  := $(B)/codelets/test_codelets
CODELETS_BENCH := $(B)/codelets/bench_matmul
CODELETS_CBLAS := $(firstword $(wildcard /usr/include/cblas.h /usr/include/*/cblas.h))

$(CODELETS_TEST): $(CODELETS_TDIR)/test_codelets.c $(wildcard $(CODELETS_TDIR)/*.h) $(ENG_LIB) $(HARNESS_HDR)
	@mkdir -p $(dir $@)
	@echo "engine: $@"
	@$(CC) $(ENG_CFLAGS) $(HARNESS_CFLAGS) -o $@ $< $(ENG_LIB) $(ENG_LDLIBS)

$(CODELETS_TEST)-san: $(CODELETS_TDIR)/test_codelets.c $(wildcard $(CODELETS_TDIR)/*.h) $(ENG_LIB_SAN) $(HARNESS_HDR)
	@mkdir -p $(dir $@)
	@echo "engine: $@"
	@$(CC) $(ENG_CFLAGS) $(HARNESS_CFLAGS) $(ENG_SAN_FLAGS) -o $@ $< $(ENG_LIB_SAN) $(ENG_LDLIBS)

$(CODELETS_BENCH): $(CODELETS_TDIR)/bench_matmul.c $(BLAS_BASELINE) $(ENG_LIB)
	@mkdir -p $(dir $@)
	@echo "engine: $@"
	@$(CC) $(ENG_CFLAGS) $(if $(CODELETS_CBLAS),-DHAVE_CBLAS -Itests/bench) -o $@ $< \
		$(if $(CODELETS_CBLAS),$(filter %.c,$(BLAS_BASELINE))) $(ENG_LIB) \
		$(if $(CODELETS_CBLAS),-lopenblas) $(ENG_LDLIBS)

.PHONY: engine-check codelets-check fuzz-check bench-engine codelets-bench engine-corpus

# exit 1 = some test failed (listed in the KTAP); a crash adds a not-ok line.
# The harness logs why a test failed on stderr, as KTAP comments.
engine-check: $(ENG_TEST)
	@mkdir -p $(B)/results
	@rc=0; $(ENG_TEST) >$(B)/results/engine.ktap 2>&1 || rc=$$?; \
	if [ $$rc -gt 1 ]; then \
		echo "not ok 999 engine tests crashed (exit $$rc)" >>$(B)/results/engine.ktap; \
	fi; \
	exit $$rc

# Both codelets runs; test failures are reported in the KTAP files, not as
# a make error. The sanitizers' reports go to codelets-san.log (a group they
# stop fails; a run that leaves no plan is replaced by a not-ok line).
codelets-check: $(CODELETS_TEST) $(CODELETS_TEST)-san
	@mkdir -p $(B)/results
	@rc=0; \
	$(CODELETS_TEST) >$(B)/results/codelets.ktap 2>&1 || rc=1; \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		$(CODELETS_TEST)-san >$(B)/results/codelets-san.ktap 2>$(B)/results/codelets-san.log || rc=1; \
	if ! grep -q '^1\.\.' $(B)/results/codelets-san.ktap; then \
		printf 'KTAP version 1\n1..1\nnot ok 1 codelets-san # crashed, see codelets-san.log\n' \
			>$(B)/results/codelets-san.ktap; \
	fi; \
	echo "codelets: $$(grep -c '^ok' $(B)/results/codelets.ktap) + $$(grep -c '^ok' $(B)/results/codelets-san.ktap) groups passed$$( [ $$rc = 0 ] || echo ', FAILURES: see the KTAP files')"

# fresh inputs go to $(B); the committed seeds are read only
fuzz-check:
	@mkdir -p $(B)/results $(B)/fuzz/graph_loader
	@if ! $(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) $(ENG_FUZZ) >$(B)/fuzz/build.log 2>&1; then \
		printf 'KTAP version 1\n1..1\nok 1 fuzz_graph_loader # SKIP fuzzer build failed (clang/libFuzzer missing?), see %s\n' \
			$(B)/fuzz/build.log > $(B)/results/fuzz.ktap; \
	elif $(ENG_FUZZ) -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -rss_limit_mb=2048 \
		-timeout=10 -print_final_stats=1 -artifact_prefix=$(B)/fuzz/ \
		$(B)/fuzz/graph_loader $(ENG_CORPUS) >$(B)/fuzz/run.log 2>&1; then \
		printf 'KTAP version 1\n1..1\nok 1 fuzz_graph_loader # %s runs in %ss\n' \
			"$$(grep -ao 'number_of_executed_units: [0-9]*' $(B)/fuzz/run.log | grep -o '[0-9]*$$')" \
			$(FUZZ_SECONDS) > $(B)/results/fuzz.ktap; \
	else \
		printf 'KTAP version 1\n1..1\nnot ok 1 fuzz_graph_loader # crash, see %s\n' \
			$(B)/fuzz/run.log > $(B)/results/fuzz.ktap; \
	fi
	@cat $(B)/results/fuzz.ktap

codelets-bench: $(CODELETS_BENCH)
	@mkdir -p $(B)/bench
	@OPENBLAS_NUM_THREADS=1 $(CODELETS_BENCH) >$(B)/bench/codelets.json

bench-engine: $(ENG_BENCH)
	@mkdir -p $(B)/bench
	@$(ENG_BENCH) >$(B)/bench/engine.json

# regenerate the committed seed corpus
engine-corpus: $(ENG_GEN)
	$(ENG_GEN) $(ENG_CORPUS)
