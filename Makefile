# primeval: the two commands of the quick start are `make test` and `make train`.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
STAMP  := $(VENV)/.installed
# RLlib's venv: ray[rllib] pins gymnasium 1.2.2, the main venv has 1.4.0 (constraints-rllib.txt).
VENV_RLLIB  := .venv-rllib
RLLIB_STAMP := $(VENV_RLLIB)/.installed
# make test-compat: the env tests on the oldest versions pyproject admits and on each PettingZoo
# before 1.27 (no pettingzoo.make registry), with Gymnasium 1.2.2, in .venv-compat (no torch),
# one stage after another; then AgileRL 2.58 (pettingzoo<1.27) in .venv-agilerl.
VENV_COMPAT   := .venv-compat
COMPAT_STAMP  := $(VENV_COMPAT)/.installed
VENV_AGILERL  := .venv-agilerl
AGILERL_STAMP := $(VENV_AGILERL)/.installed
COMPAT_PINS_1 := pettingzoo==1.24.4 numpy==1.26.4 PyYAML==6.0.1
COMPAT_PINS_2 := pettingzoo==1.25.0 numpy==2.4.6 PyYAML==6.0.4
COMPAT_PINS_3 := pettingzoo==1.26.1 numpy==2.4.6 PyYAML==6.0.4
# What touches PettingZoo or Gymnasium: the AEC adapter and its wrappers, api_test and
# seed_test, saved states, the encoders' spaces, the registries, the single-agent view
# (every game's own env and encoder tests: each game folder under tests/envs/).
COMPAT_TESTS  := tests/test_registration.py tests/wrappers/test_single_agent.py \
	tests/envs/test_games.py tests/envs/test_bad_configs.py \
	tests/envs/core/test_aec_adapter.py tests/envs/core/test_bad_actions.py \
	tests/envs/core/test_saved_state.py tests/envs/core/test_set_game_state.py \
	$(sort $(wildcard tests/envs/*/test_env.py tests/envs/*/test_encoders.py))
PYTEST_ARGS ?= -n 2

GAME   ?= primordial_soup
RUN    ?= runs/$(GAME)$(if $(filter-out default,$(CONFIG)),-$(CONFIG))

.PHONY: install rllib test test-compat train bench bench-check lint clean wheel

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

# The main suite, then the RLlib tests in their venv (one process: one local Ray for all),
# with the hostile-checkpoint test that needs ray.
test: $(STAMP) $(RLLIB_STAMP)
	$(PY) -m pytest $(PYTEST_ARGS) --durations=30 tests
	$(VENV_RLLIB)/bin/python -m pytest tests/training/rllib \
		tests/security/test_checkpoints.py::test_an_rllib_checkpoint_is_refused_unless_trusted

# .venv-compat: primeval without torch, at constraints-compat.txt and the newest stage's pins.
$(COMPAT_STAMP): pyproject.toml constraints-compat.txt
	test -x $(VENV_COMPAT)/bin/python || $(PYTHON) -m venv $(VENV_COMPAT)
	$(VENV_COMPAT)/bin/python -m pip install --quiet -c constraints-compat.txt -e ".[dev]" $(COMPAT_PINS_3)
	touch $(COMPAT_STAMP)

# .venv-agilerl: AgileRL 2.58 beside primeval. AgileRL imports peft at `import
# agilerl.algorithms` but lists it only in its llm extras, so peft is named here.
$(AGILERL_STAMP): pyproject.toml constraints-compat.txt
	test -x $(VENV_AGILERL)/bin/python || $(PYTHON) -m venv $(VENV_AGILERL)
	$(VENV_AGILERL)/bin/python -m pip install --quiet -c constraints-compat.txt -e ".[dev]" \
		$(COMPAT_PINS_3) torch agilerl peft
	touch $(AGILERL_STAMP)

# $(call compat_stage,PINS): install PINS in .venv-compat, then run the env tests there.
compat_stage = $(VENV_COMPAT)/bin/python -m pip install --quiet -c constraints-compat.txt $(1) \
	&& $(VENV_COMPAT)/bin/python -m pytest $(PYTEST_ARGS) -q -p no:cacheprovider $(COMPAT_TESTS)

test-compat: $(COMPAT_STAMP) $(AGILERL_STAMP)
	$(call compat_stage,$(COMPAT_PINS_1))
	$(call compat_stage,$(COMPAT_PINS_2))
	$(call compat_stage,$(COMPAT_PINS_3))
	$(VENV_AGILERL)/bin/python -m pytest -q -p no:cacheprovider tests/integrations/test_agilerl.py \
		tests/test_registration.py

# The main job: train the default config of GAME; it ends with one table (400 seat-rotated
# games each: the trained agent against random players and against heuristic players, the
# heuristic against random players; training time and throughput), also in $(RUN)/summary.md.
# STEPS=N trains N steps instead of the config's total_steps; EVAL_GAMES=N plays N games per
# table of the final evaluation (a trial run: make train STEPS=20000 EVAL_GAMES=40);
# CONFIG=NAME trains configs/$(GAME)/NAME.yaml instead (make train GAME=origin CONFIG=scratch).
STEPS      ?=
EVAL_GAMES ?=
CONFIG     ?= default
train: $(STAMP)
	$(VENV)/bin/primeval train --config configs/$(GAME)/$(CONFIG).yaml --out $(RUN) \
		$(if $(STEPS),--total-steps $(STEPS)) $(if $(EVAL_GAMES),--eval-games $(EVAL_GAMES))

# Throughput and memory beside PettingZoo's connect_four_v3, go_v5 and chess_v6 (README table).
bench: $(STAMP)
	mkdir -p runs
	$(VENV)/bin/primeval bench --peers --ppo --ppo-policy both --memory --json | tee runs/bench.json

# The speed ratios of issue 23 (random play over chess_v6 and go_v5, the default configs'
# training over SB3 alone on an idle env), interleaved in one run of about 2 minutes; fails
# naming a ratio that fell by more than BENCH_TOLERANCE of docs/benchmarks/bench-check.json.
# A shared machine's load moves single runs by up to ~16%: a failed run is measured once more,
# and only a second failure fails.
BENCH_TOLERANCE ?= 0.25
bench-check: $(STAMP)
	$(PY) -m primeval.training.ppo.bench_check --tolerance $(BENCH_TOLERANCE) \
		|| { echo 'bench-check: a ratio fell; measuring once more (a real slowdown fails twice)'; \
		$(PY) -m primeval.training.ppo.bench_check --tolerance $(BENCH_TOLERANCE); }

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# A wheel in dist/ for installing primeval where there is no clone (README, "Installing").
wheel: $(STAMP)
	$(PIP) wheel --quiet --no-deps --no-build-isolation -w dist .

clean:
	rm -rf $(VENV) $(VENV_RLLIB) $(VENV_COMPAT) $(VENV_AGILERL) build dist *.egg-info .pytest_cache
