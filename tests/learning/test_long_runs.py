"""The structured networks, the long run of the shaped MLP, the search over it, the means of
its snapshots, select's average, the falling step sizes and the other one-knob runs, and
the scratch config `make train` runs."""

from __future__ import annotations

import csv
import json

import pytest

from primeval.training.ppo.config import TrainConfig, load_config
from tests.learning.common import (
    HELD_2M,
    LONG,
    ROOT,
    SCRATCH_LONG,
    STRUCTURED,
    figure,
    load_script,
    one_knob_run,
    pool_rates,
    quote_rate,
    table_row,
)


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
            assert table_row(text, start) == [
                f"{float(r['win_rate_vs_heuristic']):.2f}" for r in rows] + [
                " / ".join(f"{c['win_rate']:.3f}" for c in selection["candidates"])]
        for name in ("structured", "mlp"):
            result = json.loads((STRUCTURED / f"soup-{name}-s{seed}" / "heldout.json").read_text())
            assert result["games"] == 800 and [p["seed"] for p in result["per_seed"]] == [
                2043120440, 2044120440]
            held.setdefault(name, []).append(result["agents"][0])
    for name, start in (("structured", "| structured |"), ("mlp", "| MLP (the default) |")):
        assert table_row(text, start) == [quote_rate(a) for a in held[name]] + [
            pool_rates(held[name][:2])[1], pool_rates(held[name])[1]]


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
    assert [float(q) for q in table_row(text, "| structured, shaping 0.25 | 0")] == [
        float(r["win_rate_vs_heuristic"]) for r in rows] and len(rows) == 13
    result = json.loads((run / "eval.json").read_text())
    held = json.loads((run / "heldout.json").read_text())
    assert held["games"] == 800 and [p["seed"] for p in held["per_seed"]] == [
        2037120440, 2038120440]
    assert result["total_steps"] >= 3_000_000
    assert table_row(text, "| structured, shaping 0.25 (below) |")[:2] == [
        figure(result, "vs_heuristic"), quote_rate(held["agents"][0])]


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
        cells = table_row(text, f"| {label} | ")
        assert float(cells[0]) == float(own[step])
        assert cells[1] == quote_rate(result["agents"][0])


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
        assert table_row(text, start)[:2] == ["400", quote_rate(result["agents"][0])]
    runs = [json.loads((search / f"mcts-100-{s}.json").read_text()) for s in (2047, 2048)]
    assert [r["seed"] for r in runs] == [2047120440, 2048120440]
    assert all(r["agents"][0]["agent"] == f"mcts:sims=100,net={net},batch=8" for r in runs)
    games, pooled = pool_rates([r["agents"][0] for r in runs])
    assert table_row(text, "| PUCT, 100 simulations (two runs")[:2] == [str(games), pooled]
    m200 = json.loads((search / "mcts-200.json").read_text())
    assert m200["seed"] == 2047120440 and m200["games"] == 200
    assert m200["agents"][0]["agent"] == f"mcts:sims=200,net={net},batch=8"
    assert table_row(text, "| PUCT, 200 simulations")[:2] == ["200", quote_rate(m200["agents"][0])]
    first = table_row(text, "| the first seed's 200 games")
    assert first[1] == "; ".join([quote_rate(raw["per_seed"][0]["agents"][0]),
                                 quote_rate(runs[0]["agents"][0])])


def test_the_snapshot_average_is_the_mean_of_the_weights_and_plays(tmp_path):
    """long-2026-12-06/average.py: the mean of two of the long run's policies (its resumable
    checkpoint in float32 and a float16 snapshot) is each float tensor's mean, loads through
    the package's loader and plays; a single snapshot or another network is refused."""
    import io
    import zipfile

    import torch

    from primeval.training.evaluate import tournament

    average = load_script(LONG / "average.py")
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
        games, pooled = pool_rates([r["agents"][0] for r in runs])
        assert table_row(text, start)[:2] == [str(games), pooled]
    for i, start in enumerate(("| the first seed: the network alone;",
                               "| the second seed: the network alone;")):
        assert table_row(text, start)[1] == "; ".join(
            [quote_rate(raw[i]["agents"][0]), quote_rate(mcts[i]["agents"][0])])


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
        assert table_row(text, start)[:2] == [quote_rate(choice["agents"][0]),
                                         quote_rate(report[name]["agents"][0])]
    figure = quote_rate(report["all12"]["agents"][0])
    assert f"**{figure}**" in text
    stored = json.loads((avg / "zoo-float16-report.json").read_text())
    assert stored["agents"][0]["agent"] == "zoo:origin-3p/ppo-alone"  # the member then
    assert [p["seed"] for p in stored["per_seed"]] == [p["seed"] for p in
                                                       report["all12"]["per_seed"]]
    assert quote_rate(stored["agents"][0]) == figure  # float16 plays these games as float32 did


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
        assert table_row(text, start)[:2] == [quote_rate(choice["agents"][0]),
                                         quote_rate(report[name]["agents"][0])]
    figure = quote_rate(report["all"]["agents"][0])
    assert f"**{figure}**" in readme
    from primeval.training.benchmark.zoo import manifest
    from primeval.training.config import build

    entry = next(e for e in manifest()["members"] if (e["task"], e["name"]) == (
        "origin-3p", "ppo-alone"))
    assert figure in entry["notes"] and "continue.sh" in entry["command"]
    stored = json.loads((cont / "zoo-float16-report.json").read_text())
    assert stored["agents"][0]["agent"] == "zoo:origin-3p/ppo-alone"
    assert [p["seed"] for p in stored["per_seed"]] == [p["seed"] for p in
                                                       report["all"]["per_seed"]]
    assert quote_rate(stored["agents"][0]) == figure  # float16 plays these games as float32 did
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
        assert f"{words} **{quote_rate(report['agents'][0])}**" in text


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
    text = one_knob_run(here / name, label, steps, "heldout-2067.json",
                         [2067120440, 2068120440], **{"ppo.lr_schedule": "linear"})
    long = ROOT / "docs" / "benchmarks" / "learning" / "long-2026-12-06" / "heldout"
    constant = json.loads((long / f"step_{steps}.json").read_text())
    assert [p["seed"] for p in constant["per_seed"]] == [2049120440, 2050120440]
    row = next(ln for ln in text.splitlines()
               if ln.startswith(f"| constant, {steps / 1e6:g}M steps"))
    assert quote_rate(constant["agents"][0]) in row
    if steps == 3_000_000:  # the shaped MLP's own agent on the fresh games
        base_fresh = json.loads((here / "base" / "heldout-2067.json").read_text())
        assert [p["seed"] for p in base_fresh["per_seed"]] == [2067120440, 2068120440]
        assert quote_rate(base_fresh["agents"][0]) in row


@pytest.mark.parametrize("name, override, label", [
    ("lr1e3", {"ppo.learning_rate": 0.001}, "step size 1e-3"),
    ("epochs10", {"ppo.n_epochs": 10}, "ten epochs a rollout")])
def test_the_1_5m_sample_efficiency_runs_are_the_shaped_mlp_but_one_knob_and_quoted(
        name, override, label):
    """sample-2026-12-07/run.sh: the shaped MLP's config at 1.5M steps with one PPO knob,
    quoted as its files."""
    here = ROOT / "docs" / "benchmarks" / "learning" / "sample-2026-12-07"
    one_knob_run(here / name, label, 1_500_000, "heldout-2069.json",
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
    one_knob_run(here / name, label, 1_500_000, "heldout-2071.json",
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
            quoted.append(quote_rate(report["agents"][0]))
        assert f"| `origin/scratch`{',' if seed else ''} {label} | {quoted[0]} | {quoted[1]} |" \
            in text
    pooled = [pool_rates(agents) for _seeds, agents in held.values()]
    assert [games for games, _ in pooled] == [1600, 1600]
    assert (f"| both training seeds (1,600 games) | {pooled[0][1]} | **{pooled[1][1]}** |"
            in text)
    assert f"18 to 20 minutes) {pooled[1][1]} over 1,600 fresh games and two training" in text
