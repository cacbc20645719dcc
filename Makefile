# IPU stack: the emulated card (QEMU), the driver, the library, the tools and
# their tests. `make` builds everything, `make run` shows it working in a VM,
# `make check` runs every test, `make bench` the benchmarks. See README.md.

B := $(CURDIR)/build
# ccache hashes paths relative to the tree and ignores the working directory,
# so a clone at another path (CI's) reuses this machine's cache.
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
CC := gcc
USER_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -I$(CURDIR)/include
KABI := $(shell cat $(B)/kabi 2>/dev/null)
KDIR := /usr/src/linux-headers-$(KABI)
LINUX_SRC := $(B)/linux-src
# Host unit tests use the kernel's kselftest harness: it needs GNU C, and its
# TEST() wrappers have unused parameters by design. Append after a part's flags.
HARNESS_CFLAGS := -std=gnu11 -Wno-unused-parameter -Wno-missing-prototypes -I$(LINUX_SRC)/tools/testing/selftests
HARNESS_HDR := $(LINUX_SRC)/.stamp
KERNEL_ROOT := $(B)/kernel/root
INITRAMFS := $(B)/vm/initramfs.cpio.gz
QEMU := $(B)/qemu/qemu-system-x86_64
VM := $(CURDIR)/tools/ipu-vm

ALL_TARGETS :=
HOST_CHECKS :=
BENCH_TARGETS :=
VM_BINS :=
VM_TESTS :=
VM_LIBS :=
VM_MODULE := $(B)/driver/ipu.ko

.DEFAULT_GOAL := all
.PHONY: all build deps run check check-inner check-debug check-debug-inner \
	bench bench-inner shell clean qemu kernel linux-src initramfs vm-check FORCE

# Everything else needs the packages, so the public targets install them
# first and then re-enter make (KABI is known only after that).
all: deps
	@$(MAKE) --no-print-directory build
run: deps
	@$(MAKE) --no-print-directory build
	@scripts/demo.sh
check: deps
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory check-inner
# The whole VM suite under the debug kernel (mk/debug-kernel.mk).
check-debug: deps
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory check-debug-inner
bench: deps
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory bench-inner
shell: deps
	@$(MAKE) --no-print-directory build
	@$(VM) --shell

deps: $(B)/kabi
$(B)/kabi: scripts/deps.sh
	@mkdir -p $(B)
	@scripts/deps.sh | tail -1 >$@.tmp && mv $@.tmp $@

# The engine's fragment first: the card, the library and the tests link its
# archive and name it (and its flags) by variable.
include mk/engine.mk
-include $(sort $(filter-out mk/engine.mk,$(wildcard mk/*.mk)))

build: qemu kernel linux-src $(ALL_TARGETS) initramfs

# QEMU links the card's engine, $(ENG_LIB) (mk/engine.mk).
qemu: $(ENG_LIB) FORCE
	@scripts/qemu-build.sh $(CURDIR) $(B) $(ENG_LIB)

kernel: $(KERNEL_ROOT)/boot/vmlinuz-$(KABI)
$(KERNEL_ROOT)/boot/vmlinuz-$(KABI):
	@scripts/kernel-fetch.sh $(B) $(KABI)

# The kselftest harness and checkpatch come from Debian's linux-source-6.1.
LINUX_SRC_FILES := tools/testing/selftests/kselftest_harness.h \
	tools/testing/selftests/kselftest.h scripts/checkpatch.pl \
	scripts/spelling.txt scripts/const_structs.checkpatch
linux-src: $(LINUX_SRC)/.stamp
$(LINUX_SRC)/.stamp: | $(B)/kabi
	@echo "linux-src: extracting the kselftest harness and checkpatch"
	@rm -rf $(LINUX_SRC) && mkdir -p $(LINUX_SRC)
	@tar -xJf /usr/src/linux-source-6.1.tar.xz -C $(LINUX_SRC) --strip-components=1 \
		$(addprefix linux-source-6.1/,$(LINUX_SRC_FILES))
	@touch $@

initramfs: $(INITRAMFS)
$(INITRAMFS): scripts/mkinitramfs.sh scripts/vm-init.sh tests/vm/run-tests.sh \
		$(VM_BINS) $(VM_TESTS) $(VM_LIBS) $(wildcard $(VM_MODULE)) \
		$(KERNEL_ROOT)/boot/vmlinuz-$(KABI)
	@mkdir -p $(dir $@)
	@echo "initramfs: $@"
	@scripts/mkinitramfs.sh $@ $(KERNEL_ROOT) $(KABI) \
		--bin $(VM_BINS) --test tests/vm/run-tests.sh $(VM_TESTS) \
		--lib $(VM_LIBS) $(if $(wildcard $(VM_MODULE)),--module $(VM_MODULE))

# Tests: host suites first, then the VM; each writes KTAP to $(B)/results.
# $(call run_checks,TARGETS): one sub-make each; one that fails without
# writing results counts as a failed test.
define run_checks
	@rm -rf $(B)/results && mkdir -p $(B)/results
	@for t in $(1); do \
		n=$$(ls $(B)/results/*.ktap 2>/dev/null | wc -l); \
		$(MAKE) --no-print-directory $$t; rc=$$?; \
		if [ $$rc != 0 ] && [ "$$(ls $(B)/results/*.ktap 2>/dev/null | wc -l)" = "$$n" ]; then \
			printf 'KTAP version 1\n1..1\nnot ok 1 %s # exited %s without results\n' $$t $$rc \
				>$(B)/results/$$t.ktap; \
		fi; \
	done
	@scripts/ktap-summary.sh $(B)/results
endef
check-inner:
	$(call run_checks,$(HOST_CHECKS) $(VM_CHECKS))
check-debug-inner:
	$(call run_checks,$(VM_DEBUG_CHECKS))

# The VM suite runs twice: plain, and behind an intel-iommu with the guest
# in strict IOMMU mode; the command-queue tests run again on cards without
# MSI-X (queue interrupts as IRQ_STATUS causes over MSI) and with INTx.
# $(call vm_run,NAME,LAUNCHER ARGS[,TESTS])
define vm_run
	@rm -rf $(B)/vm-share/$(1) && mkdir -p $(B)/vm-share/$(1)
	@$(VM) $(2) --share $(B)/vm-share --dmesg $(B)/results/$(1)-dmesg.txt -- \
		/tests/run-tests.sh /mnt/host/$(1) $(3); \
	rc=$$?; \
	for f in $(B)/vm-share/$(1)/*.ktap; do \
		[ -f "$$f" ] && cp "$$f" $(B)/results/$(1)-$$(basename $$f); \
	done; \
	scripts/dmesg-check.sh $(B)/results/$(1)-dmesg.txt $$rc $(1) \
		>$(B)/results/$(1)-kernel-log.ktap
endef
VM_CHECKS := vm-plain-check vm-iommu-check vm-msi-check vm-intx-check \
	vm-hotplug-check vm-hotplug-iommu-check vm-trace-check \
	vm-debug-iommu-check vm-debug-failslab-check
vm-check: $(VM_CHECKS)
vm-plain-check:
	$(call vm_run,vm,)
vm-iommu-check:
	$(call vm_run,vm-iommu,--iommu)
VM_IRQ_TESTS := ipu_cmd_test ipu_uqueue_test ipu_exec_graphs ipu_device_test
vm-msi-check:
	$(call vm_run,vm-msi,--qemu-arg -global --qemu-arg ipu.msix=off,$(VM_IRQ_TESTS))
vm-intx-check:
	$(call vm_run,vm-intx,--append pci=nomsi,$(VM_IRQ_TESTS))
# Busy cards unplugged from the host (QMP device_del), plain and behind the
# IOMMU.
vm-hotplug-check:
	@tests/hotplug/run.sh $(CURDIR) $(B) >$(B)/results/vm-hotplug.ktap
vm-hotplug-iommu-check:
	@tests/hotplug/run.sh $(CURDIR) $(B) hotplug-iommu --iommu \
		>$(B)/results/vm-hotplug-iommu.ktap
# The card's QEMU trace events show a reset and a matmul.
vm-trace-check:
	@tests/trace/run.sh $(CURDIR) $(B) >$(B)/results/vm-trace.ktap

# Under the debug kernel (KASAN, lockdep, kmemleak, DMA-API debug, UBSAN;
# mk/debug-kernel.mk, built on first use): the driver's kselftests behind
# the IOMMU, where any checker report fails the run (scripts/dmesg-check.sh,
# and run-tests.sh's kmemleak scan and DMA-API error count); and the
# fault-injection run, failslab and fail_page_alloc for the test process
# only, with DMA-API debugging off (its own bookkeeping does not survive
# injected failures) and no ACPI interrupt routing (the probe under
# injection would run ACPICA's _PRT evaluation, which 6.1 gets wrong on
# AE_NO_MEMORY: a use-after-free at the next unbind). `make check-debug`
# runs the whole suite under it.
VM_DEBUG_TESTS = ipu_probe_test ipu_info_test ipu_ioctl_test ipu_reset_test \
	ipu_module_test ipu_cmd_test ipu_uqueue_test ipu_inflight_test \
	$(filter ipu_fuzz_test,$(notdir $(VM_TESTS)))
vm-debug-iommu-check: $(DK_INITRAMFS)
	$(call vm_run,vm-debug-iommu,--debug-kernel --iommu,$(VM_DEBUG_TESTS))
vm-debug-failslab-check: $(DK_INITRAMFS)
	$(call vm_run,vm-debug-failslab,--debug-kernel --iommu --append dma_debug=off --append acpi=noirq,ipu_failslab_test)
VM_DEBUG_CHECKS := vm-debug-plain-all-check vm-debug-iommu-all-check \
	vm-debug-failslab-check vm-debug-hotplug-check
vm-debug-plain-all-check: $(DK_INITRAMFS)
	$(call vm_run,vm-debug,--debug-kernel)
vm-debug-iommu-all-check: $(DK_INITRAMFS)
	$(call vm_run,vm-debug-iommu-all,--debug-kernel --iommu)
vm-debug-hotplug-check: $(DK_INITRAMFS)
	@tests/hotplug/run.sh $(CURDIR) $(B) vm-debug-hotplug --debug-kernel --iommu \
		>$(B)/results/vm-debug-hotplug.ktap
.PHONY: vm-check $(VM_CHECKS) $(VM_DEBUG_CHECKS)

bench-inner:
	@rm -rf $(B)/bench && mkdir -p $(B)/bench
	@for t in $(BENCH_TARGETS); do $(MAKE) --no-print-directory $$t || true; done
	@scripts/bench-report.py $(B)/bench

clean:
	rm -rf $(B)/results $(B)/vm $(B)/engine $(B)/lib $(B)/tools $(B)/driver $(B)/kselftest
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean >/dev/null 2>&1

FORCE:
