# Mutation tests of the security-critical lines (issue 28; docs/mutation.md).
#  make mutate   every mutation in tests/mutation/mutations.txt: each must make
#                at least one of its unit tests fail (tests/mutation/mutate.py)
#  fast.sh       the ones marked fast, in make test
# Both link the unit test binaries the list names against the mutated object.
MUTATION_LIST := tests/mutation/mutations.txt
MUTATION_TESTS := $(addprefix $(B)/tests/unit/,$(sort $(foreach t,$(shell sed -n 's/^tests: *//p' \
	$(MUTATION_LIST)),$(firstword $(subst :, ,$(t))))))
MUTATION_FAST := tests/mutation/fast.sh
$(MUTATION_FAST): $(MUTATION_TESTS)
TEST_SUITES += $(MUTATION_FAST)

.PHONY: mutate
mutate: $(MUTATION_TESTS)
	@B=$(B) tests/mutation/mutate.py $(if $(MUTATE_MARKDOWN),--markdown)
.SECONDARY: $(MUTATION_TESTS:%=%.o)
