# driver/: ipu.ko, built by Kbuild in the source tree (M=$(CURDIR), see the
# top-level Kbuild) and copied to $(B)/driver/, its lint and its tests
# (tests/driver/):
#   HOST driver-lint             checkpatch, W=1, sparse -> $(B)/results/driver-lint.ktap
#   VM   ipu_*_test              the kselftests: static binaries on the kernel's
#                                kselftest harness, one per area, in the VM's
#                                /tests; each prints KTAP
#   VM   vm-debug-iommu-check    the kselftests under the debug kernel, behind
#                                the IOMMU (also in `make check`)
#   debug VM only: ipu_failslab_test, run by vm-debug-failslab-check
#   VM   vm-hotplug-check, vm-hotplug-iommu-check, vm-debug-hotplug-check:
#                                tests/driver/hotplug/run.sh unplugs busy cards
#                                from the host (QMP device_del); the guest side,
#                                ipu-hotplug-holder, goes to the VM's /usr/bin
#   VM   vm-driver-links-check, vm-driver-links-msi-check,
#        vm-driver-links-intx-check, vm-debug-driver-links-check:
#                                tests/driver/links/run.sh boots 4 cards on an
#                                m2000 fabric and runs ipu_links_test there,
#                                answering its QMP requests (links down/up,
#                                errors) from the host; with the LINK cause
#                                on MSI-X vector 0, on MSI, on INTx, and
#                                under the debug kernel; vm-pod16-check
#                                (mk/vm.mk) runs it and ipu_group_test on a
#                                POD16; in every other VM ipu_links_test
#                                runs without a fabric

DRIVER_SRCS := $(sort $(filter-out %.mod.c,$(wildcard driver/*.c driver/*.h)))
DRIVER_DEPS := Kbuild driver/Kbuild $(DRIVER_SRCS) include/ipu/ipu_hw.h \
	include/ipu/ipu_models.h include/uapi/linux/ipu.h
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
# The sparse run drops our MAKEFLAGS: under `make -s` Kbuild would not print
# the CHECK lines that show sparse ran.
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
	elif MAKEFLAGS= $(MAKE) -C $(KDIR) M=$$d/src W=1 C=2 modules >$$d/sparse.log 2>&1 && \
		grep -q '^  CHECK' $$d/sparse.log && \
		! grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error):' $$d/sparse.log >/dev/null; then \
		echo "ok 3 driver: sparse C=1 clean" >>$$out; \
	else \
		echo "not ok 3 driver: sparse C=1 # see $$d/sparse.log" >>$$out; \
		grep -E ': (warning|error):' $$d/sparse.log | head -20 | sed 's/^/# /' >>$$out; \
	fi; \
	cat $$out

# --- kselftests (VM) ---------------------------------------------------------
# They use the shared helpers and, those that run graphs, the shared test
# graphs built with libipudev (tests/common/, KSELFTEST_* in the Makefile).
DRIVER_TDIR := tests/driver
KSELFTEST_NAMES := ipu_probe_test ipu_info_test ipu_ioctl_test ipu_reset_test \
	ipu_module_test ipu_cmd_test ipu_uqueue_test ipu_inflight_test \
	ipu_fuzz_test ipu_debug_test ipu_links_test ipu_group_test \
	ipu_recovery_test ipu_health_test
KSELFTEST_BINS := $(addprefix $(KSELFTEST_OUT)/,$(KSELFTEST_NAMES))

ALL_TARGETS += $(KSELFTEST_BINS)
VM_TESTS += $(KSELFTEST_BINS)

$(KSELFTEST_OUT)/%: $(DRIVER_TDIR)/%.c $(KSELFTEST_COMMON) $(KSELFTEST_HDRS) \
		$(LINUX_SRC)/.stamp
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -static -o $@ $< $(KSELFTEST_COMMON)

# ipu_cmd_test (uAPI 1.1 through the driver), ipu_uqueue_test,
# ipu_inflight_test and ipu_group_test (group commands) build their graphs with libipudev, so they link the
# library like the card's ipu_queue_test (mk/card.mk).
$(KSELFTEST_OUT)/ipu_cmd_test $(KSELFTEST_OUT)/ipu_uqueue_test \
		$(KSELFTEST_OUT)/ipu_inflight_test \
		$(KSELFTEST_OUT)/ipu_group_test: $(KSELFTEST_OUT)/%: \
		$(DRIVER_TDIR)/%.c $(KSELFTEST_COMMON) \
		$(KSELFTEST_HDRS) $(KSELFTEST_GRAPHS) $(LINUX_SRC)/.stamp $(IPUDEV_SO_LINKS) \
		libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/libipudev -o $@ $< $(KSELFTEST_COMMON) \
		$(TEST_COMMON)/ipu_graphs.c -L$(B)/lib -lipudev -lpthread

# ipu_links_test asks the host for QMP commands (tests/common/ipu_host_qmp.c).
$(KSELFTEST_OUT)/ipu_links_test: \
		$(KSELFTEST_OUT)/%: $(DRIVER_TDIR)/%.c $(KSELFTEST_COMMON) \
		$(KSELFTEST_HDRS) $(TEST_COMMON)/ipu_host_qmp.c $(TEST_COMMON)/ipu_host_qmp.h \
		$(LINUX_SRC)/.stamp
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -static -o $@ $< $(KSELFTEST_COMMON) \
		$(TEST_COMMON)/ipu_host_qmp.c

# ipu_health_test (hwmon, health in sysfs, API 1.8) and ipu_recovery_test
# check with verified graph runs (the shared test graphs, built with
# libipudev) and inject faults through the host's QMP when they have it;
# ipu_health_test checks that lm-sensors' `sensors` lists the card, so the
# VM gets the host's (scripts/deps.sh installs lm-sensors; without it that
# check skips).
VM_BINS += $(wildcard /usr/bin/sensors)
$(KSELFTEST_OUT)/ipu_health_test $(KSELFTEST_OUT)/ipu_recovery_test: \
		$(KSELFTEST_OUT)/%: $(DRIVER_TDIR)/%.c \
		$(KSELFTEST_COMMON) $(KSELFTEST_HDRS) $(KSELFTEST_GRAPHS) \
		$(TEST_COMMON)/ipu_host_qmp.c $(TEST_COMMON)/ipu_host_qmp.h \
		include/ipu/ipu_models.h $(LINUX_SRC)/.stamp $(IPUDEV_SO_LINKS) \
		libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/libipudev -o $@ $< $(KSELFTEST_COMMON) \
		$(TEST_COMMON)/ipu_graphs.c $(TEST_COMMON)/ipu_host_qmp.c \
		-L$(B)/lib -lipudev

# --- Hang detection and recovery (VM, faults injected from the host's QMP) ---
# ipu_recovery_test is in /tests (VM_TESTS) and skips without QMP; this boot
# gives it the host's QMP proxy, and ipu_health_test's DMA error too.
# The -msi and -intx runs take the completions and the READY and ERROR
# causes on MSI and on INTx; the debug run adds KASAN, lockdep, kmemleak and
# DMA-API debugging.
RECOVERY_DIR := $(DRIVER_TDIR)/recovery
VM_CHECKS += vm-driver-recovery-check vm-driver-recovery-msi-check \
	vm-driver-recovery-intx-check
VM_DEBUG_CHECKS += vm-debug-driver-recovery-check

.PHONY: vm-driver-recovery-check vm-driver-recovery-msi-check \
	vm-driver-recovery-intx-check vm-debug-driver-recovery-check
vm-driver-recovery-check:
	@mkdir -p $(B)/results
	@$(RECOVERY_DIR)/run.sh $(CURDIR) $(B) >$(B)/results/vm-driver-recovery.ktap
vm-driver-recovery-msi-check:
	@mkdir -p $(B)/results
	@$(RECOVERY_DIR)/run.sh $(CURDIR) $(B) vm-driver-recovery-msi --qemu-arg -global \
		--qemu-arg ipu.msix=off >$(B)/results/vm-driver-recovery-msi.ktap
vm-driver-recovery-intx-check:
	@mkdir -p $(B)/results
	@$(RECOVERY_DIR)/run.sh $(CURDIR) $(B) vm-driver-recovery-intx --append pci=nomsi \
		>$(B)/results/vm-driver-recovery-intx.ktap
vm-debug-driver-recovery-check: $(DK_INITRAMFS)
	@mkdir -p $(B)/results
	@$(RECOVERY_DIR)/run.sh $(CURDIR) $(B) vm-debug-driver-recovery --debug-kernel \
		>$(B)/results/vm-debug-driver-recovery.ktap

# --- The soak (VM, faults injected from the host's QMP) -----------------------
# ipu_soak_test (tests/driver/soak/soak.h) uses only libipudev's public API;
# it is in /tests (VM_TESTS) and skips without QMP, as ipu_recovery_test.
SOAK_DIR := $(DRIVER_TDIR)/soak
SOAK_TEST := $(B)/tests/ipu_soak_test
SOAK_SRCS := $(sort $(wildcard $(SOAK_DIR)/*.c))
ALL_TARGETS += $(SOAK_TEST)
VM_TESTS += $(SOAK_TEST)
VM_CHECKS += vm-soak-check
DK_CHECKS += vm-debug-soak-check
VM_DEBUG_CHECKS += vm-debug-soak-check

$(SOAK_TEST): $(SOAK_SRCS) $(SOAK_DIR)/soak.h $(TEST_COMMON)/ipu_host_qmp.c \
		$(TEST_COMMON)/ipu_host_qmp.h $(IPUDEV_SO_LINKS) libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "soak: $@"
	@$(CC) $(USER_CFLAGS) -D_GNU_SOURCE -I$(CURDIR)/libipudev -I$(CURDIR)/$(TEST_COMMON) \
		-o $@ $(SOAK_SRCS) $(TEST_COMMON)/ipu_host_qmp.c -L$(B)/lib -lipudev

.PHONY: vm-soak-check vm-debug-soak-check
vm-soak-check:
	@mkdir -p $(B)/results
	@$(SOAK_DIR)/run.sh $(CURDIR) $(B) >$(B)/results/vm-soak.ktap
vm-debug-soak-check: $(DK_INITRAMFS)
	@mkdir -p $(B)/results
	@$(SOAK_DIR)/run.sh $(CURDIR) $(B) vm-debug-soak --debug-kernel \
		>$(B)/results/vm-debug-soak.ktap

# ipu_fuzz_test (a seeded fuzz of every ioctl, mmap and poll; threads and a
# killed process on one card) loads the shared test graphs, built with
# libipudev, and runs threads.
$(KSELFTEST_OUT)/ipu_fuzz_test: $(DRIVER_TDIR)/ipu_fuzz_test.c $(KSELFTEST_COMMON) \
		$(KSELFTEST_HDRS) $(KSELFTEST_GRAPHS) $(LINUX_SRC)/.stamp $(IPUDEV_SO_LINKS) \
		libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "kselftest: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -pthread -I$(CURDIR)/libipudev -o $@ $< $(KSELFTEST_COMMON) \
		$(TEST_COMMON)/ipu_graphs.c -L$(B)/lib -lipudev

# --- under the debug kernel (VM) ---------------------------------------------
# The kselftests behind the IOMMU, where any checker report fails the run
# (scripts/dmesg-check.sh, and run-tests.sh's kmemleak scan and DMA-API
# error count); and the fault-injection run, failslab and fail_page_alloc
# for the test process only, with DMA-API debugging off (its own bookkeeping
# does not survive injected failures) and no ACPI interrupt routing (the
# probe under injection would run ACPICA's _PRT evaluation, which 6.1 gets
# wrong on AE_NO_MEMORY: a use-after-free at the next unbind). The
# fault-injection test is only in the debug initramfs (run-tests.sh runs it
# only when named).
DRIVER_FAILSLAB_TEST := $(B)/debug-tests/ipu_failslab_test
DEBUG_VM_TESTS += $(DRIVER_FAILSLAB_TEST)
DK_CHECKS += vm-debug-iommu-check vm-debug-failslab-check
VM_DEBUG_CHECKS += vm-debug-failslab-check

$(DRIVER_FAILSLAB_TEST): $(DRIVER_TDIR)/ipu_failslab_test.c $(KSELFTEST_COMMON) \
		$(KSELFTEST_HDRS) $(KSELFTEST_GRAPHS) $(LINUX_SRC)/.stamp $(INITRAMFS)
	@mkdir -p $(dir $@)
	@echo "debug-kernel: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/libipudev -o $@ $< \
		$(KSELFTEST_COMMON) $(TEST_COMMON)/ipu_graphs.c \
		-L$(B)/lib -lipudev

VM_DEBUG_TESTS = ipu_probe_test ipu_info_test ipu_ioctl_test ipu_reset_test \
	ipu_module_test ipu_cmd_test ipu_uqueue_test ipu_inflight_test ipu_links_test \
	ipu_group_test ipu_health_test $(filter ipu_fuzz_test,$(notdir $(VM_TESTS)))

.PHONY: vm-debug-iommu-check vm-debug-failslab-check
vm-debug-iommu-check: $(DK_INITRAMFS)
	$(call vm_run,vm-debug-iommu,--debug-kernel --iommu,$(VM_DEBUG_TESTS))
vm-debug-failslab-check: $(DK_INITRAMFS)
	$(call vm_run,vm-debug-failslab,--debug-kernel --iommu --append dma_debug=off --append acpi=noirq,ipu_failslab_test)

# --- hot-unplug (VM, driven from the host) -----------------------------------
# ipu-hotplug-holder keeps a card busy with every kind of DMA mapping while
# the host unplugs it.
HOTPLUG_DIR := $(DRIVER_TDIR)/hotplug
HOTPLUG_HOLDER := $(B)/tests/ipu-hotplug-holder
ALL_TARGETS += $(HOTPLUG_HOLDER)
VM_BINS += $(HOTPLUG_HOLDER)
VM_CHECKS += vm-hotplug-check vm-hotplug-iommu-check
VM_DEBUG_CHECKS += vm-debug-hotplug-check

$(HOTPLUG_HOLDER): $(HOTPLUG_DIR)/ipu_hotplug_holder.c $(KSELFTEST_COMMON) \
		$(TEST_COMMON)/ipu_test.h $(KSELFTEST_GRAPHS) include/uapi/linux/ipu.h \
		$(IPUDEV_SO_LINKS) libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@echo "hotplug: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/libipudev \
		-o $@ $< $(KSELFTEST_COMMON) $(TEST_COMMON)/ipu_graphs.c \
		-L$(B)/lib -lipudev

# plain and behind the IOMMU, and under the debug kernel
.PHONY: vm-hotplug-check vm-hotplug-iommu-check vm-debug-hotplug-check
vm-hotplug-check:
	@$(HOTPLUG_DIR)/run.sh $(CURDIR) $(B) >$(B)/results/vm-hotplug.ktap
vm-hotplug-iommu-check:
	@$(HOTPLUG_DIR)/run.sh $(CURDIR) $(B) hotplug-iommu --iommu \
		>$(B)/results/vm-hotplug-iommu.ktap
vm-debug-hotplug-check: $(DK_INITRAMFS)
	@$(HOTPLUG_DIR)/run.sh $(CURDIR) $(B) vm-debug-hotplug --debug-kernel --iommu \
		>$(B)/results/vm-debug-hotplug.ktap

# --- IPU-Links on an M2000 (VM, QMP driven from the host) ---------------------
# ipu_links_test is in /tests already (VM_TESTS); this boot gives it a fabric
# and the host's QMP proxy.
LINKS_DIR := $(DRIVER_TDIR)/links
VM_CHECKS += vm-driver-links-check vm-driver-links-msi-check vm-driver-links-intx-check
VM_DEBUG_CHECKS += vm-debug-driver-links-check

.PHONY: vm-driver-links-check vm-driver-links-msi-check vm-driver-links-intx-check vm-debug-driver-links-check
vm-driver-links-check:
	@mkdir -p $(B)/results
	@$(LINKS_DIR)/run.sh $(CURDIR) $(B) >$(B)/results/vm-driver-links.ktap
vm-driver-links-msi-check:
	@mkdir -p $(B)/results
	@$(LINKS_DIR)/run.sh $(CURDIR) $(B) vm-driver-links-msi --qemu-arg -global \
		--qemu-arg ipu.msix=off >$(B)/results/vm-driver-links-msi.ktap
vm-driver-links-intx-check:
	@mkdir -p $(B)/results
	@$(LINKS_DIR)/run.sh $(CURDIR) $(B) vm-driver-links-intx --append pci=nomsi \
		>$(B)/results/vm-driver-links-intx.ktap
vm-debug-driver-links-check: $(DK_INITRAMFS)
	@mkdir -p $(B)/results
	@$(LINKS_DIR)/run.sh $(CURDIR) $(B) vm-debug-driver-links --debug-kernel \
		>$(B)/results/vm-debug-driver-links.ktap
