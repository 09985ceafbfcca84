"""The search figures docs/learning.md and docs/search.md quote: the network-guided search,
the Origin rollout searches (plain and paired) and their diagnoses."""

from __future__ import annotations

import json
import os

import pytest

from tests.learning.common import (
    DIAGNOSES,
    LONGER,
    PAIRED,
    PAIRED_ROWS,
    ROLLOUTS,
    ROOT,
    pool_rates,
    quote_rate,
    rollout_rows,
)


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
        assert quote_rate(agent) in search, path.name
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
    assert quote_rate(agent) in (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    network = load_network(folder / "origin-3p-distilled-structured.json",
                           expect={"game": "origin", "players": 3})
    assert network.structured == {"entity_hidden": 64, "rounds": 3, "head_hidden": 32}


def test_the_origin_rollout_search_files_are_run_sh_s_rows():
    assert set(rollout_rows()) == {p.stem for p in ROLLOUTS.glob("*.json")}


@pytest.mark.parametrize("path", sorted(ROLLOUTS.glob("*.json")), ids=lambda p: p.stem)
def test_the_origin_rollout_search_figures_are_their_files(path):
    """docs/search.md's Origin rows for the search with rollout leaves: each JSON plays the
    spec run.sh gives it against two heuristic bots, at the probe seed (100 games) or the
    held-out seeds, and its figure is in the row of docs/search.md that names the file."""
    result = json.loads(path.read_text())
    agent, *bots = result["agents"]
    assert result["game"] == "origin" and len(bots) == 2
    assert all(b["agent"].startswith("heuristic#") for b in bots)
    assert agent["agent"] == rollout_rows()[path.stem]
    if path.stem.startswith("probe-"):
        assert result["seed"] == 2026120360 and agent["games"] == 100
    elif "-s20" in path.stem:
        assert result["seed"] == int(path.stem[-10:]) and agent["games"] == 100
    else:
        assert result["seeds"] == [2026120440, 2027120440] and agent["games"] == 400
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    line = next((ln for ln in search.splitlines() if f"`{path.name}`" in ln), None)
    assert line is not None, f"no row of docs/search.md names {path.name}"
    assert quote_rate(agent) in line, (line, path.name)


def test_the_origin_rollout_searchs_pooled_100_simulation_figure():
    """The 100-simulation search's two held-out seeds pooled (200 games), beside its network
    alone on the same games, as docs/search.md quotes them."""
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    for stem in ("heldout-net-mcts-100-rollouts", "heldout-residual-100"):
        games, quoted = pool_rates([json.loads((ROLLOUTS / f"{stem}-s{s}.json").read_text())
                                 ["agents"][0] for s in (2026120440, 2027120440)])
        assert games == 200
        assert quoted in search, stem


def test_the_origin_paired_rollout_files_are_run_sh_s_rows():
    assert set(rollout_rows(PAIRED)) == {p.stem for p in PAIRED_ROWS}
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
    assert agent["agent"] == rollout_rows(PAIRED)[path.stem]
    assert result["seed"] == int(path.stem[-10:])
    assert agent["games"] == (50 if path.stem.startswith("probe-")
                              else 100 if "-d80-" in path.stem
                              or path.stem.startswith(("confirm-", "second-"))
                              else 200)
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    line = next((ln for ln in search.splitlines() if f"`{path.name}`" in ln), None)
    assert line is not None, f"no row of docs/search.md names {path.name}"
    assert quote_rate(agent) in line, (line, path.name)


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
        games, quoted = pool_rates([json.loads((PAIRED / f"{stem}-s{s}.json").read_text())
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
    games, quoted = pool_rates(search_rows)
    alone_games, alone_quoted = pool_rates(alone)
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
