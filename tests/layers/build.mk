# The layering rule (scripts/check-layers.py): no include or call from a
# folder into one above it, on the objects `make all` built.
LAYERS_CHECK := tests/layers/check.sh
$(LAYERS_CHECK): all
TEST_SUITES += $(LAYERS_CHECK)
