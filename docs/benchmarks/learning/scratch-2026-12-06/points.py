"""Where an Origin agent's points come from: the final points by source (objectives, tiles,
tokens, ...), per agent, over recorded games.

    python docs/benchmarks/learning/scratch-2026-12-06/points.py GAMES.jsonl [...] [--json OUT]

reads the records of ``primeval evaluate --game origin ... --record GAMES.jsonl``, replays each
game from its seed and actions (``training/replay.py``: the same env, every action checked,
the recorded scores checked at the end), and prints per agent of each file the mean points by
source (``envs/origin/rules/scoring.py``'s ``points``) with the mean total: for the agent
under test (``"agent"``, the file's stem says which) and for the heuristic bots, pooled
(``"heuristic"``; in a file of heuristic bots alone, every seat).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from primeval.envs.origin.rules.scoring import all_points
from primeval.training.replay import build_env, load_records


def final_points(record: dict) -> list[dict[str, int]]:
    """Every seat's points by source at the end of the recorded game (replayed; games of
    plain chance, as ``evaluate`` without ``--duplicate`` records them)."""
    if record.get("chance") == "duplicate":
        raise ValueError("a duplicate game's record: points.py replays plain games only")
    env = build_env(record)
    env.reset(seed=record["seed"])
    actions = iter(record["actions"])
    for _name in env.agent_iter():
        _obs, _r, termination, truncation, _i = env.last()
        if termination or truncation:
            env.step(None)
            continue
        action = next(actions, None)
        if action is None:
            raise ValueError(f"the record of seed {record['seed']} ends before the game does")
        env.step(action)
    if next(actions, None) is not None:
        raise ValueError(f"the record of seed {record['seed']} goes on after the game")
    points = all_points(env.rules, env.game_state)
    scores = env.rules.scores(env.game_state)
    if [round(s, 6) for s in scores] != [round(s, 6) for s in record["scores"]]:
        raise ValueError(f"replayed scores {scores} differ from the record's {record['scores']}")
    return points


def by_agent(path: Path) -> dict[str, dict[str, float]]:
    """Per role (``"agent"``, ``"heuristic"``): seats and mean points by source."""
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for record in load_records(path):
        if record["game"] != "origin":
            raise ValueError(f"{path}: a {record['game']} record, not origin")
        for name, points in zip(record["agents"], final_points(record), strict=True):
            row = sums["heuristic" if name == "heuristic" else "agent"]
            row["seats"] += 1
            for source, value in points.items():
                row[source] += value
            row["total"] += sum(points.values())
    return {name: {"seats": row["seats"], **{k: v / row["seats"] for k, v in row.items()
                                              if k != "seats"}}
            for name, row in sums.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, help="write the table here as JSON too")
    args = parser.parse_args()
    table = {f.stem: by_agent(f) for f in args.files}
    for f, agents in table.items():
        print(f)
        for name, row in agents.items():
            print(f"  {name:60s} " + " ".join(f"{k}={v:.2f}" for k, v in row.items()))
    if args.json:
        args.json.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
