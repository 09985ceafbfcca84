"""What the learning-results tests share: where the saved runs are, and how a figure is
quoted."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from primeval.training.ppo.config import load_config

ROOT = Path(__file__).resolve().parents[2]


RUNS = sorted((ROOT / "docs" / "benchmarks" / "learning").glob("*/eval.json"))


HELD_OUT = sorted((ROOT / "docs" / "benchmarks" / "learning").glob("heldout-*/*/heldout.json"))


def load_script(path: Path):
    """A committed benchmark script (``docs/benchmarks/...*.py``) imported as a module, so a
    test can call what it computes."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def figure(result: dict, key: str) -> str:
    """A win rate and its interval as the run's summary table prints them."""
    return (f"{result[f'win_rate_{key}']:.3f} [{result[f'win_rate_{key}_lo']:.3f}, "
            f"{result[f'win_rate_{key}_hi']:.3f}]")


#: How long a run trains and how often it looks: what an earlier default of a game had
#: otherwise (Primordial Soup's trained 1M steps, evaluating every 250k, until 2026-12-05).
LENGTH = {"total_steps", "eval"}


def same_config(folder: Path, run: dict, *, length: bool = True) -> None:
    """The folder's run is of the shipped default config (at the run's seed), and with
    ``length=False`` maybe shorter (an earlier default's run). ``vec_env`` and ``workers``
    choose how the games are stepped, not which: batched (the older runs') and vector
    (today's default) train the same weights, as do one and two workers
    (tests/training/ppo/test_games_vec_env.py). ``select`` chooses among the run's
    policies after training, so a run without ``selection.json`` (trained before it) is the
    shipped config's training; its ``model.zip`` is its final policy, what
    ``select.snapshots: 0`` ships."""
    saved = load_config(folder / "config.yaml").to_dict()
    shipped = load_config(ROOT / "configs" / run["game"] / "default.yaml",
                          seed=run["seed"]).to_dict()
    ignored = {"vec_env", "workers"} | (set() if length else LENGTH)
    if (folder / "selection.json").is_file():
        selection = json.loads((folder / "selection.json").read_text())
        assert run["selection"] == selection
        assert saved["select"] == shipped["select"]
        assert len(selection["candidates"]) == shipped["select"]["snapshots"] + 1
    else:
        ignored.add("select")
    assert ({k: v for k, v in saved.items() if k not in ignored}
            == {k: v for k, v in shipped.items() if k not in ignored})


def quote_rate(result: dict) -> str:
    lo, hi = result["win_rate_ci95"]
    return f"{result['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]"


def pool_rates(agents: list[dict]) -> tuple[int, str]:
    """Several runs' results of one agent pooled: their games, and the win rate with the
    Wilson interval of the summed games, as the docs quote it."""
    from primeval.training.evaluate import AgentResult

    both = AgentResult.pooled(agents)
    lo, hi = both.win_interval()
    return both.games, f"{both.win_rate:.3f} [{lo:.3f}, {hi:.3f}]"


def newest_held_out() -> dict[tuple[str, int], Path]:
    """Per game and training seed, the heldout.json of the newest folder."""
    newest: dict[tuple[str, int], Path] = {}
    for path in HELD_OUT:  # sorted: a later date (or a suffix) sorts later
        run = json.loads((path.parent / "eval.json").read_text())
        newest[(run["game"], run["seed"])] = path
    return newest


LONGER = ROOT / "docs" / "benchmarks" / "learning" / "longer-2026-12-04"


def plays_a_legal_move(zip_path: Path) -> None:
    """A shipped float16 Primordial Soup agent loads without unpickling and plays a legal
    move."""
    import numpy as np

    from primeval.envs.games import make_raw_env
    from primeval.training.agents import make_agent

    player = make_agent(f"ppo:{zip_path}", "primordial_soup", seed=0)
    env = make_raw_env("primordial_soup", 4, obs_encoder="flat")
    env.reset(seed=1)
    observation = env.observe(env.agent_selection)
    action = player.act(observation["observation"], observation["action_mask"])
    assert np.asarray(observation["action_mask"])[action]


ROLLOUTS = ROOT / "docs" / "benchmarks" / "learning" / "search-2026-12-04" / "rollouts-origin"


def rollout_rows(folder: Path = ROLLOUTS) -> dict[str, str]:
    """run.sh's rows: file stem -> the agent spec it plays (its shell variables expanded)."""
    import re

    script = (folder / "run.sh").read_text(encoding="utf-8")
    zip_path = re.search(r"^ZIP=(\S+)$", script, flags=re.M).group(1)
    net = re.search(r'^NET="(.+)"$', script, flags=re.M)
    net = net.group(1).replace("$ZIP", zip_path) if net else None
    rows, seeds = {}, ["2026120440", "2027120440"]
    for line in script.splitlines():
        loop = re.match(r"^\s+for seed in (?:\$\{SEEDS:-)?([\d ]+)\}?; do", line)
        if loop:  # a stage's loop over seeds (SEEDS may name some of them)
            seeds = loop.group(1).split()
        found = re.match(r'^\s+row (\S+) "?([^"\s]+)"?', line)
        if not found:
            continue
        name, spec = found.groups()
        spec = spec.replace("$NET", str(net)).replace("$ZIP", zip_path)
        for seed in seeds if "$seed" in name else [None]:
            rows[name.replace("$seed", seed) if seed else name] = spec
    return rows


PAIRED = ROOT / "docs" / "benchmarks" / "learning" / "search-2026-12-05" / "rollout-search-origin"


DIAGNOSES = ("pairing", "horizon", "switches")


PAIRED_ROWS = sorted(p for p in PAIRED.glob("*.json") if p.stem not in DIAGNOSES)


EXIT = ROOT / "docs" / "benchmarks" / "learning" / "exit-2026-12-05" / "rollout-exit-origin"


EXIT_ROWS = sorted(p for p in EXIT.glob("*.json")
                   if not p.stem.startswith(("repeat", "finetune-", "labels-")))


APPRENTICE = EXIT / "agents" / "origin-3p-exit-rollouts-lr1e-3.zip"


def exit_rows() -> dict[str, str]:
    """The expert-iteration run.sh's rows: file stem -> agent spec (variables expanded)."""
    import re

    script = (EXIT / "run.sh").read_text(encoding="utf-8")
    variables = dict(re.findall(r"^(HERE|ZIP)=(\S+)$", script, flags=re.M))
    rows = {}
    for name, spec in re.findall(r'^\s+row (\S+) "([^"]+)"', script, flags=re.M):
        for key, value in variables.items():
            spec = spec.replace(f"${key}", value)
        if "$seed" in name:  # a row of a loop over seeds
            loop = script[:script.index(f"row {name} ")].rsplit("for seed in ", 1)[1]
            for seed in loop.split(";")[0].split():
                rows[name.replace("$seed", seed)] = spec
        else:
            rows[name] = spec
    return rows


SCRATCH = ROOT / "docs" / "benchmarks" / "learning" / "scratch-2026-12-05" / "origin-mlp-3m"


HELD_2M = ROOT / "docs" / "benchmarks" / "learning" / "heldout-2026-12-05-2m"


SCRATCH_LONG = ROOT / "docs" / "benchmarks" / "learning" / "scratch-2026-12-06"


ABLATIONS = [  # ablate.sh's runs: the name, the override, docs/learning.md's row label
    ("entropy", {"ppo": {"ent_coef": 0.001}}, "entropy bonus 0.001"),
    ("win", {"env": {"reward_mode": "win"}}, "reward: win or lose"),
    ("tiles", {"shaping_sources": {"tiles": 2}}, "tiles weigh twice"),
    ("own", {"shaping_others": 0.0}, "shaping on own score"),
    ("prospects", {"shaping_prospects": 0.5}, "objectives in prospect"),
    ("hunting", {"shaping_sources": {"hunting_tokens": 3}}, "hunting tokens weigh three times"),
]


def with_override(config: dict, override: dict) -> dict:
    out = dict(config)
    for key, value in override.items():
        out[key] = {**config[key], **value} if isinstance(value, dict) and config[key] else value
    return out


LATER_ABLATIONS = [  # ablate.sh's runs of the afternoon, held out at 2045120440
    ("selfplay", {"league": {"schedule": [{"from_step": 30000, "random": 0.1, "heuristic": 0.5,
                                            "self_play": 0.4}]}}, "self-play opponents"),
    ("batch", {"n_envs": 32, "ppo": {"batch_size": 1024}}, "bigger batches"),
]


OBJECTIVES = ROOT / "docs" / "benchmarks" / "learning" / "objectives-2026-12-06"


STRUCTURED = ROOT / "docs" / "benchmarks" / "learning" / "structured-2026-12-06"


def table_row(text: str, start: str) -> list[str]:
    """The cells after the first of the table row of docs/learning.md that starts so."""
    line = next(ln for ln in text.splitlines() if ln.startswith(start))
    return [c.strip().strip("*") for c in line.split("|")[2:-1]]


LONG = ROOT / "docs" / "benchmarks" / "learning" / "long-2026-12-06"


def one_knob_run(folder: Path, label: str, steps: int, fresh_name: str,
                  fresh_seeds: list[int], **override) -> str:
    """A one-knob run of the shaped MLP in ``folder``: its config is the shaped MLP's at
    ``steps`` with ``override``; docs/learning.md's curve row and final-table row (own
    evaluation, the long run's snapshot games, the fresh games) are its files. Returns
    docs/learning.md's text."""

    assert load_config(folder / "config.yaml") == load_config(
        SCRATCH_LONG / "origin-mlp-shaping" / "config.yaml", total_steps=steps, **override)
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    rows = [r for r in csv.DictReader((folder / "metrics.csv").open())
            if int(r["step"]) % 250_000 == 0]
    line = next(ln for ln in text.splitlines() if ln.startswith(f"| {label} | 0"))
    assert [float(q) for q in line.split("|")[2:-1] if q.strip()] == [
        float(r["win_rate_vs_heuristic"]) for r in rows] and len(rows) == steps // 250_000 + 1
    result = json.loads((folder / "eval.json").read_text())
    snap = json.loads((folder / "snapshot-seeds.json").read_text())
    fresh = json.loads((folder / fresh_name).read_text())
    assert [p["seed"] for p in snap["per_seed"]] == [2049120440, 2050120440]
    assert [p["seed"] for p in fresh["per_seed"]] == fresh_seeds
    assert snap["games"] == fresh["games"] == 800
    table = next(ln for ln in text.splitlines()
                 if ln.startswith(f"| {label} | {figure(result, 'vs_heuristic')}"))
    assert [c.strip().strip("*") for c in table.split("|")[2:5]] == [
        figure(result, "vs_heuristic"), quote_rate(snap["agents"][0]), quote_rate(fresh["agents"][0])]
    return text


COLLECT = ROOT / "docs" / "benchmarks" / "learning" / "collect-2026-12-07"


COLLECT_ORIGIN = ROOT / "docs" / "benchmarks" / "learning" / "collect-origin-2026-12-07"


#: The evaluation seeds the collect and entropy runs are held out on (3 x 400 games).
PAIRED_HELD_OUT = [2075120440, 2076120440, 2077120440]


def held_out_run(folder: Path, learning: str, game: str = "primordial_soup",
                  **overrides) -> dict:
    """A run folder of the collect, entropy or draw comparisons: its config is the shipped
    default's at its seed with ``overrides`` (dotted keys), it is held out on
    :data:`PAIRED_HELD_OUT` and ``learning`` quotes its figure; its held-out agent row."""
    from primeval.training.ppo.config import load_config

    run = json.loads((folder / "eval.json").read_text())
    saved = load_config(folder / "config.yaml").to_dict()
    shipped = load_config(ROOT / "configs" / game / "default.yaml",
                          **{"seed": run["seed"], **overrides}).to_dict()
    assert saved == shipped, folder
    held = json.loads((folder / "heldout.json").read_text())
    assert held["seeds"] == PAIRED_HELD_OUT, folder
    agent = held["agents"][0]
    assert agent["games"] == 1200 and quote_rate(agent) in learning, folder
    return agent


def held_out_runs(folder: Path, pattern: str, names: list[str], **overrides) -> list[dict]:
    """The run folders of ``folder`` matching the glob ``pattern``, which must be ``names``
    (in sorted order), each a :func:`held_out_run` quoted in docs/learning.md; their held-out
    agent rows."""
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    folders = sorted(p for p in folder.glob(pattern) if p.is_dir())
    assert [p.name for p in folders] == names, folder
    return [held_out_run(p, learning, **overrides) for p in folders]


def metrics_rows(path: Path) -> list[dict]:
    """A run's ``metrics.csv`` rows without the fields the machine's speed sets (wall time,
    env steps per second): what the same config and seed reproduce on the same CPU."""
    with path.open(encoding="utf-8") as f:
        return [{k: v for k, v in row.items() if k not in ("wall_seconds", "env_steps_per_second")}
                for row in csv.DictReader(f)]


def reproduces_default_run(metrics: Path, config: Path, seed: int) -> list[dict]:
    """A short run of Primordial Soup's default at ``seed`` (``config``: the shipped default at
    the seed with ``total_steps`` 520000) from a probe's clone, whose rows at steps 0 and 500k
    (``metrics``) equal those of the collect runs' default at the seed
    (``COLLECT/step-seed<seed>``): the probe's tree trains what the earlier runs' trained.
    Its rows."""
    from primeval.training.ppo.config import load_config

    repro = metrics_rows(metrics)
    assert [r["step"] for r in repro[:2]] == ["0", "500000"], metrics
    assert repro[:2] == metrics_rows(COLLECT / f"step-seed{seed}" / "metrics.csv")[:2], metrics
    saved = load_config(config).to_dict()
    shipped = load_config(ROOT / "configs" / "primordial_soup" / "default.yaml",
                          **{"seed": seed, "total_steps": 520000}).to_dict()
    assert saved == shipped, config
    return repro
