"""The learning figures the README and docs/learning.md quote are those of the saved runs in
docs/benchmarks/learning/, and those runs are of the shipped default configs: the README
quotes held-out, pooled figures (heldout-*/), docs/learning.md those and the earlier runs'
own tables."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest

from primeval.training import config as loader
from primeval.training.ppo.config import TrainConfig, load_config

ROOT = Path(__file__).resolve().parents[1]
RUNS = sorted((ROOT / "docs" / "benchmarks" / "learning").glob("*/eval.json"))
HELD_OUT = sorted((ROOT / "docs" / "benchmarks" / "learning").glob("heldout-*/*/heldout.json"))


def figure(result: dict, key: str) -> str:
    """A win rate and its interval as the run's summary table prints them."""
    return (f"{result[f'win_rate_{key}']:.3f} [{result[f'win_rate_{key}_lo']:.3f}, "
            f"{result[f'win_rate_{key}_hi']:.3f}]")


def test_both_games_have_two_saved_seeds():
    games = {}
    for path in RUNS:
        result = json.loads(path.read_text())
        games.setdefault(result["game"], set()).add(result["seed"])
    assert games == {"primordial_soup": {0, 1}, "origin": {0, 1}}


@pytest.mark.parametrize("path", RUNS, ids=[p.parent.name for p in RUNS])
def test_the_quoted_figures_are_the_saved_runs(path):
    result = json.loads(path.read_text())
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    against_heuristic = figure(result, "vs_heuristic")
    assert against_heuristic in learning, (path, against_heuristic)
    assert figure(result, "vs_random") in learning
    summary = (path.parent / "summary.md").read_text(encoding="utf-8")
    as_table = against_heuristic.replace(" [", " | [")  # the summary's columns
    assert as_table in summary and f"seed {result['seed']}" in summary


#: How long a run trains and how often it looks: what an earlier default of a game had
#: otherwise (Primordial Soup's trained 1M steps, evaluating every 250k, until 2026-12-05).
LENGTH = {"total_steps", "eval"}


def _same_config(folder: Path, run: dict, *, length: bool = True) -> None:
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


@pytest.mark.parametrize("path", RUNS, ids=[p.parent.name for p in RUNS])
def test_the_saved_runs_are_of_the_shipped_default_configs(path):
    """The first saved runs are of the shipped config, at the length of their day."""
    result = json.loads(path.read_text())
    _same_config(path.parent, result, length=False)
    saved = load_config(path.parent / "config.yaml")
    assert result["total_steps"] >= saved.total_steps


def test_every_game_has_a_held_out_run():
    assert {json.loads(p.read_text())["game"] for p in HELD_OUT} == {"primordial_soup", "origin"}


def _quoted(result: dict) -> str:
    lo, hi = result["win_rate_ci95"]
    return f"{result['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]"


def _pooled(agents: list[dict]) -> tuple[int, str]:
    """Several runs' results of one agent pooled: their games, and the win rate with the
    Wilson interval of the summed games, as the docs quote it."""
    from primeval.training.evaluate import AgentResult

    both = AgentResult("pooled", games=sum(a["games"] for a in agents),
                       wins=sum(a["win_rate"] * a["games"] for a in agents))
    lo, hi = both.win_interval()
    return both.games, f"{both.win_rate:.3f} [{lo:.3f}, {hi:.3f}]"


@pytest.mark.parametrize("path", HELD_OUT, ids=[f"{p.parent.parent.name}/{p.parent.name}"
                                                for p in HELD_OUT])
def test_the_held_out_figures_are_quoted_and_of_the_shipped_configs(path):
    """heldout.json is ``evaluate --seeds 3`` of the run's model against the heuristic bots
    at evaluation seeds no default was chosen on; docs/learning.md quotes its pooled win
    rate, and the run is of the shipped default config: the newest folder's of all of it,
    the earlier ones' but for its length."""
    held = json.loads(path.read_text())
    agent = held["agents"][0]
    assert agent["agent"].startswith("ppo:")
    assert all(a["agent"].startswith("heuristic") for a in held["agents"][1:])
    assert len(held["seeds"]) == 3 and held["seed"] not in (0, 123456)
    assert agent["games"] == sum(p["agents"][0]["games"] for p in held["per_seed"]) >= 1200
    assert _quoted(agent) in (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    run = json.loads((path.parent / "eval.json").read_text())
    _same_config(path.parent, run, length=path in _newest_held_out().values())
    assert run["game"] == held["game"]


def _newest_held_out() -> dict[tuple[str, int], Path]:
    """Per game and training seed, the heldout.json of the newest folder."""
    newest: dict[tuple[str, int], Path] = {}
    for path in HELD_OUT:  # sorted: a later date (or a suffix) sorts later
        run = json.loads((path.parent / "eval.json").read_text())
        newest[(run["game"], run["seed"])] = path
    return newest


@pytest.mark.parametrize("key", sorted(_newest_held_out()), ids=str)
def test_the_readme_quotes_the_newest_held_out_figures(key):
    path = _newest_held_out()[key]
    quoted = _quoted(json.loads(path.read_text())["agents"][0])
    assert quoted in (ROOT / "README.md").read_text(encoding="utf-8"), (path, quoted)


def test_pooled_over_training_seeds_is_quoted_as_computed():
    """Where a game has held-out runs of two training seeds in its newest folder, the
    README's pooled figure over both is the Wilson interval of their summed games."""
    by_folder: dict[tuple[str, str], list[dict]] = {}
    for path in _newest_held_out().values():
        held = json.loads(path.read_text())
        by_folder.setdefault((path.parent.parent.name, held["game"]), []).append(held)
    pooled = [h for h in by_folder.values() if len(h) > 1]
    for runs in pooled:
        _games, quoted = _pooled([h["agents"][0] for h in runs])
        for page in ("README.md", "docs/learning.md"):
            assert quoted in (ROOT / page).read_text(encoding="utf-8"), (page, quoted)


LONGER = ROOT / "docs" / "benchmarks" / "learning" / "longer-2026-12-04"


@pytest.mark.parametrize("folder, agent_file, files", [
    ("soup-2m", "soup-4p-ppo-2m.zip", (("heldout-fresh.json", 800), ("ladder-seed.json", 400),
                                       ("zoo-soup-4p-ppo-heldout-fresh.json", 800))),
    ("soup-2m-s1", "soup-4p-ppo-2m-s1.zip", (("heldout-fresh.json", 800),
                                             ("ladder-seed.json", 400))),
])
def test_the_longer_runs_held_out_figures_are_its_files_and_its_agent_loads_as_data(
        folder, agent_file, files):
    """docs/learning.md's 2M-step tables quote their JSONs, and each shipped float16 agent
    loads without unpickling (and plays a legal move)."""
    import re

    folder = LONGER / folder
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    for name, games in files:
        agent, *bots = json.loads((folder / name).read_text())["agents"]
        assert agent["games"] == games and len(bots) == 3
        assert agent["agent"].endswith(agent_file) or name.startswith("zoo-")
        assert all(re.fullmatch(r"heuristic#\d", b["agent"]) for b in bots)
        assert _quoted(agent) in learning, name
    _plays_a_legal_move(folder / agent_file)


def _plays_a_legal_move(zip_path: Path) -> None:
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


def test_the_two_2m_seeds_pooled_are_quoted_as_computed():
    games, quoted = _pooled([json.loads((LONGER / f / "heldout-fresh.json").read_text())
                             ["agents"][0] for f in ("soup-2m", "soup-2m-s1")])
    assert games == 1600
    assert quoted in (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")


def test_the_stronger_networks_search_figures_are_their_files():
    """docs/search.md's rows for the 2M agents guiding MCTS and distilled quote their
    JSONs (800 held-out games each), and the distilled network loads as data."""
    from primeval.training.expert.network import load_network

    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    distilled = ROOT / "docs" / "benchmarks" / "learning" / "search-2026-12-04" / "distill-2m-soup"
    for path, spec in (
        (LONGER / "soup-2m-s1" / "net-mcts-25-heldout-fresh.json",
         "mcts:sims=25,net=docs/benchmarks/learning/longer-2026-12-04/soup-2m-s1/"
         "soup-4p-ppo-2m-s1.zip,batch=8"),
        (distilled / "heldout-fresh.json",
         "net:docs/benchmarks/learning/search-2026-12-04/distill-2m-soup/"
         "soup-4p-distilled-2m.json"),
        (distilled.parent / "exit-2m-soup" / "heldout-fresh.json",
         "net:docs/benchmarks/learning/search-2026-12-04/exit-2m-soup/soup-4p-exit-2m.json"),
    ):
        result = json.loads(path.read_text())
        agent = result["agents"][0]
        assert agent["agent"] == spec and agent["games"] == 800
        assert result["seeds"] == [2026120440, 2027120440]
        assert _quoted(agent) in search, path.name
    network = load_network(distilled / "soup-4p-distilled-2m.json",
                           expect={"game": "primordial_soup", "players": 4})
    assert network.hidden == [256, 256] and network.structured is None
    # the shipped config starts from the shipped distilled network
    from primeval.training.expert.config import load_expert_config

    config = load_expert_config("primordial_soup/exit-2m")
    assert (ROOT / config.init).resolve() == (distilled / "soup-4p-distilled-2m.json").resolve()


def test_the_structured_origin_students_figure_is_its_file():
    """docs/search.md quotes the structured student's 800 held-out games, and the shipped
    network loads as data as the structured kind."""
    from primeval.training.expert.network import load_network

    folder = (ROOT / "docs" / "benchmarks" / "learning" / "search-2026-12-04"
              / "distill-structured-origin")
    result = json.loads((folder / "heldout-fresh.json").read_text())
    agent, *bots = result["agents"]
    assert agent["games"] == 800 and len(bots) == 2
    assert result["seeds"] == [2026120440, 2027120440]
    assert _quoted(agent) in (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    network = load_network(folder / "origin-3p-distilled-structured.json",
                           expect={"game": "origin", "players": 3})
    assert network.structured == {"entity_hidden": 64, "rounds": 3, "head_hidden": 32}


ROLLOUTS = ROOT / "docs" / "benchmarks" / "learning" / "search-2026-12-04" / "rollouts-origin"


def _rollout_rows(folder: Path = ROLLOUTS) -> dict[str, str]:
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


def test_the_origin_rollout_search_files_are_run_sh_s_rows():
    assert set(_rollout_rows()) == {p.stem for p in ROLLOUTS.glob("*.json")}


@pytest.mark.parametrize("path", sorted(ROLLOUTS.glob("*.json")), ids=lambda p: p.stem)
def test_the_origin_rollout_search_figures_are_their_files(path):
    """docs/search.md's Origin rows for the search with rollout leaves: each JSON plays the
    spec run.sh gives it against two heuristic bots, at the probe seed (100 games) or the
    held-out seeds, and its figure is in the row of docs/search.md that names the file."""
    result = json.loads(path.read_text())
    agent, *bots = result["agents"]
    assert result["game"] == "origin" and len(bots) == 2
    assert all(b["agent"].startswith("heuristic#") for b in bots)
    assert agent["agent"] == _rollout_rows()[path.stem]
    if path.stem.startswith("probe-"):
        assert result["seed"] == 2026120360 and agent["games"] == 100
    elif "-s20" in path.stem:
        assert result["seed"] == int(path.stem[-10:]) and agent["games"] == 100
    else:
        assert result["seeds"] == [2026120440, 2027120440] and agent["games"] == 400
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    line = next((ln for ln in search.splitlines() if f"`{path.name}`" in ln), None)
    assert line is not None, f"no row of docs/search.md names {path.name}"
    assert _quoted(agent) in line, (line, path.name)


def test_the_origin_rollout_searchs_pooled_100_simulation_figure():
    """The 100-simulation search's two held-out seeds pooled (200 games), beside its network
    alone on the same games, as docs/search.md quotes them."""
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    for stem in ("heldout-net-mcts-100-rollouts", "heldout-residual-100"):
        games, quoted = _pooled([json.loads((ROLLOUTS / f"{stem}-s{s}.json").read_text())
                                 ["agents"][0] for s in (2026120440, 2027120440)])
        assert games == 200
        assert quoted in search, stem


PAIRED = ROOT / "docs" / "benchmarks" / "learning" / "search-2026-12-05" / "rollout-search-origin"


DIAGNOSES = ("pairing", "horizon", "switches")
PAIRED_ROWS = sorted(p for p in PAIRED.glob("*.json") if p.stem not in DIAGNOSES)


def test_the_origin_paired_rollout_files_are_run_sh_s_rows():
    assert set(_rollout_rows(PAIRED)) == {p.stem for p in PAIRED_ROWS}
    script = (PAIRED / "run.sh").read_text()
    for name in DIAGNOSES:
        result = json.loads((PAIRED / f"{name}.json").read_text())
        assert f"--seed {result['seed']}" in script and f'"$HERE/{name}.json"' in script, name


def test_the_diagnoses_are_their_files():
    """docs/search.md quotes the diagnoses: pairing.py, horizon.py and switches.py."""
    result = json.loads((PAIRED / "pairing.json").read_text())
    lo, median, hi = result["ratio_quartiles"]
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    assert f"median {median:.2f} (quartiles {lo:.2f} and {hi:.2f})" in search
    assert f"{result['ties']} of the {result['comparisons']} comparisons" in search
    horizon = json.loads((PAIRED / "horizon.json").read_text())
    assert set(horizon["judges"]) == {"20", "40", "80", "end_margin"}
    for name, judge in horizon["judges"].items():
        row = (f"| {judge['correlation']:.3f} | {judge['correlation_of_means']:.3f} | "
               f"{judge['sign_agree']} agree, {judge['sign_disagree']} disagree |")
        assert row in search, name
    switches = json.loads((PAIRED / "switches.json").read_text())
    assert (f"{switches['switches']} of its {switches['decisions']} decisions" in search)
    assert (f"{switches['switches_where_agent_is_bot']} of the {switches['switches']}"
            in search)


@pytest.mark.parametrize("path", PAIRED_ROWS, ids=lambda p: p.stem)
def test_the_origin_paired_rollout_figures_are_their_files(path):
    """docs/search.md's rows for the rollout search (``rollouts:net=``) in Origin: each JSON
    plays the spec run.sh gives it against two heuristic bots at the seed its name ends
    with (50 probe games, or 200 held-out games a seed), and its figure is in the row of
    docs/search.md that names the file."""
    result = json.loads(path.read_text())
    agent, *bots = result["agents"]
    assert result["game"] == "origin" and len(bots) == 2
    assert all(b["agent"].startswith("heuristic#") for b in bots)
    assert agent["agent"] == _rollout_rows(PAIRED)[path.stem]
    assert result["seed"] == int(path.stem[-10:])
    assert agent["games"] == (50 if path.stem.startswith("probe-")
                              else 100 if "-d80-" in path.stem
                              or path.stem.startswith(("confirm-", "second-"))
                              else 200)
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    line = next((ln for ln in search.splitlines() if f"`{path.name}`" in ln), None)
    assert line is not None, f"no row of docs/search.md names {path.name}"
    assert _quoted(agent) in line, (line, path.name)


def test_the_origin_paired_rollout_searchs_pooled_figures():
    """The rollout search's two held-out seeds pooled (400 games; with depth=80, 200; with the
    second look, 200), and the z=1 probes' two seeds (100 games), as docs/search.md quotes
    them."""
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    for stem, seeds, count in (("heldout-rollouts", (2026120440, 2027120440), 400),
                               ("heldout-rollouts-n16-d80", (2026120440, 2027120440), 200),
                               ("confirm-rollouts-n16-d80", (2028120440, 2029120440), 200),
                               ("confirm-residual", (2028120440, 2029120440), 200),
                               ("second-rollouts-confirm64", (2026120440, 2027120440), 200),
                               ("probe-rollouts", (2026120360, 2026120410), 100),
                               ("probe-residual", (2026120360, 2026120410), 100)):
        games, quoted = _pooled([json.loads((PAIRED / f"{stem}-s{s}.json").read_text())
                                 ["agents"][0] for s in seeds])
        assert games == count
        assert quoted in search, stem


def test_the_origin_rollout_searchs_400_held_out_games():
    """Today's defaults (n=16,depth=80) over all four held-out seeds, and its network alone on
    the same 400 games, as docs/search.md quotes them and issue 24's target reads them."""
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    seeds = (2026120440, 2027120440, 2028120440, 2029120440)
    search_rows = [json.loads((PAIRED / f"{'heldout' if s < 2028120440 else 'confirm'}"
                               f"-rollouts-n16-d80-s{s}.json").read_text())["agents"][0]
                   for s in seeds]
    alone = ([json.loads((ROLLOUTS / f"heldout-residual-100-s{s}.json").read_text())["agents"][0]
              for s in seeds[:2]]
             + [json.loads((PAIRED / f"confirm-residual-s{s}.json").read_text())["agents"][0]
                for s in seeds[2:]])
    games, quoted = _pooled(search_rows)
    alone_games, alone_quoted = _pooled(alone)
    assert games == alone_games == 400
    assert f"**{quoted}**; its network alone on the same 400 games {alone_quoted}" in search
    rate = sum(r["win_rate"] * r["games"] for r in search_rows) / games
    assert rate >= 0.60 and float(quoted.split("[")[1].split(",")[0]) >= 0.55  # the target
    from primeval.training.agents.rollouts import RolloutSearchConfig

    assert (RolloutSearchConfig(net="-").n, RolloutSearchConfig(net="-").depth) == (16, 80)


@pytest.mark.slow
def test_the_diagnosis_scripts_run_at_this_code(tmp_path):
    """pairing.py, horizon.py and switches.py, tiny: each writes the JSON its row reads."""
    import subprocess
    import sys

    for name, args, keys in (
        ("pairing", ["--positions", "1"], {"ratio_quartiles", "ties", "comparisons"}),
        ("horizon", ["--positions", "1", "--pairs", "3"], {"judges", "positions", "pairs"}),
        ("switches", ["--games", "1"], {"decisions", "switches", "switches_where_agent_is_bot"}),
    ):
        out = tmp_path / f"{name}.json"
        subprocess.run([sys.executable, str(PAIRED / f"{name}.py"), *args, "--out", str(out)],
                       cwd=ROOT, check=True, capture_output=True, env={**os.environ,
                                                                     "OMP_NUM_THREADS": "1"})
        assert keys <= set(json.loads(out.read_text())), name


EXIT = ROOT / "docs" / "benchmarks" / "learning" / "exit-2026-12-05" / "rollout-exit-origin"
EXIT_ROWS = sorted(p for p in EXIT.glob("*.json")
                   if not p.stem.startswith(("repeat", "finetune-", "labels-")))
APPRENTICE = EXIT / "agents" / "origin-3p-exit-rollouts-lr1e-3.zip"


def _exit_rows() -> dict[str, str]:
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


def test_the_expert_iteration_files_are_run_sh_s_rows():
    import re

    script = (EXIT / "run.sh").read_text(encoding="utf-8")
    assert set(_exit_rows()) == {p.stem for p in EXIT_ROWS}
    fits = set(re.findall(r"^\s+(?:LABELS=\S+ )?fit (\S+) ", script, flags=re.M))
    assert fits == {p.stem.removeprefix("finetune-") for p in EXIT.glob("finetune-*.json")}
    for path in sorted(EXIT.glob("repeat*.json")):
        repeat = json.loads(path.read_text())
        search = repeat["search"].removeprefix("rollouts:net=ZIP").lstrip(",")
        assert (f"--games {repeat['games']} --seed {repeat['seed']}"
                + (f" --search {search}" if search else "")
                + f' --out "$HERE/{path.name}"') in script, path.name


@pytest.mark.parametrize("path", EXIT_ROWS, ids=lambda p: p.stem)
def test_the_expert_iteration_figures_are_their_files(path):
    """docs/search.md's rows for Origin's expert iteration with the rollout search: each JSON
    plays the spec run.sh gives it against two heuristic bots at the seed its name ends with
    (400 probe games, 200 held-out games a seed), its figure in the row naming the file."""
    result = json.loads(path.read_text())
    agent, *bots = result["agents"]
    assert result["game"] == "origin" and len(bots) == 2
    assert all(b["agent"].startswith("heuristic#") for b in bots)
    assert agent["agent"] == _exit_rows()[path.stem]
    assert result["seed"] == int(path.stem[-10:])
    # 400 probe games; 200 a held-out seed at first, 400 at the confirmed labels' seeds; the
    # plain search at the labelling seeds, the first 40 games of each
    first = path.stem.startswith("heldout-") and path.stem.endswith(("2030120440", "2031120440"))
    assert agent["games"] == (40 if path.stem.startswith("plain-") else 200 if first else 400)
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    line = next((ln for ln in search.splitlines() if f"`{path.name}`" in ln), None)
    assert line is not None, f"no line of docs/search.md names {path.name}"
    assert _quoted(agent) in line, (line, path.name)


def test_the_expert_iteration_pooled_figures_curves_and_diagnosis_are_quoted():
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")

    def row(stem):
        return json.loads((EXIT / f"{stem}.json").read_text())["agents"][0]

    for who in ("start", "apprentice"):
        games, quoted = _pooled([row(f"heldout-{who}-s{s}") for s in (2030120440, 2031120440)])
        assert games == 400 and f"| **{quoted}** |" in search, who
        assert quoted in learning, who
        probe = "start" if who == "start" else "apprentice-lr1e-3"
        games, quoted = _pooled([row(f"probe-{probe}-s2026140000")]
                                + [row(f"heldout-{who}-s{s}") for s in (2030120440, 2031120440)])
        assert games == 800 and quoted in search and quoted in learning, who
    for path in sorted(EXIT.glob("finetune-*.json")):
        fit = json.loads(path.read_text())
        chosen = fit["curve"][fit["chosen_epoch"]]
        assert chosen["loss"] == min(r["loss"] for r in fit["curve"])
        line = (f"| `{path.stem.removeprefix('finetune-')}` | {fit['chosen_epoch']} | "
                f"{chosen['agree']:.3f} ({fit['curve'][0]['agree']:.3f}) | "
                f"{chosen['switched']:.3f} | {chosen['kept']:.3f} | {chosen['switched_rows']} |")
        assert line in search, path.name
    repeat = json.loads((EXIT / "repeat.json").read_text())
    assert (f"at each of its {repeat['decisions']} decisions with a\n  choice): the first search "
            f"left the agent's move at {repeat['first_switched']}, the second at "
            f"{repeat['second_switched']}; both at {repeat['both_switched']}, and\n  to the same "
            f"move at {repeat['both_to_the_same_move']} of the first's "
            f"{repeat['first_switched']}") in search
    more = json.loads((EXIT / "repeat-n64.json").read_text())
    assert more["search"] == "rollouts:net=ZIP,n=64"
    assert (f"switches at {more['first_switched']} and\n  {more['second_switched']} of "
            f"{more['decisions']} decisions, both at {more['both_switched']}, to the same move "
            f"at {more['both_to_the_same_move']} of {more['first_switched']}") in search


def test_the_confirmed_labels_figures_are_quoted():
    """docs/search.md's pooled rows of the confirmed-labels step, and learning.md's targets
    cell: 800 held-out games of each agent, and the first apprentice over all its 1,200."""
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")

    def row(stem):
        return json.loads((EXIT / f"{stem}.json").read_text())["agents"][0]

    new = (2034120440, 2035120440)
    for who in ("start", "apprentice", "confirmed"):
        games, quoted = _pooled([row(f"heldout-{who}-s{s}") for s in new])
        assert games == 800 and f"| **{quoted}** |" in search and quoted in learning, who
    for who in ("start", "apprentice"):
        games, quoted = _pooled([row(f"heldout-{who}-s{s}")
                                 for s in (2030120440, 2031120440, *new)])
        assert games == 1200 and quoted in search, who
    assert (EXIT / "agents" / "origin-3p-exit-rollouts-confirmed-lr1e-3.zip").is_file()
    # the labelling games (labels-confirmed-summary.json, from the .npz files by summary.py)
    from primeval.training.evaluate import AgentResult

    files = json.loads((EXIT / "labels-confirmed-summary.json").read_text())["files"]
    assert [f["seed"] for f in files] == [2026160000, 2026161000]
    assert [f["games"] for f in files] == [100, 100]
    counts = [sum(f[key] for f in files)
              for key in ("decisions", "first_switches", "switches_kept")]
    assert counts == [12785, 1738, 755]
    assert "12,785 decisions with a\n  choice; the first search left the apprentice's move at 1,738" in search

    def rate(firsts):
        result = AgentResult("search", games=len(firsts), wins=sum(firsts))
        lo, hi = result.win_interval()
        return f"{result.win_rate:.3f} [{lo:.3f}, {hi:.3f}]"

    assert rate([x for f in files for x in f["first"]]) in search  # all 200
    early = [x for f in files for x in f["first"][:40]]
    plain = _pooled([json.loads((EXIT / f"plain-search-s{f['seed']}.json").read_text())
                     ["agents"][0] for f in files])
    assert plain[0] == 80 and f"| {rate(early)} | {plain[1]} |" in search


def test_the_apprentice_loads_as_data_and_plays():
    from primeval.envs.games import make_raw_env
    from primeval.training.agents import make_agent

    agent = make_agent(f"ppo:{APPRENTICE}", "origin", seed=0)  # refuses to unpickle
    env = make_raw_env("origin", 3)
    env.reset(seed=1)
    for _ in range(40):
        name = env.agent_selection
        observed = env.observe(name)
        action = agent.act(observed["observation"], observed["action_mask"],
                           state=env.unwrapped.game_state,
                           seat=env.possible_agents.index(name))
        assert observed["action_mask"][action]
        env.step(action)


@pytest.mark.slow
def test_the_expert_iteration_scripts_run_at_this_code(tmp_path):
    """label.py and finetune.py, tiny: the search's decisions become labels, the apprentice
    fitted to them is a checkpoint that loads without unpickling and plays a legal game."""
    import subprocess
    import sys

    import numpy as np

    from primeval.training.evaluate import tournament

    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    labels = tmp_path / "labels.npz"
    subprocess.run([sys.executable, str(EXIT / "label.py"), "--games", "2", "--seed", "19",
                    "--search", "n=2,depth=2", "--confirm", "3", "--out", str(labels)],
                   cwd=ROOT, check=True, capture_output=True, env=env)
    data = np.load(labels, allow_pickle=False)
    rows = len(data["actions"])
    assert rows > 0 and data["observations"].shape == (rows, 2050)
    assert data["masks"][np.arange(rows), data["actions"]].all()  # every label is legal
    assert (data["actions"][:, None] == data["candidates"]).any(axis=1).all()
    assert set(data["games"]) == {19, 20}  # game 20 is held out by finetune.py
    # --confirm: judged again exactly where the first search left the apprentice's move
    confirmed = data["confirmed"]
    assert confirmed.any()
    assert (data["actions"][~confirmed] == data["candidates"][~confirmed, 0]).all()
    first = data["first_gains"]
    assert (first[confirmed, 1:] > data["first_errors"][confirmed, 1:]).any(axis=1).all()
    assert (data["gains"][~confirmed] == first[~confirmed]).all()
    # where the second judge switches too, its own gain for the move played is above z=1 errors
    rows_ = np.flatnonzero(confirmed & (data["actions"] != data["candidates"][:, 0]))
    at = (data["candidates"][rows_] == data["actions"][rows_, None]).argmax(axis=1)
    assert (data["gains"][rows_, at] > data["errors"][rows_, at]).all()
    summary = tmp_path / "summary.json"
    subprocess.run([sys.executable, str(EXIT / "summary.py"), str(labels), "--out", str(summary)],
                   cwd=ROOT, check=True, capture_output=True, env=env)
    (made,) = json.loads(summary.read_text())["files"]
    assert (made["seed"], made["games"], made["decisions"]) == (19, 2, rows)
    assert made["first_switches"] == int(confirmed.sum()) and made["first"] == list(data["top"])
    import importlib.util

    spec = importlib.util.spec_from_file_location("finetune", EXIT / "finetune.py")
    finetune = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(finetune)
    # relabelled at the search's own threshold, the labels are the search's moves
    assert (finetune.load([str(labels)], 1.0)["actions"] == data["actions"]).all()
    sure = finetune.load([str(labels)], 1e9)  # only gains without spread switch now
    switched = sure["actions"] != sure["candidates"][:, 0]
    assert switched.sum() <= (data["actions"] != data["candidates"][:, 0]).sum()
    assert (sure["errors"][switched] == 0).any(axis=1).all()
    out = tmp_path / "apprentice.zip"
    curve = tmp_path / "curve.json"
    subprocess.run([sys.executable, str(EXIT / "finetune.py"), str(labels), "--epochs", "1",
                    "--out", str(out), "--json", str(curve)],
                   cwd=ROOT, check=True, capture_output=True, env=env)
    result = json.loads(curve.read_text())
    assert [row["epoch"] for row in result["curve"]] == [0, 1]
    assert result["curve"][0]["train"]["kept"] == 1.0  # the start plays its own candidate
    results = tournament("origin", 3, [f"ppo:{out}", "heuristic", "heuristic"], games=1, seed=0)
    assert results[0].games == 1


SCRATCH = ROOT / "docs" / "benchmarks" / "learning" / "scratch-2026-12-05" / "origin-mlp-3m"


def test_the_origin_3m_scratch_curve_and_table_are_its_files():
    """docs/learning.md's 3M-step Origin MLP learned alone: the final table's figure and every
    point of the curve are the run's files, and the run is the structured comparison's MLP
    twin made 3M steps long (run.sh's overrides, nothing else)."""
    import csv

    result = json.loads((SCRATCH / "eval.json").read_text())
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    assert result["game"] == "origin" and result["total_steps"] >= 3_000_000
    assert figure(result, "vs_heuristic") in learning
    rows = list(csv.DictReader((SCRATCH / "metrics.csv").open()))
    curve = [float(r["win_rate_vs_heuristic"]) for r in rows if int(r["step"]) % 250_000 == 0]
    line = next(ln for ln in learning.splitlines() if ln.startswith("| vs 2 heuristic |"))
    assert [float(q) for q in line.split("|")[2:-1]] == curve and len(curve) == 13
    saved = load_config(SCRATCH / "config.yaml").to_dict()
    twin = load_config(ROOT / "docs" / "benchmarks" / "structured" / "origin_scratch_mlp_s0"
                       / "config.yaml").to_dict()
    changed = {k for k in saved if saved[k] != twin[k]}
    assert changed <= {"total_steps", "vec_env", "eval", "checkpoint_every"}, changed
    assert saved["prior"]["agent"] == "none" and saved["pretrain"]["games"] == 0


HELD_2M = ROOT / "docs" / "benchmarks" / "learning" / "heldout-2026-12-05-2m"


@pytest.mark.parametrize("seed", [0, 1])
def test_the_2m_default_agents_ship_and_load_as_data(seed):
    """The 2M default's runs ship their agents in float16 beside their held-out games, so
    the figures can be checked without training again (a seed trains another draw on
    another CPU); each loads without unpickling and plays a legal move."""
    zip_path = HELD_2M / f"primordial_soup_seed{seed}" / f"soup-4p-ppo-2m-seed{seed}.zip"
    _plays_a_legal_move(zip_path)
    assert zip_path.name in (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")


def test_the_zoos_2m_member_is_the_seed_0_agent_whose_figures_are_quoted():
    """``zoo:soup-4p/ppo-2m`` has the weights of the 2M default's seed-0 agent, so the held-out
    figure docs/benchmark.md quotes for it is that agent's; its manifest entry names the
    config it was trained with (the shipped default) and the task rating quoted."""
    import torch as th

    from primeval.training.agents import make_agent
    from primeval.training.benchmark.zoo import get_member, zoo_agent

    shipped = make_agent(f"ppo:{HELD_2M / 'primordial_soup_seed0' / 'soup-4p-ppo-2m-seed0.zip'}",
                         "primordial_soup", seed=0)
    member = zoo_agent("zoo:soup-4p/ppo-2m", seed=0)
    ours, theirs = shipped.model.policy.state_dict(), member.model.policy.state_dict()
    assert ours.keys() == theirs.keys()
    assert all(th.equal(ours[k], theirs[k]) for k in ours)
    entry = get_member("zoo:soup-4p/ppo-2m")
    saved = load_config(HELD_2M / "primordial_soup_seed0" / "config.yaml").to_dict()
    default = load_config(ROOT / "configs" / "primordial_soup" / "default.yaml").to_dict()
    # the member's config as recorded, read by today's loader (new fields at their defaults)
    recorded = loader.build(TrainConfig, entry.info["config"]).to_dict()
    assert recorded == saved == default
    benchmark = (ROOT / "docs" / "benchmark.md").read_text(encoding="utf-8")
    rating = entry.info["rating"]
    assert _quoted(rating) in benchmark
    assert rating["task"] == "soup-4p@1" and rating["games"] == 400


def test_the_zoo_leaderboards_figures_for_the_2m_agent_are_quoted():
    """docs/learning.md quotes the zoo's round robin (docs/leaderboard.json, soup-4p) for the
    2M agent, the 1M agent and the heuristic as the board has them."""
    board = next(b for b in json.loads((ROOT / "docs" / "leaderboard.json").read_text())
                 ["boards"] if b["task"] == "soup-4p@1")
    by_member = dict(zip(board["members"], board["results"], strict=True))
    learning = " ".join((ROOT / "docs" / "learning.md").read_text(encoding="utf-8").split())
    for member in ("ppo-2m", "ppo", "heuristic"):
        rating = by_member[member]["rating"]
        assert f"{rating['mu']:.1f} ± {rating['sigma']:.1f}" in learning, member
    assert board["games"] == 120 and "120 games among six" in learning
    nash = dict(zip(board["members"], board["nash_rating"], strict=True))
    assert max(nash, key=nash.get) == "ppo-2m"
    ahead = board["head_to_head"][board["members"].index("ppo-2m")][board["members"].index("ppo")]
    assert f"{ahead:.2f} of their meetings" in learning


def test_the_2m_defaults_figure_at_the_seed_that_chose_nothing_is_quoted():
    """The 2M default was chosen on the 2026-12-04 runs' games at seeds 2026120440 and
    2027120440; docs/learning.md quotes the new runs pooled at the third seed alone."""
    agents = [next(p for p in json.loads((HELD_2M / f"primordial_soup_seed{s}" / "heldout.json")
                                         .read_text())["per_seed"] if p["seed"] == 2028120440)
              ["agents"][0] for s in (0, 1)]
    games, quoted = _pooled(agents)
    assert games == 800
    assert f"(2028120440, which chose\nnothing) the two runs read {quoted}" in (
        ROOT / "docs" / "learning.md").read_text(encoding="utf-8")


SCRATCH_LONG = ROOT / "docs" / "benchmarks" / "learning" / "scratch-2026-12-06"


@pytest.mark.parametrize("folder, twin, changed, label", [
    ("origin-structured-long", "origin_scratch_structured_s0", set(), "structured, shaping 0.05"),
    ("origin-mlp-shaping", "origin_scratch_mlp_s0", {"shaping"}, "MLP, shaping 0.25"),
    ("origin-mlp-shaping-s1", "origin_scratch_mlp_s0", {"shaping", "seed"},
     "MLP, shaping 0.25, seed 1"),
])
def test_the_3m_origin_runs_of_2026_12_06_are_their_twins_and_their_files(folder, twin, changed,
                                                                          label):
    """The structured network and the MLP with five times the shaping, learned alone for 3M
    steps: each run is its 150k twin's config with run.sh's overrides (and, for the
    ablation, the shaping alone), and docs/learning.md's curve row and final figures (own
    seed, held out pooled over 800 games, the ladder's seed) are the run's files."""
    import csv

    run = SCRATCH_LONG / folder
    saved = load_config(run / "config.yaml").to_dict()
    base = load_config(ROOT / "docs" / "benchmarks" / "structured" / twin / "config.yaml").to_dict()
    assert {k for k in saved if saved[k] != base[k]} == {
        "total_steps", "vec_env", "eval", "checkpoint_every"} | changed
    assert saved["prior"]["agent"] == "none" and saved["pretrain"]["games"] == 0
    assert saved["shaping"] == (0.25 if changed else 0.05)
    assert saved["seed"] == (1 if "seed" in changed else 0)
    learning = " ".join((ROOT / "docs" / "learning.md").read_text(encoding="utf-8").split())
    result = json.loads((run / "eval.json").read_text())
    assert result["total_steps"] >= 3_000_000 and figure(result, "vs_heuristic") in learning
    rows = [r for r in csv.DictReader((run / "metrics.csv").open())
            if int(r["step"]) % 250_000 == 0]
    line = next(ln for ln in (ROOT / "docs" / "learning.md").read_text().splitlines()
                if ln.startswith(f"| {label} | 0"))
    assert [float(q) for q in line.split("|")[2:-1]] == [
        float(r["win_rate_vs_heuristic"]) for r in rows] and len(rows) == 13
    held = json.loads((run / "heldout.json").read_text())
    assert held["games"] == 800 and [p["seed"] for p in held["per_seed"]] == [
        2037120440, 2038120440]
    assert _quoted(held["agents"][0]) in learning and held["agents"][0]["games"] == 800
    ladder = json.loads((run / "ladder-seed.json").read_text())
    assert ladder["seed"] == 2026120340 and _quoted(ladder["agents"][0]) in learning


def test_the_shaped_mlps_two_seeds_pooled_are_quoted():
    games, quoted = _pooled([json.loads((SCRATCH_LONG / f / "heldout.json").read_text())
                             ["agents"][0] for f in ("origin-mlp-shaping",
                                                     "origin-mlp-shaping-s1")])
    assert games == 1600 and quoted == "0.179 [0.161, 0.199]"
    assert quoted in (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")


def test_the_points_by_source_table_is_points_json():
    """docs/learning.md's points-by-source table is points.json, row by row: the agent's
    points by source and total, then the bots' objectives and total."""
    points = json.loads((SCRATCH_LONG / "points.json").read_text())
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8").splitlines()
    start = learning.index(next(ln for ln in learning if ln.startswith("| agent | objectives |")))
    rows = learning[start + 2:start + 2 + len(points)]
    sources = ["objectives", "hunting_tokens", "strait_tokens", "tiles", "cards_in_hand",
               "column_bonus", "total"]
    for row, (name, table) in zip(rows, points.items(), strict=True):
        agent, bots = table.get("agent", table["heuristic"]), table["heuristic"]
        cells = [c.strip() for c in row.split("|")[2:-1]]
        assert cells[:7] == [f"{agent[s]:.1f}" for s in sources], name
        assert cells[7] == f"{bots['objectives']:.1f}; {bots['total']:.1f}", name
        assert agent["seats"] == (1200 if name == "heuristic" else 400)


@pytest.mark.parametrize("zip_path", [
    SCRATCH_LONG / "origin-structured-long" / "origin-3p-structured-3m.zip",
    SCRATCH_LONG / "origin-mlp-shaping" / "origin-3p-mlp-shaping.zip",
])
def test_the_3m_origin_agents_ship_and_play_as_data(zip_path):
    """Both 3M-step Origin agents learned alone ship in float16, load without unpickling
    (the structured one with its structure) and play a legal move against the heuristic."""
    from primeval.training.evaluate import tournament

    results = tournament("origin", 3, [f"ppo:{zip_path}", "heuristic", "heuristic"],
                         games=1, seed=0)
    assert results[0].games == 1


ABLATIONS = [  # ablate.sh's runs: the name, the override, docs/learning.md's row label
    ("entropy", {"ppo": {"ent_coef": 0.001}}, "entropy bonus 0.001"),
    ("win", {"env": {"reward_mode": "win"}}, "reward: win or lose"),
    ("tiles", {"shaping_sources": {"tiles": 2}}, "tiles weigh twice"),
    ("own", {"shaping_others": 0.0}, "shaping on own score"),
    ("prospects", {"shaping_prospects": 0.5}, "objectives in prospect"),
    ("hunting", {"shaping_sources": {"hunting_tokens": 3}}, "hunting tokens weigh three times"),
]


def _with(config: dict, override: dict) -> dict:
    out = dict(config)
    for key, value in override.items():
        out[key] = {**config[key], **value} if isinstance(value, dict) and config[key] else value
    return out


@pytest.mark.parametrize("name, override, label", ABLATIONS, ids=[a[0] for a in ABLATIONS])
def test_the_ablations_are_the_shaped_mlp_but_one_knob_and_their_figures_are_quoted(
        name, override, label):
    """Each ablation's saved config is the shaped MLP's but for its one override
    (ablate.sh); docs/learning.md's curve row, the final table at the run's own seed, the
    held-out 800 games (seeds 2039120440 + 2040120440) and the ladder's seed are its files."""
    import csv

    run = SCRATCH_LONG / f"origin-mlp-shaping-{name}"
    base = load_config(SCRATCH_LONG / "origin-mlp-shaping" / "config.yaml").to_dict()
    assert load_config(run / "config.yaml").to_dict() == _with(base, override)
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    learning = " ".join(text.split())
    rows = [r for r in csv.DictReader((run / "metrics.csv").open())
            if int(r["step"]) % 250_000 == 0]
    line = next(ln for ln in text.splitlines() if ln.startswith(f"| {label} | 0"))
    assert [float(q) for q in line.split("|")[2:-1]] == [
        float(r["win_rate_vs_heuristic"]) for r in rows] and len(rows) == 13
    result = json.loads((run / "eval.json").read_text())
    assert result["total_steps"] >= 3_000_000
    held = json.loads((run / "heldout-2039.json").read_text())
    assert held["games"] == 800 and [p["seed"] for p in held["per_seed"]] == [
        2039120440, 2040120440]
    ladder = json.loads((run / "ladder-seed.json").read_text())
    assert ladder["seed"] == 2026120340 and ladder["agents"][0]["games"] == 400
    table = next(ln for ln in text.splitlines() if ln.startswith(f"| {label} ("))
    assert [c.strip().strip("*") for c in table.split("|")[2:5]] == [
        figure(result, "vs_heuristic"), _quoted(held["agents"][0]),
        _quoted(ladder["agents"][0])]
    assert label in learning


LATER_ABLATIONS = [  # ablate.sh's runs of the afternoon, held out at 2045120440
    ("selfplay", {"league": {"schedule": [{"from_step": 30000, "random": 0.1, "heuristic": 0.5,
                                            "self_play": 0.4}]}}, "self-play opponents"),
    ("batch", {"n_envs": 32, "ppo": {"batch_size": 1024}}, "bigger batches"),
]


@pytest.mark.parametrize("name, override, label", LATER_ABLATIONS,
                         ids=[a[0] for a in LATER_ABLATIONS])
def test_the_later_ablations_are_the_shaped_mlp_but_one_knob_and_their_figures_are_quoted(
        name, override, label):
    """The self-play opponents and bigger batches: each saved config is the shaped MLP's but
    for its override; docs/learning.md's curve row (the first evaluation at or past each 250k,
    plot.py's every_250k), the final table at the run's own seed, the 800 held-out games
    (seeds 2045120440 + 2046120440, the shaped MLP on the same games), the ladder's seed and
    the mean scores are its files."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("plot", SCRATCH_LONG / "plot.py")
    plot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot)
    run = SCRATCH_LONG / f"origin-mlp-shaping-{name}"
    base = load_config(SCRATCH_LONG / "origin-mlp-shaping" / "config.yaml").to_dict()
    assert load_config(run / "config.yaml").to_dict() == _with(base, override)
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    rows = plot.every_250k(run)
    assert len(rows) == 13 and [int(r["step"]) // 250_000 for r in rows] == list(range(13))
    assert [float(q) for q in _row(text, f"| {label} | 0")] == [
        float(r["win_rate_vs_heuristic"]) for r in rows]
    result = json.loads((run / "eval.json").read_text())
    assert result["total_steps"] >= 3_000_000
    cells = _row(text, f"| {label} (")
    for folder, row in ((run, cells), (SCRATCH_LONG / "origin-mlp-shaping",
                                       _row(text, "| the shaped MLP, on these 800 games |"))):
        held = json.loads((folder / "heldout-2045.json").read_text())
        assert held["games"] == 800 and [p["seed"] for p in held["per_seed"]] == [
            2045120440, 2046120440]
        assert row[1] == _quoted(held["agents"][0])
        assert row[3] == "; ".join([f"{held['agents'][0]['mean_score']:.1f}", ", ".join(
            f"{a['mean_score']:.1f}" for a in held["agents"][1:])])
    ladder = json.loads((run / "ladder-seed.json").read_text())
    assert ladder["seed"] == 2026120340 and ladder["agents"][0]["games"] == 400
    assert cells[:3:2] == [figure(result, "vs_heuristic"), _quoted(ladder["agents"][0])]
    points = json.loads((SCRATCH_LONG / "later-ablations-points.json").read_text())
    assert set(points) == {"base", "batch", "selfplay"}
    assert points[name]["agent"]["seats"] == 400


def test_the_points_tables_against_random_players_and_of_the_ablations_are_their_files():
    """docs/learning.md's two new points tables are points-vs-random.json and
    ablations-points.json, row by row."""
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8").splitlines()

    def rows_after(header: str, count: int) -> list[list[str]]:
        start = learning.index(next(ln for ln in learning if ln.startswith(header)))
        return [[c.strip() for c in ln.split("|")[2:-1]]
                for ln in learning[start + 2:start + 2 + count]]

    sources = ["objectives", "hunting_tokens", "strait_tokens", "tiles", "total"]
    random = json.loads((SCRATCH_LONG / "points-vs-random.json").read_text())
    for cells, key in zip(rows_after("| agent, against two random players |", 2),
                          ("heuristic", "mlp-shaping-3m"), strict=True):
        agent = random[key]["agent"]
        assert cells == [f"{agent[s]:.1f}" for s in sources] + [
            f"{agent['objectives_completed']:.2f}", f"{agent['objective_chances_missed']:.2f}"]
    ablations = json.loads((SCRATCH_LONG / "ablations-points.json").read_text())
    assert list(ablations) == ["base"] + [a[0] for a in ABLATIONS[:5]]  # the sixth: below
    for cells, table in zip(rows_after("| agent | objectives | hunting tokens | strait tokens "
                                       "| tiles | total | objectives completed |", 6),
                            ablations.values(), strict=True):
        agent, bots = table["agent"], table["heuristic"]
        assert cells == [f"{agent[s]:.1f}" for s in sources] + [
            f"{agent['objectives_completed']:.2f}", f"{bots['total']:.1f}"]
        assert agent["seats"] == 400 and bots["seats"] == 800


OBJECTIVES = ROOT / "docs" / "benchmarks" / "learning" / "objectives-2026-12-06"


def test_the_objectives_run_is_the_shaped_mlp_but_its_encoder_and_its_figures_are_quoted():
    """objectives-2026-12-06/run.sh: the shaped MLP's config with the "flat_objectives"
    encoder; docs/learning.md's curve row, and its final table (own seed, held out at seeds
    2041120440 + 2042120440 with the shaped MLP on the same games, the ladder's seed), are
    the files."""
    import csv

    run = OBJECTIVES / "origin-mlp-objectives-s0"
    base = load_config(SCRATCH_LONG / "origin-mlp-shaping" / "config.yaml").to_dict()
    assert load_config(run / "config.yaml").to_dict() == dict(base, encoder="flat_objectives")
    assert load_config(OBJECTIVES / "config.yaml").to_dict() == dict(base,
                                                                     encoder="flat_objectives")
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    rows = [r for r in csv.DictReader((run / "metrics.csv").open())
            if int(r["step"]) % 250_000 == 0]
    line = next(ln for ln in text.splitlines() if ln.startswith("| objectives as features | 0"))
    assert [float(q) for q in line.split("|")[2:-1]] == [
        float(r["win_rate_vs_heuristic"]) for r in rows] and len(rows) == 13
    result = json.loads((run / "eval.json").read_text())
    assert result["total_steps"] >= 3_000_000
    cells = {}
    for name in ("origin-mlp-objectives-s0", "base"):
        held = json.loads((OBJECTIVES / name / "heldout.json").read_text())
        assert held["games"] == 800 and [p["seed"] for p in held["per_seed"]] == [
            2041120440, 2042120440]
        ladder = json.loads((OBJECTIVES / name / "ladder-seed.json").read_text())
        assert ladder["seed"] == 2026120340 and ladder["agents"][0]["games"] == 400
        cells[name] = [_quoted(held["agents"][0]), _quoted(ladder["agents"][0])]
    mine = next(ln for ln in text.splitlines() if ln.startswith("| objectives as features ("))
    assert [c.strip().strip("*") for c in mine.split("|")[2:5]] == [
        figure(result, "vs_heuristic"), *cells["origin-mlp-objectives-s0"]]
    shaped = next(ln for ln in text.splitlines()
                  if ln.startswith("| the shaped MLP, on the same games |"))
    assert [c.strip().strip("*") for c in shaped.split("|")[3:5]] == cells["base"]


def test_the_points_tables_of_the_objectives_and_hunting_runs_are_their_files():
    """docs/learning.md's tables of where the points go and of the hunting tokens within
    reach are points.json (against the bots) and points-vs-random.json, row by row."""
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8").splitlines()

    def rows_after(header: str, count: int) -> list[list[str]]:
        start = learning.index(next(ln for ln in learning if ln.startswith(header)))
        return [[c.strip() for c in ln.split("|")[2:-1]]
                for ln in learning[start + 2:start + 2 + count]]

    points = json.loads((OBJECTIVES / "points.json").read_text())
    assert list(points) == ["base", "s0", "hunting"]
    sources = ["objectives", "hunting_tokens", "tiles", "cards_in_hand", "total"]
    rows = rows_after("| agent, against two heuristic bots | objectives | hunting tokens |", 6)
    for (agent_row, bots_row), table in zip(zip(rows[::2], rows[1::2], strict=True), points.values(),
                                            strict=True):
        for cells, who in ((agent_row, table["agent"]), (bots_row, table["heuristic"])):
            assert cells == [f"{who[s]:.1f}" for s in sources] + [
                f"{who['objectives_completed']:.2f}",
                f"{who['hunt_chances_taken']:.2f} of {who['hunt_chances']:.2f}",
                f"{who.get('evolve_green', 0):.2f}", f"{who.get('evolve_yellow', 0):.2f}"]
        assert table["agent"]["seats"] == 400 and table["heuristic"]["seats"] == 800
    random = json.loads((OBJECTIVES / "points-vs-random.json").read_text())["s0-vs-random"]
    agent = random["agent"]
    row = rows_after("| agent, against two random players |", 3)[2]
    assert row == [f"{agent[s]:.1f}" for s in ("objectives", "hunting_tokens",
                                               "strait_tokens", "tiles", "total")] + [
        f"{agent['objectives_completed']:.2f}", f"{agent['objective_chances_missed']:.2f}"]


STRUCTURED = ROOT / "docs" / "benchmarks" / "learning" / "structured-2026-12-06"


def _row(text: str, start: str) -> list[str]:
    """The cells after the first of the table row of docs/learning.md that starts so."""
    line = next(ln for ln in text.splitlines() if ln.startswith(start))
    return [c.strip().strip("*") for c in line.split("|")[2:-1]]


def test_the_structured_soup_runs_are_the_default_but_their_network_and_are_quoted():
    """structured-2026-12-06/soup.sh: configs/primordial_soup/structured.yaml, the default
    config but for the encoder and the network; docs/learning.md's curve and selection rows,
    its held-out table (three seeds, the MLP default's three agents on the same game seeds,
    the first two and all three pooled) and README's pooled figures are the files."""
    import csv

    default = load_config("primordial_soup/default").to_dict()
    structured = load_config("primordial_soup/structured").to_dict()
    assert structured["encoder"] == "graph" and structured["network"]["policy"] == "structured"
    assert {k: v for k, v in structured.items() if k not in ("encoder", "network")} == {
        k: v for k, v in default.items() if k not in ("encoder", "network")}
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    held = {}
    for seed in (0, 1, 2):
        run = STRUCTURED / f"soup-structured-s{seed}"
        assert load_config(run / "config.yaml").to_dict() == dict(structured, seed=seed)
        # the MLP's seeds 0 and 1 are the 2M `make train` runs; seed 2 is soup.sh's with NET=mlp
        mlp = HELD_2M / f"primordial_soup_seed{seed}" if seed < 2 else STRUCTURED / "soup-mlp-s2"
        assert load_config(mlp / "config.yaml").to_dict() == dict(default, seed=seed)
        for folder, start in ((run, f"| structured, seed {seed} |"),
                              (mlp, f"| MLP (the default), seed {seed} |")):
            rows = [r for r in csv.DictReader((folder / "metrics.csv").open())
                    if int(r["step"]) % 500_000 == 0]
            selection = json.loads((folder / "selection.json").read_text())
            assert _row(text, start) == [
                f"{float(r['win_rate_vs_heuristic']):.2f}" for r in rows] + [
                " / ".join(f"{c['win_rate']:.3f}" for c in selection["candidates"])]
        for name in ("structured", "mlp"):
            result = json.loads((STRUCTURED / f"soup-{name}-s{seed}" / "heldout.json").read_text())
            assert result["games"] == 800 and [p["seed"] for p in result["per_seed"]] == [
                2043120440, 2044120440]
            held.setdefault(name, []).append(result["agents"][0])
    for name, start in (("structured", "| structured |"), ("mlp", "| MLP (the default) |")):
        assert _row(text, start) == [_quoted(a) for a in held[name]] + [
            _pooled(held[name][:2])[1], _pooled(held[name])[1]]


def test_the_structured_origin_run_with_the_heavier_shaping_is_its_twin_and_quoted():
    """structured-2026-12-06/origin-shaping.sh: the 3M-step structured run's config with
    shaping 0.25 alone; its curve row, final table and held-out figure (the other 3M runs'
    seeds, 800 games) in docs/learning.md are the files."""
    import csv

    run = STRUCTURED / "origin-structured-shaping"
    twin = load_config(SCRATCH_LONG / "origin-structured-long" / "config.yaml").to_dict()
    assert load_config(run / "config.yaml").to_dict() == dict(twin, shaping=0.25)
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    rows = [r for r in csv.DictReader((run / "metrics.csv").open())
            if int(r["step"]) % 250_000 == 0]
    assert [float(q) for q in _row(text, "| structured, shaping 0.25 | 0")] == [
        float(r["win_rate_vs_heuristic"]) for r in rows] and len(rows) == 13
    result = json.loads((run / "eval.json").read_text())
    held = json.loads((run / "heldout.json").read_text())
    assert held["games"] == 800 and [p["seed"] for p in held["per_seed"]] == [
        2037120440, 2038120440]
    assert result["total_steps"] >= 3_000_000
    assert _row(text, "| structured, shaping 0.25 (below) |")[:2] == [
        figure(result, "vs_heuristic"), _quoted(held["agents"][0])]


LONG = ROOT / "docs" / "benchmarks" / "learning" / "long-2026-12-06"


def test_the_long_run_is_the_shaped_mlp_trained_on_and_its_figures_are_quoted():
    """long-2026-12-06/run.sh: the shaped MLP's config and seed but for its length and the
    evaluations' and snapshots' spacing, so its first 3M steps are that run's (the
    evaluations they share read the same); docs/learning.md's table is the run's own
    evaluations and every snapshot's 800 held-out games (seeds 2049120440 + 2050120440)."""
    base = load_config(SCRATCH_LONG / "origin-mlp-shaping" / "config.yaml").to_dict()
    long = load_config(LONG / "run" / "config.yaml").to_dict()
    assert {k for k in base if base[k] != long[k]} == {"total_steps", "eval",
                                                       "checkpoint_every"}
    assert long["eval"] == {**base["eval"], "every": 500_000}
    own = {int(r["step"]): r["win_rate_vs_heuristic"]
           for r in csv.DictReader((LONG / "run" / "metrics.csv").open())}
    shaped = {int(r["step"]): r["win_rate_vs_heuristic"] for r in csv.DictReader(
        (SCRATCH_LONG / "origin-mlp-shaping" / "metrics.csv").open())}
    shared = [s for s in own if s in shaped and s <= 3_000_000]
    assert len(shared) == 7 and all(own[s] == shaped[s] for s in shared)
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    held = sorted(LONG.glob("heldout/step_*.json"), key=lambda p: int(p.stem.split("_")[1]))
    assert len(held) >= 12
    for path in held:
        step = int(path.stem.split("_")[1])
        result = json.loads(path.read_text())
        assert result["games"] == 800 and [p["seed"] for p in result["per_seed"]] == [
            2049120440, 2050120440]
        assert result["agents"][0]["agent"].endswith(f"step_{step}.zip")
        if step % 500_000:  # the resumed run's snapshots, 500k apart from 7,024,640
            label = f"{step:,}"
        else:
            label = f"{step / 1e6:g}M" if step >= 1_000_000 else f"{step // 1000}k"
        cells = _row(text, f"| {label} | ")
        assert float(cells[0]) == float(own[step])
        assert cells[1] == _quoted(result["agents"][0])


def test_the_search_over_the_shaped_mlp_is_quoted():
    """long-2026-12-06/search.sh: the shaped MLP alone and guiding PUCT (no heuristic in the
    search) on the same games; the 100-simulation row pools its two seeds' runs."""
    search = LONG / "search"
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    raw = json.loads((search / "raw.json").read_text())
    net = "docs/benchmarks/learning/scratch-2026-12-06/origin-mlp-shaping/origin-3p-mlp-shaping.zip"
    assert raw["agents"][0]["agent"] == f"ppo:{net}"
    for name, start in (("raw", "| the network alone (`ppo:`) |"),
                        ("mcts-25", "| PUCT, 25 simulations (`"),
                        ("mcts-25-temp3", "| PUCT, 25 simulations, priors at temperature 3")):
        result = json.loads((search / f"{name}.json").read_text())
        assert [p["seed"] for p in result["per_seed"]] == [2047120440, 2048120440]
        assert net in result["agents"][0]["agent"]
        assert _row(text, start)[:2] == ["400", _quoted(result["agents"][0])]
    runs = [json.loads((search / f"mcts-100-{s}.json").read_text()) for s in (2047, 2048)]
    assert [r["seed"] for r in runs] == [2047120440, 2048120440]
    assert all(r["agents"][0]["agent"] == f"mcts:sims=100,net={net},batch=8" for r in runs)
    games, pooled = _pooled([r["agents"][0] for r in runs])
    assert _row(text, "| PUCT, 100 simulations (two runs")[:2] == [str(games), pooled]
    m200 = json.loads((search / "mcts-200.json").read_text())
    assert m200["seed"] == 2047120440 and m200["games"] == 200
    assert m200["agents"][0]["agent"] == f"mcts:sims=200,net={net},batch=8"
    assert _row(text, "| PUCT, 200 simulations")[:2] == ["200", _quoted(m200["agents"][0])]
    first = _row(text, "| the first seed's 200 games")
    assert first[1] == "; ".join([_quoted(raw["per_seed"][0]["agents"][0]),
                                 _quoted(runs[0]["agents"][0])])


def test_the_snapshot_average_is_the_mean_of_the_weights_and_plays(tmp_path):
    """long-2026-12-06/average.py: the mean of two of the long run's policies (its resumable
    checkpoint in float32 and a float16 snapshot) is each float tensor's mean, loads through
    the package's loader and plays; a single snapshot or another network is refused."""
    import importlib.util
    import io
    import zipfile

    import torch

    from primeval.training.evaluate import tournament

    spec = importlib.util.spec_from_file_location("average", LONG / "average.py")
    average = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(average)
    a = str(LONG / "run" / "checkpoints" / "latest.zip")
    b = str(LONG / "origin-3p-mlp-shaping-7m.zip")
    out = tmp_path / "mean.zip"
    average.average(str(out), [a, b])

    def weights(path):
        with zipfile.ZipFile(path) as z:
            return torch.load(io.BytesIO(z.read("policy.pth")), weights_only=True)

    wa, wb, mean = weights(a), weights(b), weights(out)
    floats = [k for k in wa if wa[k].is_floating_point()]
    assert floats and not torch.equal(wa[floats[0]], wb[floats[0]].float())
    for k in floats:
        assert torch.allclose(mean[k], (wa[k].float() + wb[k].float()) / 2)
    results = tournament("origin", 3, [f"ppo:{out}", "heuristic", "heuristic"], 3)
    assert results[0].games == 3
    with pytest.raises(SystemExit, match="at least two"):
        average.average(str(tmp_path / "one.zip"), [a])
    other = str(ROOT / "training" / "benchmark" / "zoo_files" / "origin-3p-ppo.zip")
    with pytest.raises(SystemExit, match="not the same network"):
        average.average(str(tmp_path / "bad.zip"), [a, other])
    assert not (tmp_path / "bad.zip").exists()


def test_the_search_over_the_7m_network_is_quoted():
    """search.sh's second half: the 7M network alone and guiding PUCT (100 simulations) on
    the same 200 games at each of two seeds; the rows pool them and quote each seed."""
    search = LONG / "search"
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    net = "docs/benchmarks/learning/long-2026-12-06/origin-3p-mlp-shaping-7m.zip"
    raw = [json.loads((search / f"raw-7m-{s}.json").read_text()) for s in (2051, 2054)]
    mcts = [json.loads((search / f"mcts-100-7m-{s}.json").read_text()) for s in (2051, 2054)]
    for runs, spec in ((raw, f"ppo:{net}"), (mcts, f"mcts:sims=100,net={net},batch=8")):
        assert [r["seed"] for r in runs] == [2051120440, 2054120440]
        assert all(r["games"] == 200 and r["agents"][0]["agent"] == spec for r in runs)
    for runs, start in ((raw, "| the network alone (`ppo:`), two runs of 200 |"),
                        (mcts, "| PUCT, 100 simulations, the same games |")):
        games, pooled = _pooled([r["agents"][0] for r in runs])
        assert _row(text, start)[:2] == [str(games), pooled]
    for i, start in enumerate(("| the first seed: the network alone;",
                               "| the second seed: the network alone;")):
        assert _row(text, start)[1] == "; ".join(
            [_quoted(raw[i]["agents"][0]), _quoted(mcts[i]["agents"][0])])


def test_the_snapshot_means_are_chosen_on_one_set_of_seeds_and_quoted_on_another():
    """average.sh: the last policy and two snapshot means, chosen on the snapshots' 800
    held-out games (2049120440 + 2050120440) and reported on 1,600 others (2055120440 to
    2058120440); docs/learning.md's table quotes the files, the chosen mean is the one that
    read highest where the choice was made, and its float16 copy (the zoo's member until the
    second resumption replaced it) played the same games alike."""
    avg = LONG / "average"
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    last = json.loads((LONG / "heldout" / "step_12500992.json").read_text())
    select = {n: json.loads((avg / f"{n}-select.json").read_text()) for n in ("last5", "all12")}
    report = {n: json.loads((avg / f"{n}-report.json").read_text())
              for n in ("final", "last5", "all12")}
    for result in select.values():
        assert [p["seed"] for p in result["per_seed"]] == [2049120440, 2050120440]
    for result in report.values():
        assert result["games"] == 1600 and [p["seed"] for p in result["per_seed"]] == [
            2055120440, 2056120440, 2057120440, 2058120440]
    assert report["final"]["agents"][0]["agent"] == last["agents"][0]["agent"]
    chosen = max([("final", last), *select.items()], key=lambda kv: kv[1]["agents"][0]["win_rate"])
    assert chosen[0] == "all12"
    for name, choice, start in (("final", last, "| the last policy (12,500,992 steps) |"),
                                ("last5", select["last5"], "| the mean of the last five"),
                                ("all12", select["all12"], "| **the mean of all twelve")):
        assert _row(text, start)[:2] == [_quoted(choice["agents"][0]),
                                         _quoted(report[name]["agents"][0])]
    figure = _quoted(report["all12"]["agents"][0])
    assert f"**{figure}**" in text
    stored = json.loads((avg / "zoo-float16-report.json").read_text())
    assert stored["agents"][0]["agent"] == "zoo:origin-3p/ppo-alone"  # the member then
    assert [p["seed"] for p in stored["per_seed"]] == [p["seed"] for p in
                                                       report["all12"]["per_seed"]]
    assert _quoted(stored["agents"][0]) == figure  # float16 plays these games as float32 did


def test_the_second_resumptions_means_are_chosen_on_one_set_of_seeds_and_quoted_on_another():
    """continue.sh: the run resumed from 12.5M to 18M steps; the last policy and three
    means chosen on the snapshots' 800 held-out games and reported on 1,600 others (2059120440
    to 2062120440); docs/learning.md's table, the README and the zoo member quote the files,
    the chosen mean read highest where the choice was made, and it replaced the member only
    because it read higher there than the member had."""
    cont = LONG / "continue"
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    last = json.loads((LONG / "heldout" / "step_18000992.json").read_text())
    select = {n: json.loads((cont / f"{n}-select.json").read_text())
              for n in ("last5", "last12", "all")}
    report = {n: json.loads((cont / f"{n}-report.json").read_text())
              for n in ("final", "last5", "last12", "all", "zoo")}
    for result in select.values():
        assert [p["seed"] for p in result["per_seed"]] == [2049120440, 2050120440]
    for result in report.values():
        assert result["games"] == 1600 and [p["seed"] for p in result["per_seed"]] == [
            2059120440, 2060120440, 2061120440, 2062120440]
    assert report["final"]["agents"][0]["agent"].endswith("final.zip")
    assert report["zoo"]["agents"][0]["agent"] == "zoo:origin-3p/ppo-alone"
    chosen = max([("final", last), *select.items()], key=lambda kv: kv[1]["agents"][0]["win_rate"])
    assert chosen[0] == "all"
    before = json.loads((LONG / "average" / "all12-select.json").read_text())
    assert select["all"]["agents"][0]["win_rate"] > before["agents"][0]["win_rate"]
    for name, choice, start in (
            ("final", last, "| the last policy (18,000,992 steps) |"),
            ("last5", select["last5"], "| the mean of the last five (16,000,992"),
            ("last12", select["last12"], "| the mean of the last twelve (here"),
            ("all", select["all"], "| **the mean of every policy of the stretch"),
            ("zoo", before, "| the zoo's member until now")):
        assert _row(text, start)[:2] == [_quoted(choice["agents"][0]),
                                         _quoted(report[name]["agents"][0])]
    figure = _quoted(report["all"]["agents"][0])
    assert f"**{figure}**" in readme
    from primeval.training.benchmark.zoo import manifest
    from primeval.training.config import build
    from primeval.training.ppo.config import TrainConfig

    entry = next(e for e in manifest()["members"] if (e["task"], e["name"]) == (
        "origin-3p", "ppo-alone"))
    assert figure in entry["notes"] and "continue.sh" in entry["command"]
    stored = json.loads((cont / "zoo-float16-report.json").read_text())
    assert stored["agents"][0]["agent"] == "zoo:origin-3p/ppo-alone"
    assert [p["seed"] for p in stored["per_seed"]] == [p["seed"] for p in
                                                       report["all"]["per_seed"]]
    assert _quoted(stored["agents"][0]) == figure  # float16 plays these games as float32 did
    # the run's config, as the member's (a field added since takes its default)
    assert build(TrainConfig, entry["config"], "") == load_config(LONG / "run" / "config.yaml")


def test_select_average_on_the_soup_default_is_its_files():
    """average-2026-12-06/soup.sh: the default config, seed 0, with select.average=3 only;
    the selection's four rates and the held-out figures of the final policy and the mean
    are quoted in docs/learning.md."""
    folder = ROOT / "docs" / "benchmarks" / "learning" / "average-2026-12-06" / "soup-s0"
    text = " ".join((ROOT / "docs" / "learning.md").read_text(encoding="utf-8").split())
    assert load_config(folder / "config.yaml") == load_config(
        ROOT / "configs" / "primordial_soup" / "default.yaml", seed=0,
        **{"select.average": 3})
    selection = json.loads((folder / "selection.json").read_text())
    rates = [c["win_rate"] for c in selection["candidates"]]
    assert [c.get("mean_of") for c in selection["candidates"]][-1] == [
        1000000, 1500000, 2000896]
    assert selection["file"] is None  # the final policy shipped
    assert "the selection games read {:.3f} / {:.3f} / {:.3f} for 1M / 1.5M / the end".format(
        *rates[:3]) in text
    assert f"**{rates[3]:.3f} for the mean of the three**" in text
    for name, words in (("final", "the final policy won"), ("average", "and the mean")):
        report = json.loads((folder / f"{name}-report.json").read_text())
        assert report["games"] == 1600 and [p["seed"] for p in report["per_seed"]] == [
            2063120440, 2064120440, 2065120440, 2066120440]
        assert f"{words} **{_quoted(report['agents'][0])}**" in text


def test_the_shipped_learned_alone_config_is_the_zoo_members_run():
    """configs/origin/alone.yaml is the run behind zoo:origin-3p/ppo-alone (its saved
    config) but for the length it reached (18M steps) and the mean of its last twelve
    policies, which its evaluations' snapshots (every 500k steps) make 12.5M to 18M."""
    long = ROOT / "docs" / "benchmarks" / "learning" / "long-2026-12-06"
    shipped = load_config(ROOT / "configs" / "origin" / "alone.yaml")
    assert shipped == load_config(long / "run" / "config.yaml", total_steps=18_000_000,
                                  **{"select.average": 12})
    assert shipped.prior.agent == "none" and shipped.pretrain.games == 0  # learned alone
    snapshots = range(shipped.eval.every, shipped.total_steps, shipped.eval.every)
    averaged = [*snapshots[-(shipped.select.average - 1):], shipped.total_steps]
    assert (averaged[0], len(averaged)) == (12_500_000, 12)


def _one_knob_run(folder: Path, label: str, steps: int, fresh_name: str,
                  fresh_seeds: list[int], **override) -> str:
    """A one-knob run of the shaped MLP in ``folder``: its config is the shaped MLP's at
    ``steps`` with ``override``; docs/learning.md's curve row and final-table row (own
    evaluation, the long run's snapshot games, the fresh games) are its files. Returns
    docs/learning.md's text."""
    import csv

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
        figure(result, "vs_heuristic"), _quoted(snap["agents"][0]), _quoted(fresh["agents"][0])]
    return text


@pytest.mark.parametrize("name, steps, label", [("lr15m", 1_500_000, "linear to 0 at 1.5M"),
                                                ("lr3m", 3_000_000, "linear to 0 at 3M")])
def test_the_falling_step_size_runs_are_the_shaped_mlp_but_one_knob_and_quoted(
        name, steps, label):
    """lr-2026-12-06/run.sh: the shaped MLP's config with ppo.lr_schedule=linear (and its
    length), quoted as its files, beside the long run's snapshot at the same step and the
    shaped MLP's agent on the same games."""
    here = ROOT / "docs" / "benchmarks" / "learning" / "lr-2026-12-06"
    assert load_config(SCRATCH_LONG / "origin-mlp-shaping" / "config.yaml").ppo.lr_schedule == (
        "constant")
    text = _one_knob_run(here / name, label, steps, "heldout-2067.json",
                         [2067120440, 2068120440], **{"ppo.lr_schedule": "linear"})
    long = ROOT / "docs" / "benchmarks" / "learning" / "long-2026-12-06" / "heldout"
    constant = json.loads((long / f"step_{steps}.json").read_text())
    assert [p["seed"] for p in constant["per_seed"]] == [2049120440, 2050120440]
    row = next(ln for ln in text.splitlines()
               if ln.startswith(f"| constant, {steps / 1e6:g}M steps"))
    assert _quoted(constant["agents"][0]) in row
    if steps == 3_000_000:  # the shaped MLP's own agent on the fresh games
        base_fresh = json.loads((here / "base" / "heldout-2067.json").read_text())
        assert [p["seed"] for p in base_fresh["per_seed"]] == [2067120440, 2068120440]
        assert _quoted(base_fresh["agents"][0]) in row


@pytest.mark.parametrize("name, override, label", [
    ("lr1e3", {"ppo.learning_rate": 0.001}, "step size 1e-3"),
    ("epochs10", {"ppo.n_epochs": 10}, "ten epochs a rollout")])
def test_the_1_5m_sample_efficiency_runs_are_the_shaped_mlp_but_one_knob_and_quoted(
        name, override, label):
    """sample-2026-12-07/run.sh: the shaped MLP's config at 1.5M steps with one PPO knob,
    quoted as its files."""
    here = ROOT / "docs" / "benchmarks" / "learning" / "sample-2026-12-07"
    _one_knob_run(here / name, label, 1_500_000, "heldout-2069.json",
                  [2069120440, 2070120440], **override)


@pytest.mark.parametrize("name, override, label", [
    ("gamma99", {"ppo.gamma": 0.99}, "discount 0.99"),
    ("net128", {"network.net_arch": [128, 128]}, "hidden layers of 128"),
    ("bf16", {"ppo.update_dtype": "bfloat16"}, "update in bfloat16"),
    ("bf16-s1", {"ppo.update_dtype": "bfloat16", "seed": 1}, "seed 1, update in bfloat16"),
    ("f32-s1", {"seed": 1}, "seed 1, float32")])
def test_the_horizon_and_network_size_runs_are_the_shaped_mlp_but_one_knob_and_quoted(
        name, override, label):
    """knobs-2026-12-07/run.sh: the shaped MLP's config at 1.5M steps with a shorter horizon,
    a smaller network or an update in bfloat16, quoted as its files."""
    here = ROOT / "docs" / "benchmarks" / "learning" / "knobs-2026-12-07"
    _one_knob_run(here / name, label, 1_500_000, "heldout-2071.json",
                  [2071120440, 2072120440], **override)


def test_the_scratch_config_is_its_runs_and_quoted():
    """configs/origin/scratch.yaml is the learned-alone recipe (configs/origin/alone.yaml)
    sized to `make train`'s 30 minutes on 2 cores, and the runs in scratch-2026-12-07 are
    that config at training seeds 0 and 1; docs/learning.md quotes their curves, final
    tables, held-out figures and times from their files, and both seeds pooled."""
    here = ROOT / "docs" / "benchmarks" / "learning" / "scratch-2026-12-07"
    shipped = load_config(ROOT / "configs" / "origin" / "scratch.yaml")
    assert shipped == load_config(ROOT / "configs" / "origin" / "alone.yaml",
                                  total_steps=1_700_000, torch_threads=2,
                                  **{"select.average": 0, "ppo.update_dtype": "bfloat16"})
    text = " ".join((ROOT / "docs" / "learning.md").read_text(encoding="utf-8").split())
    held = {"snapshot-seeds.json": ([2049120440, 2050120440], []),
            "heldout-2073.json": ([2073120440, 2074120440], [])}
    for seed, folder, label in ((0, here / "run", "(1.7M steps, 20 minutes)"),
                                (1, here / "run-s1", "training seed 1 (18 minutes)")):
        assert load_config(folder / "config.yaml") == load_config(
            ROOT / "configs" / "origin" / "scratch.yaml", seed=seed)
        rows = list(csv.DictReader((folder / "metrics.csv").open()))
        result = json.loads((folder / "eval.json").read_text())
        assert int(rows[-1]["step"]) == result["total_steps"] == 1_701_888
        curve = " | ".join(f"{float(r['win_rate_vs_heuristic']):.3f}".rstrip("0").ljust(4, "0")
                           for r in rows[:-1])
        assert (f"| `origin/scratch`, seed {seed} | {curve} | "
                f"{figure(result, 'vs_heuristic')} |") in text
        minutes, seconds = divmod(round(result["train_seconds"]), 60)
        assert (f"training {minutes} min {seconds} s at "
                f"{result['env_steps_per_second']:,.0f} env steps/s") in text
        quoted = []
        for name, (seeds, agents) in held.items():
            report = json.loads((folder / name).read_text())
            assert [p["seed"] for p in report["per_seed"]] == seeds
            assert report["games"] == 800
            agents.append(report["agents"][0])
            quoted.append(_quoted(report["agents"][0]))
        assert f"| `origin/scratch`{',' if seed else ''} {label} | {quoted[0]} | {quoted[1]} |" \
            in text
    pooled = [_pooled(agents) for _seeds, agents in held.values()]
    assert [games for games, _ in pooled] == [1600, 1600]
    assert (f"| both training seeds (1,600 games) | {pooled[0][1]} | **{pooled[1][1]}** |"
            in text)
    assert f"18 to 20 minutes) {pooled[1][1]} over 1,600 fresh games and two training" in text


COLLECT = ROOT / "docs" / "benchmarks" / "learning" / "collect-2026-12-07"


def test_the_runs_collected_in_parts_are_the_default_so_and_quoted():
    """docs/learning.md's runs of Primordial Soup's default collected in parts: each is the
    shipped default config but ``workers: 2, collect: rollout`` (at its seed), held out at
    the same three fresh evaluation seeds; each run's and the pooled figure are quoted."""
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    agents = []
    folders = sorted(COLLECT.glob("seed*"))
    assert len(folders) >= 2
    for folder in folders:
        run = json.loads((folder / "eval.json").read_text())
        saved = load_config(folder / "config.yaml").to_dict()
        shipped = load_config(ROOT / "configs" / "primordial_soup" / "default.yaml",
                              seed=run["seed"], workers=2, collect="rollout").to_dict()
        assert saved == shipped
        held = json.loads((folder / "heldout.json").read_text())
        assert held["seeds"] == [2075120440, 2076120440, 2077120440]
        agent = held["agents"][0]
        assert agent["games"] == 1200 and _quoted(agent) in learning, folder
        agents.append(agent)
    assert _pooled(agents)[1] in learning


def test_the_runs_collected_step_by_step_beside_them_are_the_default_and_quoted():
    """Beside them, the default collected step by step on the same CPU at training seeds 0-7,
    held out on the very games: seeds 2 to 7 trained for the comparison (their folders: the
    shipped default config at the seed), seeds 0 and 1 the shipped 2M agents; each run's
    figure and the pooled figure of the eight are quoted."""
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    agents = []
    for folder in sorted(COLLECT.glob("step-seed*")):
        if folder.is_dir():
            run = json.loads((folder / "eval.json").read_text())
            saved = load_config(folder / "config.yaml").to_dict()
            shipped = load_config(ROOT / "configs" / "primordial_soup" / "default.yaml",
                                  seed=run["seed"]).to_dict()
            assert saved == shipped
            held = json.loads((folder / "heldout.json").read_text())
        else:
            held = json.loads(folder.read_text())
        assert held["seeds"] == [2075120440, 2076120440, 2077120440]
        agent = held["agents"][0]
        assert agent["games"] == 1200 and _quoted(agent) in learning, folder
        agents.append(agent)
    assert len(agents) == 8
    assert _pooled(agents)[1] in learning


COLLECT_ORIGIN = ROOT / "docs" / "benchmarks" / "learning" / "collect-origin-2026-12-07"


def test_origins_default_collected_in_parts_and_step_by_step_is_quoted():
    """docs/learning.md's runs of Origin's default, two collected in parts on both cores and
    two step by step at the same training seeds: each is the shipped default config (with
    ``workers: 2, collect: rollout`` for the first two), held out at the same three fresh
    evaluation seeds; each run's figure and each way's pooled figure are quoted."""
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    ways: dict[str, list[dict]] = {"seed": [], "step-seed": []}
    for way, agents in ways.items():
        for folder in sorted(COLLECT_ORIGIN.glob(f"{way}[0-9]*")):
            run = json.loads((folder / "eval.json").read_text())
            extra = {"workers": 2, "collect": "rollout"} if way == "seed" else {}
            saved = load_config(folder / "config.yaml").to_dict()
            shipped = load_config(ROOT / "configs" / "origin" / "default.yaml",
                                  seed=run["seed"], **extra).to_dict()
            assert saved == shipped, folder
            held = json.loads((folder / "heldout.json").read_text())
            assert held["seeds"] == [2078120440, 2079120440, 2080120440]
            agent = held["agents"][0]
            assert agent["games"] == 1200 and _quoted(agent) in learning, folder
            agents.append(agent)
        assert len(agents) == 2, way
        assert _pooled(agents)[1] in learning
    heuristic = json.loads((COLLECT_ORIGIN / "heuristic-heldout.json").read_text())
    assert heuristic["seeds"] == [2078120440, 2079120440, 2080120440]
    assert heuristic["agents"][0]["agent"] == "heuristic#1"
    assert f"| the heuristic in its seats | | | | | {_quoted(heuristic['agents'][0])} |" in learning


def test_the_comparison_of_the_two_ways_quoted_is_what_compare_py_computes():
    """docs/learning.md's tests of the two ways of collecting (the rank test of the runs, the
    signed-rank test of the pairs, each pair's difference) are what
    ``collect-2026-12-07/compare.py`` computes from the saved runs; for Origin the step
    runs' lead over the runs in parts at each seed."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("compare", COLLECT / "compare.py")
    compare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compare)
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    soup = compare.compare(COLLECT)
    flat = " ".join(learning.split())
    assert sorted(soup["pairs"]) == list(range(8))
    assert f"eight against eight gives p = {soup['rank_p']:.2f}" in flat
    assert f"eight pairs p = {soup['pairs_p']:.2f}" in flat
    diffs = ", ".join(f"{d:+.2f}".replace("-", "−") for d in soup["pairs"].values())
    assert f"(step minus parts {diffs};" in flat
    origin = compare.compare(COLLECT_ORIGIN)
    leads = " and ".join(f"{d:.3f}" for d in origin["pairs"].values())
    assert f"the runs\nin parts read {leads} below" in learning


def test_the_training_statistics_quoted_are_the_runs_own():
    """docs/learning.md's PPO statistics of the last two pairs (the policy's entropy over
    the third tenth of each run's rollouts, the value loss over the last tenth) are what
    ``collect-2026-12-07/stats.py`` reads from their saved ``train.csv``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("stats", COLLECT / "stats.py")
    stats = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(stats)
    runs = stats.summary(COLLECT)
    assert sorted(runs) == ["seed6", "seed7", "step-seed6", "step-seed7"]
    flat = " ".join((ROOT / "docs" / "learning.md").read_text(encoding="utf-8").split())

    def two(key: str, tenth: int, way: str) -> str:
        values = [-runs[f"{way}seed{s}"][key][tenth] if key.endswith("entropy_loss")
                  else runs[f"{way}seed{s}"][key][tenth] for s in (6, 7)]
        return " and ".join(f"{v:.3f}" for v in values)

    entropy, value = "train/entropy_loss", "train/value_loss"
    assert (f"entropy over the third tenth of the rollouts {two(entropy, 1, '')} in parts "
            f"against {two(entropy, 1, 'step-')} step by step") in flat
    assert (f"value loss over the last tenth {two(value, 3, '')} against "
            f"{two(value, 3, 'step-')}") in flat
