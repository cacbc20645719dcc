# Tile/BSP engine (qemu-device/engine): library, host tests, fuzzer, benchmarks.
# Included by the top Makefile, which defines B, CC and USER_CFLAGS.

ENG_DIR      := qemu-device/engine
ENG_SRCS     := $(wildcard $(ENG_DIR)/*.c)
ENG_HDRS     := $(wildcard $(ENG_DIR)/*.h) include/ipu/graph_format.h include/ipu/ipu_models.h
ENG_OBJDIR   := $(B)/engine/obj
ENG_OBJS     := $(patsubst $(ENG_DIR)/%.c,$(ENG_OBJDIR)/%.o,$(ENG_SRCS))
ENG_LIB      := $(B)/engine/libipuengine.a
# the warning set QEMU builds these files with, plus -Werror
ENG_WARN     := -Wundef -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wtype-limits
ENG_WARN_GCC := -Wold-style-definition -Wshadow=local
ENG_CFLAGS   := $(USER_CFLAGS) $(ENG_WARN) $(if $(findstring clang,$(CC)),,$(ENG_WARN_GCC)) \
		-fPIC -Iinclude -I$(ENG_DIR) -pthread
ENG_TDIR     := tests/host/engine
ENG_TSUPPORT := $(ENG_TDIR)/gw.c $(ENG_TDIR)/tcodelets.c
ENG_TEST     := $(B)/engine/test_engine
ENG_GEN      := $(B)/engine/gen_corpus
ENG_BENCH    := $(B)/engine/bench_engine
ENG_FUZZ     := $(B)/engine/fuzz_graph_loader
ENG_CORPUS   := tests/fuzz/corpus/graph_loader
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60

ALL_TARGETS   += $(ENG_LIB) $(ENG_TEST)
HOST_CHECKS   += engine-check fuzz-check
BENCH_TARGETS += bench-engine

$(ENG_OBJDIR)/%.o: $(ENG_DIR)/%.c $(ENG_HDRS)
	@mkdir -p $(dir $@)
	@echo "engine: $@"
	@$(CC) $(ENG_CFLAGS) -c $< -o $@

$(ENG_LIB): $(ENG_OBJS)
	@mkdir -p $(dir $@)
	@echo "engine: $@"
	@rm -f $@ && ar rcs $@ $^

$(ENG_TEST): $(ENG_TDIR)/test_engine.c $(ENG_TSUPPORT) $(wildcard $(ENG_TDIR)/*.h) $(ENG_LIB) \
		$(HARNESS_HDR)
	@echo "engine: $@"
	@$(CC) $(ENG_CFLAGS) $(HARNESS_CFLAGS) -I$(ENG_TDIR) $(ENG_TDIR)/test_engine.c $(ENG_TSUPPORT) $(ENG_LIB) -lm -o $@

$(ENG_GEN): $(ENG_TDIR)/gen_corpus.c $(ENG_TSUPPORT) $(wildcard $(ENG_TDIR)/*.h) $(ENG_LIB)
	@echo "engine: $@"
	@$(CC) $(ENG_CFLAGS) -I$(ENG_TDIR) $(ENG_TDIR)/gen_corpus.c $(ENG_TSUPPORT) $(ENG_LIB) -lm -o $@

$(ENG_BENCH): tests/bench/bench_engine.c $(ENG_TSUPPORT) $(wildcard $(ENG_TDIR)/*.h) $(ENG_LIB)
	@echo "engine: $@"
	@$(CC) $(ENG_CFLAGS) -I$(ENG_TDIR) tests/bench/bench_engine.c $(ENG_TSUPPORT) $(ENG_LIB) -lm -o $@

# libFuzzer + ASan + UBSan build of the engine sources and the target
$(ENG_FUZZ): tests/fuzz/fuzz_graph_loader.c $(ENG_SRCS) $(ENG_HDRS) $(ENG_TSUPPORT)
	@mkdir -p $(dir $@)
	@echo "engine: $@"
	@$(FUZZ_CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -Iinclude -I$(ENG_DIR) -I$(ENG_TDIR) -pthread \
		tests/fuzz/fuzz_graph_loader.c $(ENG_SRCS) $(ENG_TSUPPORT) -lm -o $@

.PHONY: engine-check fuzz-check bench-engine engine-corpus

# exit 1 = some test failed (listed in the KTAP); a crash adds a not-ok line.
# The harness logs why a test failed on stderr, as KTAP comments.
engine-check: $(ENG_TEST)
	@mkdir -p $(B)/results
	@rc=0; $(ENG_TEST) >$(B)/results/engine.ktap 2>&1 || rc=$$?; \
	if [ $$rc -gt 1 ]; then \
		echo "not ok 999 engine tests crashed (exit $$rc)" >>$(B)/results/engine.ktap; \
	fi; \
	exit $$rc

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

bench-engine: $(ENG_BENCH)
	@mkdir -p $(B)/bench
	@$(ENG_BENCH) >$(B)/bench/engine.json

# regenerate the committed seed corpus
engine-corpus: $(ENG_GEN)
	$(ENG_GEN) $(ENG_CORPUS)
