"""Origin learned alone (no prior): the 3M runs, the shaped MLP, its one-knob ablations,
the objectives and hunting runs, and the points tables."""

from __future__ import annotations

import csv
import json

import pytest

from primeval.training import config as loader
from primeval.training.ppo.config import TrainConfig, load_config
from tests.learning.common import (
    ABLATIONS,
    HELD_2M,
    LATER_ABLATIONS,
    OBJECTIVES,
    ROOT,
    SCRATCH,
    SCRATCH_LONG,
    figure,
    load_script,
    plays_a_legal_move,
    pool_rates,
    quote_rate,
    table_row,
    with_override,
)


def test_the_origin_3m_scratch_curve_and_table_are_its_files():
    """docs/learning.md's 3M-step Origin MLP learned alone: the final table's figure and every
    point of the curve are the run's files, and the run is the structured comparison's MLP
    twin made 3M steps long (run.sh's overrides, nothing else)."""

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


@pytest.mark.parametrize("seed", [0, 1])
def test_the_2m_default_agents_ship_and_load_as_data(seed):
    """The 2M default's runs ship their agents in float16 beside their held-out games, so
    the figures can be checked without training again (a seed trains another draw on
    another CPU); each loads without unpickling and plays a legal move."""
    zip_path = HELD_2M / f"primordial_soup_seed{seed}" / f"soup-4p-ppo-2m-seed{seed}.zip"
    plays_a_legal_move(zip_path)
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
    assert quote_rate(rating) in benchmark
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
    games, quoted = pool_rates(agents)
    assert games == 800
    assert f"(2028120440, which chose\nnothing) the two runs read {quoted}" in (
        ROOT / "docs" / "learning.md").read_text(encoding="utf-8")


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
    assert quote_rate(held["agents"][0]) in learning and held["agents"][0]["games"] == 800
    ladder = json.loads((run / "ladder-seed.json").read_text())
    assert ladder["seed"] == 2026120340 and quote_rate(ladder["agents"][0]) in learning


def test_the_shaped_mlps_two_seeds_pooled_are_quoted():
    games, quoted = pool_rates([json.loads((SCRATCH_LONG / f / "heldout.json").read_text())
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


@pytest.mark.parametrize("name, override, label", ABLATIONS, ids=[a[0] for a in ABLATIONS])
def test_the_ablations_are_the_shaped_mlp_but_one_knob_and_their_figures_are_quoted(
        name, override, label):
    """Each ablation's saved config is the shaped MLP's but for its one override
    (ablate.sh); docs/learning.md's curve row, the final table at the run's own seed, the
    held-out 800 games (seeds 2039120440 + 2040120440) and the ladder's seed are its files."""

    run = SCRATCH_LONG / f"origin-mlp-shaping-{name}"
    base = load_config(SCRATCH_LONG / "origin-mlp-shaping" / "config.yaml").to_dict()
    assert load_config(run / "config.yaml").to_dict() == with_override(base, override)
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
        figure(result, "vs_heuristic"), quote_rate(held["agents"][0]),
        quote_rate(ladder["agents"][0])]
    assert label in learning


@pytest.mark.parametrize("name, override, label", LATER_ABLATIONS,
                         ids=[a[0] for a in LATER_ABLATIONS])
def test_the_later_ablations_are_the_shaped_mlp_but_one_knob_and_their_figures_are_quoted(
        name, override, label):
    """The self-play opponents and bigger batches: each saved config is the shaped MLP's but
    for its override; docs/learning.md's curve row (the first evaluation at or past each 250k,
    plot.py's every_250k), the final table at the run's own seed, the 800 held-out games
    (seeds 2045120440 + 2046120440, the shaped MLP on the same games), the ladder's seed and
    the mean scores are its files."""
    plot = load_script(SCRATCH_LONG / "plot.py")
    run = SCRATCH_LONG / f"origin-mlp-shaping-{name}"
    base = load_config(SCRATCH_LONG / "origin-mlp-shaping" / "config.yaml").to_dict()
    assert load_config(run / "config.yaml").to_dict() == with_override(base, override)
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    rows = plot.every_250k(run)
    assert len(rows) == 13 and [int(r["step"]) // 250_000 for r in rows] == list(range(13))
    assert [float(q) for q in table_row(text, f"| {label} | 0")] == [
        float(r["win_rate_vs_heuristic"]) for r in rows]
    result = json.loads((run / "eval.json").read_text())
    assert result["total_steps"] >= 3_000_000
    cells = table_row(text, f"| {label} (")
    for folder, row in ((run, cells), (SCRATCH_LONG / "origin-mlp-shaping",
                                       table_row(text, "| the shaped MLP, on these 800 games |"))):
        held = json.loads((folder / "heldout-2045.json").read_text())
        assert held["games"] == 800 and [p["seed"] for p in held["per_seed"]] == [
            2045120440, 2046120440]
        assert row[1] == quote_rate(held["agents"][0])
        assert row[3] == "; ".join([f"{held['agents'][0]['mean_score']:.1f}", ", ".join(
            f"{a['mean_score']:.1f}" for a in held["agents"][1:])])
    ladder = json.loads((run / "ladder-seed.json").read_text())
    assert ladder["seed"] == 2026120340 and ladder["agents"][0]["games"] == 400
    assert cells[:3:2] == [figure(result, "vs_heuristic"), quote_rate(ladder["agents"][0])]
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


def test_the_objectives_run_is_the_shaped_mlp_but_its_encoder_and_its_figures_are_quoted():
    """objectives-2026-12-06/run.sh: the shaped MLP's config with the "flat_objectives"
    encoder; docs/learning.md's curve row, and its final table (own seed, held out at seeds
    2041120440 + 2042120440 with the shaped MLP on the same games, the ladder's seed), are
    the files."""

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
        cells[name] = [quote_rate(held["agents"][0]), quote_rate(ladder["agents"][0])]
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
