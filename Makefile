# Two commands: `make plan` (what the example stack would deploy) and `make test`.
# Both create ./venv when it is missing or older than its locks; it is the same venv the
# Pulumi CLI uses (Pulumi.yaml). Two locks: requirements.txt, what the program imports
# (all `pulumi up` installs), and requirements-dev.txt, the tests' and linters' tools, which
# `make test`, `make lint` and the other development targets add. The Helm library the
# chart tests render with comes from a third, requirements-helm.txt, unpacked into .helm/.
#
# Each lock pins every package with its sha256 hashes, generated from its .in file by
# `make lock`; installs check every hash. uv installs them when it can be had (on PATH, or
# installed from requirements-uv.txt, also hash-checked, into .uv/); otherwise pip does.
# INSTALLER=pip forces pip.
PYTHON ?= python3
VENV := venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.dev-installed
# Helm v4 as a Go library (the helm-sdkpy wheel, hash-checked), for tests/tools/helm_render.
HELM_HOME := .helm
HELM_STAMP := $(HELM_HOME)/.installed
STACK ?= example
# xdist workers: the suite runs each program under mocks in a fresh process.
JOBS ?= 2
# mypy's worker processes in `make lint` (a cold run, as on a fresh clone: about 8 s in one
# process, 6 s in two); `make test` runs it beside pytest in one (0: mypy's own process).
MYPY_WORKERS ?= $(JOBS)
INSTALLER ?= auto
UV_HOME := .uv
# This machine (and the CI machine like it) sets PYTHONDONTWRITEBYTECODE=1: every process would then compile
# the provider SDKs from source again (pulumi_kubernetes and pulumi_azure_native alone take
# seconds a process). Python writes each module's bytecode on its first import instead.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: plan test lint fmt typecheck-sdk validate generate venv dev helm lock uv clean bench mutate

venv: $(STAMP)
dev: $(DEV_STAMP)
helm: $(HELM_STAMP)

# Shell code that prints the path of a uv binary: the one on PATH, else a copy installed
# from requirements-uv.txt (hash-checked; pip --target, no venv to create) into
# $(UV_HOME). It fails when uv cannot be had, and the caller falls back to pip.
# A variable, not a target, so that `make -n` prints it instead of running it.
FIND_UV = if command -v uv >/dev/null 2>&1; then command -v uv; exit 0; fi; \
	if [ ! -x $(UV_HOME)/bin/uv ] || [ requirements-uv.txt -nt $(UV_HOME)/bin/uv ]; then \
	  rm -rf $(UV_HOME); \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check --target $(UV_HOME) \
	    --require-hashes --only-binary :all: -r requirements-uv.txt >&2 || { rm -rf $(UV_HOME); exit 1; }; \
	  touch $(UV_HOME)/bin/uv; \
	fi; \
	echo $(UV_HOME)/bin/uv

uv:
	@$(FIND_UV)

$(STAMP): requirements.txt
	@set -e; \
	if [ "$(INSTALLER)" != pip ] && uv=$$($(FIND_UV)); then \
	  echo "installing the lock with $$uv"; \
	  test -x $(PY) || $(PYTHON) -m venv $(VENV); \
	  $$uv pip sync --quiet --require-hashes --python $(PY) requirements.txt; \
	else \
	  echo "installing the lock with pip"; \
	  test -x $(PY) || $(PYTHON) -m venv $(VENV); \
	  $(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.txt; \
	fi
	@# Bytecode for what the program imports, written once here (pip compiles on install, uv
	@# does not): otherwise every process's first run (each plan, both test workers at once)
	@# compiles the provider SDKs' modules again, about 10 s of CPU a process (pulumi_gcp's
	@# compute module alone is 5 MB of source). The SDKs load a module when a run first uses
	@# it, so a plan of the example stack (every provider) is what imports them all. Its
	@# output is not needed; a stack that fails to plan (or hangs: 300 s where `timeout`
	@# exists) is the tests' to report, not the install's.
	@$(PY) -c "import components.cloud, preflight.runtime, preflight.policy"
	@$$(command -v timeout >/dev/null && echo timeout 300) $(PY) -m preflight plan --stack example --quiet >/dev/null 2>&1 || true
	@touch $(STAMP)

# The development tools on top: both locks at once (uv pip sync would otherwise remove what
# the other holds). After a change of requirements.txt the line above syncs the program's
# lock alone (what the Pulumi CLI's venv holds), and this one adds the tools back.
$(DEV_STAMP): requirements-dev.txt $(STAMP)
	@set -e; \
	if [ "$(INSTALLER)" != pip ] && uv=$$($(FIND_UV)); then \
	  $$uv pip sync --quiet --require-hashes --python $(PY) requirements.txt requirements-dev.txt; \
	else \
	  $(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.txt -r requirements-dev.txt; \
	fi
	@# The same for the tests' tools and modules (pytest, hypothesis, jsonschema...; about 6 s
	@# of CPU a worker otherwise): what collecting the tests imports.
	@$(PY) -m pytest --collect-only -q -p no:cacheprovider >/dev/null 2>&1 || true
	@touch $(DEV_STAMP)

# The helm-sdkpy wheel unpacked into .helm/ (--target: no venv, no import of its Python
# half, which wants 3.12; tests/tools/helm_render loads its Go library through cffi). uv
# takes the target's Python version; pip checks its own, so it is told to ignore it.
$(HELM_STAMP): requirements-helm.txt
	@set -e; rm -rf $(HELM_HOME); \
	if [ "$(INSTALLER)" != pip ] && uv=$$($(FIND_UV)); then \
	  $$uv pip install --quiet --require-hashes --no-deps --python-version 3.12 --target $(HELM_HOME) -r requirements-helm.txt; \
	else \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps --only-binary :all: \
	    --ignore-requires-python --target $(HELM_HOME) -r requirements-helm.txt; \
	fi
	@touch $(HELM_STAMP)

# Regenerates every lock from its .in file (keeping the versions already pinned where
# the .in allows them). `make lock UPGRADE=1` moves every transitive pin to its newest.
# The policy pack's lock is constrained by the program's, so that the packages both use
# (pulumi, pydantic, protobuf...) are the same versions in ./venv and policy/venv; the
# development lock too (both go into ./venv), and the mutation tool's by both.
COMPILE = $$uv pip compile --quiet $(if $(UPGRADE),--upgrade)
lock:
	@set -e; uv=$$($(FIND_UV)); \
	$(COMPILE) --output-file=requirements.txt requirements.in; \
	$(COMPILE) --constraint=requirements.txt --output-file=requirements-dev.txt requirements-dev.in; \
	$(COMPILE) --no-deps --python-version=3.12 --output-file=requirements-helm.txt requirements-helm.in; \
	$(COMPILE) --constraint=requirements.txt --output-file=policy/requirements.txt policy/requirements.in; \
	$(COMPILE) --constraint=requirements.txt --output-file=provider/requirements.txt provider/requirements.in; \
	$(COMPILE) --output-file=requirements-uv.txt requirements-uv.in; \
	$(COMPILE) --constraint=requirements.txt --constraint=requirements-dev.txt --output-file=requirements-mutate.txt requirements-mutate.in

plan: $(STAMP)
	$(PY) -m preflight validate stacks/Pulumi.$(STACK).yaml
	$(PY) -m preflight plan --stack $(STACK) --json build/plan-$(STACK).json

validate: $(STAMP)
	@for f in stacks/Pulumi.*.yaml; do $(PY) -m preflight validate $$f || exit 1; done

# The real Mermaid parser the diagram tests use (tests/mermaid/: `mermaid` and jsdom from npm,
# pinned with integrity hashes in package-lock.json), installed exactly as locked; again only
# when the lock changes. No Node, no test run: the diagrams would go unchecked otherwise.
MERMAID := tests/mermaid/node_modules/.installed
$(MERMAID): tests/mermaid/package.json tests/mermaid/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "make test: Node.js 20+ with npm is needed for the Mermaid parser (tests/mermaid); install it"; exit 1; }
	cd tests/mermaid && npm ci --no-audit --no-fund --ignore-scripts
	touch $@

# The static checks (`make lint`; configuration in pyproject.toml) beside the tests, not before
# them: mypy's cold run (a fresh clone's, CI's) takes seconds of CPU that the test workers'
# start leaves spare, and one process (MYPY_WORKERS=0) is enough there. Their output is kept in
# build/lint.log and printed after pytest's; `make test` fails when either fails. First, every
# stack file against the JSON Schema generated from the spec (a misspelt key fails here, as in
# the editor). `make lint` is called through SUBMAKE: make runs a line naming $(MAKE) even
# under `make -n`, which the docs' tests use to check that `make test` exists.
SUBMAKE = $(MAKE) --no-print-directory
test: $(DEV_STAMP) $(MERMAID) $(HELM_STAMP)
	@mkdir -p build; $(SUBMAKE) lint MYPY_WORKERS=0 >build/lint.log 2>&1 & lint=$$!; \
	echo "make lint: running beside the tests (its output follows theirs)"; \
	$(VENV)/bin/check-jsonschema --schemafile stacks/stack.schema.json stacks/Pulumi.*.yaml && \
	$(PY) -m pytest -n $(JOBS) --dist worksteal -q; tests=$$?; \
	wait $$lint; checks=$$?; \
	echo "--- make lint:"; cat build/lint.log; \
	if [ $$checks -ne 0 ]; then echo "make test: the static checks failed (make lint, above)"; fi; \
	[ $$tests -eq 0 ] && [ $$checks -eq 0 ]

# Every generated file (the stack schema, the config reference, the typed arguments, the
# policy docs, the pack's message catalogue) from its source: scripts/generate.py lists them.
# `make test` fails, naming this target, while any is stale (tests/project/test_generated.py).
generate: $(DEV_STAMP)
	$(PY) scripts/generate.py

# Format check, lint, types (strict, our code; the cloud SDKs untyped: seconds), then the
# workflows: actionlint (expressions, action inputs, `run:` scripts through shellcheck,
# all three from the lock) and zizmor (injection, credentials, permissions, unpinned
# actions) with no network.
lint: $(DEV_STAMP)
	$(PY) -m ruff format --check .
	$(PY) -m ruff check .
	$(PY) -m mypy --num-workers $(MYPY_WORKERS)
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(VENV)/bin/actionlint .github/workflows/*.yml
	$(VENV)/bin/zizmor --offline --quiet .github/workflows

# The same strict check against the cloud SDKs' own types: slow when cold (see mypy-sdk.ini).
typecheck-sdk: $(DEV_STAMP)
	$(PY) -m mypy --config-file mypy-sdk.ini

# Rewrites in place: format, then the lint fixes ruff can make safely.
fmt: $(DEV_STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

# The benchmark (docs/development.md, "Benchmarks"): sizes 4 and 40, 2 runs each, with the
# Pulumi SDK's floor beside the program; a few minutes. Exit 1 when a target fails.
bench: $(DEV_STAMP)
	$(PY) scripts/bench_plan.py

# The benchmarks as a smoke, run by CI after `make test` so that they cannot rot: every
# script at a small size (their figures mean little there). Fails when any of them fails,
# a generated stack the spec refuses included.
.PHONY: bench-smoke
bench-smoke: $(DEV_STAMP)
	$(PY) scripts/bench_plan.py --sizes 4,8 --repeat 1
	$(PY) scripts/bench_diff.py --count 1000
	$(PY) scripts/bench_validate.py --count 10

# Mutation testing (docs/development.md, "Mutation testing"), never part of `make test`: mutmut
# (requirements-mutate.txt, hash-checked, added to ./venv on top of both locks)
# mutates the spec's rules (config/, not its data tables), components/registration.py and
# addons/, and policy/rules/*.py in a copy of the project (mutants/) and runs the tests
# selected in pyproject.toml [tool.mutmut] that call each mutated function. mutants/ is kept: the next `make mutate` re-tests only the
# mutants of the functions that changed since (mutmut's per-function hashes). It starts
# over (every mutant: the cold run) with FRESH=1, and by itself when anything else changed
# (tests, stacks, locks, code outside the functions it mutates: mutation/inputs.py), since mutmut
# would keep those verdicts. `make mutate MUTANTS='components.registration*'` re-tests the
# mutants named (mutmut's globs) against today's tests and keeps the other verdicts.
# The score per module: mutation/score.py. mutation/plan_cache.py and
# mutation/pack_alias.py are pytest plugins for this only.
MUTANTS ?=
FRESH ?=
MUTATE_STAMP := $(VENV)/.mutate-installed
$(MUTATE_STAMP): requirements-mutate.txt $(DEV_STAMP)
	@set -e; \
	if [ "$(INSTALLER)" != pip ] && uv=$$($(FIND_UV)); then \
	  $$uv pip install --quiet --require-hashes --python $(PY) -r requirements-mutate.txt; \
	else \
	  $(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements-mutate.txt; \
	fi
	@touch $(MUTATE_STAMP)

# PYTHONHASHSEED: the plugin compares pickled specs across runs (set order follows the seed).
# mutmut copies tests/ and stacks/ over the old copies; removing them drops deleted ones.
# The digest is kept before the run, so that an interrupted run resumes where it stopped.
# HELM_SDKPY_LIB: the copy mutmut runs the tests in (mutants/) has no .helm/ of its own.
mutate: $(MUTATE_STAMP) $(HELM_STAMP)
	@set -ef; start=$$(date +%s); inputs=$$($(PY) mutation/inputs.py); current=yes; \
	if [ -n "$(FRESH)" ] || [ ! -d mutants ]; then \
	  rm -rf mutants; \
	elif [ "$$(cat mutants/inputs.sha256 2>/dev/null)" != "$$inputs" ]; then \
	  if [ -z "$(MUTANTS)" ]; then \
	    echo "make mutate: tests, stacks, locks or code it does not mutate changed: starting over"; \
	    rm -rf mutants; \
	  else current=no; rm -rf mutants/tests mutants/stacks; fi; \
	else \
	  rm -rf mutants/tests mutants/stacks; \
	fi; \
	if [ $$current = yes ]; then mkdir -p mutants; echo "$$inputs" > mutants/inputs.sha256; fi; \
	PYTHONHASHSEED=0 HELM_SDKPY_LIB=$(CURDIR)/$(HELM_HOME)/helm_sdkpy/_lib/linux-amd64/libhelm_sdkpy.so \
	  $(VENV)/bin/mutmut run --max-children $(JOBS) $(MUTANTS); \
	$(PY) mutation/score.py; \
	echo "wall time: $$(( $$(date +%s) - start )) s"

clean:
	rm -rf build .pytest_cache .hypothesis .ruff_cache .mypy_cache mutants tests/mermaid/node_modules $(HELM_HOME)
