# tests/e2e/kernel/: host-built helpers of the kernel-* e2e scenarios
# (included from kernel/build.mk).
#   otattest-nltest   libmnl client of the netlink family, runs in the guest
#   otattest-recdump  decodes a record file into sysfs-shaped lines, on the host
#   otattest-nlfuzz   generated netlink requests and sysfs traffic, in the guest
#                     (kernel-fuzz-live)
KTEST_B := $(B)/tests/e2e/kernel
KTEST_BINS := $(KTEST_B)/otattest-nltest $(KTEST_B)/otattest-recdump $(KTEST_B)/otattest-nlfuzz

# Hex, numbers and files through libotattest-util, like every host program.
$(KTEST_B)/otattest-nltest: $(B)/tests/e2e/kernel/otattest-nltest.o $(UTIL_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_MNL)

$(KTEST_B)/otattest-nlfuzz: $(B)/tests/e2e/kernel/otattest-nlfuzz.o $(UTIL_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_MNL)

$(KTEST_B)/otattest-recdump: $(B)/tests/e2e/kernel/otattest-recdump.o $(UTIL_A)
	$(CC) $(LDFLAGS) -o $@ $^

ALL_TARGETS += $(KTEST_BINS)
