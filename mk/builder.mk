# Graph builder, partition helpers, model device, .npy (libipudev/builder*.c,
# partition.c, model_device.c, npy.c -- built into libipudev by
# mk/libipudev.mk), the ipu-run tool (built by mk/tools.mk), their host tests
# and the matmul benchmark.
#   make builder-check  -> $(B)/results/builder.ktap
#   make bench-matmul   -> $(B)/bench/matmul.json (BENCH_MATMUL_THREADS=N,
#                          default: all online cores; BENCH_MATMUL_REPS)

BUILDER_TEST_DIR := tests/host/builder
BUILDER_TEST := $(B)/tests/builder/test_builder
BUILDER_BENCH := $(B)/bench-bin/bench_matmul
# (libipudev.mk is read after this file: name its output literally in
# prerequisites)
BUILDER_IPUDEV_A := $(B)/lib/libipudev.a
BUILDER_CFLAGS = $(USER_CFLAGS) -D_GNU_SOURCE -I$(CURDIR)/libipudev \
	-I$(CURDIR)/include -I$(CURDIR)/qemu-device/engine
BUILDER_LIBS = $(BUILDER_IPUDEV_A) $(ENG_LIB) $(IPUDEV_LDLIBS)
BENCH_MATMUL_THREADS ?= 0
BENCH_MATMUL_REPS ?= 9

ALL_TARGETS += $(B)/tools/ipu-run $(BUILDER_TEST)
HOST_CHECKS += builder-check
BENCH_TARGETS += bench-matmul

# on the kernel's kselftest harness
$(BUILDER_TEST): $(BUILDER_TEST_DIR)/test_builder.c $(BUILDER_IPUDEV_A) $(ENG_LIB) \
		libipudev/ipudev.h $(HARNESS_HDR)
	@mkdir -p $(dir $@)
	@echo "builder: $@"
	@$(CC) $(BUILDER_CFLAGS) $(HARNESS_CFLAGS) -o $@ $< $(BUILDER_LIBS)

$(BUILDER_BENCH): tests/bench/bench_matmul.c $(BUILDER_IPUDEV_A) $(ENG_LIB) \
		libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "builder: $@"
	@$(CC) $(BUILDER_CFLAGS) -o $@ $< $(BUILDER_LIBS) -lopenblas

.PHONY: builder-check bench-matmul
builder-check: $(BUILDER_TEST) $(B)/tools/ipu-run
	@mkdir -p $(B)/results
	@$(BUILDER_TEST_DIR)/run.sh $(B) $(BUILDER_TEST) >$(B)/results/builder.ktap
	@echo "builder: $$(grep -c '^ok' $(B)/results/builder.ktap) passed," \
		"$$(grep -c '^not ok' $(B)/results/builder.ktap) failed"

bench-matmul: $(BUILDER_BENCH)
	@mkdir -p $(B)/bench
	@$(BUILDER_BENCH) $(BENCH_MATMUL_THREADS) $(BENCH_MATMUL_REPS) >$(B)/bench/matmul.json
