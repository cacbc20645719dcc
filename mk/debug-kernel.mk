# The VM's debug kernel (docs/driver.md "Debug kernel"): Linux from Debian's
# linux-source-6.1 with KASAN, lockdep, kmemleak, DMA-API debug, UBSAN and
# fault injection (scripts/debug-kernel.sh, scripts/debug-kernel.config),
# ipu.ko built against it, and an initramfs for it; `tools/ipu-vm
# --debug-kernel` boots them. Nothing here is part of `make all`: the debug
# VM checks (Makefile) and `make debug-kernel` build it.
#
# This file is read before the other mk/ files but mk/engine.mk:
# prerequisites that name their variables (driver sources, VM_BINS, ...) go
# through the stock module and initramfs, which depend on all of them;
# recipes use the variables themselves, which are complete by then.

DK := $(B)/debug-kernel
DK_STAMP := $(DK)/stamp
DK_KO := $(DK)/ipu.ko
DK_INITRAMFS := $(DK)/initramfs.cpio.gz
DK_MOD_DIR := $(DK)/module
# Fault-injection test: only in the debug initramfs (run-tests.sh runs it
# only when named).
DK_TESTS := $(B)/debug-tests/ipu_failslab_test

# `make debug-kernel`: the packages and the stock build first, like `make`.
.PHONY: debug-kernel debug-kernel-inner
debug-kernel: deps
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory debug-kernel-inner
debug-kernel-inner: $(DK_INITRAMFS)

# The script rebuilds only when the fragment, the script, the source package
# or the compiler changed; the stamp's time moves only then.
$(DK_STAMP): FORCE | $(B)/kabi
	@scripts/debug-kernel.sh $(B)

# ipu.ko for the debug kernel, built from a private copy of the sources (it
# never races the in-tree build of the stock module) with the kernel's own
# compiler setting.
$(DK_KO): $(DK_STAMP) $(VM_MODULE) Kbuild driver/Kbuild
	@echo "debug-kernel: $@"
	@rm -rf $(DK_MOD_DIR) && mkdir -p $(DK_MOD_DIR)/driver
	@cp -r Kbuild include $(DK_MOD_DIR)/
	@cp driver/Kbuild $(DRIVER_SRCS) $(DK_MOD_DIR)/driver/
	@$(MAKE) -C $(DK)/src M=$(DK_MOD_DIR) CC="ccache gcc" HOSTCC="ccache gcc" \
		modules >$(DK)/module.log 2>&1 || { cat $(DK)/module.log; exit 1; }
	@grep -iE 'warning|error' $(DK)/module.log || true
	@cp $(DK_MOD_DIR)/driver/ipu.ko $@

$(DK_TESTS): tests/kselftest/ipu_failslab_test.c tests/kselftest/ipu_test.c \
		tests/kselftest/ipu_test.h tests/kselftest/ipu_graphs.c \
		tests/kselftest/ipu_graphs.h $(LINUX_SRC)/.stamp $(INITRAMFS)
	@mkdir -p $(dir $@)
	@echo "debug-kernel: $@"
	@$(CC) $(KSELFTEST_CFLAGS) -I$(CURDIR)/libipudev -o $@ $< \
		tests/kselftest/ipu_test.c tests/kselftest/ipu_graphs.c \
		-L$(B)/lib -lipudev

# The stock initramfs is a prerequisite: it is remade whenever a tool, test
# or library changes, and so is this one after it.
$(DK_INITRAMFS): $(DK_KO) $(DK_TESTS) $(INITRAMFS) scripts/mkinitramfs.sh
	@echo "debug-kernel: $@"
	@scripts/mkinitramfs.sh $@ $(DK)/root $$(cat $(DK)/release) \
		--bin $(VM_BINS) --test tests/vm/run-tests.sh $(VM_TESTS) $(DK_TESTS) \
		--lib $(VM_LIBS) --module $(DK_KO)
