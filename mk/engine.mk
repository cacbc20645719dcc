# Tile/BSP engine (qemu-device/engine): the one build of it, its host tests,
# fuzzer and benchmark. Included by the top Makefile (which defines B, CC
# and USER_CFLAGS) before the other fragments, so that they can name
# $(ENG_LIB) and its flags.
#
# The engine is compiled once, with one set of flags, into $(ENG_LIB); every
# user links that archive: QEMU's card (scripts/qemu-build.sh links it into
# QEMU's tree, qemu-device/meson.build names it), libipudev.so/.a and the
# host tests. The sanitizer tests link a second configuration of the same
# rule (eng_build below), not a copy of it.

ENG_DIR      := qemu-device/engine
ENG_SRCS     := $(sort $(wildcard $(ENG_DIR)/*.c))
ENG_LIB      := $(B)/engine/libipuengine.a
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
ENG_LIB_SAN    := $(B)/engine/san/libipuengine.a
ENG_SAN_FLAGS  := -O1 -fsanitize=address,undefined,float-cast-overflow \
	-fno-sanitize-recover=all -fno-omit-frame-pointer
ENG_LIB_FUZZ   := $(B)/engine/fuzz/libipuengine.a
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
$(eval $(call eng_build,$(B)/engine,$(CC),))
$(eval $(call eng_build,$(B)/engine/san,$(CC),$(ENG_SAN_FLAGS)))
# (libFuzzer's main comes with the fuzz target's link, -fsanitize=fuzzer)
$(eval $(call eng_build,$(B)/engine/fuzz,$(FUZZ_CC),$(ENG_FUZZ_FLAGS) -fsanitize=fuzzer-no-link))

# --- tests, fuzzer, benchmark -------------------------------------------------
ENG_TDIR     := tests/host/engine
ENG_TSUPPORT := $(ENG_TDIR)/gw.c $(ENG_TDIR)/tcodelets.c
ENG_THDRS    := $(wildcard $(ENG_TDIR)/*.h)
ENG_TEST     := $(B)/engine/test_engine
ENG_GEN      := $(B)/engine/gen_corpus
ENG_BENCH    := $(B)/engine/bench_engine
ENG_FUZZ     := $(B)/engine/fuzz_graph_loader
ENG_CORPUS   := tests/fuzz/corpus/graph_loader
FUZZ_SECONDS ?= 60

ALL_TARGETS   += $(ENG_LIB) $(ENG_TEST)
HOST_CHECKS   += engine-check fuzz-check
BENCH_TARGETS += bench-engine

# $(call eng_program,MAIN.c[,FLAGS]): the recipe for a test program with the
# test support files, linked with $(ENG_LIB)
eng_program = @echo "engine: $@" && $(CC) $(ENG_CFLAGS) $(2) -I$(ENG_TDIR) -o $@ $(1) \
	$(ENG_TSUPPORT) $(ENG_LIB) $(ENG_LDLIBS)

$(ENG_TEST): $(ENG_TDIR)/test_engine.c $(ENG_TSUPPORT) $(ENG_THDRS) $(ENG_LIB) $(HARNESS_HDR)
	$(call eng_program,$<,$(HARNESS_CFLAGS))
$(ENG_GEN): $(ENG_TDIR)/gen_corpus.c $(ENG_TSUPPORT) $(ENG_THDRS) $(ENG_LIB)
	$(call eng_program,$<)
$(ENG_BENCH): tests/bench/bench_engine.c $(ENG_TSUPPORT) $(ENG_THDRS) $(ENG_LIB)
	$(call eng_program,$<)

$(ENG_FUZZ): tests/fuzz/fuzz_graph_loader.c $(ENG_TSUPPORT) $(ENG_THDRS) $(ENG_LIB_FUZZ)
	@echo "engine: $@"
	@$(FUZZ_CC) $(call eng_cflags,$(FUZZ_CC)) $(ENG_FUZZ_FLAGS) -fsanitize=fuzzer \
		-I$(ENG_TDIR) -o $@ $< $(ENG_TSUPPORT) $(ENG_LIB_FUZZ) $(ENG_LDLIBS)

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
