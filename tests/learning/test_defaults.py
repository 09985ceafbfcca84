"""The default runs' figures: each saved run's own table, the held-out pooled figures the
README and docs/learning.md quote, the shipped 2M agents and the zoo's member, and that the
runs are of the shipped default configs."""

from __future__ import annotations

import json

import pytest

from primeval.training.ppo.config import load_config
from tests.learning.common import (
    HELD_OUT,
    LONGER,
    ROOT,
    RUNS,
    figure,
    newest_held_out,
    plays_a_legal_move,
    pool_rates,
    quote_rate,
    same_config,
)


def test_both_games_have_two_saved_seeds():
    games = {}
    for path in RUNS:
        result = json.loads(path.read_text())
        games.setdefault(result["game"], set()).add(result["seed"])
    assert games == {"primordial_soup": {0, 1}, "origin": {0, 1}}


@pytest.mark.parametrize("path", RUNS, ids=[p.parent.name for p in RUNS])
def test_the_quoted_figures_are_the_saved_runs(path):
    result = json.loads(path.read_text())
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    against_heuristic = figure(result, "vs_heuristic")
    assert against_heuristic in learning, (path, against_heuristic)
    assert figure(result, "vs_random") in learning
    summary = (path.parent / "summary.md").read_text(encoding="utf-8")
    as_table = against_heuristic.replace(" [", " | [")  # the summary's columns
    assert as_table in summary and f"seed {result['seed']}" in summary


@pytest.mark.parametrize("path", RUNS, ids=[p.parent.name for p in RUNS])
def test_the_saved_runs_are_of_the_shipped_default_configs(path):
    """The first saved runs are of the shipped config, at the length of their day."""
    result = json.loads(path.read_text())
    same_config(path.parent, result, length=False)
    saved = load_config(path.parent / "config.yaml")
    assert result["total_steps"] >= saved.total_steps


def test_every_game_has_a_held_out_run():
    assert {json.loads(p.read_text())["game"] for p in HELD_OUT} == {"primordial_soup", "origin"}


@pytest.mark.parametrize("path", HELD_OUT, ids=[f"{p.parent.parent.name}/{p.parent.name}"
                                                for p in HELD_OUT])
def test_the_held_out_figures_are_quoted_and_of_the_shipped_configs(path):
    """heldout.json is ``evaluate --seeds 3`` of the run's model against the heuristic bots
    at evaluation seeds no default was chosen on; docs/learning.md quotes its pooled win
    rate, and the run is of the shipped default config: the newest folder's of all of it,
    the earlier ones' but for its length."""
    held = json.loads(path.read_text())
    agent = held["agents"][0]
    assert agent["agent"].startswith("ppo:")
    assert all(a["agent"].startswith("heuristic") for a in held["agents"][1:])
    assert len(held["seeds"]) == 3 and held["seed"] not in (0, 123456)
    assert agent["games"] == sum(p["agents"][0]["games"] for p in held["per_seed"]) >= 1200
    assert quote_rate(agent) in (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    run = json.loads((path.parent / "eval.json").read_text())
    same_config(path.parent, run, length=path in newest_held_out().values())
    assert run["game"] == held["game"]


@pytest.mark.parametrize("key", sorted(newest_held_out()), ids=str)
def test_the_readme_quotes_the_newest_held_out_figures(key):
    path = newest_held_out()[key]
    quoted = quote_rate(json.loads(path.read_text())["agents"][0])
    assert quoted in (ROOT / "README.md").read_text(encoding="utf-8"), (path, quoted)


def test_pooled_over_training_seeds_is_quoted_as_computed():
    """Where a game has held-out runs of two training seeds in its newest folder, the
    README's pooled figure over both is the Wilson interval of their summed games."""
    by_folder: dict[tuple[str, str], list[dict]] = {}
    for path in newest_held_out().values():
        held = json.loads(path.read_text())
        by_folder.setdefault((path.parent.parent.name, held["game"]), []).append(held)
    pooled = [h for h in by_folder.values() if len(h) > 1]
    for runs in pooled:
        _games, quoted = pool_rates([h["agents"][0] for h in runs])
        for page in ("README.md", "docs/learning.md"):
            assert quoted in (ROOT / page).read_text(encoding="utf-8"), (page, quoted)


@pytest.mark.parametrize("folder, agent_file, files", [
    ("soup-2m", "soup-4p-ppo-2m.zip", (("heldout-fresh.json", 800), ("ladder-seed.json", 400),
                                       ("zoo-soup-4p-ppo-heldout-fresh.json", 800))),
    ("soup-2m-s1", "soup-4p-ppo-2m-s1.zip", (("heldout-fresh.json", 800),
                                             ("ladder-seed.json", 400))),
])
def test_the_longer_runs_held_out_figures_are_its_files_and_its_agent_loads_as_data(
        folder, agent_file, files):
    """docs/learning.md's 2M-step tables quote their JSONs, and each shipped float16 agent
    loads without unpickling (and plays a legal move)."""
    import re

    folder = LONGER / folder
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    for name, games in files:
        agent, *bots = json.loads((folder / name).read_text())["agents"]
        assert agent["games"] == games and len(bots) == 3
        assert agent["agent"].endswith(agent_file) or name.startswith("zoo-")
        assert all(re.fullmatch(r"heuristic#\d", b["agent"]) for b in bots)
        assert quote_rate(agent) in learning, name
    plays_a_legal_move(folder / agent_file)


def test_the_two_2m_seeds_pooled_are_quoted_as_computed():
    games, quoted = pool_rates([json.loads((LONGER / f / "heldout-fresh.json").read_text())
                             ["agents"][0] for f in ("soup-2m", "soup-2m-s1")])
    assert games == 1600
    assert quoted in (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
