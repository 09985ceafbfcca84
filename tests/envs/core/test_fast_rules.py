"""The rules' fast paths against their plain references, over many seeded positions.

A state that ``transition`` returns carries the legal mask ``advance`` worked out for it;
``legal_mask`` serves that. These tests play seeded random games of every game and player
count and check, at every position, that the served mask is the one the decision's own
``legal`` handler computes (``computed_legal_mask``), that it is a fresh array each time, and
that a ``copy()`` (what anything that edits a state works on) carries no mask.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import pytest

from primeval.envs.games import GAMES
from primeval.envs.testing.random_play import random_rules_steps

CASES = [(g.name, n) for g in GAMES.values() for n in g.player_counts]


def _rules(game: str, players: int):
    return GAMES[game].raw_env(num_players=players).rules


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_carried_mask_is_the_computed_mask_at_every_position(game, players):
    rules = _rules(game, players)
    positions = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = rules.initial_state(rng)
        for _, _, new in random_rules_steps(rules, state, rng, np.random.default_rng(seed)):
            served = rules.legal_mask(new)
            assert served.dtype == bool and served.shape == (rules.layout.n,)
            assert np.array_equal(served, rules.computed_legal_mask(new))
            served[:] = ~served  # the caller's array: changing it changes nothing
            assert np.array_equal(rules.legal_mask(new), rules.computed_legal_mask(new))
            positions += 1
    assert positions > 300


@pytest.mark.parametrize(("game", "players"), CASES)
def test_transition_returns_the_carried_mask_and_keeps_the_old_state(game, players):
    rules = _rules(game, players)
    rng = np.random.default_rng(7)
    state = rules.initial_state(rng)
    before = state.to_dict()
    mask = rules.legal_mask(state)
    action = int(np.flatnonzero(mask)[0])
    new, new_mask = rules.transition(state, action, rng)
    assert state.to_dict() == before
    assert np.array_equal(new_mask, rules.computed_legal_mask(new))
    new_mask[:] = False  # the returned mask is the caller's too
    assert np.array_equal(rules.legal_mask(new), rules.computed_legal_mask(new))


def test_a_copy_carries_no_mask_so_an_edited_copy_is_asked_anew():
    """An Origin state the rules returned carries its mask; a copy of it does not, so an
    edited copy is asked anew: a copy whose game is over has nothing legal."""
    rules = _rules("origin", 3)
    rng = np.random.default_rng(0)
    state = rules.initial_state(rng)
    mask = rules.legal_mask(state)
    state = rules.apply(state, int(np.flatnonzero(mask)[0]), rng)
    assert hasattr(state, "_legal_mask_cache")  # carries a mask now
    edited = state.copy()
    assert not hasattr(edited, "_legal_mask_cache")
    assert rules.legal_mask(edited).tolist() == rules.legal_mask(state).tolist()
    edited.stack.clear()  # game over for the copy: nothing legal
    assert not rules.legal_mask(edited).any()
    assert rules.legal_mask(state).any()


def test_a_mask_carried_for_other_rules_is_not_served():
    """A 3-player Origin state stepped by one rules object and asked by another rules object
    (say of another config) gets that object's own computation."""
    first, second = _rules("origin", 3), _rules("origin", 3)
    rng = np.random.default_rng(1)
    state = first.initial_state(rng)
    state = first.apply(state, int(np.flatnonzero(first.legal_mask(state))[0]), rng)
    calls = []
    original = second.computed_legal_mask

    def counting(s):
        calls.append(s)
        return original(s)

    second.computed_legal_mask = counting
    assert np.array_equal(second.legal_mask(state), first.legal_mask(state))
    assert calls == [state]


def test_a_state_changed_in_place_is_asked_anew():
    """Tests and position builders edit a state the rules returned (a card given, a field
    set); its carried mask is then not served."""
    rules = _rules("origin", 3)
    rng = np.random.default_rng(0)
    state = rules.initial_state(rng)
    state = rules.apply(state, int(np.flatnonzero(rules.legal_mask(state))[0]), rng)
    assert rules.legal_mask(state).any()
    state.stack.clear()  # in place: game over, nothing legal
    assert not rules.legal_mask(state).any()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_layout_tables_give_what_the_validating_paths_give(game, players):
    layout = _rules(game, players).layout
    for action in range(layout.n):
        seg, local = layout._locate(action)
        assert layout.decode(action) == (seg.name, seg.index_of(local))
    for seg in layout.segments:
        if len(seg.shape) == 1:
            for i in range(seg.size):
                assert layout.encode(seg.name, i) == seg.offset + seg.local_index((i,))
                mask = layout.empty_mask()
                layout.allow(mask, seg.name, i)
                assert np.flatnonzero(mask).tolist() == [seg.offset + i]
                enum = IntEnum("Index", {"I": i}).I  # an int subclass (a rules IntEnum)
                assert layout.encode(seg.name, enum) == seg.offset + seg.local_index((i,))
                assert type(layout.encode(seg.name, enum)) is int
                mask = layout.empty_mask()
                layout.allow(mask, seg.name, enum)
                assert np.flatnonzero(mask).tolist() == [seg.offset + i]
            with pytest.raises(ValueError, match="out of range"):
                layout.encode(seg.name, seg.size)
            with pytest.raises(ValueError, match="index must be an int"):
                layout.encode(seg.name, True)
        if seg.size == 1:
            assert layout.encode(seg.name) == seg.offset + seg.local_index(())
            mask = layout.empty_mask()
            layout.allow(mask, seg.name)
            assert np.flatnonzero(mask).tolist() == [seg.offset]
        else:
            with pytest.raises(ValueError, match="give an index"):
                layout.encode(seg.name)


def test_primordial_soup_states_carry_no_mask():
    """Primordial Soup's masks cost less than a copy of the state to check them by
    (``carries_masks = False``; docs/benchmarks/history.md), so its states carry none and
    every mask is worked out from the state: an edit in place is seen too."""
    rules = _rules("primordial_soup", 4)
    rng = np.random.default_rng(0)
    state = rules.initial_state(rng)
    new = rules.apply(state, int(np.flatnonzero(rules.legal_mask(state))[0]), rng)
    assert not hasattr(new, "_legal_mask_cache")
    assert np.array_equal(rules.legal_mask(new), rules.computed_legal_mask(new))
    new.stack.clear()
    assert not rules.legal_mask(new).any()


def test_a_caller_that_passes_the_mask_gets_states_that_carry_none():
    """An env or a rollout keeps the masks itself: no snapshot is taken for it."""
    rules = _rules("origin", 3)
    rng = np.random.default_rng(3)
    state = rules.initial_state(rng)
    mask = rules.legal_mask(state)
    new, new_mask = rules.transition(state, int(np.flatnonzero(mask)[0]), rng, mask)
    assert not hasattr(new, "_legal_mask_cache")
    assert np.array_equal(rules.legal_mask(new), new_mask)


def test_origin_territories_of_is_the_plain_scan():
    """``OriginState.territories_of`` (found by ``list.index``) lists what the plain scan
    of the owners lists, for every seat, empty and neutral, on random boards and at every
    position of seeded games."""
    rules = _rules("origin", 4)
    rng = np.random.default_rng(5)
    state = rules.initial_state(rng)
    size = len(state.owner)
    boards = [rng.integers(-2, 4, size=size).tolist() for _ in range(200)]
    boards += [[0] * size, [-1] * size, [3] + [-1] * (size - 1), [-1] * (size - 1) + [3]]
    for _, _, new in random_rules_steps(rules, state, rng, np.random.default_rng(5)):
        boards.append(list(new.owner))
    for owner in boards:
        state.owner = owner
        for player in (-2, -1, 0, 1, 2, 3, 4):
            assert state.territories_of(player) == [t for t, o in enumerate(owner) if o == player]


def test_a_rules_objects_own_legal_mask_and_transition_are_still_asked():
    """``apply`` and ``transition`` take fast paths of their own; a rules object whose
    ``legal_mask`` or ``transition`` is replaced (a subclass, a test's spy) is still asked."""
    rules = _rules("primordial_soup", 4)
    rng = np.random.default_rng(0)
    state = rules.initial_state(rng)
    action = int(np.flatnonzero(rules.legal_mask(state))[0])
    calls = []
    legal_mask, transition = rules.legal_mask, rules.transition
    rules.legal_mask = lambda s: calls.append("legal_mask") or legal_mask(s)
    rules.apply(state, action, np.random.default_rng(1))
    assert calls == ["legal_mask"]
    del rules.legal_mask
    rules.transition = lambda *a, **k: calls.append("transition") or transition(*a, **k)
    rules.apply(state, action, np.random.default_rng(1))
    assert calls == ["legal_mask", "transition"]
