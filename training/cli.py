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
from importlib import resources
from pathlib import Path

from primeval.envs.games import GAMES, get_game
from primeval.training.argtypes import count

#: The game of a command that names none: the first of the catalogue.
DEFAULT_GAME = next(iter(GAMES))


def _default_config(game: str, backend: str = "sb3", algo: str | None = None) -> str:
    name = "rllib.yaml" if backend == "rllib" else "default.yaml"
    if algo == "expert":
        name = "expert.yaml"
    return str(resources.files("primeval.configs").joinpath(game, name))


def _overrides(args: argparse.Namespace, **flags: object) -> dict[str, object]:
    """``--set KEY=VALUE`` items and the flags that name a field (``--seed``, ...) as dotted
    overrides; a field given both ways is refused."""
    from primeval.training.config import ConfigError, parse_sets

    overrides = parse_sets(args.set or [])
    for key, value in flags.items():
        if value is None:
            continue
        if key in overrides:
            raise ConfigError(f"{key} is given by both --set and --{key.replace('_', '-')}")
        overrides[key] = value
    return overrides


def _help_config(backend: str, algo: str | None = None) -> int:
    """``train --help-config``: every field of the backend's config, with its documentation."""
    from primeval.training.config import describe, shipped_configs

    if algo == "expert":
        from primeval.training.expert.config import ExpertConfig as cls

        backend = "sb3 --algo expert"
    elif backend == "rllib":
        from primeval.training.rllib.config import RLlibTrainConfig as cls
    else:
        from primeval.training.ppo.config import TrainConfig as cls
    print(describe(cls, f"primeval train --backend {backend}: the config's fields (YAML keys; "
                        "--set KEY=VALUE sets one, dotted for a section's field)"))
    print(f"\nshipped configs (--config NAME): {', '.join(shipped_configs())}")
    return 0


def cmd_train_rllib(args: argparse.Namespace) -> int:
    """``train --backend rllib``: RLlib PPO, every seat one shared policy
    (:mod:`primeval.training.rllib.train`)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise ValueError("--backend rllib needs the rllib extra (ray[rllib]): `make rllib`, "
                         "then .venv-rllib/bin/primeval train --backend rllib ...") from None
    from primeval.training.rllib.config import load_rllib_config
    from primeval.training.rllib.train import summary_table, train

    if args.resume or args.total_steps is not None:
        raise ValueError("--backend rllib counts training in --iterations (each "
                         "ppo.train_batch_size env steps) and does not --resume")
    if args.eval_games is not None:
        raise ValueError("--eval-games is for --backend sb3; with rllib: --set "
                         "eval.final_games=N")
    config = load_rllib_config(args.config, **_overrides(
        args, iterations=args.iterations, seed=args.seed,
        num_env_runners=args.num_env_runners, address=args.address))
    run_dir = Path(args.out or f"runs/{config.game}_{config.players}p_rllib")
    print(f"training {config.game} ({config.players} players) with RLlib PPO for "
          f"{config.iterations} iterations, {config.num_env_runners} EnvRunners -> {run_dir}",
          flush=True)
    report = train(config, run_dir, progress=not args.quiet)
    print()
    print(summary_table(report))
    print(f"\n(checkpoint {run_dir / 'checkpoint'}; play it with --trust-checkpoint --agents "
          f"rllib:{run_dir})")
    return 0


def _train_algo(args: argparse.Namespace) -> str:
    """The learner a ``train`` command asks for: ``--algo``, else the ``algo`` of the run
    folder's saved config (``--resume``) or of ``--config``, else ``ppo``."""
    from primeval.training.expert.config import config_algo

    if args.algo:
        return args.algo
    if args.resume:
        saved = Path(args.resume) / "config.yaml"
        return (config_algo(saved) or "ppo") if saved.is_file() else "ppo"
    return (config_algo(args.config) or "ppo") if args.config else "ppo"


def cmd_train_expert(args: argparse.Namespace) -> int:
    """``train`` with ``algo: expert``: expert iteration (:mod:`primeval.training.expert`)."""
    from primeval.training.expert.config import load_expert_config
    from primeval.training.expert.train import resume_expert_config, summary_table, train_expert

    if args.backend == "rllib" or args.total_steps is not None or args.iterations is not None:
        raise ValueError("algo expert counts training in iterations (--set iterations=N) on "
                         "the sb3 backend's CLI; --total-steps, --iterations and --backend "
                         "rllib are not its options")
    overrides = _overrides(args, seed=args.seed, workers=args.workers)
    if args.resume:
        given = args.config if getattr(args, "config_given", bool(args.config)) else None
        config = resume_expert_config(args.resume, given, **overrides)
        run_dir = Path(args.resume)
    else:
        config = load_expert_config(args.config, **overrides)
        run_dir = Path(args.out or f"runs/{config.game}_{config.players}p_expert")
    print(f"expert iteration on {config.game} ({config.players} players): "
          f"{config.iterations} iterations of {config.games_per_iteration} games, "
          f"{config.workers} workers -> {run_dir}", flush=True)
    try:
        final = train_expert(config, run_dir, resume=bool(args.resume),
                             progress=not args.quiet)
    except KeyboardInterrupt:
        print("primeval train: aborted; `--resume` continues after the last finished "
              "iteration", file=sys.stderr)
        return 130
    print()
    print(summary_table(final))
    print(f"\n(also in {run_dir / 'summary.md'}; the network: mcts:net={run_dir}/network.json)")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    algo = _train_algo(args)
    if args.help_config:
        return _help_config(args.backend, algo)
    if algo == "expert":
        return cmd_train_expert(args)
    if algo != "ppo":
        raise ValueError(f"algo {algo!r}: the learners are ppo and expert")
    if args.workers is not None:
        raise ValueError("--workers is for --algo expert (PPO's envs: --set n_envs=N)")
    if args.backend == "rllib":
        return cmd_train_rllib(args)
    if args.iterations is not None or args.num_env_runners is not None or args.address:
        raise ValueError("--iterations, --num-env-runners and --address are for "
                         "--backend rllib")
    from primeval.training.ppo.config import load_config
    from primeval.training.ppo.records import summary_table
    from primeval.training.ppo.train import TrainingInterrupted, resume_config, train

    overrides = _overrides(args, total_steps=args.total_steps, seed=args.seed)

    def load(**more: object):
        if args.resume:
            return resume_config(args.resume, **overrides, **more)
        return load_config(args.config, **overrides, **more)

    if args.eval_games is not None:  # the final tables' games; the periodic ones at most that
        from primeval.training.config import ConfigError

        if "eval.final_games" in overrides:
            raise ConfigError("eval.final_games is given by both --set and --eval-games")
        games = {"eval.final_games": args.eval_games}
        base = load()
        if "eval.games" not in overrides:
            games["eval.games"] = min(base.eval.games, args.eval_games)
        if "select.games" not in overrides:
            games["select.games"] = min(base.select.games, args.eval_games)
        overrides.update(games)
    config = load()
    run_dir = Path(args.resume or args.out or f"runs/{config.game}_{config.players}p")
    print(f"training {config.game} ({config.players} players) for {config.total_steps:,} "
          f"steps -> {run_dir}", flush=True)
    try:
        final = train(config, run_dir, resume=bool(args.resume), progress=not args.quiet,
                      trust_checkpoint=args.trust_checkpoint)
    except TrainingInterrupted as exc:
        print(f"primeval train: {exc}", file=sys.stderr)
        return 130  # the shell's code for Ctrl-C
    except KeyboardInterrupt:
        print("primeval train: aborted; `--resume` continues from the last checkpoint, if any",
              file=sys.stderr)
        return 130
    print()
    print(summary_table(final))
    print(f"\n(also in {run_dir / 'summary.md'}; the learning curve in "
          f"{run_dir / 'learning_curve.png'})")
    return 0


def cmd_select(args: argparse.Namespace) -> int:
    """``primeval select RUN``: :func:`~primeval.training.ppo.train.select_finished_run`."""
    from primeval.training.config import parse_sets
    from primeval.training.ppo.select import summary_line
    from primeval.training.ppo.train import select_finished_run

    selection = select_finished_run(args.run, parse_sets(args.sets), evaluate=args.evaluate,
                                    progress=not args.quiet,
                                    trust_checkpoint=args.trust_checkpoint)
    print(summary_line(selection))
    if args.evaluate:
        print(f"eval.json and summary.md of {args.run} rewritten with the chosen policy")
    return 0


def _agents_env(args: argparse.Namespace, specs: list[str]) -> tuple[int, dict, str | None]:
    """Set ``args.game`` (given, or inferred from the agents' checkpoints, or assumed) and
    return the player count, the env keywords of the checkpoints (encoder, env options)
    and the note saying the game was assumed (``None`` if it was not), which errors add."""
    from primeval.training.agents.checkpoint import infer_env
    from primeval.training.evaluate import zoo_env_spec, zoo_spec

    for spec in specs:  # a zoo member plays its task's game and players unless told
        task = zoo_env_spec(spec)
        if task is not None and args.game is None:
            args.game = task["game"]
            if args.players is None:
                args.players = task["players"]
    env, note = infer_env([zoo_spec(s) for s in specs], args.game, args.players, DEFAULT_GAME)
    args.game = env["game"]
    kwargs = dict(env["env"] or {})
    if env["encoder"] is not None:
        kwargs["obs_encoder"] = env["encoder"]
    return env["players"] or GAMES[args.game].default_players, kwargs, note


def _with_note(exc: ValueError, note: str | None) -> ValueError:
    """``exc`` with the assumed game said (not for a checkpoint refused as untrusted)."""
    from primeval.training.agents.checkpoint import UntrustedCheckpointError

    if note is None or isinstance(exc, UntrustedCheckpointError):
        return exc
    return type(exc)(f"{exc}; {note}")


def cmd_evaluate(args: argparse.Namespace) -> int:
    from primeval.training.evaluate import (
        evaluation_seeds,
        format_table,
        pool_results,
        report,
        tournament,
        write_json,
    )

    players, env_kwargs, note = _agents_env(args, args.agents)
    seeds = evaluation_seeds(args.seed, args.seeds)
    per_seed = []
    for k, seed in enumerate(seeds):
        try:
            results = tournament(args.game, players, args.agents, args.games, seed=seed,
                                 progress=(f"seed {seed}" if len(seeds) > 1 else True)
                                 if not args.quiet else False,
                                 record=args.record, record_append=k > 0,
                                 trust_checkpoint=args.trust_checkpoint,
                                 duplicate=args.duplicate, **env_kwargs)
        except ValueError as exc:
            raise _with_note(exc, note) from None
        per_seed.append(results)
        print(f"{args.game}, {players} players, {args.games} games (seats rotated"
              f"{', duplicate' if args.duplicate else ''}), seed {seed}")
        print(format_table(results))
    if len(seeds) == 1:
        if args.json:
            write_json(args.json, report(args.game, players, per_seed[0], args.seed))
        return 0
    pooled = pool_results(per_seed)
    print(f"\npooled over {len(seeds)} seeds ({', '.join(map(str, seeds))}), "
          f"{len(seeds) * args.games} games")
    print(format_table(pooled))
    if args.json:
        data = report(args.game, players, pooled, args.seed)
        data["seeds"] = seeds
        data["per_seed"] = [report(args.game, players, results, seed)
                            for results, seed in zip(per_seed, seeds, strict=True)]
        write_json(args.json, data)
    return 0


def agent_spec(text: str) -> str:
    """A command-line agent: a spec, or a checkpoint path (``runs/x/model.zip``)."""
    return f"ppo:{text}" if text.endswith(".zip") and not text.startswith("ppo:") else text


def cmd_league(args: argparse.Namespace) -> int:
    """A round robin among agents, with OpenSkill ratings and a leaderboard."""
    import json

    from primeval.training.evaluate import leaderboard, round_robin

    specs = [agent_spec(a) for a in args.agents]
    players, env_kwargs, note = _agents_env(args, specs)
    try:
        results = round_robin(args.game, specs, args.games, seed=args.seed, num_players=players,
                              progress=not args.quiet, trust_checkpoint=args.trust_checkpoint,
                              duplicate=args.duplicate, **env_kwargs)
    except ValueError as exc:
        raise _with_note(exc, note) from None
    table = leaderboard(results)
    print(f"{args.game}, {players} players, {args.games} games among {len(specs)} agents "
          f"(every lineup, seats rotated), seed {args.seed}\n")
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(table + "\n", encoding="utf-8")
    if args.json:
        data = {"game": args.game, "players": players, "games": args.games, "seed": args.seed,
                "leaderboard": sorted((r.summary() for r in results),
                                      key=lambda s: -s["rating"]["ordinal"])}
        Path(args.json).write_text(json.dumps(data, indent=2), encoding="utf-8")
    return 0


def cmd_benchmark(args: argparse.Namespace) -> int:
    """``benchmark``: score an agent on a task, or the zoo's leaderboard, or the balance
    page (:mod:`primeval.training.benchmark`)."""
    from primeval.training.benchmark.cli import benchmark_cli

    return benchmark_cli(args)


def cmd_bench(args: argparse.Namespace) -> int:
    """The env benchmark (``primeval.envs.testing.bench``) and, with ``--ppo``, MaskablePPO's
    (``primeval.training.ppo.bench``) in one report; the env half runs first, so that its
    memory figures are taken before the process holds torch."""
    import json

    from primeval.envs.testing import bench
    from primeval.training.ppo import bench as ppo_bench

    report = bench.measure(args)
    if args.ppo:
        report["ppo"] = ppo_bench.measure(args)
    report["targets"] = {**bench.targets(report), **ppo_bench.targets(report)}
    print(json.dumps(report, indent=2) if args.json else "\n".join(
        bench.report_lines(report) + ppo_bench.report_lines(report)
        + bench.target_lines(report)))
    return 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    """Random games with every invariant checked; exit 1 on the first violation."""
    from primeval.envs.testing.fuzz import InvariantViolation, fuzz

    try:
        report = fuzz(args.game, args.players, args.games, args.seed, args.illegal_rate)
    except InvariantViolation as exc:
        print(f"primeval fuzz: VIOLATION: {exc}", file=sys.stderr)
        return 1
    print(f"{args.game}: {report.summary()}")
    return 0


def cmd_golden(args: argparse.Namespace) -> int:
    """Compare the golden transcripts with games played now, or regenerate them."""
    from primeval.envs.testing.golden import golden_cli

    return golden_cli(args)


def cmd_list(args: argparse.Namespace) -> int:
    """Print the registered env ids with their arguments."""
    from primeval.registration import ENTRIES

    for entry in ENTRIES:
        make = ('pettingzoo.make("aec", ...)' if entry.kind == "aec"
                else "gymnasium.make(...)")
        print(f"{entry.id}  [{make}]\n    {entry.arguments}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from primeval.training.play import play_cli

    args.players, args.env_kwargs, note = _agents_env(args, args.opponents)
    try:
        return play_cli(args)
    except ValueError as exc:
        raise _with_note(exc, note) from None


def cmd_replay(args: argparse.Namespace) -> int:
    from primeval.training.replay import replay_cli

    return replay_cli(args)


def cmd_render(args: argparse.Namespace) -> int:
    """Play ``--steps`` seeded random legal actions from ``reset(seed)``; write the picture."""
    from matplotlib import image

    from primeval.envs.testing.random_play import advance

    env = get_game(args.game).raw_env(args.players, render_mode="rgb_array", max_steps=None)
    env.reset(seed=args.seed)
    advance(env, args.steps, args.seed)  # actions drawn by numpy default_rng(seed)
    played = env.num_steps  # the agents' decisions (a finished game stops them early)
    picture = env.render()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    image.imsave(out, picture, format="png")
    print(f"wrote {out} ({picture.shape[1]}x{picture.shape[0]} px): {args.game}, "
          f"{env.rules.num_players} players, seed {args.seed}, {played} random steps, "
          f"phase {env.rules.phase_name(env.game_state)}")
    return 0


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
            args.config = _default_config(DEFAULT_GAME, args.backend, args.algo)
    try:
        return args.fn(args)
    except (ValueError, FileNotFoundError) as exc:
        print(f"primeval {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
