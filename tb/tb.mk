# tb/ fragment: the lockstep harness (RTL vs C model) under Verilator and Icarus.
#
#   build/tb/libtb_vl.a    harness (tb_core, tb_drive, tb_dpi) + every model object, built by gcc;
#                          handed to `verilator --binary` by tb/lcan-rtl (the C stays C)
#   build/tb/lcan_tb.vpi   the same harness with the VPI front end, loaded by vvp
#   test-tb                lockstep matrix, Icarus agreement, route rtl == model, negative test
#   bench-tb               cycles/s: Verilator, Icarus, lockstep vs RTL alone
#   bench-scale            16..1,024 leaves: Verilator build time, RTL alone and lockstep cycles/s,
#                          switch-cycles/s, growth exponent of build time against switches (long)
# Simulation binaries are built on demand by tb/lcan-rtl under build/sim/ (cached).

TB_HDR    := $(wildcard tb/harness/*.h) $(CM_HDR)
TB_VLINC  := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include/vltstd
TB_IVINC  := /usr/include/iverilog
TB_CFLAGS := $(CFLAGS_STD) -fPIC $(CM_INC) -Itb/harness

$(BUILD)/tb/obj/tb_dpi.o: tb/harness/tb_dpi.c $(TB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(TB_CFLAGS) -I$(TB_VLINC) -c $< -o $@

$(BUILD)/tb/obj/tb_vpi.o: tb/harness/tb_vpi.c $(TB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(TB_CFLAGS) -I$(TB_IVINC) -c $< -o $@

$(BUILD)/tb/obj/%.o: tb/harness/%.c $(TB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(TB_CFLAGS) -c $< -o $@

TB_CORE_OBJ := $(BUILD)/tb/obj/tb_core.o $(BUILD)/tb/obj/tb_drive.o

# built under NAME.tmp, renamed when complete (a killed make leaves no partial file under the name)
$(BUILD)/tb/libtb_vl.a: $(TB_CORE_OBJ) $(BUILD)/tb/obj/tb_dpi.o $(CM_OBJ)
	@rm -f $@.tmp; ar rcs $@.tmp $^ && mv -f $@.tmp $@

$(BUILD)/tb/lcan_tb.vpi: $(TB_CORE_OBJ) $(BUILD)/tb/obj/tb_vpi.o $(BUILD)/liblcan.a
	$(CC) -shared -o $@.tmp $(TB_CORE_OBJ) $(BUILD)/tb/obj/tb_vpi.o $(BUILD)/liblcan.a -lm && mv -f $@.tmp $@

.PHONY: tb-libs test-tb bench-tb bench-scale
tb-libs: $(BUILD)/tb/libtb_vl.a $(BUILD)/tb/lcan_tb.vpi $(BUILD)/lcan

test-tb: tb-libs
	@LCAN_BUILD=$(BUILD) bash tb/test-tb.sh

bench-tb: tb-libs
	@bash tb/bench-tb.sh

TESTS += test-tb

# tb/floor: the hand-written (2,2) switches of the floor measurement (docs/synthesis.md 21, 26) are lint-clean
# and still proven equal to rtl/lcan_switch for their configurations; the proof rejects a mutant of each
.PHONY: test-floor
test-floor:
	@verilator --lint-only -Wall -Irtl rtl/lcan_lfsr.v rtl/lcan_seed_mix.v tb/floor/lcan_switch22_uni.v \
	  --top-module lcan_switch22_uni && echo "test-floor: lint clean (verilator -Wall)"
	@verilator --lint-only -Wall -Irtl rtl/lcan_lfsr.v rtl/lcan_seed_mix.v tb/floor/lcan_switch22_ckt.v \
	  --top-module lcan_switch22_ckt && echo "test-floor: lcan_switch22_ckt lint clean (verilator -Wall)"
	@verilator --lint-only -Wall -Irtl rtl/lcan_lfsr.v rtl/lcan_xbar_col.v tb/floor/lcan_switch22_bcast.v \
	  --top-module lcan_switch22_bcast && echo "test-floor: lcan_switch22_bcast lint clean (verilator -Wall)"
	@bash tb/floor/test-floor.sh

TESTS += test-floor
# the switch-level lockstep (tb/switch: one lcan_switch against the model's switch unit)
include tb/switch/switch.mk
bench-scale: tb-libs
	@bash tb/bench-scale.sh

bench: bench-tb bench-scale

# Coverage and soak (issue 16; results in docs/verification.md).
#   coverage       line and toggle coverage of rtl/ over the lockstep matrix, collectives, traffic and
#                  a route on the RTL (Verilator --coverage builds, cached apart): build/coverage/full/
#   test-coverage  the short form in make test: two small networks, one per mode, lines >= 90 %
#   soak           SOAK_CYCLES (10^7) cycles of packet traffic on cm5 in lockstep, exactly-once
#                  delivery checked on the RTL's outputs (SOAK_SPECS adds networks); not in make test
.PHONY: coverage test-coverage soak
coverage: tb-libs tb-switch-libs
	@bash scripts/coverage.sh full
test-coverage: tb-libs
	@bash scripts/coverage.sh short
TESTS += test-coverage
SOAK_CYCLES ?= 10000000
SOAK_SPECS  ?= cm5
soak: tb-libs
	@bash scripts/soak.sh $(SOAK_CYCLES) $(foreach s,$(SOAK_SPECS),'$(s)')
