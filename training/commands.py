"""The commands of ``primeval`` (:mod:`primeval.training.cli` parses the arguments and calls
one): each ``cmd_NAME(args)`` runs ``primeval NAME`` and returns its exit status."""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path

from primeval.envs.games import GAMES, get_game

#: The game of a command that names none: the first of the catalogue.
DEFAULT_GAME = next(iter(GAMES))


def default_config(game: str, backend: str = "sb3", algo: str | None = None) -> str:
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


def _closing(table: str, run_dir: Path, also: str) -> int:
    """A finished run's last lines: its final table, where the table is kept and ``also``."""
    print()
    print(table)
    print(f"\n(also in {run_dir / 'summary.md'}; {also})")
    return 0


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
    return _closing(summary_table(final), run_dir,
                    f"the network: mcts:net={run_dir}/network.json")


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
    return _closing(summary_table(final), run_dir,
                    f"the learning curve in {run_dir / 'learning_curve.png'}")


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
