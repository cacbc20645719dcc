# The VM the in-VM tests run in (tools/ipu-vm): its initramfs and the runs of
# the whole in-VM suite. Every program in VM_TESTS (the parts' fragments)
# goes to the VM's /tests, where $(VM_RUNNER) runs them and writes one KTAP
# file each to the shared directory; scripts/dmesg-check.sh adds the kernel
# log's verdict. Runs (stock kernel, `make check`):
#   vm-plain-check  every VM test
#   vm-iommu-check  every VM test behind an intel-iommu, guest in strict mode
#   vm-msi-check    the command-queue tests (VM_IRQ_TESTS) on cards without
#                   MSI-X (queue interrupts as IRQ_STATUS causes over MSI)
#   vm-intx-check   the same with INTx
#   vm-pod16-check  one POD16 (16 test-model cards, tools/ipu-vm -n 16
#                   --topology pod16) with the host's QMP
#                   (tests/common/fabric-vm.sh): the IPU-Link, group and
#                   tools tests of VM_POD16_TESTS against its wiring, device
#                   ids 16-30, group attach of 4 and 16 cards, rails cut
#                   and restored, a link down mid-run on device 30
# Under the debug kernel (mk/debug-kernel.mk; `make check-debug`):
#   vm-debug-plain-all-check, vm-debug-iommu-all-check  every VM test
# Other fragments add their own VM runs to VM_CHECKS, DK_CHECKS and
# VM_DEBUG_CHECKS and may call vm_run in their recipes.

VM_CHECKS += vm-plain-check vm-iommu-check vm-msi-check vm-intx-check vm-pod16-check
VM_DEBUG_CHECKS += vm-debug-plain-all-check vm-debug-iommu-all-check

# What the stock initramfs holds besides the module (other fragments build
# variants of it with another ipu.ko: mk/install.mk's DKMS-built one).
VM_INITRAMFS_INPUTS = $(VM_RUNNER) $(sort $(VM_BINS) $(VM_TESTS) $(VM_LIBS) $(VM_FILES) $(VM_RULES))
VM_INITRAMFS_ARGS = --bin $(sort $(VM_BINS)) --test $(VM_RUNNER) $(sort $(VM_TESTS)) \
	--lib $(sort $(VM_LIBS)) $(if $(VM_FILES),--file $(sort $(VM_FILES))) \
	$(if $(VM_RULES),--rule $(sort $(VM_RULES)))

initramfs: $(INITRAMFS)
$(INITRAMFS): scripts/mkinitramfs.sh scripts/vm-init.sh $$(VM_INITRAMFS_INPUTS) \
		$(wildcard $(VM_MODULE)) \
		$(KERNEL_ROOT)/boot/vmlinuz-$(KABI)
	@mkdir -p $(dir $@)
	@echo "initramfs: $@"
	@scripts/mkinitramfs.sh $@ $(KERNEL_ROOT) $(KABI) $(VM_INITRAMFS_ARGS) \
		$(if $(wildcard $(VM_MODULE)),--module $(VM_MODULE))

# $(call vm_run,NAME,LAUNCHER ARGS[,TESTS]): boot the VM, run TESTS (default:
# all) and collect their KTAP and the kernel log's verdict as NAME-*.
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

.PHONY: vm-check vm-plain-check vm-iommu-check vm-msi-check vm-intx-check vm-pod16-check \
	vm-debug-plain-all-check vm-debug-iommu-all-check
vm-check: $$(sort $$(VM_CHECKS)) $$(sort $$(DK_CHECKS))
vm-plain-check:
	$(call vm_run,vm,)
vm-iommu-check:
	$(call vm_run,vm-iommu,--iommu)
VM_IRQ_TESTS := ipu_cmd_test ipu_uqueue_test ipu_exec_graphs ipu_device_test
vm-msi-check:
	$(call vm_run,vm-msi,--qemu-arg -global --qemu-arg ipu.msix=off,$(VM_IRQ_TESTS))
vm-intx-check:
	$(call vm_run,vm-intx,--append pci=nomsi,$(VM_IRQ_TESTS))
# The tests that take their topology from IPU_VM_TOPOLOGY, in a POD16.
VM_POD16_TESTS := ipu_links_test ipu_group_test ipu_exec_groups ipudev_tools_vm.sh \
	ipu_exec_group
vm-pod16-check:
	@tests/common/fabric-vm.sh $(CURDIR) $(B) $(B)/results vm-pod16 pod16 16 \
		$(VM_POD16_TESTS)
vm-debug-plain-all-check: $(DK_INITRAMFS)
	$(call vm_run,vm-debug,--debug-kernel)
vm-debug-iommu-all-check: $(DK_INITRAMFS)
	$(call vm_run,vm-debug-iommu-all,--debug-kernel --iommu)
