# tests/vm/ipu_exec_*.c: in-VM tests of running graphs on the cards through
# libipudev (round trips, card-vs-model graphs, 8 processes sharing the
# cards, negative paths, runs through the user queue and through SUBMIT).
# Linked with the shared libipudev (the VM's /usr/lib); copied to the VM's
# /tests, where run-tests.sh runs them.

VM_EXEC_NAMES := ipu_exec_roundtrip ipu_exec_graphs ipu_exec_share ipu_exec_errors ipu_exec_runq
VM_EXEC_BINS := $(addprefix $(B)/vm-tests/,$(VM_EXEC_NAMES))
VM_EXEC_CFLAGS = $(USER_CFLAGS) -D_GNU_SOURCE -I$(B)/include -I$(CURDIR)/tests/vm

ALL_TARGETS += $(VM_EXEC_BINS)
VM_TESTS += $(VM_EXEC_BINS)

$(B)/vm-tests/ipu_exec_%: tests/vm/ipu_exec_%.c tests/vm/exec_common.h $(IPUDEV_HDR) \
		$(IPUDEV_SO_LINKS)
	@mkdir -p $(dir $@)
	@echo "vm-exec-tests: $@"
	@$(CC) $(VM_EXEC_CFLAGS) -o $@ $< -L$(B)/lib -lipudev -Wl,-rpath,/usr/lib -lm

# tests/vm/ipu_run_cli.sh: ipu-mkgraph + ipu-run on every card vs the model.
VM_TESTS += tests/vm/ipu_run_cli.sh
