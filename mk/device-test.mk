# tests/kselftest/ipu_device_test.c: the card's register interface driven
# through BAR0 with the driver unbound (built like the driver's kselftests,
# by the pattern rule of mk/kselftest.mk).
DEVICE_TEST := $(B)/kselftest/ipu_device_test
ALL_TARGETS += $(DEVICE_TEST)
VM_TESTS += $(DEVICE_TEST)
