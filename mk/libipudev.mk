# libipudev/: the user-space library. Every libipudev/*.c goes into both
#   $(B)/lib/libipudev.so.1.0.0 (SONAME libipudev.so.1, -fvisibility=hidden,
#                                exports = libipudev/libipudev.map)
#   $(B)/lib/libipudev.a
# plus $(B)/include/ipudev.h and $(B)/lib/pkgconfig/libipudev.pc.
# The engine's archive ($(ENG_LIB), mk/engine.mk, PIC) is linked into the
# shared library and into programs using the static one. Other fragments
# may append to IPUDEV_CFLAGS and IPUDEV_LDLIBS (both are expanded at build
# time).
# Host tests: libipudev-check -> $(B)/results/libipudev.ktap; the tools'
# in-VM test tests/host/libipudev/ipudev_tools_vm.sh goes to VM_TESTS.

IPUDEV_VERSION := 1.0.0
IPUDEV_SONAME := libipudev.so.1
IPUDEV_SRCS := $(sort $(wildcard libipudev/*.c))
IPUDEV_OBJS := $(patsubst libipudev/%.c,$(B)/libipudev/%.o,$(IPUDEV_SRCS))
IPUDEV_SO := $(B)/lib/libipudev.so.$(IPUDEV_VERSION)
IPUDEV_SO_LINKS := $(B)/lib/$(IPUDEV_SONAME) $(B)/lib/libipudev.so
IPUDEV_A := $(B)/lib/libipudev.a
IPUDEV_HDR := $(B)/include/ipudev.h
IPUDEV_PC := $(B)/lib/pkgconfig/libipudev.pc
IPUDEV_MAP := libipudev/libipudev.map

IPUDEV_PKG_CFLAGS := $(shell pkg-config --cflags libudev libpci 2>/dev/null)
IPUDEV_PKG_LIBS := $(or $(shell pkg-config --libs libudev libpci 2>/dev/null),-ludev -lpci)
IPUDEV_CFLAGS += $(USER_CFLAGS) -D_GNU_SOURCE -fPIC -fvisibility=hidden \
	-I$(CURDIR)/include -I$(CURDIR)/include/uapi -I$(CURDIR)/libipudev \
	-I$(CURDIR)/qemu-device/engine $(IPUDEV_PKG_CFLAGS)
IPUDEV_LDLIBS += $(IPUDEV_PKG_LIBS) -lpthread -lm
# Static link line for programs using libipudev.a (tests).
IPUDEV_STATIC_LIBS = $(IPUDEV_A) $(ENG_LIB) $(IPUDEV_LDLIBS)

ALL_TARGETS += $(IPUDEV_SO) $(IPUDEV_SO_LINKS) $(IPUDEV_A) $(IPUDEV_HDR) \
	$(IPUDEV_PC)
VM_LIBS += $(IPUDEV_SO) $(B)/lib/$(IPUDEV_SONAME)
# In-VM test of the tools (busybox sh, prints KTAP)
VM_TESTS += tests/host/libipudev/ipudev_tools_vm.sh
HOST_CHECKS += libipudev-check

$(B)/libipudev/%.o: libipudev/%.c
	@mkdir -p $(dir $@)
	@echo "libipudev: $@"
	@$(CC) $(IPUDEV_CFLAGS) -MMD -MP -c -o $@ $<

-include $(IPUDEV_OBJS:.o=.d)

$(IPUDEV_SO): $(IPUDEV_OBJS) $(IPUDEV_MAP) $(ENG_LIB)
	@mkdir -p $(dir $@)
	@echo "libipudev: $@"
	@$(CC) -shared -Wl,-soname,$(IPUDEV_SONAME) \
		-Wl,--version-script=$(IPUDEV_MAP) -Wl,--no-undefined \
		-Wl,-z,relro -Wl,-z,now -o $@ $(IPUDEV_OBJS) $(ENG_LIB) \
		$(IPUDEV_LDLIBS)

$(B)/lib/$(IPUDEV_SONAME) $(B)/lib/libipudev.so: $(IPUDEV_SO)
	@ln -sf $(notdir $<) $@

$(IPUDEV_A): $(IPUDEV_OBJS)
	@mkdir -p $(dir $@)
	@echo "libipudev: $@"
	@rm -f $@ && ar rcs $@ $^

$(IPUDEV_HDR): libipudev/ipudev.h
	@mkdir -p $(dir $@)
	@cp $< $@

$(IPUDEV_PC): libipudev/libipudev.pc.in mk/libipudev.mk
	@mkdir -p $(dir $@)
	@sed -e 's|@PREFIX@|$(abspath $(B))|' -e 's|@VERSION@|$(IPUDEV_VERSION)|' \
		$< >$@

# --- host tests --------------------------------------------------------------
IPUDEV_TEST_DIR := tests/host/libipudev
IPUDEV_TEST_BIN := $(B)/tests/libipudev/unit
IPUDEV_TEST_SRCS := $(sort $(wildcard $(IPUDEV_TEST_DIR)/*.c))
# (mk/tools.mk is read after this file: name its outputs literally)
IPUDEV_TOOLS_COMMON := $(B)/tools/common.o
IPUDEV_TOOLS := $(B)/tools/ipu-info $(B)/tools/ipu-reset

$(IPUDEV_TEST_BIN): $(IPUDEV_TEST_SRCS) $(IPUDEV_A) $(IPUDEV_TOOLS_COMMON) \
		libipudev/ipudev.h libipudev/internal.h tools/common.h \
		$(ENG_LIB) $(wildcard $(IPUDEV_TEST_DIR)/*.h) $(HARNESS_HDR)
	@mkdir -p $(dir $@)
	@echo "libipudev: $@"
	@$(CC) $(IPUDEV_CFLAGS) $(HARNESS_CFLAGS) -I$(CURDIR)/tools -o $@ $(IPUDEV_TEST_SRCS) \
		$(IPUDEV_TOOLS_COMMON) $(IPUDEV_STATIC_LIBS)

.PHONY: libipudev-check
libipudev-check: $(IPUDEV_TEST_BIN) $(IPUDEV_SO_LINKS) $(IPUDEV_A) \
		$(IPUDEV_HDR) $(IPUDEV_PC) $(IPUDEV_TOOLS)
	@mkdir -p $(B)/results
	@$(IPUDEV_TEST_DIR)/run.sh $(B) $(IPUDEV_TEST_BIN) \
		>$(B)/results/libipudev.ktap
