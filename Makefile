# Top-level Makefile: conventional targets. Each directory owns a fragment (*.mk) that adds its
# rules and appends its test targets to TESTS. `make test` is what CI runs (.ci/run).
#
#   make deps    install missing tools with apt-get (Debian), pinned PyPI tools into build/venv
#   make         build build/lcan (the command-line tool) and build/liblcan.a
#   make run     the main study, short version (RTL vs model vs recurrence table)
#   make test    every test suite; also under ASan/UBSan
#   make lint    verilator -Wall, iverilog -Wall, yosys synth on rtl/
#   make bench   speed figures (model, Verilator, Icarus)
#   make synth   FPGA synthesis table (yosys + nextpnr-ice40) -> docs/synthesis.md
#   make clean

SHELL      := /bin/bash
BUILD      := build
CC         ?= gcc
CFLAGS_STD := -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -g
SAN_FLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
VERILATOR  ?= verilator
IVERILOG   ?= iverilog
YOSYS      ?= yosys
# how many C compilations `make test` runs at once (the model's library, its test programs)
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 2)

TESTS :=
.DEFAULT_GOAL := all
.PHONY: all deps test lint bench synth clean sim mutants
# a recipe that fails (or is interrupted) removes its half-written target
.DELETE_ON_ERROR:

include cmodel/cmodel.mk
-include rtl/rtl.mk
-include tb/tb.mk
-include scripts/scripts.mk
include scripts/study.mk
-include examples/examples.mk
-include scripts/verible.mk

# Lint and a smoke synthesis are part of the tests: verilator -Wall on every RTL configuration of
# rtl/rtl.mk, and one small switch through yosys synth_ice40 (the full `make lint` adds iverilog
# -Wall and yosys synth of whole networks; `make synth` the full FPGA table).
TESTS += lint-rtl-verilator synth-quick

all: $(BUILD)/lcan

deps:
	@bash scripts/deps.sh

test: deps
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) all
	@bash scripts/run-tests.sh $(TESTS)

clean:
	rm -rf $(BUILD)
