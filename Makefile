# primeval: the two commands of the quick start are `make test` and `make train`.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
STAMP  := $(VENV)/.installed
PYTEST_ARGS ?= -n 2

GAME   ?= primordial_soup
RUN    ?= runs/$(GAME)
# The other seats in the evaluation after training (4-player Primordial Soup, 3-player Origin).
OPPONENTS_primordial_soup := random random random
OPPONENTS_origin := random random

.PHONY: install test train bench lint clean

# (Re)install when the project metadata or the pinned versions change.
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet -c constraints.txt -e ".[train,dev,bench,openspiel]"
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest $(PYTEST_ARGS) tests

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
	rm -rf $(VENV) build *.egg-info .pytest_cache
