"""Expert iteration over rollout search in Origin: the rows, the pooled figures, the
curves, the confirmed labels, the apprentice that ships."""

from __future__ import annotations

import json
import os

import pytest

from tests.learning.common import (
    APPRENTICE,
    EXIT,
    EXIT_ROWS,
    ROOT,
    exit_rows,
    load_script,
    pool_rates,
    quote_rate,
)


def test_the_expert_iteration_files_are_run_sh_s_rows():
    import re

    script = (EXIT / "run.sh").read_text(encoding="utf-8")
    assert set(exit_rows()) == {p.stem for p in EXIT_ROWS}
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
    assert agent["agent"] == exit_rows()[path.stem]
    assert result["seed"] == int(path.stem[-10:])
    # 400 probe games; 200 a held-out seed at first, 400 at the confirmed labels' seeds; the
    # plain search at the labelling seeds, the first 40 games of each
    first = path.stem.startswith("heldout-") and path.stem.endswith(("2030120440", "2031120440"))
    assert agent["games"] == (40 if path.stem.startswith("plain-") else 200 if first else 400)
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    line = next((ln for ln in search.splitlines() if f"`{path.name}`" in ln), None)
    assert line is not None, f"no line of docs/search.md names {path.name}"
    assert quote_rate(agent) in line, (line, path.name)


def test_the_expert_iteration_pooled_figures_curves_and_diagnosis_are_quoted():
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    learning = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")

    def row(stem):
        return json.loads((EXIT / f"{stem}.json").read_text())["agents"][0]

    for who in ("start", "apprentice"):
        games, quoted = pool_rates([row(f"heldout-{who}-s{s}") for s in (2030120440, 2031120440)])
        assert games == 400 and f"| **{quoted}** |" in search, who
        assert quoted in learning, who
        probe = "start" if who == "start" else "apprentice-lr1e-3"
        games, quoted = pool_rates([row(f"probe-{probe}-s2026140000")]
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
        games, quoted = pool_rates([row(f"heldout-{who}-s{s}") for s in new])
        assert games == 800 and f"| **{quoted}** |" in search and quoted in learning, who
    for who in ("start", "apprentice"):
        games, quoted = pool_rates([row(f"heldout-{who}-s{s}")
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
    plain = pool_rates([json.loads((EXIT / f"plain-search-s{f['seed']}.json").read_text())
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

    finetune = load_script(EXIT / "finetune.py")
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
