# Host tests of the device model (docs/model.md): a host peer joins
# otattest-model where the guest would, without QEMU, so mailbox semantics,
# faults and crash safety are tested in milliseconds.
#  ivclient.c   client half of the ivshmem protocol
#  devclient.c  the driver's view: info block, record seqlock, mailbox calls
#  modelproc.c  the model as a child process; control requests
#  fixture.c    a provisioned device (otimage) for the tests that need one
#  test_*.c     suites (check), each printing "N passed, N failed";
#               test_split.c: the split model (server + device process)
#  model-peer.c tool: join the model and print the info block and the record
MODELTEST_LIB_SRCS := $(filter-out tests/model/test_%.c tests/model/model-peer.c,\
	$(wildcard tests/model/*.c))
MODELTEST_A := $(B)/libmodeltest.a
MODEL_SUITES := $(patsubst tests/model/%.c,$(B)/tests/model/%,$(wildcard tests/model/test_*.c))
MODEL_PEER := $(B)/tests/model/model-peer

# The guest peer speaks the ivshmem protocol with the model's own client
# half (qemu-model/board/ivshmem_client.c): one copy of the protocol.
MODELTEST_PROTO_OBJS := $(B)/qemu-model/board/ivshmem_client.o $(B)/qemu-model/board/ivshmem_proto.o

# Tests find the binaries they drive by absolute path, whatever their cwd.
EXTRA_CFLAGS_tests_model_ := -DOTA_MODEL_PATH='"$(abspath $(MODEL))"' \
	-DOTA_OTIMAGE_PATH='"$(abspath $(OTIMAGE))"' -DOTA_ROM_ELF='"$(abspath $(FW_ROM_ELF))"' \
	-Iqemu-model/board

$(MODELTEST_A): $(MODELTEST_LIB_SRCS:%.c=$(B)/%.o) $(MODELTEST_PROTO_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The model and otimage are what these suites run, so they are built first.
$(MODEL_SUITES): $(B)/tests/model/%: $(B)/tests/model/%.o $(MODELTEST_A) $(LIBOTA_HOST_A) \
		$(LIBOTA_CORE_A) $(UTIL_A) | $(MODEL) $(OTIMAGE) $(FW_ROM_ELF)
	$(CC) $(LDFLAGS) -o $@ $< $(MODELTEST_A) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) $(UTIL_A) \
		$(PKG_OPENSSL) $(PKG_JSONC) $(PKG_CHECK)

$(MODEL_PEER): $(B)/tests/model/model-peer.o $(MODELTEST_A) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) $(UTIL_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_OPENSSL) $(PKG_JSONC)

ifneq ($(MODEL_SRCS),)
TEST_SUITES += $(MODEL_SUITES)
# test_kill pins itself and the model to one CPU each and kills the model
# at moments measured on a calibration run: another suite beside it moves
# those moments (CI rehearsal of 2026-12-07, in the pool beside the other
# suites and a soak: "update reset: 8 of 30 timed kills before the
# reply"). It runs with nothing beside it.
TEST_SUITES_ALONE += $(B)/tests/model/test_kill
ALL_TARGETS += $(MODEL_PEER)
endif

.PHONY: model-tests
model-tests: $(MODEL_SUITES)
	@scripts/run-suites.sh $(MODEL_SUITES)

# libFuzzer: the model's mailbox engine against hostile request regions
# (tests/model/fuzz/). Hosted code, so built without the freestanding flag.
FUZZ_MODEL := $(FUZZ_B)/fuzz_model_mailbox
FUZZ_MODEL_SRCS := tests/model/fuzz/fuzz_model_mailbox.c qemu-model/board/mailbox.c \
	qemu-model/board/shm.c qemu-model/board/fault.c qemu-model/board/log.c libotattest/util/num.c

$(FUZZ_MODEL): $(FUZZ_MODEL_SRCS) $(wildcard qemu-model/board/*.h)
	@mkdir -p $(dir $@)
	$(CLANG) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(CPPFLAGS_COMMON) -Iqemu-model/board -o $@ $(FUZZ_MODEL_SRCS) $(PKG_SYSTEMD)

# Its coverage build for make fuzz (tests/build.mk, scripts/fuzz-coverage.py).
$(FUZZ_COV_B)/fuzz_model_mailbox: $(FUZZ_MODEL_SRCS) $(wildcard qemu-model/board/*.h)
	@mkdir -p $(dir $@)
	$(CLANG) -std=gnu11 -g -O1 -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
		$(CPPFLAGS_COMMON) -Iqemu-model/board -o $@ $(FUZZ_MODEL_SRCS) $(PKG_SYSTEMD)

ifneq ($(MODEL_SRCS),)
FUZZ_TARGETS += $(FUZZ_MODEL)
endif

# Benchmark: a mailbox round trip through the model vs a bare eventfd
# bounce, measured in the same run (tests/model/bench/). `make bench-model`.
BENCH_MODEL := $(B)/tests/model/bench/bench_model
$(BENCH_MODEL): $(B)/tests/model/bench/bench_model.o $(MODELTEST_A) $(LIBOTA_HOST_A) \
		$(LIBOTA_CORE_A) $(UTIL_A) | $(MODEL) $(OTIMAGE)
	$(CC) $(LDFLAGS) -o $@ $< $(MODELTEST_A) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) $(UTIL_A) $(PKG_OPENSSL)

EXTRA_CFLAGS_tests_model_bench_ := $(EXTRA_CFLAGS_tests_model_)

.PHONY: bench-model
bench-model: $(BENCH_MODEL)
	$(BENCH_MODEL)

bench: bench-model
