"""primeval: RL environments for Primordial Soup and Origin. Commands: train (MaskablePPO,
RLlib PPO or expert iteration), select (a finished run's model among its last policies),
evaluate (a seat-rotated tournament), league (a round robin
with OpenSkill ratings), play (a game against agents in the terminal), replay (a recorded
game), render (a position as a picture), bench (speed and memory), fuzz (random games checked
at every step), golden (the golden transcripts), list (the games, their encoders and options),
benchmark (an agent's score on a fixed task against the reference zoo; the leaderboard).
``primeval COMMAND --help`` says more."""

from __future__ import annotations

import argparse
import sys

from primeval.envs.games import GAMES
from primeval.training.argtypes import count
from primeval.training.commands import (
    DEFAULT_GAME,
    cmd_bench,
    cmd_benchmark,
    cmd_evaluate,
    cmd_fuzz,
    cmd_golden,
    cmd_league,
    cmd_list,
    cmd_play,
    cmd_render,
    cmd_replay,
    cmd_select,
    cmd_train,
    default_config,
)

#: ``--duplicate``'s help, in evaluate and league.
DUPLICATE_HELP = ("duplicate games: each seed is played in every seat rotation with the same "
                  "deal and dice (chance fixed per event), so luck cancels across seats; "
                  "give a multiple of the players as --games")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="primeval", description=__doc__.replace("``", "'"))
    sub = parser.add_subparsers(dest="command", required=True)

    t = sub.add_parser("train", help="train a MaskablePPO agent")
    t.add_argument("--config", help="YAML config: a path, or a shipped config by name such as "
                   f"origin/default (default: {DEFAULT_GAME}/default; --help-config lists them)")
    t.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="override one config field (repeatable; the value is read as YAML; "
                   "dotted keys for a section's field: --set ppo.learning_rate=1e-4)")
    t.add_argument("--help-config", action="store_true",
                   help="print every config field of --backend with its type, default and "
                   "documentation, and the shipped config names; then exit")
    t.add_argument("--total-steps", type=int,
                   help="learner steps to train (sets total_steps; --set does the same)")
    t.add_argument("--seed", type=int, help="the run's seed: every stream of the run is "
                   "spawned from it (sets seed)")
    t.add_argument("--eval-games", type=count, metavar="N",
                   help="games per table of the final evaluation (sets eval.final_games; "
                   "default 400) and at most N in the evaluations during training "
                   "(eval.games) and in the choice of the shipped policy (select.games): "
                   "a short trial run ends sooner")
    t.add_argument("--out", help="run folder (default runs/GAME_Np)")
    t.add_argument("--resume", help="continue the run in this folder from its checkpoint")
    t.add_argument("--quiet", action="store_true")
    t.add_argument("--backend", choices=["sb3", "rllib"], default="sb3",
                   help="sb3: sb3-contrib MaskablePPO (default); rllib: RLlib PPO, one policy "
                   f"for every seat (the rllib extra; configs/{DEFAULT_GAME}/rllib.yaml)")
    t.add_argument("--iterations", type=int, help="rllib: training iterations")
    t.add_argument("--num-env-runners", type=int, help="rllib: sampling actors")
    t.add_argument("--address", help="rllib: the Ray cluster to join (auto: the one "
                   "`ray start --head` started here)")
    t.add_argument("--trust-checkpoint", action="store_true",
                   help="load ppo:/rllib: checkpoints that need unpickling (only files you "
                   "made or trust: unpickling can run any code; see SECURITY.md)")
    t.add_argument("--algo", choices=["ppo", "expert"],
                   help="the learner (default: the config's algo field, else ppo); expert: "
                   f"expert iteration, configs/{DEFAULT_GAME}/expert.yaml")
    t.add_argument("--workers", type=int,
                   help="expert: self-play worker processes (sets workers)")
    t.set_defaults(fn=cmd_train)

    sl = sub.add_parser("select", help="choose a finished run's model.zip among its final "
                        "policy, newest snapshots and their mean (the config's select)")
    sl.add_argument("run", help="the run folder (config.yaml, checkpoints/, snapshots/)")
    sl.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE",
                    help="override the run's config (select.snapshots=2, select.average=5, "
                    "select.games=400)")
    sl.add_argument("--evaluate", action="store_true",
                    help="then play the final evaluation again with the chosen policy and "
                    "rewrite eval.json and summary.md, as a run trained with select writes")
    sl.add_argument("--quiet", action="store_true")
    sl.add_argument("--trust-checkpoint", action="store_true",
                    help="load snapshots that need unpickling (only runs you made or trust)")
    sl.set_defaults(fn=cmd_select)

    e = sub.add_parser("evaluate", help="seat-rotated tournament between agents")
    e.add_argument("--game", choices=list(GAMES),
                   help="default: the game of the agents' checkpoints, else "
                   f"{DEFAULT_GAME}")
    e.add_argument("--players", type=int,
                   help="seats (default: what the agents were trained on, else the game's default)")
    e.add_argument("--agents", nargs="+", required=True,
                   help="one per seat: random, heuristic, ppo:PATH, rllib:PATH or "
                   "mcts[:KEY=VALUE,...] "
                   "(keys sims, time, rollout, depth, c, eval, prior, net, batch, model, temp, mix; "
                   "e.g. "
                   "mcts:sims=200,depth=0,prior=1 or mcts:sims=100,net=RUN/network.json), "
                   "rollouts:net=PATH[,KEY=VALUE,...] (the network's likeliest moves compared "
                   "by paired heuristic rollouts; keys k, n, depth, z), "
                   "net:PATH (a network's raw policy), zoo:TASK/MEMBER (a shipped zoo agent)")
    e.add_argument("--games", type=count, default=400,
                   help="games to play (at least 1; seats rotate across them)")
    e.add_argument("--seed", type=int, default=0,
                   help="agent i is seeded seed + 1000 i, game g seed + g (default 0)")
    e.add_argument("--seeds", type=count, default=1, metavar="K",
                   help="play the tournament at K independent seeds (seed, then seed plus k million) and "
                   "report each and the pooled win rates and intervals (default 1)")
    e.add_argument("--json", help="also write the numbers to this JSON file")
    e.add_argument("--record", help="also write every game (actions, seed, scores) as one "
                   "JSON line to this file, for `primeval replay`")
    e.add_argument("--quiet", action="store_true")
    e.add_argument("--duplicate", action="store_true", help=DUPLICATE_HELP)
    e.add_argument("--trust-checkpoint", action="store_true",
                   help="load ppo:/rllib: checkpoints that need unpickling (only files you "
                   "made or trust: unpickling can run any code; see SECURITY.md)")
    e.set_defaults(fn=cmd_evaluate)

    lg = sub.add_parser("league", help="round robin among any agents, with OpenSkill ratings")
    lg.add_argument("agents", nargs="+",
                    help="random, heuristic, ppo:PATH, rllib:PATH, mcts[:KEY=VALUE,...], "
                    "rollouts:net=PATH[,...], net:PATH or a .zip path")
    lg.add_argument("--game", choices=list(GAMES),
                   help="default: the game of the agents' checkpoints, else "
                   f"{DEFAULT_GAME}")
    lg.add_argument("--players", type=int,
                   help="seats (default: what the agents were trained on, else the game's default)")
    lg.add_argument("--games", type=count, default=200,
                    help="games in all (at least 1): the lineups of distinct agents in turn, "
                         "seats rotated")
    lg.add_argument("--seed", type=int, default=0,
                   help="agent i is seeded seed + 1000 i, game g seed + g (default 0)")
    lg.add_argument("--json", help="also write the leaderboard to this JSON file")
    lg.add_argument("--markdown", help="also write the leaderboard to this Markdown file")
    lg.add_argument("--quiet", action="store_true")
    lg.add_argument("--duplicate", action="store_true", help=DUPLICATE_HELP)
    lg.add_argument("--trust-checkpoint", action="store_true",
                   help="load ppo:/rllib: checkpoints that need unpickling (only files you "
                   "made or trust: unpickling can run any code; see SECURITY.md)")
    lg.set_defaults(fn=cmd_league)

    bm = sub.add_parser("benchmark", help="score an agent on a benchmark task against the "
                        "reference zoo (docs/benchmark.md)")
    from primeval.training.benchmark.cli import add_arguments as benchmark_arguments

    benchmark_arguments(bm)
    bm.set_defaults(fn=cmd_benchmark)

    b = sub.add_parser("bench", help="throughput and memory, beside PettingZoo's classic games")
    from primeval.envs.testing import bench as bench_module
    from primeval.training.ppo import bench as ppo_bench_module

    bench_module.add_arguments(b)
    ppo_bench_module.add_arguments(b)
    b.set_defaults(fn=cmd_bench)

    fz = sub.add_parser("fuzz", help="random games with every invariant checked")
    fz.add_argument("--game", choices=list(GAMES), default=DEFAULT_GAME)
    fz.add_argument("--players", type=int, help="seats (default: the game's default)")
    fz.add_argument("--games", type=count, default=100, help="games (at least 1)")
    fz.add_argument("--seed", type=int, default=0)
    fz.add_argument("--illegal-rate", type=float, default=0.05)
    fz.set_defaults(fn=cmd_fuzz)

    g = sub.add_parser("golden", help="compare (or --regenerate) the golden transcripts")
    from primeval.envs.testing.golden import add_arguments as golden_arguments

    golden_arguments(g)
    g.set_defaults(fn=cmd_golden)

    li = sub.add_parser("list", help="the registered env ids and their arguments")
    li.set_defaults(fn=cmd_list)

    pic = sub.add_parser("render", help="PNG picture of a board after random legal steps")
    pic.add_argument("--game", choices=list(GAMES), default=DEFAULT_GAME)
    pic.add_argument("--players", type=int, help="default: the game's default")
    pic.add_argument("--seed", type=int, default=0)
    pic.add_argument("--steps", type=int, default=0, help="random legal actions to play first")
    pic.add_argument("--out", default="board.png", help="PNG file to write")
    pic.set_defaults(fn=cmd_render)

    p = sub.add_parser("play", help="play a game in the terminal against agents")
    p.add_argument("--game", choices=list(GAMES),
                   help="default: the game of the agents' checkpoints, else "
                   f"{DEFAULT_GAME}")
    p.add_argument("--players", type=int, help="seats (default: the game's default)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--opponents", nargs="+", default=["heuristic"],
                   help="one spec for all other seats or one per other seat: random, "
                   "heuristic, ppo:PATH, rllib:PATH, mcts[:KEY=VALUE,...] or "
                   "rollouts:net=PATH[,...]")
    p.add_argument("--seed", type=int, help="the game's seed (default: a fresh one, printed)")
    p.add_argument("--record", metavar="FILE",
                   help="write the game as a record that `primeval replay FILE` replays")
    p.add_argument("--hint", metavar="SPEC",
                   help="the agent that `h` asks for a hint: heuristic (default), "
                   "mcts:sims=100, ppo:PATH, ...")
    p.add_argument("--window", action="store_true",
                   help="show the game's picture in a window (pygame-ce) while playing")
    p.add_argument("--trust-checkpoint", action="store_true",
                   help="load ppo:/rllib: checkpoints that need unpickling (only files you "
                   "made or trust: unpickling can run any code; see SECURITY.md)")
    p.set_defaults(fn=cmd_play)

    r = sub.add_parser("replay", help="replay a game recorded by `evaluate --record`")
    r.add_argument("file", help="JSON-lines record file")
    r.add_argument("--game-index", type=int, default=0, help="0-based line (default 0)")
    r.add_argument("--game", choices=list(GAMES),
                   help="refuse a record of another game")
    r.add_argument("--render", choices=["text", "picture", "none"], default="text")
    r.add_argument("--every", type=int, default=1, help="show the board every N steps")
    r.add_argument("--out-dir", help="folder for the PNG frames of --render picture")
    for flag, what in (("--map-file", "map"), ("--cards-file", "cards"),
                       ("--components-file", "components")):
        r.add_argument(flag, help=f"your own {what} YAML file, for a record of a game played "
                       "with one (a record never names the files to read)")
    r.set_defaults(fn=cmd_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "train":
        args.config_given = bool(args.config)
        if not args.config and not args.resume and (not args.help_config or args.algo):
            args.config = default_config(DEFAULT_GAME, args.backend, args.algo)
    try:
        return args.fn(args)
    except (ValueError, FileNotFoundError) as exc:
        print(f"primeval {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
