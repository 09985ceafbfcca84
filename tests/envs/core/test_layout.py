"""ActionLayout (flat action ids from named segments) and FeatureBuilder (named features)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

from primeval.envs.core import ActionLayout, FeatureBuilder

START_SPACES = ["start(N)", "start(E)", "start(S)", "start(W)"]


def make_layout() -> ActionLayout:
    return ActionLayout(
        [
            ("choose_start_space", 4, "pick a start space"),
            ("place_amoeba", (7, 19), "(amoeba, space) to place"),
            ("buy_gene", 3),
            ("grid", (2, 3, 4)),
            ("done", 1, "end the current sub-decision"),
        ],
        labels={
            "choose_start_space": START_SPACES,
            "buy_gene": lambda i: f"buy_gene(gene_{i})",
            "grid": lambda ijk: "grid" + "".join(map(str, ijk)),
        },
    )


# -- structure ---------------------------------------------------------------------------


def test_offsets_sizes_and_slices() -> None:
    layout = make_layout()
    assert layout.n == len(layout) == 4 + 133 + 3 + 24 + 1
    assert layout.names == ("choose_start_space", "place_amoeba", "buy_gene", "grid", "done")
    assert [layout.offset(name) for name in layout.names] == [0, 4, 137, 140, 164]
    assert layout.size("place_amoeba") == 133
    assert layout.shape("place_amoeba") == (7, 19)
    assert layout.shape("done") == (1,)
    assert layout.slice("buy_gene") == slice(137, 140)
    assert "grid" in layout and "nope" not in layout
    assert [seg.name for seg in layout.segments] == list(layout.names)


def test_round_trip_over_every_id() -> None:
    layout = make_layout()
    for action in range(layout.n):
        name, index = layout.decode(action)
        assert layout.segment_of(action) == name
        assert layout.encode(name, index) == action
        if isinstance(index, tuple):
            assert layout.encode(name, *index) == action
            assert all(type(i) is int for i in index)
        else:
            assert type(index) is int


def test_decode_returns_int_for_flat_and_tuple_for_shaped_segments() -> None:
    layout = make_layout()
    assert layout.encode("place_amoeba", 2, 5) == 4 + 2 * 19 + 5
    assert layout.decode(4 + 2 * 19 + 5) == ("place_amoeba", (2, 5))
    assert layout.decode(138) == ("buy_gene", 1)
    assert layout.decode(layout.n - 1) == ("done", 0)
    assert layout.encode("done") == layout.n - 1
    assert layout.encode("grid", 1, 2, 3) == 140 + 1 * 12 + 2 * 4 + 3
    assert layout.decode(np.int64(5)) == ("place_amoeba", (0, 1))


def test_encode_errors_name_the_segment_and_range() -> None:
    layout = make_layout()
    with pytest.raises(ValueError, match=r"index 4 out of range for segment 'choose_start_space'"):
        layout.encode("choose_start_space", 4)
    with pytest.raises(ValueError, match=r"valid: 0\.\.3"):
        layout.encode("choose_start_space", -1)
    with pytest.raises(ValueError, match=r"'place_amoeba'.*shape \(7, 19\).*0\.\.6, 0\.\.18"):
        layout.encode("place_amoeba", 7, 0)
    with pytest.raises(ValueError, match=r"expected 2 index value"):
        layout.encode("place_amoeba", 3)
    with pytest.raises(ValueError, match=r"has 3 entries: give an index"):
        layout.encode("buy_gene")
    with pytest.raises(ValueError, match=r"index must be an int"):
        layout.encode("buy_gene", 1.0)
    with pytest.raises(ValueError, match=r"index must be an int"):
        layout.encode("buy_gene", True)
    with pytest.raises(ValueError, match=r"unknown segment 'nope'; segments are: choose_start"):
        layout.encode("nope", 0)


@pytest.mark.parametrize("bad", [-1, 165, 10**9])
def test_decode_rejects_out_of_range(bad: int) -> None:
    with pytest.raises(ValueError, match=r"out of range \[0, 165\)"):
        make_layout().decode(bad)


@pytest.mark.parametrize("bad", [1.0, True, None, "3"])
def test_decode_rejects_non_integers(bad: object) -> None:
    with pytest.raises(ValueError, match=r"must be an int in \[0, 165\)"):
        make_layout().decode(bad)


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        ([("a", 2), ("a", 3)], "duplicate segment name 'a'"),
        ([("a", 0)], "segment 'a' must have a positive size"),
        ([("a", -2)], "segment 'a' must have a positive size"),
        ([("a", (3, 0))], "segment 'a' must have a positive size"),
        ([("a", ())], "segment 'a' must have a positive size"),
        ([("a", True)], "segment 'a' must have a positive size"),
        ([("a", 2.0)], "segment 'a' must have a positive size"),
        ([("", 2)], "non-empty string"),
        ([("a",)], "must be \\(name, size\\)"),
        ([], "at least one segment"),
    ],
)
def test_bad_declarations(specs: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ActionLayout(specs)


def test_bad_labels() -> None:
    with pytest.raises(ValueError, match="unknown segment 'b'"):
        ActionLayout([("a", 2)], labels={"b": ["x", "y"]})
    with pytest.raises(ValueError, match="labels for segment 'a' have 1 entries, expected 2"):
        ActionLayout([("a", 2)], labels={"a": ["x"]})


# -- masks -------------------------------------------------------------------------------


def test_mask_helpers() -> None:
    layout = make_layout()
    mask = layout.empty_mask()
    assert mask.dtype == bool and mask.shape == (layout.n,) and not mask.any()

    layout.allow(mask, "place_amoeba", 2, 5)
    layout.allow(mask, "done")
    layout.allow(mask, "grid", (1, 1, 1))
    assert set(np.flatnonzero(mask)) == {
        layout.encode("place_amoeba", 2, 5),
        layout.encode("done"),
        layout.encode("grid", 1, 1, 1),
    }

    view = layout.segment_view(mask, "place_amoeba")
    assert view.shape == (7, 19) and view[2, 5]
    view[6, :] = True  # writes through to the flat mask
    row_6 = layout.offset("place_amoeba") + 6 * 19
    assert mask[row_6 : row_6 + 19].all() and mask.sum() == 3 + 19
    assert layout.segment_view(mask, "buy_gene").shape == (3,)

    with pytest.raises(ValueError, match="1-D array of length 165"):
        layout.segment_view(np.zeros(3, dtype=bool), "done")


# -- text --------------------------------------------------------------------------------


def test_describe_defaults_and_labels() -> None:
    layout = make_layout()
    assert layout.describe(1) == "start(E)"
    assert layout.describe(layout.encode("place_amoeba", 2, 5)) == "place_amoeba(2, 5)"
    assert layout.describe(layout.encode("buy_gene", 2)) == "buy_gene(gene_2)"
    assert layout.describe(layout.encode("grid", 1, 0, 3)) == "grid103"
    assert layout.describe(layout.encode("done")) == "done"
    plain = ActionLayout([("take", 2)])
    assert plain.describe(1) == "take(1)"


def test_markdown_table() -> None:
    layout = ActionLayout([("move", 5, "drift direction"), ("eat", (2, 3), "a | b"), ("done", 1)])
    assert layout.markdown_table() == "\n".join(
        [
            "| ids | segment | size | meaning |",
            "|---|---|---|---|",
            "| 0-4 | `move` | 5 | drift direction |",
            "| 5-10 | `eat` | 2 x 3 = 6 | a \\| b |",
            "| 11 | `done` | 1 |  |",
        ]
    )


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))])
def test_copies_keep_layout_and_label_texts(clone: Any) -> None:
    """Lambda labels do not pickle; a pickled layout keeps their texts instead."""
    layout = make_layout()
    twin = clone(layout)
    assert twin.n == layout.n and twin.segments == layout.segments
    assert [twin.describe(a) for a in range(layout.n)] == [
        layout.describe(a) for a in range(layout.n)
    ]
    assert callable(layout.labels["grid"])  # the original is untouched


# -- FeatureBuilder ----------------------------------------------------------------------


def test_feature_builder_pieces() -> None:
    features = FeatureBuilder([("bp", 4), ("genes", (4, 20), "owned genes"), ("phase", 6)])
    assert features.size == 90
    assert features.names == ("bp", "genes", "phase")
    assert features.slice("phase") == slice(84, 90)

    out = features.zeros()
    assert out.dtype == np.float32 and out.shape == (90,)
    features.write(out, "bp", [0.5, 0.25, 0.0, 1.0])
    features.view(out, "genes")[1, 3] = 1.0
    features.write(out, "phase", 0.5)
    assert out[:4].tolist() == [0.5, 0.25, 0.0, 1.0]
    assert out[4 + 20 + 3] == 1.0
    assert (out[features.slice("phase")] == 0.5).all()
    assert out.sum() == pytest.approx(1.75 + 1.0 + 3.0)

    box = features.box()
    assert box.shape == (90,) and box.dtype == np.float32 and box.contains(out)


def test_feature_builder_errors() -> None:
    with pytest.raises(ValueError, match="duplicate feature name 'bp'"):
        FeatureBuilder([("bp", 4), ("bp", 1)])
    with pytest.raises(ValueError, match="feature 'x' must have a positive size"):
        FeatureBuilder([("x", 0)])
    features = FeatureBuilder([("bp", 4)])
    with pytest.raises(ValueError, match="unknown feature 'genes'; features are: bp"):
        features.slice("genes")
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        features.write(np.zeros(5, dtype=np.float32), "bp", 1.0)
