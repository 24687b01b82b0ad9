# FPGA synthesis (issue 7; docs/synthesis.md says what is measured and how).
#
#   make synth        every configuration of scripts/synth/configs.tsv (yosys + nextpnr-ice40, and
#                     ECP5 when the YoWASP tools are installed), SYNTH_JOBS at a time; prints the
#                     table and writes docs/synthesis.md. Results are reused: a configuration is
#                     redone only when rtl/, the file list, configs.tsv or a synthesis script changed.
#   make synth-quick  one small switch, (2,2) packet mode, through yosys synth_ice40; fails when
#                     yosys fails (for CI), with its LUTs by function; and the tests of the wrapper generator
#                     and of the attribution and the cell counts (test_wrap.py, test_attribute.py, test_collect.py).
#
# Results: build/synth/NAME/result.json (plus the tools' logs beside it).

PYTHON      ?= python3
SYNTH_OUT   := $(BUILD)/synth
SYNTH_JOBS  ?= 2
SYNTH_CFGS  := $(shell awk -F'\t' '!/^\#/ && NF && $$3 != "-" {print $$1}' scripts/synth/configs.tsv 2>/dev/null)
SYNTH_RTL   := $(shell sed -e 's/\#.*//' rtl/lcan_network.f 2>/dev/null)
# A configuration depends on its own line of configs.tsv (build/synth/cfg/NAME.cfg, rewritten only
# when that line changes), the RTL and the scripts that shape its netlist. collect.py is not a
# dependency: report.py re-reads the tools' files with it on every run.
SYNTH_DEPS  := rtl/lcan_network.f $(SYNTH_RTL) $(wildcard rtl/*.vh) scripts/synth/run-one.sh scripts/synth/wrap.py \
              scripts/synth/attribute.py
SYNTH_RESULTS := $(SYNTH_CFGS:%=$(SYNTH_OUT)/%/result.json)
SYNTH_STAMPS  := $(SYNTH_CFGS:%=$(SYNTH_OUT)/cfg/%.cfg)
.SECONDARY: $(SYNTH_STAMPS)

.PHONY: synth synth-quick synth-results

synth:
	@bash scripts/synth/check-tools.sh
	@$(PYTHON) scripts/synth/collect.py --check-cache $(SYNTH_OUT)
	@t0=$$(date +%s); \
	 $(MAKE) --no-print-directory -j$(SYNTH_JOBS) synth-results; rc=$$?; \
	 t1=$$(date +%s); \
	 [ $$rc -eq 0 ] || { echo "synth: a configuration failed (see above)" >&2; exit 1; }; \
	 $(PYTHON) scripts/synth/report.py --wall $$((t1 - t0)) --jobs $(SYNTH_JOBS) --out docs/synthesis.md $(SYNTH_OUT) \
	   scripts/synth/configs.tsv

synth-results: $(SYNTH_RESULTS)

$(SYNTH_OUT)/cfg/%.cfg: scripts/synth/configs.tsv
	@mkdir -p $(@D); line="$$(awk -F'\t' -v n='$*' '$$1 == n' $<)"; \
	 [ -f $@ ] && [ "$$line" = "$$(cat $@)" ] || { printf '%s\n' "$$line" > $@.tmp && mv $@.tmp $@; }

# A row whose top is a hand-written switch of tb/floor (tb/floor/TOP.v exists: run-one.sh reads it
# beside the RTL) depends on that file too. SYNTH_FLOOR: NAME:TOP of those rows.
SYNTH_FLOOR := $(shell awk -F'\t' '!/^\#/ && NF && $$3 != "-" {print $$1 ":" $$3}' scripts/synth/configs.tsv 2>/dev/null | \
                 while IFS=: read -r n t; do [ ! -f "tb/floor/$$t.v" ] || echo "$$n:$$t"; done)
$(foreach r,$(SYNTH_FLOOR),$(eval $(SYNTH_OUT)/$(firstword $(subst :, ,$r))/result.json: tb/floor/$(lastword $(subst :, ,$r)).v))
$(SYNTH_OUT)/%/result.json: $(SYNTH_OUT)/cfg/%.cfg $(SYNTH_DEPS)
	@echo "synth: $*"
	@YOSYS="$(YOSYS)" PYTHON="$(PYTHON)" bash scripts/synth/run-one.sh $* $(SYNTH_OUT)

synth-quick:
	@bash scripts/synth/quick.sh
	@$(PYTHON) scripts/synth/test_wrap.py
	@$(PYTHON) scripts/synth/test_attribute.py
	@$(PYTHON) scripts/synth/test_collect.py

# Mutation run (scripts/mutants.py, docs/verification.md 2): the hand-written and the generated
# mutants of rtl/, each against an Icarus lockstep suite and the cell tests, then (survivors only) the
# switch-level lockstep (tb/switch, Verilator). Long; not in make test.
MUTANT_JOBS ?= 2
.PHONY: mutants
mutants: $(BUILD)/lcan $(BUILD)/tb/lcan_tb.vpi $(BUILD)/tb-switch/libtbsw_vl.a
	python3 scripts/mutants.py --jobs $(MUTANT_JOBS)

# The short form, in make test (issue 16): four hand-written mutants that only the switch-level
# lockstep sees (a header on an input owning a circuit, an invalid digit) or that it must see too
# (a second header on a set downer, a FIFO pointer), each against tb/switch alone after an unmutated
# baseline; fails when one survives. Against tb/switch's tiny form (six units: two level-1 switches
# and the odd pgft's level 2; five Verilator builds of about 30 s instead of about 100 s each).
.PHONY: test-mutants
test-mutants: $(BUILD)/lcan $(BUILD)/tb-switch/libtbsw_vl.a
	python3 scripts/mutants.py --no-generated --only 17,18,21,33 --stages switch --switch-form tiny \
	  --require-killed --jobs $(MUTANT_JOBS)
TESTS += test-mutants
