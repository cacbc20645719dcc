# libipudev/: the user-space library, and its tests (tests/library/):
#   HOST libipudev-check  tests/library/unit/: unit tests on the model device,
#                         the installed files -> $(B)/results/libipudev.ktap
#   HOST builder-check    tests/library/builder/: graph builder, partition
#                         helpers, model device, .npy, ipu-run
#                         -> $(B)/results/builder.ktap
#   HOST card-exec-check  tests/library/card-exec/: the card backend against a
#                         simulated card, with ASan/UBSan
#                         -> $(B)/results/card-exec.ktap
#   VM   ipu_exec_*       tests/library/exec/: graphs run on the cards
#   VM   vm-group-check   tests/common/fabric-vm.sh: an M2000 (4 test-model
#                         cards, m2000 fabric) runs ipu_exec_group: a 4-IPU
#                         graph on device 6 against the model, links down
#                         from QMP before and during a run, reset;
#                         ipu_group_streams: streams bound on device 6
#                         against the model device of 4 IPUs;
#                         ipu_group_pipeline: a pipelined MLP on devices 4
#                         and 6 against one IPU; ipu_train_group_vm.sh
#                         (mk/tools.mk): data-parallel ipu-train on device 6
#                         -> $(B)/results/vm-group-*.ktap;
#                         vm-pod16-check (mk/vm.mk) runs ipu_exec_group on a
#                         POD16's device 30 (16 IPUs)
# Benchmarks: bench-matmul (tests/library/builder/bench_matmul.c), bench-map
# (bench_map.c: a fused elementwise chain), bench-conv
# (tests/library/builder/bench_conv.c: conv2d forward/backward against
# im2col + OpenBLAS).
#
# Every libipudev/*.c goes into both
#   $(B)/lib/libipudev.so.1.0.0 (SONAME libipudev.so.1, -fvisibility=hidden,
#                                exports = libipudev/libipudev.map)
#   $(B)/lib/libipudev.a
# plus $(B)/include/ipudev.h and $(B)/lib/pkgconfig/libipudev.pc.
# The engine's archive ($(ENG_LIB), mk/engine.mk, PIC) is linked into the
# shared library and folded into the static one (its members renamed
# engine-*.o: both have a guards.o), so that libipudev.a links on its own
# with the .pc file's Libs.private and Requires.private. Other fragments
# may append to IPUDEV_CFLAGS and IPUDEV_LDLIBS (both are expanded at build
# time).
# Its outputs' paths (IPUDEV_SO, IPUDEV_A, IPUDEV_HDR, ...) and IPUDEV_SRCS
# are defined in the top Makefile.

IPUDEV_OBJS := $(patsubst libipudev/%.c,$(B)/libipudev/%.o,$(IPUDEV_SRCS))
IPUDEV_PC := $(B)/lib/pkgconfig/libipudev.pc
IPUDEV_MAP := libipudev/libipudev.map

IPUDEV_PKG_CFLAGS := $(shell pkg-config --cflags libudev libpci 2>/dev/null)
IPUDEV_PKG_LIBS := $(or $(shell pkg-config --libs libudev libpci 2>/dev/null),-ludev -lpci)
IPUDEV_CFLAGS += $(USER_CFLAGS) -D_GNU_SOURCE -fPIC -fvisibility=hidden \
	-I$(CURDIR)/include -I$(CURDIR)/include/uapi -I$(CURDIR)/libipudev \
	-I$(CURDIR)/qemu-device/engine $(IPUDEV_PKG_CFLAGS)
IPUDEV_LDLIBS += $(IPUDEV_PKG_LIBS) -lpthread -lm
# Static link line for programs using libipudev.a (tests).
IPUDEV_STATIC_LIBS = $(IPUDEV_A) $(IPUDEV_LDLIBS)

ALL_TARGETS += $(IPUDEV_SO) $(IPUDEV_SO_LINKS) $(IPUDEV_A) $(IPUDEV_HDR) \
	$(IPUDEV_PC)
VM_LIBS += $(IPUDEV_SO) $(B)/lib/$(IPUDEV_SONAME)
HOST_CHECKS += libipudev-check

$(B)/libipudev/%.o: libipudev/%.c
	@mkdir -p $(dir $@)
	@echo "libipudev: $@"
	@$(CC) $(IPUDEV_CFLAGS) -MMD -MP -c -o $@ $<

-include $(IPUDEV_OBJS:.o=.d)

$(IPUDEV_SO): $(IPUDEV_OBJS) $(IPUDEV_MAP) $(ENG_LIB)
	@mkdir -p $(dir $@)
	@echo "libipudev: $@"
	@$(CC) -shared -Wl,-soname,$(IPUDEV_SONAME) \
		-Wl,--version-script=$(IPUDEV_MAP) -Wl,--no-undefined \
		-Wl,-z,relro -Wl,-z,now -o $@ $(IPUDEV_OBJS) $(ENG_LIB) \
		$(IPUDEV_LDLIBS)

$(B)/lib/$(IPUDEV_SONAME) $(B)/lib/libipudev.so: $(IPUDEV_SO)
	@ln -sf $(notdir $<) $@

$(IPUDEV_A): $(IPUDEV_OBJS) $(ENG_LIB)
	@mkdir -p $(dir $@)
	@echo "libipudev: $@"
	@rm -rf $@ $@.eng && mkdir $@.eng && cd $@.eng && ar x $(ENG_LIB) && \
		for o in *.o; do mv "$$o" "engine-$$o"; done
	@ar rcs $@ $(IPUDEV_OBJS) $@.eng/*.o && rm -rf $@.eng

$(IPUDEV_HDR): libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@cp $< $@

$(IPUDEV_PC): libipudev/libipudev.pc.in mk/library.mk
	@mkdir -p $(dir $@)
	@sed -e 's|@PREFIX@|$(B)|' -e 's|@LIBDIR@|$(B)/lib|' \
		-e 's|@INCLUDEDIR@|$(B)/include|' -e 's|@VERSION@|$(IPUDEV_VERSION)|' \
		$< >$@

# --- unit tests (host) --------------------------------------------------------
IPUDEV_TEST_DIR := tests/library/unit
IPUDEV_TEST_BIN := $(B)/tests/libipudev/unit
# multi_model_tests.h builds multi-IPU binaries with the engine tests' graph writer
IPUDEV_TEST_SRCS := $(sort $(wildcard $(IPUDEV_TEST_DIR)/*.c)) tests/engine/gw.c
IPUDEV_TOOLS := $(TOOLS_OUT)/ipu-info $(TOOLS_OUT)/ipu-reset $(TOOLS_OUT)/ipu-links

$(IPUDEV_TEST_BIN): $(IPUDEV_TEST_SRCS) $(IPUDEV_A) $(TOOLS_COMMON_OBJ) \
		libipudev/ipudev.h libipudev/internal.h libipudev/topology.h tools/common.h tools/topo_view.h \
		$(ENG_LIB) $(wildcard $(IPUDEV_TEST_DIR)/*.h) tests/engine/gw.h $(HARNESS_HDR)
	@mkdir -p $(dir $@)
	@echo "libipudev: $@"
	@$(CC) $(IPUDEV_CFLAGS) $(HARNESS_CFLAGS) -I$(CURDIR)/tools -o $@ $(IPUDEV_TEST_SRCS) \
		$(TOOLS_COMMON_OBJ) $(IPUDEV_STATIC_LIBS)

.PHONY: libipudev-check
libipudev-check: $(IPUDEV_TEST_BIN) $(IPUDEV_SO_LINKS) $(IPUDEV_A) \
		$(IPUDEV_HDR) $(IPUDEV_PC) $(IPUDEV_TOOLS)
	@mkdir -p $(B)/results
	@$(IPUDEV_TEST_DIR)/run.sh $(B) $(IPUDEV_TEST_BIN) \
		>$(B)/results/libipudev.ktap

# --- builder tests (host) and the matmul benchmark ---------------------------
# The graph builder, partition helpers, model device and .npy
# (libipudev/builder*.c, partition.c, popops.c, expr.c, map.c, nn.c, norm.c,
# optim.c, model_device.c, npy.c), and ipu-run (mk/tools.mk).
#   make builder-check  -> $(B)/results/builder.ktap
#   make bench-graph-binary -> $(B)/bench/graph_binary.json (binary size over
#                          initial data and load time, plain vs compact)
#   make bench-matmul   -> $(B)/bench/matmul.json (BENCH_MATMUL_THREADS=N,
#                          default: all online cores; BENCH_MATMUL_REPS);
#                          its OpenBLAS child: $(BLAS_BASELINE), the top Makefile
#   make bench-allreduce -> $(B)/bench/allreduce.json: all-reduce of 64 MiB
#                          fp32 over 4 and 16 gc200 IPUs of the model device
#                          (tests/library/builder/bench_allreduce.c)
#   make bench-map      -> $(B)/bench/map.json: a 6-op chain fused by ipu_map
#                          against the same ops unfused (tests/library/builder/bench_map.c)
BUILDER_TEST_DIR := tests/library/builder
BUILDER_TEST := $(B)/tests/builder/test_builder
BUILDER_BENCH := $(B)/bench-bin/bench_matmul
MAP_BENCH := $(B)/bench-bin/bench_map
ALLREDUCE_BENCH := $(B)/bench-bin/bench_allreduce
BINARY_BENCH := $(B)/bench-bin/bench_graph_binary
BUILDER_CFLAGS = $(USER_CFLAGS) -D_GNU_SOURCE -I$(CURDIR)/libipudev \
	-I$(CURDIR)/include -I$(CURDIR)/qemu-device/engine
BUILDER_LIBS = $(IPUDEV_A) $(IPUDEV_LDLIBS)
BENCH_MATMUL_THREADS ?= 0
BENCH_MATMUL_REPS ?= 9

ALL_TARGETS += $(BUILDER_TEST)
HOST_CHECKS += builder-check
BENCH_TARGETS += bench-matmul bench-map bench-conv bench-graph-binary bench-allreduce
BUILDER_BENCH_CONV := $(B)/bench-bin/bench_conv
BENCH_CONV_THREADS ?= 0
BENCH_CONV_REPS ?= 5

# on the kernel's kselftest harness
$(BUILDER_TEST): $(BUILDER_TEST_DIR)/test_builder.c $(wildcard $(BUILDER_TEST_DIR)/*.h) \
		tests/common/ipu_pipeline_graph.h \
		$(IPUDEV_A) $(ENG_LIB) libipudev/ipudev.h $(HARNESS_HDR)
	@mkdir -p $(dir $@)
	@echo "builder: $@"
	@$(CC) $(BUILDER_CFLAGS) $(HARNESS_CFLAGS) -o $@ $< $(BUILDER_LIBS)

$(BUILDER_BENCH): $(BUILDER_TEST_DIR)/bench_matmul.c $(BLAS_BASELINE) $(BENCH_JSON) \
		$(IPUDEV_A) $(ENG_LIB) \
		libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "builder: $@"
	@$(CC) $(BUILDER_CFLAGS) -Itests/bench -Iqemu-device/engine -o $@ $< $(filter %.c,$(BLAS_BASELINE)) \
		$(BUILDER_LIBS) -lopenblas -lpthread

# fused elementwise chain against the unfused one (ipu_map)
$(MAP_BENCH): $(BUILDER_TEST_DIR)/bench_map.c $(BENCH_JSON) $(IPUDEV_A) $(ENG_LIB) libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "builder: $@"
	@$(CC) $(BUILDER_CFLAGS) -Itests/bench -o $@ $< $(BUILDER_LIBS)

# all-reduce over 4 and 16 IPUs of the model device (bench_allreduce.c)
$(ALLREDUCE_BENCH): $(BUILDER_TEST_DIR)/bench_allreduce.c $(BENCH_JSON) $(IPUDEV_A) $(ENG_LIB) \
		libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "builder: $@"
	@$(CC) $(BUILDER_CFLAGS) -Itests/bench -o $@ $< $(BUILDER_LIBS)

# graph binary size and load time, plain vs compact (bench_graph_binary.c)
$(BINARY_BENCH): $(BUILDER_TEST_DIR)/bench_graph_binary.c $(BUILDER_TEST_DIR)/binary_graphs.h \
		$(BENCH_JSON) $(IPUDEV_A) $(ENG_LIB) libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "builder: $@"
	@$(CC) $(BUILDER_CFLAGS) -Itests/bench -o $@ $< $(BUILDER_LIBS)

$(BUILDER_BENCH_CONV): $(BUILDER_TEST_DIR)/bench_conv.c $(BLAS_BASELINE) $(BENCH_JSON) \
		$(IPUDEV_A) $(ENG_LIB) libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "builder: $@"
	@$(CC) $(BUILDER_CFLAGS) -Itests/bench -Iqemu-device/engine -o $@ $< $(filter %.c,$(BLAS_BASELINE)) \
		$(BUILDER_LIBS) -lopenblas -lpthread

.PHONY: builder-check bench-matmul bench-map bench-conv bench-graph-binary bench-allreduce
builder-check: $(BUILDER_TEST) $(TOOLS_OUT)/ipu-run
	@mkdir -p $(B)/results
	@$(BUILDER_TEST_DIR)/run.sh $(B) $(BUILDER_TEST) >$(B)/results/builder.ktap
	@echo "builder: $$(grep -c '^ok' $(B)/results/builder.ktap) passed," \
		"$$(grep -c '^not ok' $(B)/results/builder.ktap) failed"

bench-matmul: $(BUILDER_BENCH)
	@mkdir -p $(B)/bench
	@$(BUILDER_BENCH) $(BENCH_MATMUL_THREADS) $(BENCH_MATMUL_REPS) >$(B)/bench/matmul.json

bench-allreduce: $(ALLREDUCE_BENCH)
	@mkdir -p $(B)/bench
	@$(ALLREDUCE_BENCH) 64 3 >$(B)/bench/allreduce.json

bench-map: $(MAP_BENCH)
	@mkdir -p $(B)/bench
	@$(MAP_BENCH) $(BENCH_MATMUL_THREADS) $(BENCH_MATMUL_REPS) >$(B)/bench/map.json

# conv2d (make bench-conv -> $(B)/bench/conv.json; BENCH_CONV_THREADS, BENCH_CONV_REPS)
bench-conv: $(BUILDER_BENCH_CONV)
	@mkdir -p $(B)/bench
	@$(BUILDER_BENCH_CONV) $(BENCH_CONV_THREADS) $(BENCH_CONV_REPS) >$(B)/bench/conv.json

bench-graph-binary: $(BINARY_BENCH)
	@mkdir -p $(B)/bench
	@$(BINARY_BENCH) >$(B)/bench/graph_binary.json

# --- card-exec tests (host) --------------------------------------------------
# The card execution path (libipudev/card_*.c) without a
# card: status messages, the graph-table parser against builder-made
# binaries, ranged/async/buffer calls on the model device, the engine
# loader's and the card pre-check's verdicts on corrupted binaries. On the
# kselftest harness (container_verdicts_tests.h is included by
# test_card_exec.c: one test list per binary). libipudev's sources are
# compiled into the test with the sanitizers and link the engine's sanitizer
# build ($(ENG_LIB_SAN)), so that the corrupted binaries go through a
# checked loader too.
CARD_EXEC_DIR := tests/library/card-exec
CARD_EXEC_TEST := $(B)/tests/card-exec/test_card_exec
CARD_EXEC_SRC := $(CARD_EXEC_DIR)/test_card_exec.c

ALL_TARGETS += $(CARD_EXEC_TEST)
HOST_CHECKS += card-exec-check

$(CARD_EXEC_TEST): $(CARD_EXEC_SRC) $(CARD_EXEC_DIR)/container_verdicts_tests.h \
		$(IPUDEV_SRCS) $(HARNESS_HDR) \
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

# --- graphs run on the cards (VM) --------------------------------------------
# tests/library/exec/ipu_exec_*.c: round trips, card-vs-model graphs, 8
# processes sharing the cards, negative paths, runs through the user queue
# and through SUBMIT, device ids and group open (ipu_exec_groups). Linked
# with the shared libipudev (the VM's /usr/lib).
VM_EXEC_DIR := tests/library/exec
VM_EXEC_NAMES := ipu_exec_roundtrip ipu_exec_graphs ipu_exec_share ipu_exec_errors ipu_exec_runq \
		 ipu_exec_guards ipu_exec_groups
VM_EXEC_BINS := $(addprefix $(B)/vm-tests/,$(VM_EXEC_NAMES))
VM_EXEC_CFLAGS = $(USER_CFLAGS) -D_GNU_SOURCE -I$(B)/include -I$(CURDIR)/$(VM_EXEC_DIR)

ALL_TARGETS += $(VM_EXEC_BINS)
VM_TESTS += $(VM_EXEC_BINS)

$(B)/vm-tests/ipu_exec_%: $(VM_EXEC_DIR)/ipu_exec_%.c $(VM_EXEC_DIR)/exec_common.h \
		$(IPUDEV_HDR) $(IPUDEV_SO_LINKS)
	@mkdir -p $(dir $@)
	@echo "vm-exec-tests: $@"
	@$(CC) $(VM_EXEC_CFLAGS) -o $@ $< -L$(B)/lib -lipudev -Wl,-rpath,/usr/lib -lm

# --- multi-IPU groups on the cards (VM) ---------------------------------------
# ipu_exec_group (tests/library/group/): the group device of libipudev (the
# shared library) against the model: the engine and its in-process fabric
# linked in, the test graph written with the engine tests' writer (gw.c).
# In /tests of every VM (it skips without an M2000 or a POD16); vm-group-check
# and vm-pod16-check (mk/vm.mk) boot them.
# ipu_group_streams: streams bound on the group device against the model
# device of 4 IPUs (the library's builder and model; no engine linked in).
GROUP_TDIR := tests/library/group
GROUP_TEST := $(B)/vm-tests/ipu_exec_group
GROUP_STREAMS_TEST := $(B)/vm-tests/ipu_group_streams
GROUP_PIPELINE_TEST := $(B)/vm-tests/ipu_group_pipeline
ALL_TARGETS += $(GROUP_TEST) $(GROUP_STREAMS_TEST) $(GROUP_PIPELINE_TEST)
VM_TESTS += $(GROUP_TEST) $(GROUP_STREAMS_TEST) $(GROUP_PIPELINE_TEST)
VM_CHECKS += vm-group-check

# ipu_group_pipeline: the pipelined MLP (tests/common/ipu_pipeline_graph.h)
# on devices 4 and 6 against one IPU of the model device.
$(GROUP_STREAMS_TEST) $(GROUP_PIPELINE_TEST): $(B)/vm-tests/%: $(GROUP_TDIR)/%.c \
		tests/common/ipu_pipeline_graph.h $(IPUDEV_HDR) $(IPUDEV_SO_LINKS)
	@mkdir -p $(dir $@)
	@echo "vm-group-tests: $@"
	@$(CC) $(USER_CFLAGS) -I$(B)/include -Iinclude -Itests/common -o $@ $< \
		-L$(B)/lib -lipudev -Wl,-rpath,/usr/lib -lm

$(GROUP_TEST): $(GROUP_TDIR)/ipu_exec_group.c tests/engine/gw.c libipudev/graph_pack.c \
		$(TEST_COMMON)/ipu_host_qmp.c $(ENG_LIB) $(IPUDEV_HDR) $(IPUDEV_SO_LINKS)
	@mkdir -p $(dir $@)
	@echo "vm-group-tests: $@"
	@$(CC) $(USER_CFLAGS) -D_GNU_SOURCE -I$(B)/include -Iinclude -Iqemu-device/engine \
		-Itests/engine -I$(TEST_COMMON) -o $@ $(filter %.c,$^) $(ENG_LIB) \
		-L$(B)/lib -lipudev -Wl,-rpath,/usr/lib -lm -lpthread

.PHONY: vm-group-check
vm-group-check:
	@mkdir -p $(B)/results
	@tests/common/fabric-vm.sh $(CURDIR) $(B) $(B)/results vm-group m2000 4 ipu_exec_group \
		ipu_group_streams ipu_group_pipeline ipu_train_group_vm.sh
