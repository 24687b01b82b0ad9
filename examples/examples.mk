# examples/ fragment: the `lcan gen` flow through FuseSoC (issue 15, docs/generator.md).
# test-gen: lcan gen cm5 + fusesoc lint, the example testbench under Icarus, the library core.
FUSESOC ?= $(BUILD)/venv/bin/fusesoc

.PHONY: test-gen
test-gen: $(BUILD)/lcan
	@bash examples/test-gen.sh $(BUILD)/lcan $(FUSESOC)

TESTS += test-gen
