# Everything installs itself into .venv: a fresh machine needs only Python 3.11 and make.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DATA ?= .droidsim/device

.PHONY: sim test bench soak conformance proto proto-check lint clean bytecode tau2-replay words words-first-run

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,ray]'
	@touch $(STAMP)

## make sim: boot the device with the sample apps under apps/ and, as its system image, the
## preinstalled agent under apps/system (allowlisted, with access pregranted to every target)
sim: $(STAMP)
	$(VENV)/bin/droidsim device start --data $(DATA) --system-apps apps/system --apps apps \
		--pregrant-agent com.example.assistant

## make test: the whole suite (unit, e2e, conformance in-process); files in collection order,
## the long ones first (tests/conftest.py), not xdist's default of the most tests first
test: $(STAMP) proto-check bytecode
	$(PY) -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder

## make bytecode: this checkout's own modules compiled (only what changed), so that the suite's
## thousands of device, app and CLI processes load them instead of compiling them each time where
## the environment turns the bytecode cache off (PYTHONDONTWRITEBYTECODE, as these machines do:
## a process still reads the cache)
bytecode: $(STAMP)
	$(PY) -m compileall -q -j 0 platform sim tests bench

## make words: the word readers measured on every reply set of tests/unit/eval/words/ (two minutes
## of CPU; make test keeps a fixed sample): a table (JSON=1: JSON), and exit 1 when a set's counts changed
words: $(STAMP)
	$(PY) -m tests.unit.eval.words.measure --check $(if $(JSON),--json)

## make words-first-run SET=NAME [JUDGE=openai:NAME BASE_URL=URL]: a frozen blind reply set measured
## once, its first run recorded in sim/eval/words_measured.json: the error every eval run reports
words-first-run: $(STAMP)
	@test -n "$(SET)" || { echo "name the frozen reply set: make words-first-run SET=NAME"; exit 1; }
	$(PY) -m tests.unit.eval.words.measure --first-run $(SET) $(if $(JUDGE),--judge-model $(JUDGE)) \
		$(if $(BASE_URL),--base-url $(BASE_URL))

## make conformance: the conformance suite against a running device (make sim)
conformance: $(STAMP)
	$(VENV)/bin/droidsim conformance --device $${DROIDSIM_DEVICE:-$(DATA)}

## make bench: performance figures as ratios against baselines from the same run
bench: $(STAMP)
	$(PY) -m bench

## make tau2-replay: τ-bench's 200 recorded GPT-4o airline runs replayed through the device, each
## scored as τ-bench scores it; fails when fewer than 198 get their recorded reward (docs/benchmarks.md:
## 199 do). The data is read from ../shared/reference/benchmarks, or $DROIDSIM_REFERENCE/benchmarks
TAU_BENCH_V1 = $(or $(DROIDSIM_REFERENCE),../shared/reference)/benchmarks/tau-bench-v1
tau2-replay: $(STAMP)
	$(VENV)/bin/droidsim eval tau2 replay --domain airline --data $(TAU_BENCH_V1)/airline \
		$(TAU_BENCH_V1)/historical_trajectories/gpt-4o-airline.json --require-agreement 198

## make soak: long fault-injection run, not part of make test
soak: $(STAMP)
	$(PY) -m bench.soak

## make proto: regenerate platform/droidsim/ from proto/
proto: $(STAMP)
	$(PY) tools/gen_proto.py

proto-check: $(STAMP)
	$(PY) tools/gen_proto.py --check

## make lint: the AppFunctions quality lint over the sample apps
lint: $(STAMP)
	$(VENV)/bin/droidsim lint apps/*/

clean:
	rm -rf $(VENV) .droidsim .pytest_cache
