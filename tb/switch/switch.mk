# tb/switch fragment (included by tb/tb.mk): the switch-level lockstep (docs/spec.md 13.1).
#
#   build/tb-switch/libtbsw_vl.a   the harness (tb/switch/tb_switch.c, DPI-C) + every model object,
#                                  built by gcc and handed to `verilator --binary` by tb/switch/tb-switch
#   test-tb-switch                 short form (in make test): every unit of the short list in one
#                                  Verilator binary, TBSW_SEEDS_SHORT seeds of 20,000 cycles
#   lockstep-switch                full form (not in make test): twice the units, TBSW_SEEDS_FULL seeds of
#                                  TBSW_CYCLES_FULL cycles
# Binaries are built on demand by tb/switch/tb-switch under $(BUILD)/tb-switch/<form>/ (cached).

TBSW_SEEDS_SHORT ?= 2
TBSW_SEEDS_FULL  ?= 8
TBSW_CYCLES_FULL ?= 200000

$(BUILD)/tb-switch/obj/tb_switch.o: tb/switch/tb_switch.c $(CM_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(TB_CFLAGS) -I$(TB_VLINC) -c $< -o $@

$(BUILD)/tb-switch/libtbsw_vl.a: $(BUILD)/tb-switch/obj/tb_switch.o $(CM_OBJ)
	@rm -f $@.tmp; ar rcs $@.tmp $^ && mv -f $@.tmp $@

.PHONY: tb-switch-libs test-tb-switch lockstep-switch
tb-switch-libs: $(BUILD)/tb-switch/libtbsw_vl.a $(BUILD)/lcan

test-tb-switch: tb-switch-libs
	@LCAN_BUILD=$(BUILD) LCAN_RTL_NOMAKE=1 python3 tb/switch/tb-switch run --form short --seeds $(TBSW_SEEDS_SHORT)

lockstep-switch: tb-switch-libs
	@LCAN_BUILD=$(BUILD) LCAN_RTL_NOMAKE=1 python3 tb/switch/tb-switch run --form full --seeds $(TBSW_SEEDS_FULL) \
	    --cycles $(TBSW_CYCLES_FULL)

TESTS += test-tb-switch
