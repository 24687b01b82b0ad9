# rtl/ fragment: lint, synthesis smoke and tests of the Verilog-2005 RTL (rtl/*.v).
#
#   make lint-rtl         verilator --lint-only -Wall and iverilog -Wall on lcan_network for
#                         RTL_LINT_CONFIGS x {circuit, packet}, then synth-smoke
#   make synth-smoke      yosys synth -top lcan_network for RTL_SYNTH_CONFIGS x both modes; cell
#                         counts in build/rtl/synth-<name>-<mode>.log
#   make test-rtl         cell tests (tb/cells) and the network smoke test (tb/smoke) under Icarus
#   make test-rtl-verilator   the smoke test, every pair, compiled with verilator --binary (slow
#                         to build: about a minute per configuration; not part of `make test`)
#
# rtl/params.sh reads the packed parameters from $(BUILD)/lcan (exported as LCAN below).
# A configuration is NAME=H:m1,..:w1,..:p1,.. (level 1 first, spec 1.1); rtl/params.sh turns it
# into each tool's parameter flags (packed 32-bit vectors, level 1 in the low bits, spec 13), read
# from `build/lcan info --json`: the targets that use it depend on $(BUILD)/lcan.

RTL_F     := rtl/lcan_network.f
# the include directory of rtl/lcan_geom.vh (the geometry functions; yosys finds it without)
RTL_INC   := -Irtl
# every iverilog warning but one: lcan_network packs its per-port / per-switch arrays into the port
# vectors in always @* loops, which read every element of the array on purpose (rtl/README.md)
IVERILOG_WARN := -Wall -Wno-sensitivity-entire-array
RTL_SRC   := $(shell cat $(RTL_F))
RTL_BUILD := $(BUILD)/rtl
export LCAN := $(BUILD)/lcan

RTL_CONFIGS := \
  lcan-2-2-16=4:2,2,2,2:1,2,2,2:1,1,1,1 \
  cm5=4:4,4,4,4:2,2,2,4:1,1,1,1 \
  bft-4-1-2-4-8=4:2,2,2,2:1,1,1,1:1,2,4,8 \
  lcan-3-3-81=4:3,3,3,3:1,3,3,3:1,1,1,1 \
  lcan-2-4-16=4:2,2,2,2:1,4,4,4:1,1,1,1 \
  lcan-4-2-64=3:4,4,4:1,2,2:1,1,1 \
  pgft-3-odd=3:3,5,2:2,3,1:2,1,3 \
  gft-1-4-1=1:4:1:1

# the lints take these too: three-level twins of lcan-2-4-16 and lcan-3-3-81 (the same switch
# shapes - d, u, w per level; leaf, middle and top level - in a network of a quarter of the switches:
# a Verilator lint runs the whole front end on every switch instance, 9 s instead of 26 s and 35 s),
# linted in the extra combinations below in place of the originals
RTL_LINT_CONFIGS := $(RTL_CONFIGS) \
  lcan-2-4-8=3:2,2,2:1,4,4:1,1,1 \
  lcan-3-3-27=3:3,3,3:1,3,3:1,1,1
# linted with UP_CHOICE = 0 (rotate) as well; every configuration is linted with the default 1
RTL_LINT_ROTATE := lcan-2-4-8 lcan-3-3-27 bft-4-1-2-4-8 pgft-3-odd gft-1-4-1
# linted with FAULTS = 1 as well (spec 14: reach rows, masks, lcan_alloc_chain), with UP_CHOICE = 1
# (the sigma scan; rotate only changes the chain's start input, linted with FAULTS = 0)
RTL_LINT_FAULTS := lcan-2-4-8 lcan-3-3-27 bft-4-1-2-4-8 pgft-3-odd gft-1-4-1
# linted with flood queues as well (spec 8.7, FLOOD_Q > 0: packet mode, UP_CHOICE = 1, each FAULTS
# value of the configuration): NAME:FLOOD_Q - the smallest queue each network allows (FLOOD_Q >= every
# m_l: 2 and 5) and 255, the widest count, on the one-switch network (a queue's length is unrolled in
# every switch: 255 on bft-4-1-2-4-8 took 47-54 s per lint, on gft-1-4-1 3 s; docs/verification.md 3)
RTL_LINT_FLOOD := bft-4-1-2-4-8:2 pgft-3-odd:5 gft-1-4-1:255
# linted with OBSERVE = 0 as well (no counters, no debug view; both modes, flood queues as listed),
# also with the rest of the synthesis options: PIN_STRAPS = 1, FIXED_SEED = 1; these OBSERVE = 0
# combinations take DEPTH = 1 (docs/synthesis.md 17-19: one-flit FIFOs, held links), the rest the
# default 4
RTL_LINT_NOOBS := lcan-2-2-16 bft-4-1-2-4-8
# linted with UNICAST_ONLY = 1 as well (spec 8.8: packet mode, FLOOD_Q = 0; each FAULTS value of the
# configuration, and with the synthesis options of RTL_LINT_NOOBS where listed there)
RTL_LINT_UNICAST := lcan-2-2-16 lcan-2-4-8 bft-4-1-2-4-8 pgft-3-odd

RTL_SYNTH_CONFIGS := \
  lcan-2-2-16=4:2,2,2,2:1,2,2,2:1,1,1,1 \
  cm5=4:4,4,4,4:2,2,2,4:1,1,1,1 \
  bft-4-1-2-4-8=4:2,2,2,2:1,1,1,1:1,2,4,8

# smoke configurations: NAME=CONFIG=PAIR_STRIDE (1 = every ordered pair). `make test` runs the
# first set; `make test-rtl-full` adds the second: Icarus 11 takes minutes to elaborate networks of
# the log-depth allocator with many ports per switch (pgft-3-odd: 3.5 minutes, lcan(2,4,16): 3 minutes
# a mode, against seconds before); the Verilator lockstep matrix covers those classes in `make test`.
RTL_SMOKE_CONFIGS := \
  lcan-2-2-16=4:2,2,2,2:1,2,2,2:1,1,1,1=1 \
  bft-3-1-2-4=3:2,2,2:1,1,1:1,2,4=1 \
  gft-1-4-1=1:4:1:1=1
RTL_SMOKE_CONFIGS_FULL := \
  lcan-2-4-16=4:2,2,2,2:1,4,4,4:1,1,1,1=1 \
  pgft-3-odd=3:3,5,2:2,3,1:2,1,3=11

# the smoke test again with FAULTS = 1 (no faults applied: the fault-capable switch and its chain
# allocator must meet every check of FAULTS = 0): NAME=CONFIG=PAIR_STRIDE
RTL_SMOKE_FAULTS_CONFIGS := \
  bft-3-1-2-4=3:2,2,2:1,1,1:1,2,4=1 \
  xgft-2-4-4-2-3=2:4,4:2,3:1,1=1

# full circuit passes (tb/smoke/tb_pass.v, pi(s) = 5s + 3 mod N): NAME=CONFIG
RTL_PASS_CONFIGS := \
  lcan-2-2-16=4:2,2,2,2:1,2,2,2:1,1,1,1 \
  bft-3-1-2-4=3:2,2,2:1,1,1:1,2,4
RTL_PASS_CONFIGS_FULL := \
  xgft-2-4-4-2-3=2:4,4:2,3:2,1 \
  lcan-4-2-64=3:4,4,4:1,2,2:1,1,1

RTL_VL_SMOKE_CONFIGS := \
  cm5=4:4,4,4,4:2,2,2,4:1,1,1,1=1 \
  lcan-4-2-64=3:4,4,4:1,2,2:1,1,1=1

RTL_CELL_TESTS := lfsr rr_pick alloc alloc_eq fifo flood_queue offsets sigma seeding route
# test-only cell compiled with every cell test: the reference allocator chain's wrapper (the chain,
# rtl/lcan_alloc_chain.v, is in rtl/lcan_network.f)
RTL_CELL_EXTRA := tb/cells/lcan_alloc_chain_wrap.v

.PHONY: prove-alloc prove-switch prove-pinned synth-alloc test-alloc-big lint-rtl lint-rtl-verilator lint-rtl-iverilog synth-smoke test-rtl test-rtl-full test-rtl-cells \
        test-rtl-smoke test-rtl-verilator
lint: lint-rtl
TESTS += test-rtl

lint-rtl: lint-rtl-verilator lint-rtl-iverilog synth-smoke

# verilator -Wall: every configuration, both modes (UP_CHOICE = 0 too for RTL_LINT_ROTATE, FLOOD_Q > 0
# too for RTL_LINT_FLOOD); waivers only in rtl/lint.vlt. The combinations are listed first, then
# linted LINT_JOBS at a time (each verilator --lint-only is single-threaded), with the malloc library
# tb/lcan-rtl builds with (tcmalloc: cm5's lint 48 s CPU instead of 77 s, docs/verification.md 3)
LINT_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
lint-rtl-verilator: $(BUILD)/lcan
	@set -e; mkdir -p $(RTL_BUILD); list=$(RTL_BUILD)/lint-verilator.list; : > $$list; \
	LINT_PRELOAD=$$(tb/lcan-rtl _malloc-preload); export LINT_PRELOAD; \
	for c in $(RTL_LINT_CONFIGS); do name=$${c%%=*}; cfg=$${c#*=}; \
	  ucs="1 $$(case " $(RTL_LINT_ROTATE) " in *" $$name "*) echo 0;; esac)"; \
	  fls="0 $$(case " $(RTL_LINT_FAULTS) " in *" $$name "*) echo 1;; esac)"; \
	  fqs="0 $$(for f in $(RTL_LINT_FLOOD); do case $$f in "$$name":*) echo "$${f#*:}";; esac; done)"; \
	  obs="1 $$(case " $(RTL_LINT_NOOBS) " in *" $$name "*) echo 0;; esac)"; \
	  uos="0 $$(case " $(RTL_LINT_UNICAST) " in *" $$name "*) echo 1;; esac)"; \
	  for mode in 0 1; do for uc in $$ucs; do for fl in $$fls; do for fq in $$fqs; do for ob in $$obs; do for uo in $$uos; do \
	    if [ $$uc = 0 ] && [ $$fl = 1 ]; then continue; fi; \
	    if [ $$fq != 0 ] && { [ $$mode = 0 ] || [ $$uc = 0 ]; }; then continue; fi; \
	    if [ $$ob = 0 ] && { [ $$uc = 0 ] || [ $$fl = 1 ]; }; then continue; fi; \
	    if [ $$uo = 1 ] && { [ $$mode = 0 ] || [ $$uc = 0 ] || [ $$fq != 0 ]; }; then continue; fi; \
	    dp=4; if [ $$ob = 0 ]; then dp=1; fi; \
	    echo "$$name $$cfg $$mode $$uc $$fl $$fq $$ob 0 $$uo $$dp 0" >> $$list; \
	    if [ $$ob = 0 ]; then echo "$$name $$cfg $$mode $$uc $$fl $$fq $$ob 1 $$uo $$dp 0" >> $$list; fi; \
	    if [ $$ob = 0 ] && [ $$mode = 1 ] && [ $$uo = 0 ] && [ $$fl = 0 ] && [ $$fq = 0 ]; then \
	      echo "$$name $$cfg $$mode $$uc $$fl $$fq $$ob 1 $$uo $$dp 1" >> $$list; fi; \
	  done; done; done; done; done; done; done; \
	n=$$(wc -l < $$list); \
	if ! xargs -P $(LINT_JOBS) -L 1 bash -c 'LD_PRELOAD=$$LINT_PRELOAD $(VERILATOR) --lint-only -Wall rtl/lint.vlt $(RTL_INC) -f $(RTL_F) \
	      --top-module lcan_network $$(bash rtl/params.sh verilator $$1 $$2) -GUP_CHOICE=$$3 -GFAULTS=$$4 \
	      -GFLOOD_Q=$$5 -GOBSERVE=$$6 -GPIN_STRAPS=$$7 -GFIXED_SEED=$$7 -GSEED=625341585 -GUNICAST_ONLY=$$8 \
	      -GDEPTH=$$9 -GAREA_FORMS=$${10} \
	      || { echo "lint-rtl: verilator FAILED on $$0 mode $$2 UP_CHOICE $$3 FAULTS $$4 FLOOD_Q $$5 OBSERVE $$6 PIN_STRAPS/FIXED_SEED $$7 UNICAST_ONLY $$8 DEPTH $$9 AREA_FORMS $${10}"; exit 1; }' \
	      < $$list; then echo "lint-rtl: verilator -Wall FAILED (see above)"; exit 1; fi; \
	echo "lint-rtl: verilator -Wall clean on $$n configuration/mode/UP_CHOICE/FAULTS/FLOOD_Q/OBSERVE/PIN_STRAPS/UNICAST_ONLY/DEPTH/AREA_FORMS combinations"

# iverilog -Wall: compile (elaborate) every configuration, both modes; any warning fails
lint-rtl-iverilog: $(BUILD)/lcan
	@set -e; mkdir -p $(RTL_BUILD); n=0; for c in $(RTL_LINT_CONFIGS); do name=$${c%%=*}; cfg=$${c#*=}; \
	  ucs="1 $$(case " $(RTL_LINT_ROTATE) " in *" $$name "*) echo 0;; esac)"; \
	  fls="0 $$(case " $(RTL_LINT_FAULTS) " in *" $$name "*) echo 1;; esac)"; \
	  fqs="0 $$(for f in $(RTL_LINT_FLOOD); do case $$f in "$$name":*) echo "$${f#*:}";; esac; done)"; \
	  for mode in 0 1; do for uc in $$ucs; do for fl in $$fls; do for fq in $$fqs; do \
	    if [ $$uc = 0 ] && [ $$fl = 1 ]; then continue; fi; \
	    if [ $$fq != 0 ] && { [ $$mode = 0 ] || [ $$uc = 0 ]; }; then continue; fi; \
	    $(IVERILOG) -g2005 $(IVERILOG_WARN) -o $(RTL_BUILD)/lint.vvp -s lcan_network \
	      $$(bash rtl/params.sh iverilog $$cfg $$mode) -Plcan_network.UP_CHOICE=$$uc -Plcan_network.FAULTS=$$fl \
	      -Plcan_network.FLOOD_Q=$$fq $(RTL_INC) -f $(RTL_F) > $(RTL_BUILD)/iverilog-lint.log 2>&1 \
	      || { cat $(RTL_BUILD)/iverilog-lint.log; echo "lint-rtl: iverilog FAILED on $$name mode $$mode UP_CHOICE $$uc FAULTS $$fl FLOOD_Q $$fq"; exit 1; }; \
	    if [ -s $(RTL_BUILD)/iverilog-lint.log ]; then cat $(RTL_BUILD)/iverilog-lint.log; \
	      echo "lint-rtl: iverilog warnings on $$name mode $$mode UP_CHOICE $$uc FAULTS $$fl FLOOD_Q $$fq"; exit 1; fi; \
	    n=$$((n+1)); \
	  done; done; done; done; done; \
	echo "lint-rtl: iverilog -Wall clean on $$n configuration/mode/UP_CHOICE/FAULTS/FLOOD_Q combinations"

# yosys: generic synthesis of the whole network; prints the cell count of each run
synth-smoke: $(BUILD)/lcan
	@set -e; mkdir -p $(RTL_BUILD); for c in $(RTL_SYNTH_CONFIGS); do name=$${c%%=*}; cfg=$${c#*=}; \
	  for mode in 0 1; do log=$(RTL_BUILD)/synth-$$name-$$mode.log; \
	    $(YOSYS) -q -l $$log -p "read_verilog $(RTL_SRC); $$(bash rtl/params.sh yosys $$cfg $$mode); \
	      synth -top lcan_network; stat" > /dev/null \
	      || { tail -5 $$log; echo "synth-smoke: yosys FAILED on $$name mode $$mode"; exit 1; }; \
	    echo "synth-smoke: $$name mode $$mode: $$(grep -a 'Number of cells' $$log | tail -1 | tr -s ' ')"; \
	  done; done

# the cell tests and the smoke test side by side (each a serial list of Icarus runs, about the same
# length), each one's output printed whole when it ends
test-rtl:
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-rtl-cells test-rtl-smoke

# every smoke and pass configuration (long under Icarus, see RTL_SMOKE_CONFIGS)
test-rtl-full:
	@$(MAKE) --no-print-directory test-rtl-cells test-rtl-smoke \
	  RTL_SMOKE_CONFIGS="$(RTL_SMOKE_CONFIGS) $(RTL_SMOKE_CONFIGS_FULL)" \
	  RTL_PASS_CONFIGS="$(RTL_PASS_CONFIGS) $(RTL_PASS_CONFIGS_FULL)"

# cell tests: each prints "NAME: N passed, N failed"; fail on any failure or missing line
test-rtl-cells:
	@mkdir -p $(RTL_BUILD); fail=0; for t in $(RTL_CELL_TESTS); do \
	  $(IVERILOG) -g2005 $(IVERILOG_WARN) -o $(RTL_BUILD)/cell-$$t.vvp -s tb_lcan_$$t tb/cells/tb_lcan_$$t.v \
	    $(RTL_CELL_EXTRA) $(RTL_INC) -f $(RTL_F) || { fail=1; continue; }; \
	  out=$$(vvp -n $(RTL_BUILD)/cell-$$t.vvp); echo "$$out" | grep -v ' passed, ' | head -20; \
	  line=$$(echo "$$out" | grep -E '^[a-z_]+: [0-9]+ passed, [0-9]+ failed$$' | tail -1); \
	  echo "rtl-cell $$line"; \
	  echo "$$line" | grep -q ' 0 failed$$' || fail=1; \
	done; [ $$fail -eq 0 ]

# network smoke test under Icarus, both modes
test-rtl-smoke: $(BUILD)/lcan
	@mkdir -p $(RTL_BUILD); fail=0; for c in $(RTL_SMOKE_CONFIGS); do name=$${c%%=*}; rest=$${c#*=}; \
	  cfg=$${rest%=*}; stride=$${rest##*=}; \
	  for mode in 0 1; do \
	    $(IVERILOG) -g2005 $(IVERILOG_WARN) -o $(RTL_BUILD)/smoke-$$name-$$mode.vvp -s tb_smoke \
	      $$(bash rtl/params.sh iverilog $$cfg $$mode tb_smoke) -Ptb_smoke.PAIR_STRIDE=$$stride \
	      "-Ptb_smoke.NAME=\"$$name-mode$$mode\"" $(RTL_INC) -f $(RTL_F) tb/smoke/tb_smoke.v || { fail=1; continue; }; \
	    out=$$(vvp -n $(RTL_BUILD)/smoke-$$name-$$mode.vvp); echo "$$out" | grep -v ' passed, ' | head -20; \
	    line=$$(echo "$$out" | grep -E '^smoke .*: [0-9]+ passed, [0-9]+ failed$$' | tail -1); \
	    echo "rtl-$${line:-smoke $$name-mode$$mode: no result line}"; \
	    echo "$$line" | grep -q ' 0 failed$$' || fail=1; \
	  done; done; \
	for c in $(RTL_SMOKE_FAULTS_CONFIGS); do name=$${c%%=*}; rest=$${c#*=}; \
	  cfg=$${rest%=*}; stride=$${rest##*=}; \
	  for mode in 0 1; do \
	    $(IVERILOG) -g2005 $(IVERILOG_WARN) -o $(RTL_BUILD)/smoke-f-$$name-$$mode.vvp -s tb_smoke \
	      $$(bash rtl/params.sh iverilog $$cfg $$mode tb_smoke) -Ptb_smoke.PAIR_STRIDE=$$stride -Ptb_smoke.FAULTS=1 \
	      "-Ptb_smoke.NAME=\"$$name-faults-mode$$mode\"" $(RTL_INC) -f $(RTL_F) tb/smoke/tb_smoke.v || { fail=1; continue; }; \
	    out=$$(vvp -n $(RTL_BUILD)/smoke-f-$$name-$$mode.vvp); echo "$$out" | grep -v ' passed, ' | head -20; \
	    line=$$(echo "$$out" | grep -E '^smoke .*: [0-9]+ passed, [0-9]+ failed$$' | tail -1); \
	    echo "rtl-$${line:-smoke $$name-faults-mode$$mode: no result line}"; \
	    echo "$$line" | grep -q ' 0 failed$$' || fail=1; \
	  done; done; \
	for c in $(RTL_PASS_CONFIGS); do name=$${c%%=*}; cfg=$${c#*=}; \
	  $(IVERILOG) -g2005 $(IVERILOG_WARN) -o $(RTL_BUILD)/pass-$$name.vvp -s tb_pass \
	    $$(bash rtl/params.sh iverilog $$cfg 0 tb_pass | sed 's/ -Ptb_pass.MODE=0//') \
	    "-Ptb_pass.NAME=\"$$name\"" $(RTL_INC) -f $(RTL_F) tb/smoke/tb_pass.v || { fail=1; continue; }; \
	  out=$$(vvp -n $(RTL_BUILD)/pass-$$name.vvp); echo "$$out" | grep -v ' passed, ' | head -20; \
	  line=$$(echo "$$out" | grep -E '^pass .*: [0-9]+ passed, [0-9]+ failed' | tail -1); \
	  echo "rtl-$${line:-pass $$name: no result line}"; \
	  echo "$$line" | grep -q ' 0 failed' || fail=1; \
	done; [ $$fail -eq 0 ]

# the same smoke test, every pair, for the larger configurations, under verilator --binary
test-rtl-verilator: $(BUILD)/lcan
	@mkdir -p $(RTL_BUILD); fail=0; for c in $(RTL_VL_SMOKE_CONFIGS); do name=$${c%%=*}; rest=$${c#*=}; \
	  cfg=$${rest%=*}; stride=$${rest##*=}; \
	  for mode in 0 1; do dir=$(RTL_BUILD)/vl-smoke-$$name-$$mode; \
	    $(VERILATOR) --binary -O2 -Wno-fatal -Wno-lint -Wno-style --top-module tb_smoke -Mdir $$dir \
	      $$(bash rtl/params.sh verilator $$cfg $$mode) -GPAIR_STRIDE=$$stride \
	      "-GNAME=\"$$name-mode$$mode\"" $(RTL_INC) -f $(RTL_F) tb/smoke/tb_smoke.v -o vsmoke \
	      > $$dir.log 2>&1 || { tail -20 $$dir.log; fail=1; continue; }; \
	    out=$$($$dir/vsmoke); echo "$$out" | grep -v ' passed, ' | grep -v finish | head -20; \
	    line=$$(echo "$$out" | grep -E '^smoke .*: [0-9]+ passed, [0-9]+ failed$$' | tail -1); \
	    echo "rtl-verilator-$${line:-smoke $$name-mode$$mode: no result line}"; \
	    echo "$$line" | grep -q ' 0 failed$$' || fail=1; \
	  done; done; [ $$fail -eq 0 ]

# the log-depth allocator proven equal to the reference chain with yosys sat (P = 2..8, both
# UP_CHOICE values), one line per shape; and its depth/area scaling against the chain (iCE40 LUT
# levels, LUTs)
prove-alloc:
	@YOSYS=$(YOSYS) LOGDIR=$(BUILD)/prove-alloc bash scripts/prove-alloc.sh

# lcan_switch of the working tree proven equal (yosys equiv_*, ports and registers) to that of git
# revision REV (default HEAD) on 12 shapes/modes: the check for a restructuring of the switch
# (BOUND=N: bounded, from reset, N ticks; for a change that adds state or differs only in states
# reset never reaches; ONLY=NAME,NAME: those shapes alone; PLAIN=1: both sides with plain offsets,
# PLAIN_OFFSETS = 1, so that sigma is a permutation in every state the induction starts from)
REV ?= HEAD
prove-switch:
	@YOSYS=$(YOSYS) BOUND=$(BOUND) ONLY=$(ONLY) PLAIN=$(PLAIN) LOGDIR=$(BUILD)/prove-switch bash scripts/prove-switch.sh $(REV)

# lcan_network built for synthesis (PIN_STRAPS = 1, FIXED_SEED = 1, SEED) proven equal (yosys
# equiv_*, ports and registers) to the simulators' network with its seed input tied to SEED, on 4
# small networks (both modes, flood queues, faults); minutes per network (docs/synthesis.md 14)
prove-pinned:
	@YOSYS=$(YOSYS) LOGDIR=$(BUILD)/prove-pinned bash scripts/prove-pinned.sh

synth-alloc:
	@YOSYS=$(YOSYS) bash scripts/synth/alloc-scaling.sh

# the allocator against the chain at P = 32 (tb_lcan_alloc_eq.v with ALLOC_EQ_BIG), Verilator
test-alloc-big:
	@mkdir -p $(RTL_BUILD); dir=$(RTL_BUILD)/vl-alloc-eq; \
	$(VERILATOR) --binary --timing -O2 -Wno-fatal -Wno-lint -Wno-style -DALLOC_EQ_BIG $(RTL_INC) \
	  --top-module tb_lcan_alloc_eq -Mdir $$dir tb/cells/tb_lcan_alloc_eq.v $(RTL_CELL_EXTRA) \
	  rtl/lcan_rr_pick.v rtl/lcan_prefix_count.v rtl/lcan_alloc.v rtl/lcan_alloc_chain.v rtl/lcan_offsets.v -o valloc > $$dir.log 2>&1 \
	  || { tail -20 $$dir.log; exit 1; }; \
	out=$$($$dir/valloc); echo "$$out" | grep -v finish | head -20; \
	echo "$$out" | grep -qE '^alloc_eq: [0-9]+ passed, 0 failed$$'
