"""Does a cut rollout's score margin judge a move as its game's end does?

    python docs/benchmarks/learning/search-2026-12-05/rollout-search-origin/horizon.py \\
        [--positions 40] [--pairs 16] [--depths 20,40,80] [--seed 2026120501] [--out FILE]

At positions of the heuristics bench's games (as pairing.py takes them), the shipped
residual Origin agent's three likeliest moves are played out in pairs as the rollout search
plays them (one deal and one seed per pair for every candidate; the heuristic bot in every
seat), but each rollout goes on to the end of the game: its score margin after each of
``--depths`` actions (20 is the search's default), its score margin at the end, and its rank
reward (+1 first, -1 last) at the end, the truth the others stand in for. For every
alternative move and pair, the paired difference over the network's move by each judge.
Prints, per judge, how its differences agree with the final rank's: their correlation over
all pairs; per position and alternative, the means over its pairs (as the search compares
them), their correlation, and how often they agree in sign where both are non-zero.
"""

from __future__ import annotations

import argparse

import numpy as np
from common import report, search_positions

from primeval.envs.core.rewards import rank_rewards
from primeval.training.agents.mcts import score_margin, static_scores
from primeval.training.agents.rollouts import RolloutSearchAgent

ZIP = "training/benchmark/zoo_files/origin-3p-ppo.zip"


def judged(agent, rules, deal, mask, action, seed, me, depths):
    """One paired rollout played to the end: ``me``'s score margin after each of ``depths``
    actions (a game over by then: its rank reward, as the search takes it), the score margin
    at the end, and the rank reward at the end."""
    rng = np.random.default_rng(seed)
    bot = agent.bot_for(rules)
    bot.seed(seed + 1)
    state, mask = rules.transition(deal, action, rng, mask)
    steps, margins = 0, {}
    while not rules.is_terminal(state):
        if steps in depths:
            margins[steps] = score_margin(static_scores("origin", rules, state))[me]
        choice = bot.act(None, mask, state=state, seat=rules.current_player(state))
        state, mask = rules.transition(state, choice, rng, mask)
        steps += 1
    final = rank_rewards(rules.scores(state))[me]
    return [margins.get(d, final) for d in depths] + [score_margin(rules.scores(state))[me],
                                                      final]


def agreement(short: list, end: list, means: list) -> dict:
    """How one judge's paired differences agree with the final rank's."""
    pairs = np.array(means)
    both = (np.abs(pairs) > 1e-9).all(axis=1)
    same = np.sign(pairs[both, 0]) == np.sign(pairs[both, 1])
    return {"correlation": round(float(np.corrcoef(short, end)[0, 1]), 3),
            "correlation_of_means": round(float(np.corrcoef(pairs.T)[0, 1]), 3),
            "sign_agree": int(same.sum()), "sign_disagree": int((~same).sum())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--pairs", type=int, default=16)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--depths", default="20,40,80")
    parser.add_argument("--seed", type=int, default=2026120501)
    parser.add_argument("--out")
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    names = [str(d) for d in depths] + ["end_margin"]
    agent = RolloutSearchAgent("origin", f"rollouts:net={ZIP}", seed=args.seed)
    diffs = {name: ([], [], []) for name in names}  # per judge: its diffs, the end's, means
    kept = 0
    for rules, state, seat, _legal, candidates in search_positions(agent, args.positions,
                                                                   args.every, args.seed):
        values = np.empty((args.pairs, len(candidates), len(names) + 1))
        for j in range(args.pairs):
            deal = rules.sample_determinization(state, seat, agent.rng)
            deal_mask = rules.legal_mask(deal)
            seed = int(agent.rng.integers(2**63))
            for c, action in enumerate(candidates):
                values[j, c] = judged(agent, rules, deal, deal_mask, action, seed, seat,
                                      depths)
        for alt in range(1, len(candidates)):
            d_end = values[:, alt, -1] - values[:, 0, -1]
            for k, name in enumerate(names):
                d = values[:, alt, k] - values[:, 0, k]
                short, end, means = diffs[name]
                short.extend(d.tolist())
                end.extend(d_end.tolist())
                means.append((d.mean(), d_end.mean()))
        kept += 1
    result = {"positions": kept, "pairs": args.pairs, "seed": args.seed,
              "judges": {name: agreement(*diffs[name]) for name in names}}
    report(result, args.out)


if __name__ == "__main__":
    main()
