# driver/: ipu.ko, built by Kbuild in the source tree (M=$(CURDIR), see the
# top-level Kbuild) and copied to $(B)/driver/, and its lint, driver-lint.

DRIVER_SRCS := $(sort $(filter-out %.mod.c,$(wildcard driver/*.c driver/*.h)))
DRIVER_DEPS := Kbuild driver/Kbuild $(DRIVER_SRCS) include/ipu/ipu_hw.h \
	include/ipu/ipu_models.h include/uapi/linux/ipu.h
DRIVER_KO := $(B)/driver/ipu.ko
DRIVER_LINT_DIR := $(B)/driver/lint

ALL_TARGETS += $(DRIVER_KO)
HOST_CHECKS += driver-lint

$(DRIVER_KO): $(DRIVER_DEPS) | $(B)/kabi
	@mkdir -p $(dir $@)
	@echo "driver: $@"
	@$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules >$(B)/driver/build.log 2>&1 || \
		{ cat $(B)/driver/build.log; exit 1; }
	@grep -iE 'warning|error' $(B)/driver/build.log || true
	@cp driver/ipu.ko $@

# driver-lint: checkpatch --strict, a from-scratch W=1 build that must be
# warning-free and sparse (C=2: every file) that must be silent. The builds
# run on a private copy of the sources so they never race the in-tree build.
.PHONY: driver-lint
driver-lint: $(LINUX_SRC)/.stamp | $(B)/kabi
	@mkdir -p $(B)/results
	@rm -rf $(DRIVER_LINT_DIR) && mkdir -p $(DRIVER_LINT_DIR)/src
	@mkdir -p $(DRIVER_LINT_DIR)/src/driver
	@cp -r Kbuild include $(DRIVER_LINT_DIR)/src/
	@cp driver/Kbuild $(DRIVER_SRCS) $(DRIVER_LINT_DIR)/src/driver/
	@out=$(B)/results/driver-lint.ktap; d=$(DRIVER_LINT_DIR); \
	{ echo "KTAP version 1"; echo "1..3"; } >$$out; \
	if perl $(LINUX_SRC)/scripts/checkpatch.pl --strict --no-tree --terse \
		--show-types -f $(DRIVER_SRCS) driver/Kbuild >$$d/checkpatch.log 2>&1; then \
		echo "ok 1 driver: checkpatch --strict clean" >>$$out; \
	else \
		echo "not ok 1 driver: checkpatch --strict # see $$d/checkpatch.log" >>$$out; \
		grep -E '(ERROR|WARNING|CHECK):' $$d/checkpatch.log | head -20 | sed 's/^/# /' >>$$out; \
	fi; \
	if $(MAKE) -C $(KDIR) M=$$d/src W=1 modules >$$d/w1.log 2>&1 && \
		! grep -iE 'warning|error' $$d/w1.log >/dev/null; then \
		echo "ok 2 driver: W=1 build warning-free" >>$$out; \
	else \
		echo "not ok 2 driver: W=1 build # see $$d/w1.log" >>$$out; \
		grep -iE 'warning|error' $$d/w1.log | head -20 | sed 's/^/# /' >>$$out; \
	fi; \
	if ! command -v sparse >/dev/null; then \
		echo "not ok 3 driver: sparse C=1 clean # sparse is not installed" >>$$out; \
	elif $(MAKE) -C $(KDIR) M=$$d/src W=1 C=2 modules >$$d/sparse.log 2>&1 && \
		grep -q '^  CHECK' $$d/sparse.log && \
		! grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error):' $$d/sparse.log >/dev/null; then \
		echo "ok 3 driver: sparse C=1 clean" >>$$out; \
	else \
		echo "not ok 3 driver: sparse C=1 # see $$d/sparse.log" >>$$out; \
		grep -E ': (warning|error):' $$d/sparse.log | head -20 | sed 's/^/# /' >>$$out; \
	fi; \
	cat $$out
