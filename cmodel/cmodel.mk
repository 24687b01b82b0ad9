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

$(BUILD)/liblcan.a: $(CM_OBJ)
	@rm -f $@; ar rcs $@ $^

$(BUILD)/san/liblcan.a: $(CM_SAN_OBJ)
	@rm -f $@; ar rcs $@ $^

$(BUILD)/lcan: $(CM_TOOL) $(BUILD)/liblcan.a $(CM_HDR)
	$(CC) $(CFLAGS_STD) $(CM_INC) -Icmodel/tool $(CM_TOOL) $(BUILD)/liblcan.a -lm -o $@

$(BUILD)/san/lcan: $(CM_TOOL) $(BUILD)/san/liblcan.a $(CM_HDR)
	$(CC) $(CFLAGS_STD) $(SAN_FLAGS) $(CM_INC) -Icmodel/tool $(CM_TOOL) $(BUILD)/san/liblcan.a -lm -o $@

$(BUILD)/tests/%: cmodel/tests/%.c $(BUILD)/liblcan.a $(CM_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_STD) $(CM_INC) $< $(BUILD)/liblcan.a -lm -o $@

$(BUILD)/san/tests/%: cmodel/tests/%.c $(BUILD)/san/liblcan.a $(CM_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_STD) $(SAN_FLAGS) $(CM_INC) $< $(BUILD)/san/liblcan.a -lm -o $@

CM_TEST_BINS     := $(patsubst cmodel/tests/%.c,$(BUILD)/tests/%,$(CM_TESTS))
CM_SAN_TEST_BINS := $(patsubst cmodel/tests/%.c,$(BUILD)/san/tests/%,$(CM_TESTS))

.PHONY: test-cmodel test-cmodel-san bench-model
# Plain build: every test program and script.
test-cmodel: $(CM_TEST_BINS) $(BUILD)/lcan
	@bash scripts/run-suite.sh cmodel $(CM_TEST_BINS) -- $(CM_TSH)
# Same tests under AddressSanitizer + UndefinedBehaviorSanitizer.
test-cmodel-san: $(CM_SAN_TEST_BINS) $(BUILD)/san/lcan
	@LCAN=$(BUILD)/san/lcan bash scripts/run-suite.sh cmodel-san $(CM_SAN_TEST_BINS) -- $(CM_TSH)

TESTS += test-cmodel test-cmodel-san

$(BUILD)/bench_model: cmodel/bench/bench_model.c $(BUILD)/liblcan.a $(CM_HDR)
	$(CC) $(CFLAGS_STD) -O3 $(CM_INC) $< $(BUILD)/liblcan.a -lm -o $@

bench-model: $(BUILD)/bench_model
	@$(BUILD)/bench_model
bench: bench-model
