"""Expert iteration's data for Origin: the rollout search plays, its choices are the labels.

    python docs/benchmarks/learning/exit-2026-12-05/rollout-exit-origin/label.py \\
        --games 4 --seed 2026130000 --out labels.npz [--net ZIP] [--search n=16,depth=80] \\
        [--confirm 64]

Plays ``--games`` games of the rollout search (``rollouts:net=ZIP,SEARCH``: the apprentice's
``k`` likeliest moves judged by paired heuristic rollouts) against two heuristic bots, seats
rotated (game ``g`` seeded ``seed + g``, the search seeded ``seed``, the bots ``seed + 1000 i``).
At each of the search's decisions with more than one legal move it keeps what the apprentice
reads there (its observation, the heuristic's move appended as the residual agent's hint),
the mask, the candidates, each candidate's mean paired difference over the apprentice's move
and its standard error, and the move played. ``finetune.py`` fits the apprentice to them.

``--confirm N``: where the search leaves the apprentice's move, a second search with ``N``
pairs (seeded ``seed + 7``) judges the same candidates again, and its choice is the move
played and the label (a switch the luck of 16 pairs made is mostly undone; ``repeat.py``).
The file then also holds, per decision, whether it was judged again (``confirmed``) and the
first search's gains and errors (``first_gains``, ``first_errors``); ``gains`` and
``errors`` are those of the search whose choice was played.
The file is a plain ``.npz`` (no pickled objects).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from primeval.envs.core.agents import turns
from primeval.envs.games import make_raw_env
from primeval.training.agents.heuristics import heuristic_class
from primeval.training.agents.prior import prior_hint, with_hint
from primeval.training.agents.rollouts import RolloutSearchAgent

ZIP = "training/benchmark/zoo_files/origin-3p-ppo.zip"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026130000)
    parser.add_argument("--net", default=ZIP)
    parser.add_argument("--search", default="n=16,depth=80")
    parser.add_argument("--confirm", type=int, default=0,
                        help="re-judge each switch with a second search of this many pairs")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    seed, players = args.seed, 3
    search = RolloutSearchAgent("origin", f"rollouts:net={args.net},{args.search}", seed=seed)
    second = None
    if args.confirm:
        second = RolloutSearchAgent("origin", replace(search.config, n=args.confirm),
                                    seed=seed + 7)
    hint_bot = heuristic_class("origin")(seed=seed)
    bots = [heuristic_class("origin")(seed=seed + 1000 * i) for i in (1, 2)]
    env = make_raw_env("origin", players)
    k = search.config.k
    rows: dict[str, list] = {key: [] for key in (
        "observations", "masks", "candidates", "gains", "errors", "actions", "games",
        "confirmed", "first_gains", "first_errors")}
    results = []
    start = time.perf_counter()
    for g in range(args.games):
        env.reset(seed=seed + g)
        mine = g % players
        for seat, name in turns(env):
            state = env.game_state
            mask = np.asarray(env.observe(name)["action_mask"]).astype(bool)
            if seat != mine:
                action = bots[(seat - mine) % players - 1].act(None, mask, state=state,
                                                               seat=seat)
            else:
                action = _decide(search, second, env, name, state, seat, mask, hint_bot, k, g,
                                 rows)
            env.step(int(action))
        scores = np.asarray(env.unwrapped.rules.scores(env.game_state), dtype=float)
        results.append(int(scores[mine] >= scores.max()))
        print(f"game {g}: seat {mine}, scores {scores.tolist()}, decisions "
              f"{len(rows['actions'])}, {time.perf_counter() - start:.0f} s", flush=True)
        if (g + 1) % 10 == 0 or g + 1 == args.games:  # a long run keeps what it has
            save(args.out, rows, results, k, seed)


def save(out: str, rows: dict[str, list], results: list[int], k: int, seed: int) -> None:
    np.savez_compressed(
        out,
        observations=np.asarray(rows["observations"], dtype=np.float32),
        masks=np.asarray(rows["masks"], dtype=bool),
        candidates=np.asarray(rows["candidates"], dtype=np.int64).reshape(-1, k),
        gains=np.asarray(rows["gains"], dtype=np.float64).reshape(-1, k),
        errors=np.asarray(rows["errors"], dtype=np.float64).reshape(-1, k),
        actions=np.asarray(rows["actions"], dtype=np.int64),
        games=np.asarray(rows["games"], dtype=np.int64) + seed,
        top=np.asarray(results, dtype=np.int64),
        confirmed=np.asarray(rows["confirmed"], dtype=bool),
        first_gains=np.asarray(rows["first_gains"], dtype=np.float64).reshape(-1, k),
        first_errors=np.asarray(rows["first_errors"], dtype=np.float64).reshape(-1, k))


def _decide(search, second, env, name, state, seat, mask, hint_bot, k, g, rows) -> int:
    """The search's move at one decision (judged again by ``second``, if any, where it
    switches); a decision with a choice is recorded."""
    legal = np.flatnonzero(mask)
    if legal.size == 1:
        return int(legal[0])
    rules = env.unwrapped.rules
    observation = env.observe(name)["observation"]
    hint = prior_hint(hint_bot, state, seat, mask)
    candidates = search.candidates(rules, state, seat, legal)
    gains = np.zeros(k)
    errors = np.zeros(k)
    choice, confirmed = candidates[0], False
    if len(candidates) > 1:
        values = search.paired_values(rules, state, seat, candidates)
        _judge(values, gains, errors)
        choice = candidates[search.choose(values)]
    rows["first_gains"].append(gains.copy())
    rows["first_errors"].append(errors.copy())
    if second is not None and choice != candidates[0]:
        values = second.paired_values(rules, state, seat, candidates)
        _judge(values, gains, errors)
        choice, confirmed = candidates[second.choose(values)], True
    rows["confirmed"].append(confirmed)
    rows["observations"].append(with_hint(observation, hint))
    rows["masks"].append(mask)
    rows["candidates"].append(candidates + [-1] * (k - len(candidates)))
    rows["gains"].append(gains)
    rows["errors"].append(errors)
    rows["actions"].append(choice)
    rows["games"].append(g)
    return int(choice)


def _judge(values: np.ndarray, gains: np.ndarray, errors: np.ndarray) -> None:
    """Each candidate's mean paired difference over the first and its standard error (the
    search's own, ``RolloutSearchAgent.gains``), into the row's arrays."""
    gains[: values.shape[1]], errors[: values.shape[1]] = RolloutSearchAgent.gains(values)


if __name__ == "__main__":
    main()
