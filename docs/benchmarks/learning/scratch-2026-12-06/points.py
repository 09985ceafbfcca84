"""Where an Origin agent's points come from: the final points by source (objectives, tiles,
tokens, ...), per agent, over recorded games.

    python docs/benchmarks/learning/scratch-2026-12-06/points.py GAMES.jsonl [...] [--json OUT]

reads the records of ``primeval evaluate --game origin ... --record GAMES.jsonl``, replays each
game from its seed and actions (``training/replay.py``'s ``replay_record``: the same env and
chance, every action checked, the recorded scores checked at the end), and prints per agent
of each file the mean points by source (``envs/origin/rules/scoring.py``'s ``points``) with
the mean total: for the agent
under test (``"agent"``, the file's stem says which) and for its opponents, pooled (by
default the heuristic bots, ``"heuristic"``: in a file of heuristic bots alone, every seat;
``--opponent random`` for games against random players). ``--objectives`` adds, per seat, the
objectives completed, the decisions at which one in hand could be completed (a purple
``play_card`` legal) and how many of those the seat let pass (played something else).
"""

from __future__ import annotations

import argparse
import io
import json
from collections import defaultdict
from pathlib import Path

from primeval.envs.origin.rules.scoring import all_points
from primeval.training.replay import load_records, replay_record


def final_points(record: dict) -> list[dict[str, int]]:
    """Every seat's points by source at the end of the recorded game, replayed by
    ``primeval replay``'s :func:`replay_record` (which refuses a record that ends early, goes
    on after the game, holds an illegal action or ends in other scores)."""
    end: list[list[dict[str, int]]] = []
    replay_record(record, render="none", stdout=io.StringIO(),
                  at_end=lambda rules, state: end.append(all_points(rules, state)))
    return end[0]


def objective_decisions(record: dict) -> list[dict[str, int]]:
    """Per seat: ``objectives_completed`` by the end of the recorded game,
    ``objective_chances`` (its decisions at which an objective in hand could be completed:
    a purple ``play_card`` legal) and ``objective_chances_missed`` (of those, the ones where
    it played something else)."""
    seats = [{"objectives_completed": 0, "objective_chances": 0, "objective_chances_missed": 0}
             for _ in range(record["players"])]

    def on_step(rules, state, seat, action, mask) -> None:
        start = rules.layout.offset("play_card")
        purple = [start + i for i, card in enumerate(rules.data.cards)
                  if card.colour == "purple" and mask[start + i]]
        if purple:
            seats[seat]["objective_chances"] += 1
            seats[seat]["objective_chances_missed"] += action not in purple

    def at_end(rules, state) -> None:
        for seat, done in enumerate(state.objectives_done):
            seats[seat]["objectives_completed"] = len(done)

    replay_record(record, render="none", stdout=io.StringIO(), on_step=on_step, at_end=at_end)
    return seats


def territory_decisions(record: dict) -> list[dict[str, int]]:
    """Per seat: ``hunt_chances`` (its decisions at which it could enter a green territory
    whose hunting token still lies there: ``evolve_at`` or ``migrate_to`` legal on it),
    ``hunt_chances_taken`` (of those, the ones where it did) and ``evolve_<colour>`` (the
    territories it evolved onto, by colour)."""
    seats: list[dict[str, int]] = [defaultdict(int) for _ in range(record["players"])]

    def on_step(rules, state, seat, action, mask) -> None:
        territories = rules.data.world.territories
        chance = taken = False
        for name in ("evolve_at", "migrate_to"):
            start = rules.layout.offset(name)
            hunts = [start + t for t in range(len(territories))
                     if mask[start + t] and state.hunt_value[t] > 0 and state.hunt_owner[t] < 0]
            chance |= bool(hunts)
            taken |= action in hunts
        seats[seat]["hunt_chances"] += chance
        seats[seat]["hunt_chances_taken"] += taken
        start = rules.layout.offset("evolve_at")
        if start <= action < start + len(territories):
            seats[seat][f"evolve_{territories[action - start].colour}"] += 1

    replay_record(record, render="none", stdout=io.StringIO(), on_step=on_step)
    return [dict(seat) for seat in seats]


def by_agent(path: Path, opponent: str = "heuristic", objectives: bool = False,
             territories: bool = False) -> dict[str, dict[str, float]]:
    """Per role (``"agent"``, and ``opponent``: the seats its agent spec played): seats and
    mean points by source (``objectives``: and the means of :func:`objective_decisions`;
    ``territories``: of :func:`territory_decisions`)."""
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for record in load_records(path):
        if record["game"] != "origin":
            raise ValueError(f"{path}: a {record['game']} record, not origin")
        extra: list[dict[str, float]] = [{} for _ in record["agents"]]
        for wanted, count in ((objectives, objective_decisions),
                              (territories, territory_decisions)):
            if wanted:
                for row, more in zip(extra, count(record), strict=True):
                    row.update(more)
        for name, points, more in zip(record["agents"], final_points(record), extra,
                                      strict=True):
            row = sums[opponent if name == opponent else "agent"]
            row["seats"] += 1
            for source, value in points.items():
                row[source] += value
            row["total"] += sum(points.values())
            for key, value in more.items():
                row[key] += value
    return {name: {"seats": row["seats"], **{k: v / row["seats"] for k, v in row.items()
                                              if k != "seats"}}
            for name, row in sums.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, help="write the table here as JSON too")
    parser.add_argument("--opponent", default="heuristic",
                        help="the agent spec whose seats are pooled as the opponents")
    parser.add_argument("--objectives", action="store_true",
                        help="also the objectives completed and the chances let pass")
    parser.add_argument("--territories", action="store_true",
                        help="also the hunting tokens within reach and taken, and the "
                             "territories evolved onto by colour")
    args = parser.parse_args()
    table = {f.stem: by_agent(f, args.opponent, args.objectives, args.territories)
             for f in args.files}
    for f, agents in table.items():
        print(f)
        for name, row in agents.items():
            print(f"  {name:60s} " + " ".join(f"{k}={v:.2f}" for k, v in row.items()))
    if args.json:
        args.json.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
