# Debian packages (debian/, debhelper): `make deb` builds ipu-dkms,
# libipudev1, libipudev-dev, ipu-tools and ipu-emulator into $(B)/deb/ and
# runs lintian on them, which must report no error ($(B)/deb/lintian.txt).
# debian/rules builds with the tree's own targets: deb-inputs (what the
# packages hold) and install-files (mk/install.mk) with PREFIX=/usr.
# Tests (tests/install/):
#   HOST deb-root-check  the packages in a throwaway Debian 12 root
#                      (mmdebstrap; tests/install/deb_root.sh): apt installs
#                      them, a program built there with pkg-config (shared
#                      and static) runs a graph, the man pages render, `dkms
#                      build` and `dkms install` make ipu.ko for the guest
#                      kernel ($(DEB_ROOT_KO)), purge removes it all
#                      -> $(B)/results/deb-root.ktap
#                      and the installed ipu-vm finds Debian's kernel and
#                      makes its initramfs (deb-root/installed-*)
#   VM   vm-dkms-check the VM boots with that DKMS-built ipu.ko and runs the
#                      driver's kselftests -> $(B)/results/vm-dkms-*.ktap;
#                      and boots the installed ipu-vm's kernel and
#                      initramfs, whose tools list the cards
#                      (tests/install/installed_vm.sh)
#                      -> $(B)/results/vm-dkms-installed.ktap

DEB_OUT := $(B)/deb
DEB_PACKAGES := ipu-dkms libipudev1 libipudev-dev ipu-tools ipu-emulator

.PHONY: deb deb-inputs deb-files
deb-inputs: qemu $(IPUDEV_SO) $(IPUDEV_SO_LINKS) $(IPUDEV_A) $$(DIST_TOOLS) \
	$$(MAN_PAGES) $$(DIST_DKMS_CONF)

deb: deps
	@$(MAKE) --no-print-directory deb-files

# debian/rules in the tree; its own state (debian/tmp, debian/PACKAGE/)
# is cleared before and after.
deb-files:
	@rm -rf $(DEB_OUT) && mkdir -p $(DEB_OUT)
	@echo "deb: building $(DEB_PACKAGES) -> $(DEB_OUT) (log: $(DEB_OUT)/build.log)"
	@{ debian/rules clean && debian/rules build && \
		debian/rules binary DEB_OUT=$(DEB_OUT); } >$(DEB_OUT)/build.log 2>&1; \
	rc=$$?; debian/rules clean >/dev/null 2>&1; \
	[ $$rc = 0 ] || { tail -30 $(DEB_OUT)/build.log; exit $$rc; }
	@ls $(DEB_OUT)/*.deb
	@lintian --no-cfg --fail-on error $(DEB_OUT)/*.deb >$(DEB_OUT)/lintian.txt 2>&1; \
	rc=$$?; grep -c '^W:' $(DEB_OUT)/lintian.txt | sed 's/^/deb: lintian warnings: /'; \
	grep '^E:' $(DEB_OUT)/lintian.txt; \
	[ $$rc = 0 ] && echo "deb: lintian: no errors" || { echo "deb: lintian found errors"; exit 1; }

# --- the packages in a throwaway Debian 12 root (host) -----------------------
DEB_ROOT_KO := $(B)/deb-root/ipu.ko
HOST_CHECKS += deb-root-check
.PHONY: deb-root-check
deb-root-check: deb-files | $(B)/kabi
	@mkdir -p $(B)/results $(B)/deb-root
	@tests/install/deb_root.sh $(CURDIR) $(DEB_OUT) $(KABI) $(DEB_ROOT_KO) \
		>$(B)/results/deb-root.ktap; \
	rc=$$?; grep -E '^not ok' $(B)/results/deb-root.ktap; exit $$rc

# The stock VM with the Debian root's DKMS-built module in place of the
# tree's (deb-root-check makes it; run alone, this makes it first).
VM_CHECKS += vm-dkms-check
DEB_ROOT_INITRAMFS := $(B)/deb-root/initramfs.cpio.gz
.PHONY: vm-dkms-check
$(DEB_ROOT_KO):
	@$(MAKE) --no-print-directory deb-root-check
$(DEB_ROOT_INITRAMFS): $(DEB_ROOT_KO) scripts/mkinitramfs.sh scripts/vm-init.sh \
		$$(VM_INITRAMFS_INPUTS) $(KERNEL_ROOT)/boot/vmlinuz-$(KABI)
	@echo "deb-root: $@"
	@scripts/mkinitramfs.sh $@ $(KERNEL_ROOT) $(KABI) $(VM_INITRAMFS_ARGS) \
		--module $(DEB_ROOT_KO)
vm-dkms-check: $(DEB_ROOT_INITRAMFS)
	$(call vm_run,vm-dkms,--initrd $(DEB_ROOT_INITRAMFS),$(KSELFTEST_NAMES))
	@tests/install/installed_vm.sh $(VM) $(B)/deb-root/installed-vmlinuz \
		$(B)/deb-root/installed-initramfs.cpio.gz $(B)/vm-share/vm-installed \
		>$(B)/results/vm-dkms-installed.ktap; \
	rc=$$?; grep -E '^not ok' $(B)/results/vm-dkms-installed.ktap; exit $$rc
