# cmodel/ fragment: the C99 golden model library, the `lcan` tool, model tests and benchmarks.
# Every cmodel/src/*.c goes into build/liblcan.a (and build/san/liblcan.a with ASan/UBSan);
# every cmodel/tool/*.c into build/lcan; every cmodel/tests/test_*.c is one test program;
# every cmodel/tests/test_*.sh is one test script (given the path of the lcan binary).

CM_SRC    := $(sort $(wildcard cmodel/src/*.c))
CM_HDR    := $(wildcard cmodel/include/*.h cmodel/src/*.h)
CM_TOOL   := $(sort $(wildcard cmodel/tool/*.c))
CM_TESTS  := $(sort $(wildcard cmodel/tests/test_*.c))
CM_TSH    := $(sort $(wildcard cmodel/tests/test_*.sh))
CM_INC    := -Icmodel/include -Icmodel/src

CM_OBJ     := $(patsubst cmodel/src/%.c,$(BUILD)/obj/%.o,$(CM_SRC))
CM_SAN_OBJ := $(patsubst cmodel/src/%.c,$(BUILD)/san/obj/%.o,$(CM_SRC))

$(BUILD)/obj/%.o: cmodel/src/%.c $(CM_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_STD) -fPIC $(CM_INC) -c $< -o $@

$(BUILD)/san/obj/%.o: cmodel/src/%.c $(CM_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_STD) $(SAN_FLAGS) $(CM_INC) -c $< -o $@

# Libraries and the tool are built under NAME.tmp and renamed when complete: a killed make (even
# SIGKILL, which make cannot clean up after) never leaves a partial file under the final name.
$(BUILD)/liblcan.a: $(CM_OBJ)
	@rm -f $@.tmp; ar rcs $@.tmp $^ && mv -f $@.tmp $@

$(BUILD)/san/liblcan.a: $(CM_SAN_OBJ)
	@rm -f $@.tmp; ar rcs $@.tmp $^ && mv -f $@.tmp $@

$(BUILD)/lcan: $(CM_TOOL) $(BUILD)/liblcan.a $(CM_HDR)
	$(CC) $(CFLAGS_STD) $(CM_INC) -Icmodel/tool $(CM_TOOL) $(BUILD)/liblcan.a -lm -o $@.tmp && mv -f $@.tmp $@

$(BUILD)/san/lcan: $(CM_TOOL) $(BUILD)/san/liblcan.a $(CM_HDR)
	$(CC) $(CFLAGS_STD) $(SAN_FLAGS) $(CM_INC) -Icmodel/tool $(CM_TOOL) $(BUILD)/san/liblcan.a -lm -o $@.tmp && mv -f $@.tmp $@

$(BUILD)/tests/%: cmodel/tests/%.c $(BUILD)/liblcan.a $(CM_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_STD) $(CM_INC) $< $(BUILD)/liblcan.a -lm -o $@

$(BUILD)/san/tests/%: cmodel/tests/%.c $(BUILD)/san/liblcan.a $(CM_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_STD) $(SAN_FLAGS) $(CM_INC) $< $(BUILD)/san/liblcan.a -lm -o $@

CM_TEST_BINS     := $(patsubst cmodel/tests/%.c,$(BUILD)/tests/%,$(CM_TESTS))
CM_SAN_TEST_BINS := $(patsubst cmodel/tests/%.c,$(BUILD)/san/tests/%,$(CM_TESTS))

.PHONY: test-cmodel test-cmodel-san bench-model
# Plain build: every test program and script. The programs are built BUILD_JOBS at a time by a
# make of their own (the library and 19 programs: about half the suite's time when built one by one)
test-cmodel:
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) $(CM_TEST_BINS) $(BUILD)/lcan
	@bash scripts/run-suite.sh cmodel $(CM_TEST_BINS) -- $(CM_TSH)
# Same tests under AddressSanitizer + UndefinedBehaviorSanitizer.
test-cmodel-san:
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) $(CM_SAN_TEST_BINS) $(BUILD)/san/lcan
	@LCAN=$(BUILD)/san/lcan bash scripts/run-suite.sh cmodel-san $(CM_SAN_TEST_BINS) -- $(CM_TSH)

TESTS += test-cmodel test-cmodel-san

$(BUILD)/bench_model: cmodel/bench/bench_model.c $(BUILD)/liblcan.a $(CM_HDR)
	$(CC) $(CFLAGS_STD) -O3 $(CM_INC) $< $(BUILD)/liblcan.a -lm -o $@

bench-model: $(BUILD)/bench_model
	@$(BUILD)/bench_model
bench: bench-model

# Embeddings (issue 13, docs/embeddings.md): the table of guests x hosts, markdown on stdout; the
# exchange of the hosts of at most 16 leaves also on the RTL (Icarus, tb/lcan-rtl), compared.
.PHONY: embed-table
embed-table: $(BUILD)/lcan
	python3 scripts/embed_table.py $(BUILD)/lcan --rtl icarus

# Open-loop traffic study (issue 14): latency-load curves of several networks and RTL points ->
# docs/img/traffic_*.png and the tables of docs/traffic.md (scripts/traffic_study.py).
.PHONY: traffic-study
traffic-study: $(BUILD)/lcan
	python3 scripts/traffic_study.py

# The CLI fuzzer (cmodel/fuzz/fuzz_cli.c, issue 17): the tool's sources linked in-process under
# ASan/UBSan (-DLCAN_FUZZ: no exec of tb/lcan-rtl; main renamed). `make fuzz` runs FUZZ_TIME seconds
# or FUZZ_COUNT inputs (FUZZ_SEED); test-fuzz is the fixed-seed short run of `make test`.
FUZZ_TIME  ?= 600
FUZZ_COUNT ?=
FUZZ_SEED  ?= $(shell date +%s)
CM_FUZZ_OBJ := $(patsubst cmodel/tool/%.c,$(BUILD)/san/fuzz/%.o,$(CM_TOOL))

$(BUILD)/san/fuzz/%.o: cmodel/tool/%.c $(CM_HDR) cmodel/tool/tool_util.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_STD) $(SAN_FLAGS) -DLCAN_FUZZ -Dmain=lcan_tool_main $(CM_INC) -Icmodel/tool -c $< -o $@

$(BUILD)/san/fuzz_cli: cmodel/fuzz/fuzz_cli.c $(CM_FUZZ_OBJ) $(BUILD)/san/liblcan.a
	$(CC) $(CFLAGS_STD) -D_DEFAULT_SOURCE -Wno-format-truncation $(SAN_FLAGS) $< $(CM_FUZZ_OBJ) $(BUILD)/san/liblcan.a -lm -o $@

.PHONY: fuzz test-fuzz
fuzz: $(BUILD)/san/fuzz_cli
	nice -n 19 $(BUILD)/san/fuzz_cli --seed $(FUZZ_SEED) $(if $(FUZZ_COUNT),--count $(FUZZ_COUNT),--time $(FUZZ_TIME))
test-fuzz: $(BUILD)/san/fuzz_cli
	@$(BUILD)/san/fuzz_cli --seed 17 --count 100000 --quiet

TESTS += test-fuzz

# Interrupted RTL builds (issue 17): kills real Icarus and Verilator builds, checks the rebuild.
.PHONY: test-interrupt
test-interrupt: tb-libs
	@bash tb/test-interrupt.sh
TESTS += test-interrupt
