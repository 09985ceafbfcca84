"""Adding or replacing a trained member of the zoo: one file and one manifest entry.

``python -m primeval.training.benchmark.curate add soup-4p ppo runs/zoo_soup4p --command
"primeval train ..." --commit abc123 --notes "..."`` copies the run's ``model.zip`` into
``zoo_files/`` (compact: :func:`compact_checkpoint`), writes the manifest entry (config, commit, command, notes) and rates the
member on its task (:func:`rate_member`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from primeval.training.benchmark.tasks import TASKS, get_task
from primeval.training.benchmark.zoo import (
    SIZE_BUDGET,
    SPEC_MEMBERS,
    get_member,
    manifest,
    zoo_folder,
    zoo_size,
)


def rate_member(
    member_id: str, games: int | None = None, seed: int | None = None, check_games: int = 40
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The member's rating (its score on its task: the task's games and seed unless given)
    and its check (a short run the slow test repeats: ``check_games`` games, the task's
    seed)."""
    from primeval.training.benchmark.run import run_task

    member = get_member(member_id)
    result = run_task(member.task, member.id, games=games, seed=seed)
    task = TASKS[member.task]
    short = run_task(member.task, member.id, games=check_games - check_games % task.players)
    rating = {
        "task": f"{task.id}",
        **{
            k: result["score"][k] for k in ("win_rate", "win_rate_ci95", "mean_rank", "mean_reward")
        },
        "games": result["games"],
        "seed": result["seed"],
        "duplicate": result["duplicate"],
        "official": result["official"],
        "date": result["date"],
        "machine": {k: result["machine"][k] for k in ("platform", "cpu_count", "load")},
    }
    check = {"games": short["games"], "seed": short["seed"], "win_rate": short["score"]["win_rate"]}
    return rating, check


def compact_checkpoint(src: str | Path, dst: str | Path) -> None:
    """Write ``src`` (a MaskablePPO zip) to ``dst`` in the zoo's compact form: the policy's
    weights in float16 (loading casts them back to float32), the optimizer's state left out
    (its settings kept; playing never reads it) and every entry deflated. About a sixth of
    the size; the safe loader (:mod:`~primeval.training.agents.checkpoint`) reads it as any
    checkpoint. Tensors are read with ``torch.load(weights_only=True)``."""
    import io
    import zipfile

    import torch

    def saved(obj: Any) -> bytes:
        buffer = io.BytesIO()
        torch.save(obj, buffer)
        return buffer.getvalue()

    with (
        zipfile.ZipFile(src) as zin,
        zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout,
    ):
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "policy.optimizer.pth":
                optimizer = torch.load(io.BytesIO(data), weights_only=True)
                data = saved({**optimizer, "state": {}})
            elif info.filename == "policy.pth":
                weights = torch.load(io.BytesIO(data), weights_only=True)
                data = saved(
                    {k: v.half() if v.is_floating_point() else v for k, v in weights.items()}
                )
            zout.writestr(info.filename, data)


def add_member(
    task: str,
    name: str,
    run_dir: str | Path,
    command: str,
    notes: str = "",
    games: int | None = None,
    commit: str | None = None,
) -> dict[str, Any]:
    """Add (or replace) the file member ``zoo:TASK/NAME`` from a ``primeval train`` run
    folder: copy its ``model.zip`` into the zoo, record its config, the commit it was
    trained at (``commit``; default the checkout's now), ``command`` and ``notes``, and rate it (:func:`rate_member`). Checks the
    zoo's size budget. Returns the manifest entry.

    ``python -m primeval.training.benchmark.curate add soup-4p ppo runs/x --command "..."``
    """

    import yaml

    from primeval.training.benchmark.run import git_commit

    task_obj = get_task(task)
    if name in SPEC_MEMBERS:
        raise ValueError(f"{name} is a spec member of every task; choose another name")
    run = Path(run_dir)
    model = run / "model.zip"
    if not model.is_file():
        raise ValueError(f"{run}: no model.zip (is the training run finished?)")
    config = yaml.safe_load((run / "config.yaml").read_text(encoding="utf-8"))
    if config.get("game") != task_obj.game or int(config.get("players", 0)) != task_obj.players:
        raise ValueError(
            f"{run} trained {config.get('game')} with {config.get('players')} "
            f"players; task {task} is {task_obj.game} with {task_obj.players}"
        )
    file = f"{task}-{name}.zip"
    compact_checkpoint(model, zoo_folder() / file)
    data = manifest()
    entries = [e for e in data["members"] if (e["task"], e["name"]) != (task, name)]
    entry = {
        "task": task,
        "name": name,
        "kind": "ppo",
        "file": file,
        "config": config,
        "commit": commit or git_commit(),
        "command": command,
        "notes": notes,
    }
    data["members"] = [*entries, entry]
    write_manifest(data)
    if zoo_size() > SIZE_BUDGET:
        raise ValueError(
            f"the zoo's files take {zoo_size()} bytes, over the budget of {SIZE_BUDGET}"
        )
    entry["rating"], entry["check"] = rate_member(f"zoo:{task}/{name}", games=games)
    data = manifest()  # as it is now (another member may have been added meanwhile)
    data["members"] = [
        entry if (e["task"], e["name"]) == (task, name) else e for e in data["members"]
    ]
    write_manifest(data)
    return entry


def write_manifest(data: dict[str, Any]) -> None:
    (zoo_folder() / "manifest.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="add a trained member to the zoo")
    sub = parser.add_subparsers(dest="what", required=True)
    add = sub.add_parser("add", help="add or replace zoo:TASK/NAME from a training run")
    add.add_argument("task", choices=list(TASKS))
    add.add_argument("name")
    add.add_argument("run_dir")
    add.add_argument("--command", required=True, help="the command that trained it")
    add.add_argument("--notes", default="")
    add.add_argument("--games", type=int, help="rating games (default: the task's)")
    add.add_argument("--commit", help="the commit it was trained at (default: HEAD now)")
    args = parser.parse_args(argv)
    entry = add_member(
        args.task, args.name, args.run_dir, args.command, args.notes, args.games, args.commit
    )
    print(json.dumps({k: entry[k] for k in ("task", "name", "file", "rating", "check")}, indent=2))
    return 0


__all__ = ["add_member", "compact_checkpoint", "rate_member", "write_manifest"]


if __name__ == "__main__":
    raise SystemExit(main())
