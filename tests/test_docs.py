"""Env docstrings are generated from the code: every action segment and observation piece."""

from __future__ import annotations

import pytest

from primeval.envs import origin_v0, primordial_soup_v0


@pytest.mark.parametrize("module", [primordial_soup_v0, origin_v0])
def test_docstring_matches_the_action_layout_and_encoder_pieces(module):
    env = module.raw_env()
    doc = module.__doc__
    assert "{actions}" not in doc and "{observation}" not in doc
    layout = env.rules.layout
    for segment in layout.segments:
        assert f"{segment.name}" in doc
    assert layout.markdown_table() in doc
    flat = type(env.obs_encoder)(env.rules) if env.obs_encoder.name == "flat" else None
    assert flat is not None
    for name, sl in flat.pieces.items():
        assert f"| `{name}` | {sl.start}..{sl.stop - 1} | {sl.stop - sl.start} |" in doc
    for section in ("## Observation", "## Actions", "## Rewards", "## Arguments",
                    "## Version history"):
        assert section in doc
