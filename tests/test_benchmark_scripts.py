"""The measuring scripts of docs/benchmarks (throughput-2026-12-05's, the points split of
learning/scratch-2026-12-06, forward-2026-12-07's) run at this code and print what history.md
reads from them (their figures are timings: nothing here asserts a speed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "docs" / "benchmarks" / "throughput-2026-12-05"


def _run(script: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, str(HERE / script), *args], cwd=ROOT, check=True,
                         capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    return json.loads(out.stdout)


def test_bots_py_times_the_same_games_twice_alike():
    first, second = _run("bots.py", "--games", "1"), _run("bots.py", "--games", "1")
    for game in ("primordial_soup", "origin"):
        assert first[game]["decisions"] > 50 and first[game]["us_per_decision"] > 0
        # the same seeded games: the same decisions and actions, whatever the timing
        assert (first[game]["decisions"], first[game]["actions"]) == (
            second[game]["decisions"], second[game]["actions"])


def test_mcts_sims_py_counts_the_simulations_of_its_decisions():
    result = _run("mcts_sims.py")
    for game in ("primordial_soup", "origin"):
        assert result[game]["simulations"] % 100 == 0 and result[game]["simulations"] > 0
        assert result[game]["sims_per_cpu_second"] > 0 and len(result[game]["actions"]) == 10


def test_run_sh_writes_every_file_history_md_links():
    script = (HERE / "run.sh").read_text(encoding="utf-8")
    history = (ROOT / "docs" / "benchmarks" / "history.md").read_text(encoding="utf-8")
    for name in ("train.txt", "rules.txt", "bots.txt", "bots-old-new.txt", "mcts.txt"):
        assert f'"$HERE/{name}"' in script and (HERE / name).is_file(), name
        assert f"(throughput-2026-12-05/{name})" in history, name


def test_points_py_splits_recorded_origin_games_by_source(tmp_path):
    """docs/benchmarks/learning/scratch-2026-12-06/points.py replays recorded games (through
    ``replay_record``) and splits each seat's final points by source: every seat counted
    once, the agent apart from the heuristic bots, each seat's sources summing to its
    recorded score (but for the hundredths of the tie-break), duplicate games replayed with
    their chance, and a damaged record refused with an error naming it."""
    import importlib.util

    import pytest

    from primeval.training.evaluate import tournament
    from primeval.training.replay import ReplayError, load_records

    path = ROOT / "docs" / "benchmarks" / "learning" / "scratch-2026-12-06" / "points.py"
    spec = importlib.util.spec_from_file_location("points", path)
    points = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(points)
    games = tmp_path / "games.jsonl"
    tournament("origin", 3, ["random", "heuristic", "heuristic"], games=3, seed=4, record=games)
    table = points.by_agent(games)
    assert table["agent"]["seats"] == 3 and table["heuristic"]["seats"] == 6
    for record in load_records(games):  # every purple card played is one objective completed
        for seat in points.objective_decisions(record):
            taken = seat["objective_chances"] - seat["objective_chances_missed"]
            assert seat["objectives_completed"] == taken
    with_objectives = points.by_agent(games, objectives=True)
    assert with_objectives["heuristic"]["total"] == table["heuristic"]["total"]
    assert with_objectives["heuristic"]["objectives_completed"] > 0
    # entering a green territory whose token lies there takes it (2 to 4 points); every
    # evolve_at of the record is counted once, by its territory's colour
    from primeval.envs.origin.rules import OriginRules
    evolve = OriginRules(num_players=3).layout.slice("evolve_at")
    for record in load_records(games):
        hunts = points.territory_decisions(record)
        for seat, by_source in zip(hunts, points.final_points(record), strict=True):
            assert 0 <= seat["hunt_chances_taken"] <= seat["hunt_chances"]
            assert by_source["hunting_tokens"] >= 2 * seat["hunt_chances_taken"]
        evolved = sum(v for seat in hunts for k, v in seat.items() if k.startswith("evolve_"))
        assert evolved == sum(evolve.start <= a < evolve.stop for a in record["actions"]) > 0
    with_territories = points.by_agent(games, territories=True)
    assert with_territories["heuristic"]["hunt_chances"] > 0
    assert with_territories["heuristic"]["total"] == table["heuristic"]["total"]
    against_random = points.by_agent(games, opponent="random")
    assert against_random["random"] == table["agent"]
    assert against_random["agent"]["seats"] == 6
    assert against_random["agent"]["total"] == pytest.approx(table["heuristic"]["total"])
    records = [json.loads(line) for line in games.read_text().splitlines()]
    for record in records:
        by_seat = points.final_points(record)
        for seat_points, score in zip(by_seat, record["scores"], strict=True):
            assert abs(sum(seat_points.values()) - score) < 1
    mean_total = sum(r["scores"][r["agents"].index("random")] for r in records) / 3
    assert abs(table["agent"]["total"] - mean_total) < 1
    duplicate = tmp_path / "duplicate.jsonl"
    tournament("origin", 3, ["random", "heuristic", "heuristic"], games=3, seed=4,
               record=duplicate, duplicate=True)
    for record in (json.loads(line) for line in duplicate.read_text().splitlines()):
        assert record["chance"] == "duplicate"
        for seat_points, score in zip(points.final_points(record), record["scores"],
                                      strict=True):
            assert abs(sum(seat_points.values()) - score) < 1
    with pytest.raises(ReplayError, match="the game is not over"):
        points.final_points(dict(records[0], actions=records[0]["actions"][:-5]))
    with pytest.raises(ReplayError, match="the game ended after step"):
        points.final_points(dict(records[0], actions=records[0]["actions"] + [0]))


def test_forward_py_times_the_network_of_primordial_soups_default():
    """docs/benchmarks/forward-2026-12-07/forward.py times "the default's network": its sizes
    are those of Primordial Soup's default env (4 players, the flat encoder), so the script
    goes stale when the encoder or the actions change; and its timer runs a forward pass of
    that policy under the mask, with or without the caches flushed."""
    import importlib.util

    import numpy as np
    import torch as th
    from gymnasium import spaces

    from primeval.envs import primordial_soup_v1
    from primeval.training.ppo.config import load_config
    from primeval.training.ppo.masking import MaskedActorCriticPolicy

    path = ROOT / "docs" / "benchmarks" / "forward-2026-12-07" / "forward.py"
    spec = importlib.util.spec_from_file_location("forward", path)
    forward = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(forward)

    config = load_config(ROOT / "configs" / "primordial_soup" / "default.yaml")
    env = primordial_soup_v1.env(num_players=config.players, obs_encoder=config.encoder)
    env.reset(seed=0)
    agent = env.agents[0]
    assert (config.players, config.encoder) == (4, "flat")
    assert (config.network.net_arch, config.network.activation) == ((256, 256), "tanh")
    assert env.observation_space(agent)["observation"].shape == (forward.OBS,)
    assert env.action_space(agent).n == forward.ACTIONS

    policy = MaskedActorCriticPolicy(spaces.Box(0, 1, (forward.OBS,), np.float32),
                                     spaces.Discrete(forward.ACTIONS), lambda _: 3e-4,
                                     net_arch=[256, 256], activation_fn=th.nn.Tanh)
    policy.set_training_mode(False)
    obs = th.zeros((forward.BATCH, forward.OBS))
    mask = np.zeros((forward.BATCH, forward.ACTIONS), dtype=bool)
    mask[:, 0] = True
    flush = np.zeros(1024)
    assert forward.timed(policy, obs, mask, None, 3) > 0
    assert forward.timed(policy, obs, mask, flush, 3) > 0
    assert flush[0] == 53  # touched before each of the 50 untimed and 3 timed passes


def test_the_search_runs_of_2026_12_08_searched_alike_and_are_quoted():
    """docs/benchmarks/chance-2026-12-08 and determinize-2026-12-08: every tree's searches
    chose the same actions (one hash per game and bench), and history.md quotes the
    determinize runs' summary.py."""
    bench = ROOT / "docs" / "benchmarks"
    files = [*(bench / "chance-2026-12-08").glob("*.txt"),
             *(bench / "determinize-2026-12-08").glob("mcts*-run*.txt")]
    assert len(files) == 6
    for path in files:
        hashes: dict[str, set[str]] = {}
        trees = set()
        for line in path.read_text(encoding="utf-8").splitlines():
            tree, data = line.split(" ", 1)
            trees.add(tree)
            for game, row in json.loads(data).items():
                hashes.setdefault(game, set()).add(row["actions"])
        assert len(trees) == 3 and all(len(h) == 1 for h in hashes.values()), path
    out = subprocess.run([sys.executable, str(bench / "determinize-2026-12-08" / "summary.py")],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    history = (bench / "history.md").read_text(encoding="utf-8")
    assert out.strip() and out.strip() in history
