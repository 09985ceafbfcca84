"""``primeval benchmark``: its arguments and what it runs (see ``docs/benchmark.md``).

* ``primeval benchmark --task soup-4p --agent SPEC``: the score of one agent on one task
  (``--task all``: every task), printed and written to ``--json``;
* ``primeval benchmark --leaderboard``: the zoo's round robin per task, written to
  ``docs/leaderboard.md`` (:mod:`.ratings`);
* ``primeval benchmark --balance``: seat advantage and game length, ``docs/balance.md``
  (:mod:`.balance`);
* ``primeval benchmark --list``: the tasks and the zoo.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from primeval.training.argtypes import count
from primeval.training.benchmark.tasks import TASKS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--task", choices=[*TASKS, "all"], help="the task to score --agent on (all: every task)"
    )
    what.add_argument(
        "--leaderboard",
        action="store_true",
        help="play the zoo's round robin per task and write --out "
        "(default docs/leaderboard.md) with OpenSkill and alpha-Rank",
    )
    what.add_argument(
        "--balance",
        action="store_true",
        help="heuristic games per game and player count: seat advantage and "
        "game length, written to --out (default docs/balance.md)",
    )
    what.add_argument("--list", action="store_true", help="the tasks and the zoo's members")
    parser.add_argument(
        "--agent",
        help="the agent to score: random, heuristic, "
        "mcts[:KEY=VALUE,...], rollouts:net=PATH[,...], ppo:PATH, rllib:PATH, "
        "zoo:TASK/MEMBER, or "
        "cmd:COMMAND (an agent process speaking the JSON-lines protocol)",
    )
    parser.add_argument(
        "--games",
        type=count,
        help="games (default: the task's; another number is not citable); "
        "--leaderboard: games per lineup; --balance: games per player count",
    )
    parser.add_argument("--seed", type=int, help="default: the task's (not citable otherwise)")
    parser.add_argument(
        "--tasks",
        nargs="+",
        choices=list(TASKS),
        help="--leaderboard, --balance: these tasks only (default: all)",
    )
    parser.add_argument(
        "--json",
        help="write the result here (default: benchmark-TASK.json; --leaderboard: beside --out)",
    )
    parser.add_argument("--out", help="--leaderboard/--balance: the Markdown file to write")
    parser.add_argument(
        "--timeout", type=float, help="seconds a cmd: agent may take per answer (default 30)"
    )
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--trust-checkpoint",
        action="store_true",
        help="load ppo:/rllib: checkpoints that need unpickling (only files "
        "you made or trust: unpickling can run any code; see SECURITY.md)",
    )


def benchmark_cli(args: argparse.Namespace) -> int:
    if args.list:
        return _list()
    if args.leaderboard:
        from primeval.training.benchmark.ratings import leaderboard_cli

        return leaderboard_cli(args)
    if args.balance:
        from primeval.training.benchmark.balance import balance_cli

        return balance_cli(args)
    if args.task is None or args.agent is None:
        raise ValueError("give --task NAME and --agent SPEC (or --leaderboard, --balance, --list)")
    from primeval.training.benchmark.run import format_result, run_task

    tasks = list(TASKS) if args.task == "all" else [args.task]
    results = []
    for name in tasks:
        result = run_task(
            name,
            args.agent,
            games=args.games,
            seed=args.seed,
            progress=not args.quiet,
            trust_checkpoint=args.trust_checkpoint,
            timeout=args.timeout,
        )
        print(format_result(result), flush=True)
        results.append(result)
    out = Path(args.json or f"benchmark-{args.task}.json")
    out.write_text(
        json.dumps(results[0] if len(results) == 1 else results, indent=2) + "\n", encoding="utf-8"
    )
    print(f"(wrote {out})")
    return 0


def _list() -> int:
    from primeval.training.benchmark.zoo import members

    for task in TASKS.values():
        print(
            f"{task.id}: {task.game} v{task.game_version}, {task.players} players, "
            f"{task.games} games{' (duplicate)' if task.duplicate else ''}, seed "
            f"{task.seed}, opponents {', '.join(task.opponents)}"
        )
        for member in members(task.name):
            rating = member.info.get("rating", {})
            extra = f"  win rate {rating['win_rate']:.3f}" if "win_rate" in rating else ""
            print(f"    {member.id}  ({member.spec or member.file}){extra}")
    return 0
