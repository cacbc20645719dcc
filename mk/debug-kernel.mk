# The VM's debug kernel (docs/driver.md "Debug kernel"): Linux from Debian's
# linux-source-6.1 with KASAN, lockdep, kmemleak, DMA-API debug, UBSAN and
# fault injection (scripts/debug-kernel.sh, scripts/debug-kernel.config),
# ipu.ko built against it, and an initramfs for it; `tools/ipu-vm
# --debug-kernel` boots them. Nothing here is part of `make all`: the debug
# VM checks (DK_CHECKS, VM_DEBUG_CHECKS: mk/vm.mk, mk/driver.mk) and `make
# debug-kernel` build it. Its initramfs has the stock one's programs plus
# DEBUG_VM_TESTS (tests only the debug kernel runs). $(DK) and
# $(DK_INITRAMFS) are defined in the top Makefile.

DK_STAMP := $(DK)/stamp
DK_KO := $(DK)/ipu.ko
DK_MOD_DIR := $(DK)/module

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

# The stock initramfs is a prerequisite: it is remade whenever a tool, test
# or library changes, and so is this one after it.
$(DK_INITRAMFS): $(DK_KO) $$(sort $$(DEBUG_VM_TESTS)) $(INITRAMFS) scripts/mkinitramfs.sh
	@echo "debug-kernel: $@"
	@scripts/mkinitramfs.sh $@ $(DK)/root $$(cat $(DK)/release) \
		--bin $(sort $(VM_BINS)) --test $(VM_RUNNER) $(sort $(VM_TESTS) $(DEBUG_VM_TESTS)) \
		--lib $(sort $(VM_LIBS)) $(if $(VM_FILES),--file $(sort $(VM_FILES))) \
		$(if $(VM_RULES),--rule $(sort $(VM_RULES))) --module $(DK_KO)
