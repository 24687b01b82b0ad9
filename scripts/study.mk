# Studies (issue 5): `make run` prints the short RTL/model/recurrence table; `make sweep` runs the
# full study into build/study/ and docs/img/; test-study checks RTL == model and the recurrence.
PYTHON ?= python3

.PHONY: run sweep sweep-quick test-study
run: deps
	@$(MAKE) --no-print-directory all
	@$(PYTHON) scripts/study.py run

sweep: all
	$(PYTHON) scripts/study.py sweep --csv build/study/sweep.csv --plots docs/img

sweep-quick: all
	$(PYTHON) scripts/study.py sweep --quick --csv build/study/sweep-quick.csv --plots build/study/img

test-study: all
	@$(PYTHON) scripts/study.py check

TESTS += test-study
