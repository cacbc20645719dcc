# Installing the stack as a Debian machine expects it (dist/, debian/):
#   make install [PREFIX=/usr/local] [DESTDIR=]   make uninstall (the same)
# installs the shared library (SONAME, links), the static one (the engine
# folded in, mk/library.mk), ipudev.h, libipudev.pc for PREFIX, the tools
# (without the build tree's rpath), the man pages, bash completion, the
# udev rule and the module's source for DKMS in /usr/src/ipu-VERSION, and
# lists every file and directory it made in PREFIX/share/ipu/install-manifest,
# which `make uninstall` removes exactly (scripts/install.sh). Without
# DESTDIR, as root, it also creates group "ipu", runs ldconfig and reloads
# udev's rules.
# Tests (tests/install/):
#   HOST install-check  install into a temporary DESTDIR, build
#                       tests/install/consumer.c with pkg-config there
#                       (shared and static) and run its graph on the model
#                       device, render the man pages, uninstall, DESTDIR
#                       empty; the installed bash completion completes
#                       options, models and kinds; ipu-vm away from the
#                       tree lists the models its QEMU's card knows
#                       -> $(B)/results/install.ktap
#   HOST man-check      every man page renders with `man --warnings` quietly,
#                       one per tool -> $(B)/results/man.ktap
#   HOST udev-check     udevadm's rules parser takes the rule without a
#                       complaint (and refuses broken copies of it)
#                       -> $(B)/results/udev.ktap
#   (on demand) dkms-check  dkms add, build -k $(KABI), install, remove on
#                       the host, from an install-files DESTDIR, without
#                       touching the host's trees -> $(B)/results/dkms.ktap
#                       (`make check` does the same in the Debian root of
#                       mk/deb.mk, whose module vm-dkms-check boots)
#   VM   udev_vm.sh     (every VM run) udevd applies the rule: group ipu,
#                       0660, tag ipu; a user in group ipu opens /dev/ipu0,
#                       one outside it cannot

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# udev reads /etc and its own directory only: a /usr/local install uses /etc.
UDEVRULESDIR ?= $(if $(filter /usr,$(PREFIX)),/lib/udev/rules.d,/etc/udev/rules.d)
IPU_VERSION := $(IPUDEV_VERSION)
DKMS_SRCDIR ?= /usr/src/ipu-$(IPU_VERSION)
INSTALL_MANIFEST = $(PREFIX)/share/ipu/install-manifest

DIST := $(B)/dist
DIST_TOOLS := $(patsubst $(TOOLS_OUT)/%,$(DIST)/bin/%,$(TOOLS_BINS))
DIST_PC := $(DIST)/libipudev.pc
DIST_DKMS_CONF := $(DIST)/dkms.conf
UDEV_RULE := dist/udev/60-ipu.rules
BASH_COMPLETION := dist/bash-completion/ipu
# the tools completion knows: the built ones and the VM launcher
COMPLETED_TOOLS := $(notdir $(TOOLS_BINS)) ipu-vm
# the module's source as DKMS builds it (paths relative to the tree)
DKMS_FILES = Kbuild driver/Kbuild $(DRIVER_SRCS) include/ipu/ipu_hw.h \
	include/ipu/ipu_models.h include/uapi/linux/ipu.h

# Man pages: dist/man/NAME.SECTION.scd -> $(B)/man/NAME.SECTION (scdoc).
MAN_SRCS := $(sort $(wildcard dist/man/*.scd))
MAN_PAGES := $(patsubst dist/man/%.scd,$(B)/man/%,$(MAN_SRCS))

ALL_TARGETS += $(MAN_PAGES) $(DIST_TOOLS) $(DIST_PC) $(DIST_DKMS_CONF)
HOST_CHECKS += install-check man-check udev-check

$(B)/man/%: dist/man/%.scd
	@mkdir -p $(dir $@)
	@echo "man: $@"
	@scdoc <$< >$@.tmp && mv $@.tmp $@

# The tools as installed: the build's, without its rpath ($ORIGIN/../lib).
$(DIST)/bin/%: $(TOOLS_OUT)/%
	@mkdir -p $(dir $@)
	@cp $< $@ && chrpath -d $@ >/dev/null

$(DIST_PC): libipudev/libipudev.pc.in mk/install.mk FORCE
	@mkdir -p $(dir $@)
	@sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(IPUDEV_VERSION)|' \
		$< >$@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

$(DIST_DKMS_CONF): dist/dkms/dkms.conf.in mk/install.mk
	@mkdir -p $(dir $@)
	@sed -e 's|@VERSION@|$(IPU_VERSION)|' $< >$@

# MODE:SRC:DEST entries for scripts/install.sh, DEST without DESTDIR.
INSTALL_ENTRIES = \
	0644:$(IPUDEV_SO):$(LIBDIR)/$(notdir $(IPUDEV_SO)) \
	link:$(notdir $(IPUDEV_SO)):$(LIBDIR)/$(IPUDEV_SONAME) \
	link:$(IPUDEV_SONAME):$(LIBDIR)/libipudev.so \
	0644:$(IPUDEV_A):$(LIBDIR)/libipudev.a \
	0644:$(DIST_PC):$(LIBDIR)/pkgconfig/libipudev.pc \
	0644:libipudev/ipudev.h:$(INCLUDEDIR)/ipudev.h \
	$(foreach t,$(DIST_TOOLS),0755:$(t):$(BINDIR)/$(notdir $(t))) \
	$(foreach m,$(MAN_PAGES),0644:$(m):$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m))) \
	0644:$(BASH_COMPLETION):$(BASHCOMPDIR)/ipu-info \
	$(foreach t,$(filter-out ipu-info,$(COMPLETED_TOOLS)),link:ipu-info:$(BASHCOMPDIR)/$(t)) \
	0644:$(UDEV_RULE):$(UDEVRULESDIR)/$(notdir $(UDEV_RULE)) \
	0644:$(DIST_DKMS_CONF):$(DKMS_SRCDIR)/dkms.conf \
	$(foreach f,$(DKMS_FILES),0644:$(f):$(DKMS_SRCDIR)/$(f))

.PHONY: install uninstall install-files install-check man-check udev-check \
	dkms-check
# Builds what it installs first (as `make` does); install-files alone
# installs what is built.
install: deps
	@$(MAKE) --no-print-directory install-files
install-files: $(IPUDEV_SO) $(IPUDEV_A) $(DIST_PC) $(DIST_TOOLS) $(MAN_PAGES) \
		$(DIST_DKMS_CONF)
	@scripts/install.sh install "$(DESTDIR)" $(INSTALL_MANIFEST) $(INSTALL_ENTRIES)
	@echo "install: $(DESTDIR)$(PREFIX), $(DESTDIR)$(DKMS_SRCDIR), $(DESTDIR)$(UDEVRULESDIR) ($(DESTDIR)$(INSTALL_MANIFEST))"
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then \
		getent group ipu >/dev/null || groupadd --system ipu; \
		ldconfig; \
		udevadm control --reload 2>/dev/null || true; \
	fi

uninstall:
	@scripts/install.sh uninstall "$(DESTDIR)" $(INSTALL_MANIFEST)
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then ldconfig; fi

# It installs (make install-files) into its own DESTDIR.
install-check: $(IPUDEV_SO) $(IPUDEV_A) $(DIST_TOOLS) $(MAN_PAGES) $(DIST_DKMS_CONF)
	@mkdir -p $(B)/results
	@tests/install/install_check.sh $(CURDIR) $(B) >$(B)/results/install.ktap; \
	rc=$$?; grep -E '^not ok' $(B)/results/install.ktap; exit $$rc

man-check: $(MAN_PAGES)
	@mkdir -p $(B)/results
	@tests/install/man_check.sh $(B)/man $(COMPLETED_TOOLS) >$(B)/results/man.ktap

udev-check:
	@mkdir -p $(B)/results
	@tests/install/udev_check.sh $(UDEV_RULE) >$(B)/results/udev.ktap

dkms-check: $(DIST_DKMS_CONF) | $(B)/kabi
	@mkdir -p $(B)/results
	@tests/install/dkms_check.sh $(CURDIR) $(B) $(KABI) $(B)/dkms/ipu.ko \
		>$(B)/results/dkms.ktap; \
	rc=$$?; grep -E '^not ok' $(B)/results/dkms.ktap; exit $$rc

# --- the rule in the VM ------------------------------------------------------
VM_TESTS += tests/install/udev_vm.sh
VM_BINS += /bin/udevadm
VM_RULES += $(UDEV_RULE)
