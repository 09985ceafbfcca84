"""Writing a run's files so that a killed run never leaves half of one: each file (JSON, a
model, a network's weights, an optimiser's state) written to a temporary ``*.tmp`` name
beside it and renamed over the old one, and CSV rows appended under a header written with
the file's first row. Every trainer (``training.ppo``, ``training.expert``) writes its
checkpoints, ``progress.json``, ``eval.json`` and ``metrics.csv`` through these. And a
logger for SB3 models that keeps no files at all (:func:`quiet_sb3_logger`)."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any


def write_atomically(path: Path, write: Callable[[Path], object]) -> None:
    """``write(tmp)`` writes the file at ``tmp`` (``path``'s name + ``.tmp``, beside it, so
    that no pattern such as ``*.zip`` or ``*.json`` matches it), then it is renamed over
    ``path``: a reader sees the old file or the new, never a part."""
    tmp = path.with_name(path.name + ".tmp")
    write(tmp)
    os.replace(tmp, path)


def atomic_json(data: Any, path: Path) -> None:
    """Write ``data`` as indented JSON to ``path`` atomically (:func:`write_atomically`)."""
    write_atomically(path, lambda tmp: tmp.write_text(json.dumps(data, indent=2),
                                                      encoding="utf-8"))


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
