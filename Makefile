# Two commands: `make plan` (what the example stack would deploy) and `make test`.
# Both create ./venv from requirements.txt when it is missing or older than
# requirements.txt; it is the same venv the Pulumi CLI uses (Pulumi.yaml).
PYTHON ?= python3
VENV := venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
STACK ?= example
# xdist workers: the suite runs each program under mocks in a fresh process.
JOBS ?= 2

.PHONY: plan test lint fmt validate venv clean bench

venv: $(STAMP)

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $(STAMP)

plan: $(STAMP)
	$(PY) -m preflight validate stacks/Pulumi.$(STACK).yaml
	$(PY) -m preflight plan --stack $(STACK) --json build/plan-$(STACK).json

validate: $(STAMP)
	@for f in stacks/Pulumi.*.yaml; do $(PY) -m preflight validate $$f || exit 1; done

# Static checks before the tests; configuration in pyproject.toml.
test: lint
	$(PY) -m pytest -n $(JOBS) -q

# Format check, lint, types. mypy's first run analyses the Pulumi SDKs (slow); later runs
# reuse .mypy_cache.
lint: $(STAMP)
	$(PY) -m ruff format --check .
	$(PY) -m ruff check .
	$(PY) -m mypy

# Rewrites in place: format, then the lint fixes ruff can make safely.
fmt: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

bench: $(STAMP)
	$(PY) scripts/bench_plan.py

clean:
	rm -rf build .pytest_cache .hypothesis .ruff_cache .mypy_cache
