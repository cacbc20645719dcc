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

# What the fragments declare (mk/*.mk, one per part). A fragment appends to
# these and names where each of its tests runs:
#   HOST_CHECKS      make targets run on the host by `make check`
#   VM_TESTS         programs for the VM's /tests, run by tests/common/run-tests.sh
#                    in every run of the whole suite (mk/vm.mk)
#   DEBUG_VM_TESTS   programs only in the debug kernel's /tests (mk/debug-kernel.mk)
#   VM_BINS, VM_LIBS programs for the VM's /usr/bin, libraries for its /usr/lib
#   VM_FILES         data files (absolute paths) copied to the same paths in the VM
#   VM_RULES         udev rules for the VM's /lib/udev/rules.d
#   VM_CHECKS        make targets that boot the stock VM (`make check`)
#   DK_CHECKS        make targets that boot the debug kernel in `make check`
#   VM_DEBUG_CHECKS  make targets that boot the debug kernel (`make check-debug`)
#   ALL_TARGETS, BENCH_TARGETS  what `make` builds, what `make bench` runs
ALL_TARGETS :=
HOST_CHECKS :=
BENCH_TARGETS :=
VM_BINS :=
VM_TESTS :=
DEBUG_VM_TESTS :=
VM_LIBS :=
VM_FILES :=
VM_RULES :=
VM_CHECKS :=
DK_CHECKS :=
VM_DEBUG_CHECKS :=

# Output paths and inputs that more than one part names, defined here, before
# the fragments, so that a fragment may use any of them in a target or a
# prerequisite (those are expanded when read) whatever the order in which the
# fragments are included. The lists above are only complete after the last
# fragment: a prerequisite naming one is written $$(LIST) (second expansion).
ENG_LIB        := $(B)/engine/libipuengine.a
ENG_LIB_SAN    := $(B)/engine/san/libipuengine.a
ENG_LIB_FUZZ   := $(B)/engine/fuzz/libipuengine.a
IPUDEV_VERSION := 1.0.0
IPUDEV_SONAME  := libipudev.so.1
IPUDEV_SO      := $(B)/lib/libipudev.so.$(IPUDEV_VERSION)
IPUDEV_SO_LINKS := $(B)/lib/$(IPUDEV_SONAME) $(B)/lib/libipudev.so
IPUDEV_A       := $(B)/lib/libipudev.a
IPUDEV_HDR     := $(B)/include/ipudev.h
IPUDEV_SRCS    := $(sort $(wildcard libipudev/*.c))
TOOLS_OUT      := $(B)/tools
TOOLS_SRCS     := $(sort $(wildcard tools/ipu-*.c))
TOOLS_BINS     := $(patsubst tools/%.c,$(TOOLS_OUT)/%,$(TOOLS_SRCS))
TOOLS_COMMON_OBJ := $(TOOLS_OUT)/common.o $(TOOLS_OUT)/topo_view.o $(TOOLS_OUT)/topo_ladder.o \
	$(TOOLS_OUT)/card_health.o
DRIVER_KO      := $(B)/driver/ipu.ko
VM_MODULE      := $(DRIVER_KO)
KSELFTEST_OUT  := $(B)/kselftest
DK             := $(B)/debug-kernel
DK_INITRAMFS   := $(DK)/initramfs.cpio.gz
# Test code shared by the driver's and the card's in-VM tests (tests/common/):
# helpers, and the test graphs built with libipudev; those tests are on the
# kselftest harness too.
TEST_COMMON    := tests/common
VM_RUNNER      := $(TEST_COMMON)/run-tests.sh
KSELFTEST_COMMON := $(TEST_COMMON)/ipu_test.c
KSELFTEST_HDRS := $(TEST_COMMON)/ipu_test.h include/uapi/linux/ipu.h \
	include/ipu/ipu_models.h include/ipu/ipu_hw.h
KSELFTEST_GRAPHS := $(TEST_COMMON)/ipu_graphs.c $(TEST_COMMON)/ipu_graphs.h
KSELFTEST_CFLAGS := $(USER_CFLAGS) $(HARNESS_CFLAGS) -D_GNU_SOURCE -I$(CURDIR)/$(TEST_COMMON)
# Shared by the benchmarks: JSON records, and the OpenBLAS baseline run in a
# child with the machine's OpenBLAS overrides removed (docs/benchmarks.md).
BENCH_JSON     := tests/bench/bench_json.h
BLAS_BASELINE  := tests/bench/blas_baseline.c tests/bench/blas_baseline.h

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

.SECONDEXPANSION:
# One fragment per part; none depends on the order they are read in.
-include $(sort $(wildcard mk/*.mk))

build: qemu kernel linux-src $(sort $(ALL_TARGETS)) initramfs

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

# Tests: host suites first, then the stock VM's runs, then the debug
# kernel's, each group in name order (not in the order the fragments were
# read); each writes KTAP to $(B)/results.
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
	$(call run_checks,$(sort $(HOST_CHECKS)) $(sort $(VM_CHECKS)) $(sort $(DK_CHECKS)))
check-debug-inner:
	$(call run_checks,$(sort $(VM_DEBUG_CHECKS)))

bench-inner:
	@rm -rf $(B)/bench && mkdir -p $(B)/bench
	@for t in $(sort $(BENCH_TARGETS)); do $(MAKE) --no-print-directory $$t || true; done
	@scripts/bench-report.py $(B)/bench

clean:
	rm -rf $(B)/results $(B)/vm $(B)/engine $(B)/lib $(B)/tools $(B)/driver $(B)/kselftest
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean >/dev/null 2>&1

FORCE:
