# Studies (issue 5): `make run` prints the short RTL/model/recurrence table; `make sweep` runs the
# full study into build/study/ and docs/img/; test-study checks RTL == model and the recurrence.
PYTHON ?= python3

.PHONY: run sweep sweep-quick test-study
run: deps
	@$(MAKE) --no-print-directory all
	@$(PYTHON) scripts/study.py run

# the RTL rows (the model checking every cycle): the 256- and 1,024-PE networks build for minutes,
# lcan(4,4,1024) needs about 12 GB for Verilator (docs/results.md 5)
STUDY_RTL := lcan(2,2,64)|lcan(4,4,64)|lcan(4,2,64)|lcan(2,4,16)|lcan(4,4,256)|lcan(2,2,256)|lcan(4,2,256)|lcan(4,4,1024)
# built with LCAN_RTL_UNROLL=1 (loops not unrolled: about half of Verilator's memory, a slower
# simulation): lcan(2,2,1024)'s 5,120 switches need more than 20 GB otherwise (docs/verification.md 6)
STUDY_RTL_LOWMEM := lcan(2,2,1024)
sweep: all
	$(PYTHON) scripts/study.py sweep --figures fig10,fig11,fig13,random,passes --csv build/study/sweep-model.csv
	$(PYTHON) scripts/study.py sweep --figures rtl --rtl '$(STUDY_RTL)' --csv build/study/sweep-rtl.csv
	LCAN_RTL_UNROLL=1 $(PYTHON) scripts/study.py sweep --figures rtl --rtl '$(STUDY_RTL_LOWMEM)' --csv build/study/sweep-rtl-lowmem.csv
	$(PYTHON) scripts/study.py plot --csv build/study/sweep-model.csv --csv build/study/sweep-rtl.csv \
	  --csv build/study/sweep-rtl-lowmem.csv --plots docs/img
	$(PYTHON) scripts/study.py report --csv build/study/sweep-model.csv --csv build/study/sweep-rtl.csv \
	  --csv build/study/sweep-rtl-lowmem.csv

sweep-quick: all
	$(PYTHON) scripts/study.py sweep --quick --csv build/study/sweep-quick.csv --plots build/study/img

test-study: all
	@$(PYTHON) scripts/study.py check

TESTS += test-study
