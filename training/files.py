"""Writing a run's files so that a killed run never leaves half of one: JSON written to a
temporary ``*.tmp`` name and renamed over the old file, and CSV rows appended under a header
written with the file's first row. Every trainer (``training.ppo``, ``training.expert``)
writes its ``progress.json``, ``eval.json`` and ``metrics.csv`` through these."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any


def atomic_json(data: Any, path: Path) -> None:
    """Write ``data`` as indented JSON to ``path`` atomically (a temporary file, then a
    rename), so that a reader sees the old file or the new, never a part."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.replace(tmp, path)


def append_row(path: Path, fields: tuple[str, ...], row: dict[str, Any]) -> None:
    """Append ``row`` to the CSV file ``path`` with the columns ``fields`` (a key not in
    ``fields`` is an error; a missing one is left empty), writing the header first if the
    file is new."""
    new = not path.exists()
    with path.open("a", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        if new:
            writer.writeheader()
        writer.writerow(row)


def quiet_sb3_logger() -> Any:
    """A logger for an SB3 model that keeps no files: SB3 otherwise makes a new folder in the
    temporary directory (``SB3-<date>``) each time a model without ``tensorboard_log`` starts
    to learn, and leaves it there. Give it with ``model.set_logger(quiet_sb3_logger())``."""
    from stable_baselines3.common.logger import Logger

    return Logger(folder=None, output_formats=[])
