# primeval: the two commands of the quick start are `make test` and `make train`.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
STAMP  := $(VENV)/.installed
# RLlib's venv: ray[rllib] pins gymnasium 1.2.2, the main venv has 1.4.0 (constraints-rllib.txt).
VENV_RLLIB  := .venv-rllib
RLLIB_STAMP := $(VENV_RLLIB)/.installed
PYTEST_ARGS ?= -n 2

GAME   ?= primordial_soup
RUN    ?= runs/$(GAME)
# The other seats in the evaluation after training (4-player Primordial Soup, 3-player Origin).
OPPONENTS_primordial_soup := random random random
OPPONENTS_origin := random random

.PHONY: install rllib test train bench lint clean

# (Re)install when the project metadata or the pinned versions change.
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet -c constraints.txt -e ".[train,dev,bench,openspiel,integrations]"
	touch $(STAMP)

install: $(STAMP)

# The RLlib backend's venv: constraints.txt without the packages constraints-rllib.txt pins
# (gymnasium; pandas, which the main venv's tianshou wants below 3), then constraints-rllib.txt.
$(RLLIB_STAMP): pyproject.toml constraints.txt constraints-rllib.txt
	test -x $(VENV_RLLIB)/bin/python || $(PYTHON) -m venv $(VENV_RLLIB)
	awk -F'==' 'NR == FNR { if ($$1 !~ /^#/ && $$1 != "") pinned[tolower($$1)] = 1; next } \
		!(tolower($$1) in pinned)' constraints-rllib.txt constraints.txt \
		| cat - constraints-rllib.txt > $(VENV_RLLIB)/constraints.txt
	$(VENV_RLLIB)/bin/python -m pip install --quiet -c $(VENV_RLLIB)/constraints.txt -e ".[rllib,train,dev]"
	touch $(RLLIB_STAMP)

rllib: $(RLLIB_STAMP)

# The main suite, then the RLlib tests in their venv (one process: one local Ray for all).
test: $(STAMP) $(RLLIB_STAMP)
	$(PY) -m pytest $(PYTEST_ARGS) tests
	$(VENV_RLLIB)/bin/python -m pytest tests/training/rllib

# The main job: train the default config of GAME, evaluate it over 400 games, print the table.
train: $(STAMP)
	$(VENV)/bin/primeval train --config configs/$(GAME)/default.yaml --out $(RUN)
	$(VENV)/bin/primeval evaluate --game $(GAME) --quiet --games 400 --seed 1 \
		--agents ppo:$(RUN)/model.zip $(OPPONENTS_$(GAME)) --json $(RUN)/ppo_vs_random.json
	$(VENV)/bin/primeval evaluate --game $(GAME) --quiet --games 400 --seed 1 \
		--agents heuristic $(OPPONENTS_$(GAME)) --json $(RUN)/heuristic_vs_random.json

# Throughput and memory beside PettingZoo's connect_four_v3, go_v5 and chess_v6 (README table).
bench: $(STAMP)
	mkdir -p runs
	$(VENV)/bin/primeval bench --peers --ppo --ppo-policy both --memory --json | tee runs/bench.json

lint: $(STAMP)
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) $(VENV_RLLIB) build *.egg-info .pytest_cache
