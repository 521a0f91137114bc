# The device model.
#  hal/  the software HAL: the emulated hardware (OpenSSL 3 engines, keys in
#        XOR shares, flash/OTP/retention RAM as files). The one HAL
#        implementation: unit tests and otattest-model both link it.
#  src/  otattest-model: ivshmem server and device peer (one process, or split
#        in a server and a device process), mailbox, resets,
#        control socket, fault injection (docs/model.md).
SWHAL_SRCS := $(wildcard qemu-model/hal/*.c)
SWHAL_A := $(B)/libswhal.a
MODEL_SRCS := $(wildcard qemu-model/src/*.c)
MODEL := $(B)/otattest-model

# The model drives the HAL through its control header, swhal.h.
EXTRA_CFLAGS_qemu-model_src_ := -Iqemu-model/hal

$(SWHAL_A): $(SWHAL_SRCS:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(MODEL): $(MODEL_SRCS:%.c=$(B)/%.o) $(FW_A) $(SWHAL_A) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_OPENSSL) $(PKG_SYSTEMD)

ALL_TARGETS += $(SWHAL_A)
ifneq ($(MODEL_SRCS),)
ALL_TARGETS += $(MODEL)
endif
