"""Hostile files: crafted checkpoints, run folders that reach outside themselves."""

from __future__ import annotations

import base64
import json
import pickle
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")


class Payload:
    """Unpickling this writes ``marker``: the stand-in for any code a crafted file runs."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('the payload ran')",))


def rewrite_zip(src: Path, dst: Path, replace: dict[str, bytes | None]) -> Path:
    """A copy of zip ``src`` with entries replaced (``None``: removed) or added."""
    with zipfile.ZipFile(src) as old, zipfile.ZipFile(dst, "w") as new:
        for name in old.namelist():
            if name not in replace:
                new.writestr(name, old.read(name))
        for name, data in replace.items():
            if data is not None:
                new.writestr(name, data)
    return dst


def with_payload(src: Path, dst: Path, marker: Path, key: str = "policy_class",
                 keep_entry: bool = False, entry: dict | None = None) -> Path:
    """``src`` with its ``data[key]`` a pickle that writes ``marker`` when unpickled, without
    ``primeval.json`` (unless ``keep_entry``, or ``entry`` replaces it)."""
    with zipfile.ZipFile(src) as archive:
        data = json.loads(archive.read("data"))
    data[key] = {":type:": "<class 'abc.ABCMeta'>",
                 ":serialized:": base64.b64encode(pickle.dumps(Payload(marker))).decode()}
    replace: dict[str, bytes | None] = {"data": json.dumps(data).encode()}
    if entry is not None:
        replace["primeval.json"] = json.dumps(entry).encode()
    elif not keep_entry:
        replace["primeval.json"] = None
    return rewrite_zip(src, dst, replace)


def read_entry(path: Path) -> dict:
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("primeval.json"))


@pytest.fixture(scope="module")
def model_zip(untrained_checkpoint) -> Path:
    """A real (untrained) checkpoint of 3-player Primordial Soup, as the package saves it."""
    return untrained_checkpoint()
