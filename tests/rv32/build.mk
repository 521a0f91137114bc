# The firmware and libotattest core as the device would carry them: built
# for rv32imc -Os with no C library (make size), held to their rules.
#  freestanding.sh  every object compiles for rv32imc; nothing outside the
#                   objects is called but hal.h and compiler helpers; the
#                   delegation verifier stays within its 2048-byte budget
RV32_CHECK := tests/rv32/freestanding.sh

# The objects the check reads, one per line (the list `make size` builds).
.PHONY: rv32-objs
rv32-objs:
	@printf '%s\n' $(RV32_OBJS)

# `make $(TEST_SUITES)` builds what each suite runs.
$(RV32_CHECK): $(RV32_OBJS)

TEST_SUITES += $(RV32_CHECK)
