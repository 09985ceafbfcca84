"""When the network-guided search overrides its network's policy, is the override better?

The network's raw policy plays one seat (rotated over the games) against the heuristic bots.
At every ``--every``-th decision of its seat with a choice, ``mcts:sims=S,net=NET`` searches
the same position; where the search's action differs from the policy's most likely one, both
actions are played out ``--rollouts`` times each to the end of the game (the network's raw
policy in its seat, the heuristic bots in the others, fresh dice for every play-out; the pair
of play-outs of one repetition share their generators' seeds), and the seat's mean rank
reward after each action is set side by side. Printed: how often the search overrides, and
over the overrides the mean of (search's action minus the policy's) with its 95% interval,
how often the search's action is better, and the search's own mean value (Q) of both
actions at the root: what it read.

    python docs/benchmarks/learning/search-2026-12-04/overrides.py \
        --net docs/benchmarks/learning/ladder-2026-12-03/agents/soup-4p-distilled.json \
        --sims 100 --games 24 --every 2 --rollouts 32 --seed 7000 [--options temp=3,batch=8]
"""

from __future__ import annotations

import argparse

import numpy as np

from primeval.envs.core.rewards import rank_rewards
from primeval.envs.games import make_raw_env
from primeval.training.agents import make_heuristic, turns
from primeval.training.agents.mcts import MCTSAgent
from primeval.training.expert.network import load_network
from primeval.training.expert.play import NetworkAgent


def play_out(rules, state, mask, action, me, policy, bots, rng) -> float:
    """``action`` from ``state``, then the game to its end; ``me``'s rank reward."""
    state, mask = rules.transition(state, action, rng, mask)
    while not rules.is_terminal(state):
        seat = rules.current_player(state)
        legal = np.flatnonzero(mask)
        if legal.size == 1:
            a = int(legal[0])
        elif seat == me:
            a = policy.act(None, mask, state=state, seat=seat)
        else:
            a = bots[seat].act(None, mask, state=state, seat=seat)
        state, mask = rules.transition(state, a, rng, mask)
    return float(rank_rewards(rules.scores(state))[me])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--net", required=True)
    parser.add_argument("--sims", type=int, default=100)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--rollouts", type=int, default=24)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--options", default="batch=8",
                        help="the search's other items, as mcts: takes them (temp=3,c=1.5...)")
    args = parser.parse_args()

    game, players = "primordial_soup", 4
    network = load_network(args.net)
    policy = NetworkAgent(network)
    searched = overrides = 0
    diffs, net_diffs = [], []
    for g in range(args.games):
        env = make_raw_env(game, players, obs_encoder="flat")
        env.reset(seed=args.seed + g)
        rules = env.rules
        me = g % players
        seeds = np.random.SeedSequence([args.seed, g])
        bots = [make_heuristic(game, int(s.generate_state(1)[0]))
                for s in seeds.spawn(players)]
        search = MCTSAgent(game, f"mcts:sims={args.sims},{args.options}", rules=rules,
                           seed=args.seed + g, evaluator=network)
        rng = np.random.default_rng([args.seed, g, 1])
        mine = 0
        for seat, name in turns(env):
            state = env.game_state
            mask = np.asarray(env.action_mask(name)).astype(bool)
            legal = np.flatnonzero(mask)
            if seat != me or legal.size == 1:
                env.step(int(legal[0]) if legal.size == 1
                         else bots[seat].act(None, mask, state=state, seat=seat))
                continue
            action = policy.act(None, mask, state=state, seat=seat)
            mine += 1
            if mine % args.every == 0:
                searched += 1
                root = search.search(rules, state, seat)
                chosen = MCTSAgent.best_action(root, legal.tolist(), seat)
                if chosen != action:
                    overrides += 1
                    results = {chosen: [], action: []}
                    for _r in range(args.rollouts):
                        seed = int(rng.integers(2**62))
                        for a in (chosen, action):
                            # fresh bots for each repetition, seeded alike for both actions
                            copies = [make_heuristic(game, seed + k) for k in range(players)]
                            results[a].append(play_out(
                                rules, state, mask, a, me, policy, copies,
                                np.random.default_rng(seed)))
                    diffs.append(np.mean(results[chosen]) - np.mean(results[action]))
                    values = []
                    for a in (chosen, action):  # the root's mean value for the seat
                        child = root.actions.get(a)
                        values.append(child.w[me] / child.n if child is not None and child.n
                                      else float("nan"))
                    net_diffs.append(values[0] - values[1])
                    print(f"game {g} decision {mine}: search {chosen} policy {action}: "
                          f"play-outs {np.mean(results[chosen]):+.3f} vs "
                          f"{np.mean(results[action]):+.3f}, search's Q {values[0]:+.3f} vs "
                          f"{values[1]:+.3f}", flush=True)
            env.step(action)
    d = np.asarray(diffs)
    print(f"\n{args.net}, {args.sims} simulations, {args.options}: {searched} positions searched, "
          f"{overrides} overrides ({overrides / max(searched, 1):.3f})")
    if d.size:
        half = 1.96 * d.std(ddof=1) / np.sqrt(d.size) if d.size > 1 else float("nan")
        nd = np.asarray(net_diffs)
        print(f"over the overrides, play-out result of the search's action minus the "
              f"policy's: mean {d.mean():+.4f} [{d.mean() - half:+.4f}, {d.mean() + half:+.4f}];"
              f" the search's better in {np.mean(d > 0):.3f}, worse in {np.mean(d < 0):.3f}")
        print(f"the search's Q at the root, its action's minus the policy's: "
              f"mean {nd.mean():+.4f}; the sign agrees with the play-outs' in "
              f"{np.mean(np.sign(nd) == np.sign(d)):.3f}")


if __name__ == "__main__":
    main()
