"""The strength ladder of docs/learning.md is its saved runs: every row's figure is its JSON's
(400 seat-rotated games against the heuristic bots at the ladder's seed), every row of
run.sh has its JSON, the round robins' ratings are quoted, and the agents saved beside them
load without unpickling and play."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LADDER = ROOT / "docs" / "benchmarks" / "learning" / "ladder-2026-12-03"
ROWS = sorted(p for p in LADDER.glob("*/*.json")
              if p.parent.name in ("soup", "origin") and p.stem != "round_robin")
LEARNING = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
OPPONENTS = {"soup": 3, "origin": 2}


def _figure(result: dict) -> str:
    lo, hi = result["win_rate_ci95"]
    return f"{result['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]"


def test_every_row_of_run_sh_has_its_json_and_no_other_json_is_there():
    script = (LADDER / "run.sh").read_text(encoding="utf-8")
    named = {f"{game}/{name}" for game, name in
             re.findall(r"^\s+(soup|origin)_row ([\w-]+) ", script, flags=re.M)}
    assert named == {f"{p.parent.name}/{p.stem}" for p in ROWS}


@pytest.mark.parametrize("path", ROWS, ids=[f"{p.parent.name}/{p.stem}" for p in ROWS])
def test_the_row_is_its_json(path):
    result = json.loads(path.read_text())
    agent, *bots = result["agents"]
    assert result["seed"] == 2026120340 and result["games"] == agent["games"] == 400
    assert len(bots) == OPPONENTS[path.parent.name]
    assert all(re.fullmatch(r"heuristic#\d", b["agent"]) for b in bots)
    line = next((ln for ln in LEARNING.splitlines()
                 if f"`{path.parent.name}/{path.stem}.json`" in ln), None)
    assert line is not None, f"no ladder row names {path.parent.name}/{path.stem}.json"
    assert _figure(agent) in line, (line, _figure(agent))


@pytest.mark.parametrize("game", ["soup", "origin"])
def test_the_round_robin_ratings_are_quoted(game):
    board = json.loads((LADDER / game / "round_robin.json").read_text())
    assert board["games"] == 240 and board["seed"] == 2026120340
    for row in board["leaderboard"]:
        rating = f"{row['rating']['mu']:.1f} ± {row['rating']['sigma']:.1f}"
        assert rating in LEARNING, (row["agent"], rating)


def test_the_saved_agents_load_as_data_and_play():
    from primeval.envs.games import make_raw_env
    from primeval.training.agents import make_agent

    for spec, game, players in (
        (f"ppo:{LADDER / 'agents' / 'origin-3p-mlp-scratch.zip'}", "origin", 3),
        (f"ppo:{LADDER / 'agents' / 'origin-3p-structured-scratch.zip'}", "origin", 3),
        (f"net:{LADDER / 'agents' / 'soup-4p-exit.json'}", "primordial_soup", 4),
        (f"net:{LADDER / 'agents' / 'soup-4p-distilled.json'}", "primordial_soup", 4),
        (f"net:{LADDER / 'agents' / 'soup-4p-exit-distilled.json'}", "primordial_soup", 4),
        (f"net:{LADDER / 'agents' / 'soup-4p-exit-sharp.json'}", "primordial_soup", 4),
    ):
        agent = make_agent(spec, game, seed=0)  # refuses anything that needs unpickling
        env = make_raw_env(game, players, obs_encoder="graph" if "structured" in spec
                           else "flat")
        env.reset(seed=1)
        for _ in range(30):
            if not env.agents:
                break
            name = env.agent_selection
            observed = env.observe(name)
            seat = env.possible_agents.index(name)
            action = agent.act(observed["observation"], observed["action_mask"],
                               state=env.unwrapped.game_state, seat=seat)
            assert observed["action_mask"][action], spec
            env.step(int(action))


SEARCH = ROOT / "docs" / "benchmarks" / "learning" / "search-2026-12-03"
SEARCH_DOC = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", sorted(SEARCH.glob("probe-*.json")), ids=lambda p: p.stem)
def test_the_search_probes_are_their_jsons(path):
    """docs/search.md's opponent-model probes: 100 games at seed 2026120360 each, the
    figure in the row that names the file."""
    result = json.loads(path.read_text())
    agent, *bots = result["agents"]
    assert result["seed"] == 2026120360 and result["games"] == 100
    assert all(re.fullmatch(r"heuristic#\d", b["agent"]) for b in bots)
    line = next((ln for ln in SEARCH_DOC.splitlines() if f"`{path.name}`" in ln), None)
    assert line is not None, f"no row of docs/search.md names {path.name}"
    assert _figure(agent) in line, (line, _figure(agent))


@pytest.mark.parametrize("path", sorted(SEARCH.glob("value_accuracy_*.md")), ids=lambda p: p.stem)
def test_the_value_accuracy_figures_are_quoted(path):
    game = path.stem  # named in the failure
    rows = [ln.split("|")[1:-1] for ln in path.read_text().splitlines()
            if ln.startswith("| ") and "third" in ln]
    assert len(rows) == 3
    for _part, _n, corr, r2, _v, _r, lead in rows:
        quoted = f"{corr.strip()}, {r2.strip()} ({lead.strip()})"
        assert quoted in SEARCH_DOC, (game, quoted)
