"""How well a PPO agent's value head predicts its own result against the heuristic bots.

``--checkpoint`` is a PPO zip, or a policy-value network's JSON (expert iteration's, or its
warm start from a PPO agent): the same reading, of the network's policy and its value entry
for the agent's seat. The agent plays its most likely move against heuristic bots (its seat rotated over the
games); at each of its decisions with a choice, the value head's estimate for its seat is
set beside the rank reward it finally got (first +1, last -1, linear between). Printed per
third of the game: the number of decisions, the correlation, R^2 (1 - mean squared error /
the results' variance) and the means; and, for scale, the R^2 of the best straight line
through the agent's current score lead (its score minus the others' mean), a predictor that
knows nothing but the score.

    python docs/benchmarks/learning/search-2026-12-03/value_accuracy.py \
        --game primordial_soup --players 4 --checkpoint training/benchmark/zoo_files/soup-4p-ppo.zip
"""

from __future__ import annotations

import argparse

import numpy as np

from primeval.envs.core.rewards import rank_rewards
from primeval.envs.games import GAMES
from primeval.training.agents.heuristics import heuristic_class
from primeval.training.expert.play import load_evaluator


def records(game: str, players: int, checkpoint: str, games: int, seed: int) -> np.ndarray:
    """Rows of (the decision's place in its game in [0, 1), the value, the final result, the
    score lead then)."""
    evaluator = load_evaluator(checkpoint)
    env = GAMES[game].raw_env(players)
    rules = env.rules
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(games):
        env.reset(seed=seed + g)
        state, me = env.game_state, g % players
        bot = heuristic_class(game)(rules, seed=seed + g)
        values, step = [], 0
        while not rules.is_terminal(state):
            mask = rules.legal_mask(state)
            player, legal = rules.current_player(state), np.flatnonzero(mask)
            if player == me and legal.size > 1:
                priors, value = evaluator.evaluate_states(rules, [state], [me])
                scores = rules.scores(state)
                lead = scores[me] - (sum(scores) - scores[me]) / (players - 1)
                values.append((step, float(value[0, me]), float(lead)))
                action = int(np.argmax(priors[0]))
            elif player == me:
                action = int(legal[0])
            else:
                action = int(bot.act(None, mask, state=state, seat=player))
            state = rules.apply(state, action, rng)
            step += 1
        result = rank_rewards(rules.scores(state))[me]
        rows.extend((s / step, v, result, lead) for s, v, lead in values)
    return np.array(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    rows = records(args.game, args.players, args.checkpoint, args.games, args.seed)
    print(f"{args.game}, {args.players} players, {args.checkpoint}, {args.games} games, "
          f"seed {args.seed}")
    print("| part of the game | decisions | correlation | R^2 | mean value | mean result "
          "| R^2 of the score lead's line |")
    print("|---|---|---|---|---|---|---|")
    for lo, hi, name in ((0, 1 / 3, "first third"), (1 / 3, 2 / 3, "second third"),
                         (2 / 3, 1.01, "last third")):
        part = rows[(rows[:, 0] >= lo) & (rows[:, 0] < hi)]
        value, result = part[:, 1], part[:, 2]
        r2 = 1 - ((value - result) ** 2).mean() / result.var()
        lead_r2 = np.corrcoef(part[:, 3], result)[0, 1] ** 2  # a least-squares line's R^2
        print(f"| {name} | {len(part)} | {np.corrcoef(value, result)[0, 1]:.3f} | {r2:.3f} "
              f"| {value.mean():.3f} | {result.mean():.3f} | {lead_r2:.3f} |")


if __name__ == "__main__":
    main()
