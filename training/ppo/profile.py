"""Where one learner step of a default training config goes (issue 23, item 1).

Usage::

    python -m primeval.training.ppo.profile --game origin [--bots fast|reference|both]
        [--rollouts 1] [--config origin/default]

builds the run ``primeval train`` builds from ``configs/GAME/default.yaml`` (or ``--config``:
a path or a shipped config's name, as ``primeval train`` takes it, the game its own; its
envs, vector env, opponents, prior and MaskablePPO model; no evaluation, checkpoints or
files), runs
one rollout and update to warm up, then ``model.learn`` for ``--rollouts`` more (each followed
by its PPO update) while sampling the main thread's stack every millisecond of CPU time
(``ITIMER_PROF``; the kernel's tick may make it every 4 ms). Each sample is put in one part,
by the first rule that matches:

* **PPO update**: inside sb3-contrib's ``MaskablePPO.train``;
* **opponents' decisions**: inside an opponent's ``act`` / ``act_batch`` (heuristic, policy
  or random: each its own line; a policy opponent's own prior hints count as its decision);
* **prior's hint**: inside ``prior_hint`` (the heuristic answering the learner's decision);
* **reward shaping**: inside ``SingleAgentEnv._score_lead``;
* **policy forward**: the learner's policy during the rollout (``collect_rollouts``);
* **encoder / rules / adapter**: by the innermost frame of the package's own code: the
  observation encoders, the rules (``envs/GAME/rules``, the state, chance), or the rest of the
  env and its wrappers (PettingZoo adapter, single-agent and vector envs);
* **SB3, torch and the rest**: everything else (SB3's rollout buffer, numpy glue, ...).

It prints the table (share of samples, and microseconds per learner step) and a text flame
graph: the sampled call tree from ``learn`` down, one line per node above 1.5% of the
samples, with its share (a statistical cumulative profile, as cProfile's cumulative column,
without cProfile's cost per call, which would inflate the small Python calls of the bots).
``--bots reference`` swaps the plain reference heuristics in for the fast default ones
(``both``: one run each, fast first).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Any

__all__ = ["PARTS", "classify", "main", "profile_run"]

#: The parts of a learner step, in the order of the table.
PARTS = (
    "rules",
    "adapter (env, wrappers)",
    "encoder",
    "opponents' decisions: heuristic",
    "opponents' decisions: policy",
    "opponents' decisions: random",
    "prior's hint",
    "reward shaping",
    "policy forward (rollout)",
    "PPO update",
    "SB3, torch and the rest",
)

_SEP = os.sep
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _own(filename: str) -> str | None:
    """The path of a file of this package relative to its root (``envs/origin/rules/x.py``),
    or None for other code."""
    if not filename.startswith(_ROOT + _SEP):
        return None
    rel = filename[len(_ROOT) + 1 :].replace(_SEP, "/")
    return rel if rel.startswith(("envs/", "training/", "wrappers/")) else None


def classify(stack: list[tuple[str, str]]) -> str:
    """The part of one sampled stack: ``(filename, function)`` pairs, outermost first."""
    own = [(_own(f), name) for f, name in stack]
    for f, name in stack:
        if name == "train" and "ppo_mask" in f:
            return "PPO update"
    for rel, name in own:  # outermost first: whoever asked first
        if rel == "training/agents/prior.py" and name == "prior_hint":
            return "prior's hint"
        if rel is None or name not in ("act", "act_batch"):
            continue
        if rel.startswith("training/agents/heuristics/"):
            return "opponents' decisions: heuristic"
        if rel == "training/agents/policy.py":
            return "opponents' decisions: policy"
        if rel.startswith("training/agents/") or rel == "envs/core/agents.py":
            return "opponents' decisions: random"
    for rel, name in own:
        if rel == "wrappers/single_agent.py" and name == "_score_lead":
            return "reward shaping"
    in_rollout = any(name == "collect_rollouts" for _f, name in stack)
    inner = next(((rel, name) for rel, name in reversed(own) if rel is not None), None)
    if inner is None or not inner[0].startswith(
        ("envs/", "wrappers/", "training/ppo/vec_env", "training/ppo/prior")
    ):
        if in_rollout and any(name == "forward" or "policy" in f for f, name in stack[-12:]):
            return "policy forward (rollout)"
        return "SB3, torch and the rest"
    rel = inner[0]
    parts = rel.split("/")
    if len(parts) > 2 and parts[0] == "envs" and parts[2].startswith("encoders"):
        return "encoder"
    if (len(parts) > 2 and parts[0] == "envs" and (parts[2] in ("rules", "state.py"))) or (
        rel == "envs/core/chance.py"
    ):
        return "rules"
    return "adapter (env, wrappers)"


class _Sampler:
    """Samples the main thread's stack every ``interval`` seconds of the process's CPU time
    (``ITIMER_PROF``; the handler runs between two bytecodes, so every Python frame can be
    caught, unlike a sampling thread, which only gets the GIL where numpy releases it)."""

    def __init__(self, interval: float = 0.001) -> None:
        self.interval = interval
        self.stacks: Counter = Counter()

    def _sample(self, _signum, frame) -> None:
        codes = []
        while frame is not None:
            codes.append(frame.f_code)
            frame = frame.f_back
        self.stacks[tuple(reversed(codes))] += 1

    def __enter__(self) -> _Sampler:
        self._previous = signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)
        return self

    def __exit__(self, *exc: Any) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, self._previous)


def run_config(game: str, config_path: str | None = None):
    """``game``'s default training config, or the one at ``config_path`` (a path or a shipped
    config's name), its games stepped by this one process (``workers: 1``, ``collect:
    step``): the profile samples this process, and a config's parts (Primordial Soup's
    default plays half its games in a worker) each do a share of the same work.

    Raises:
        ValueError: The config does not load (``ConfigError``, naming the file or field), or
            it is for the other game.
    """
    from primeval.training.ppo.config import load_config

    one_process = {"workers": 1, "collect": "step"}
    if config_path is None:
        return load_config(resources.files("primeval.configs").joinpath(game, "default.yaml"),
                           **one_process)
    config = load_config(config_path, **one_process)
    if config.game != game:
        raise ValueError(f"--config {config_path} is a config for {config.game}, not {game}")
    return config


def build_run(game: str, run_dir: str, at_step: int | None = None, config_path: str | None = None):
    """The vector env and MaskablePPO model of ``game``'s default config (or of the config at
    ``config_path``, which must be for ``game``), as ``primeval train`` builds them
    (training/ppo/train.py), without its callbacks, evaluations and files."""
    import torch
    from stable_baselines3.common.vec_env import VecMonitor

    from primeval.training.ppo.league import League
    from primeval.training.ppo.train import make_vec_env

    config = run_config(game, config_path)
    torch.set_num_threads(config.torch_threads)
    league = League(config, run_dir)
    # The opponents in force at ``at_step`` (default: from the schedule's last phase on, the
    # bulk of the run), as the training callback would have set them.
    schedule = config.league.schedule
    league.step = at_step if at_step is not None else (schedule[-1].from_step if schedule else 0)
    vec = VecMonitor(make_vec_env(config, league))
    from primeval.training.ppo.model import new_model

    model = new_model(config, vec)
    from primeval.training.agents.policy import PolicyAgent

    league.set_current(PolicyAgent.from_model(model, deterministic=False, seed=config.seed))
    return config, vec, model, league.step


#: The plain reference heuristic of each game, which ``--bots reference`` plays instead of
#: the fast default its descriptor names.
REFERENCE_BOTS = {
    "origin": "primeval.training.agents.heuristics.origin:ReferenceOriginHeuristic",
    "primordial_soup": (
        "primeval.training.agents.heuristics.primordial_soup:ReferencePrimordialSoupHeuristic"
    ),
}


@contextmanager
def _bots(kind: str) -> Iterator[None]:
    """Within the block, every heuristic opponent and prior (built from the game's
    descriptor) is the fast default class (``kind == "fast"``) or the plain reference."""
    from primeval.envs.games import GAMES

    saved = dict(GAMES)
    if kind != "fast":
        for game, path in REFERENCE_BOTS.items():
            GAMES[game] = dataclasses.replace(GAMES[game], heuristic=path)
    try:
        yield
    finally:
        GAMES.update(saved)


def profile_run(
    game: str,
    bots: str = "fast",
    rollouts: int = 1,
    at_step: int | None = None,
    config_path: str | None = None,
) -> dict[str, Any]:
    """Sample ``rollouts`` rollouts (and updates) of the default config of ``game`` (or the
    one at ``config_path``), with the opponents its schedule draws at ``at_step``."""
    from primeval.training.ppo.torch_runtime import distribution_checks_off, phase_threads_callback

    with _bots(bots), tempfile.TemporaryDirectory(prefix="primeval-profile-") as run_dir:
        config, vec, model, step = build_run(game, run_dir, at_step, config_path)
        rollout = config.n_envs * config.ppo.n_steps
        with distribution_checks_off():
            # One rollout and update unsampled: imports, torch's first calls, caches.
            model.learn(
                total_timesteps=rollout, callback=phase_threads_callback(config.torch_threads)
            )
            warm = int(model.num_timesteps)
            with _Sampler() as sampler:
                start, cpu = time.perf_counter(), time.process_time()
                model.learn(
                    total_timesteps=rollouts * rollout,
                    reset_num_timesteps=False,
                    callback=phase_threads_callback(config.torch_threads),
                )
                seconds = time.perf_counter() - start
                cpu = time.process_time() - cpu
        vec.close()
    parts: Counter = Counter()
    for codes, count in sampler.stacks.items():
        parts[classify([(c.co_filename, c.co_name) for c in codes])] += count
    return {
        "game": game,
        "bots": bots,
        "steps": int(model.num_timesteps) - warm,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "parts": parts,
        "stacks": sampler.stacks,
        "players": config.players,
        "n_envs": config.n_envs,
        "prior": config.prior.agent,
        "config": config_path or f"{game}/default",
        "at_step": step,
        "opponents": config.opponent_weights(step),
    }


def _label(code) -> str:
    rel = _own(code.co_filename)
    if rel is None:
        parts = code.co_filename.split(_SEP)
        where = "/".join(parts[-2:])
        if "site-packages" in parts:
            i = parts.index("site-packages")
            where = "/".join(parts[i + 1 :])
    else:
        where = rel
    return f"{where}:{code.co_name}"


def flame(
    stacks: Counter, threshold: float = 0.015, root: str = "learn", max_depth: int = 40
) -> list[str]:
    """A text flame graph: the sampled call tree below the first ``root`` frame, one line per
    node above ``threshold`` of the samples (share, then the frame), chains of single
    children above the threshold folded onto one line with ``>``."""
    total = sum(stacks.values())
    tree: dict = {}
    for codes, count in stacks.items():
        labels = [_label(c) for c in codes]
        start = next((i for i, c in enumerate(codes) if c.co_name == root), None)
        if start is None:
            continue
        node = tree
        for label in labels[start : start + max_depth]:
            entry = node.setdefault(label, [0, {}])
            entry[0] += count
            node = entry[1]
    lines: list[str] = []

    def walk(node: dict, depth: int) -> None:
        for label, (count, children) in sorted(node.items(), key=lambda kv: -kv[1][0]):
            if count < threshold * total:
                continue
            chain = [label]
            while True:
                big = [(k, v) for k, v in children.items() if v[0] >= threshold * total]
                if len(big) == 1 and big[0][1][0] == count:
                    chain.append(big[0][0])
                    children = big[0][1][1]
                else:
                    break
            lines.append(f"{100 * count / total:5.1f}%  {'  ' * depth}{' > '.join(chain)}")
            walk(children, depth + 1)

    walk(tree, 0)
    return lines


def report(result: dict[str, Any]) -> str:
    parts, steps = result["parts"], result["steps"]
    total = sum(parts.values())
    us_per_step = result["cpu_seconds"] / steps * 1e6
    lines = [
        f"### {result['game']}, {result['players']} players, {result['bots']} bots "
        f"(config {result['config']}; prior: {result['prior']}, {result['n_envs']} envs)",
        "",
        f"Opponents as drawn from step {result['at_step']} on: "
        + ", ".join(f"{k} {v:g}" for k, v in result["opponents"].items())
        + ".",
        "",
        f"{steps} learner steps in {result['seconds']:.1f} s ({result['cpu_seconds']:.1f} s of "
        f"CPU): {steps / result['seconds']:.0f} env steps/s while sampled ({total} samples).",
        "",
        "| part | share | CPU µs per learner step |",
        "|---|---|---|",
    ]
    for part in PARTS:
        share = parts.get(part, 0) / total if total else 0.0
        lines.append(f"| {part} | {100 * share:.1f}% | {share * us_per_step:.0f} |")
    lines.append(f"| **all** | 100% | {us_per_step:.0f} |")
    lines += ["", "Flame graph (sampled call tree from `learn`, nodes above 1.5%):", "", "```"]
    lines += flame(result["stacks"])
    lines += ["```", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m primeval.training.ppo.profile", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--game", required=True, choices=["origin", "primordial_soup"])
    parser.add_argument(
        "--bots",
        default="fast",
        choices=["fast", "reference", "both"],
        help="the heuristic bots (opponents and prior): the fast default, "
        "the plain reference, or one run each",
    )
    parser.add_argument(
        "--at-step",
        type=int,
        default=None,
        help="draw opponents as the schedule does at this step (default: "
        "where its last phase starts)",
    )
    parser.add_argument(
        "--rollouts",
        type=int,
        default=1,
        help="rollouts (n_envs x n_steps learner steps each, then an update)",
    )
    parser.add_argument(
        "--config",
        default=None,
        help="profile this training config (a path or a shipped config's name, such as "
        "origin/default) instead of the game's default",
    )
    args = parser.parse_args(argv)
    if args.rollouts < 1:
        parser.error("--rollouts must be at least 1")
    if args.at_step is not None and args.at_step < 0:
        parser.error("--at-step must be >= 0")
    if args.config is not None:  # refused before anything is built or printed
        try:
            run_config(args.game, args.config)
        except ValueError as exc:
            parser.error(str(exc))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, load {load:.1f}"
    )
    print(
        f"# python -m primeval.training.ppo.profile --game {args.game} --bots {args.bots} "
        f"--rollouts {args.rollouts}"
        + (f" --at-step {args.at_step}" if args.at_step is not None else "")
        + (f" --config {args.config}" if args.config is not None else "")
        + "\n"
    )
    for bots in ["fast", "reference"] if args.bots == "both" else [args.bots]:
        result = profile_run(args.game, bots, args.rollouts, args.at_step, args.config)
        print(report(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
