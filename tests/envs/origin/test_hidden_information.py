"""No hidden information leaks into Origin observations (origin.md "Hidden information": hands
and unused objectives are private; decks and the tile reserve are random).

Along random games, for every observer, the other players' hidden cards are dealt anew (hand
cards swapped with random cards of the same colour from the decks or other hands, so hand sizes
by colour stay; the dealt objectives of other players' ``keep_objective`` frames too), the
decks are shuffled and the face-down tile reserve's levels are reshuffled; the observer's
observation must stay byte-identical, for both encoders. Changing the observer's own hand must
change it. Barter (Y11) lets the actor look at the victim's hand during ``barter_take`` only.
The view (text, decisions, action names for a seat) keeps the same secrets.
"""

from __future__ import annotations

import numpy as np
import pytest

from primeval.envs.origin.encoders import FlatEncoder, GraphEncoder, ObjectivesEncoder
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.state import OriginState
from primeval.envs.origin.view import OriginView
from primeval.envs.origin.view_text import card_label
from tests.envs.origin.builders import act, cid, give_card, table


def known_cards(state: OriginState, observer: int) -> set[int]:
    """Cards the observer may know the place of: its hand, objectives dealt to it, the card
    taken in a barter it takes part in."""
    known = set(state.hands[observer])
    for frame in state.stack:
        if frame.get("player") == observer:
            known |= set(frame.get("dealt", ()))
        if "taken" in frame and observer in (frame.get("player"), frame.get("victim")):
            known.add(frame["taken"])
    return known


def redeal(rules: OriginRules, state: OriginState, observer: int,
           rng: np.random.Generator) -> OriginState:
    """A copy of ``state`` that differs only in what ``observer`` cannot see."""
    new = state.copy()
    colour = [c.colour for c in rules.data.cards]
    others = [p for p in range(state.num_players) if p != observer]
    known = known_cards(state, observer)
    hidden = [c for p in others for c in new.hands[p]]
    hidden += [c for deck in new.decks for c in deck]
    hidden += [c for f in new.stack if f.get("player") != observer for c in f.get("dealt", ())]
    hidden = [c for c in hidden if c not in known]
    sigma = {c: c for c in range(len(colour))}
    for col in ("yellow", "orange", "purple"):
        cards = sorted(c for c in hidden if colour[c] == col)
        for a, b in zip(cards, rng.permutation(cards), strict=True):
            sigma[a] = int(b)
    for p in others:
        new.hands[p] = [sigma[c] for c in new.hands[p]]
    new.decks = [[sigma[c] for c in deck] for deck in new.decks]
    new.decks = [[deck[i] for i in rng.permutation(len(deck))] for deck in new.decks]
    for f in new.stack:
        if f.get("player") != observer and "dealt" in f:
            f["dealt"] = tuple(sigma[c] for c in f["dealt"])
        if "taken" in f:
            f["taken"] = sigma[f["taken"]]
    new.tile_reserve = [int(x) for x in rng.permutation(new.tile_reserve)]
    return new


def change_own_hand(rules: OriginRules, state: OriginState, observer: int,
                    rng: np.random.Generator) -> OriginState | None:
    """A copy where one of the observer's cards is swapped with a deck card of its colour."""
    new = state.copy()
    colour = [c.colour for c in rules.data.cards]
    for i, card in enumerate(new.hands[observer]):
        deck = new.decks[("yellow", "orange", "purple").index(colour[card])]
        if deck:
            j = int(rng.integers(len(deck)))
            new.hands[observer][i], deck[j] = deck[j], card
            return new
    return None


def observations(encoders, state: OriginState, seat: int) -> list[bytes]:
    return [enc.encode(state, seat).tobytes() for enc in encoders]


def is_barter_take_actor(state: OriginState, seat: int) -> bool:
    frame = state.pending
    return frame is not None and frame["kind"] == "barter_take" and frame["player"] == seat


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_other_hands_decks_and_reserve_do_not_leak(num_players):
    """Re-dealing every card the observer cannot see leaves its observation byte-identical;
    changing its own hand changes it."""
    rng = np.random.default_rng(100 + num_players)
    checked = changed_hidden = own_checked = 0
    for seed in range(3):
        rules = OriginRules(num_players=num_players)
        encoders = (FlatEncoder(rules), GraphEncoder(rules), ObjectivesEncoder(rules))
        game_rng = np.random.default_rng(seed)
        state = rules.initial_state(game_rng)
        while True:
            for seat in range(num_players):
                if is_barter_take_actor(state, seat):
                    continue
                original = observations(encoders, state, seat)
                other = redeal(rules, state, seat, rng)
                assert other.hands[seat] == state.hands[seat]
                assert observations(encoders, other, seat) == original, (
                    f"seat {seat} sees hidden cards in {rules.decision_name(state)!r}")
                checked += 1
                changed_hidden += other.to_dict() != state.to_dict()
                mine = change_own_hand(rules, state, seat, rng)
                if mine is not None:
                    assert observations(encoders, mine, seat)[0] != original[0]
                    assert observations(encoders, mine, seat)[1] != original[1]
                    own_checked += 1
            if rules.is_terminal(state):
                break
            state = rules.apply(state, int(game_rng.choice(rules.legal_actions(state))),
                                game_rng)
    assert checked > 300
    assert changed_hidden > 0.9 * checked  # the re-deal really moved hidden cards
    assert own_checked > 100


def test_dealt_objectives_are_seen_only_by_their_player():
    """During setup each player sees its own dealt objectives, not the others'."""
    rules = OriginRules(num_players=3)
    state = rules.initial_state(np.random.default_rng(5))
    frame = state.pending
    assert frame["kind"] == "keep_objective"
    enc = FlatEncoder(rules)
    for seat in range(3):
        dealt = enc.view(enc.encode(state, seat), "frame_dealt")
        entries = enc.cards_of("frame_dealt")  # the purple cards
        if seat == frame["player"]:
            assert {entries[k] for k in np.flatnonzero(dealt)} == set(frame["dealt"])
        else:
            assert not dealt.any()
        # the objectives dealt to players deciding later are never shown
        later = [entries.index(c) for f in state.stack[:-1] for c in f.get("dealt", ())
                 if f.get("player") != seat]
        assert later and not dealt[later].any()


def _barter_position():
    """player_0 plays Barter against player_1; player_2 looks on."""
    rules, state = table(3)
    for card in ("Y11", "Y3"):
        give_card(rules, state, 0, card)
    for card in ("O5", "Y6", "P2"):
        give_card(rules, state, 1, card)
    for card in ("Y1", "O7"):
        give_card(rules, state, 2, card)
    state = act(rules, state, "play_card", cid(rules, "Y11"))
    assert state.pending["kind"] == "barter_player"
    state = act(rules, state, "choose_player", 0)  # +1: player_1
    assert state.pending == {"kind": "barter_take", "player": 0, "victim": 1}
    return rules, state


@pytest.mark.parametrize("encoder_cls", [FlatEncoder, GraphEncoder])
def test_barter_take_shows_the_victims_hand_to_the_actor_only(encoder_cls):
    rules, state = _barter_position()
    enc = encoder_cls(rules)
    rng = np.random.default_rng(0)
    actor = enc.encode(state, 0)
    assert set(np.flatnonzero(enc.view(actor, "victim_hand"))) == set(state.hands[1])
    # The actor really looks: another victim hand gives another observation.
    other = state.copy()
    other.hands[1][0], other.decks[2][0] = other.decks[2][0], other.hands[1][0]
    assert enc.encode(other, 0).tobytes() != actor.tobytes()
    # The victim and the onlooker see neither hand.
    for seat in (1, 2):
        obs = enc.encode(state, seat)
        assert not enc.view(obs, "victim_hand").any()
        for _ in range(5):
            assert enc.encode(redeal(rules, state, seat, rng), seat).tobytes() == obs.tobytes()
    # The victim does not see the actor's hand (nor its size beyond counts by colour).
    obs = enc.encode(state, 1)
    assert not enc.view(obs, "hand")[state.hands[0]].any()


@pytest.mark.parametrize("encoder_cls", [FlatEncoder, GraphEncoder])
def test_barter_give_and_after_hide_the_victims_hand_again(encoder_cls):
    rules, state = _barter_position()
    enc = encoder_cls(rules)
    rng = np.random.default_rng(1)
    o5 = cid(rules, "O5")
    state = act(rules, state, "take_card", o5)
    assert state.pending["kind"] == "barter_give"
    actor = enc.encode(state, 0)
    assert np.flatnonzero(enc.view(actor, "frame_taken")).tolist() == [o5]
    assert not enc.view(actor, "victim_hand").any()
    for seat in (1, 2):
        obs = enc.encode(state, seat)
        assert not enc.view(obs, "frame_taken").any()
        for _ in range(5):
            assert enc.encode(redeal(rules, state, seat, rng), seat).tobytes() == obs.tobytes()
    state = act(rules, state, "give_card", cid(rules, "Y3"))
    for seat in range(3):
        obs = enc.encode(state, seat)
        assert not enc.view(obs, "victim_hand").any()
        assert not enc.view(obs, "frame_taken").any()
        assert enc.encode(redeal(rules, state, seat, rng), seat).tobytes() == obs.tobytes()
    assert o5 in state.hands[0] and cid(rules, "Y3") in state.hands[1]


# The view: text, decisions and action names -------------------------------------------------------


def shown(view: OriginView, state: OriginState, seat: int, actions) -> tuple:
    """Everything the view shows ``seat``: the table, the decision, the names of ``actions``."""
    return (view.to_text(state, seat), view.describe_decision(state, seat),
            [view.action_name(state, int(a), seat) for a in actions])


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_view_shows_a_seat_nothing_it_may_not_see(num_players):
    """The view's table, decision and action names for a seat stay the same when every card
    that seat cannot see is dealt anew (as its observation does), for the names of every
    legal action, whoever is to act."""
    rng = np.random.default_rng(200 + num_players)
    checked = 0
    for seed in range(2):
        rules = OriginRules(num_players=num_players)
        view = OriginView(rules)
        game_rng = np.random.default_rng(seed)
        state = rules.initial_state(game_rng)
        while not rules.is_terminal(state):
            legal = rules.legal_actions(state)
            for seat in range(num_players):
                if is_barter_take_actor(state, seat):
                    continue
                other = redeal(rules, state, seat, rng)
                assert shown(view, other, seat, legal) == shown(view, state, seat, legal), (
                    f"seat {seat} is shown hidden cards in {rules.decision_name(state)!r}")
                checked += 1
            state = rules.apply(state, int(game_rng.choice(legal)), game_rng)
    assert checked > 300


def test_the_view_names_dealt_objectives_to_their_player_only():
    """Setup: the player keeping an objective reads the dealt cards and its choices by
    name; every other seat reads a count and ``keep_objective(a purple card)``."""
    rules = OriginRules(num_players=3)
    view = OriginView(rules)
    state = rules.initial_state(np.random.default_rng(5))
    frame = state.pending
    keep = rules.layout.encode("keep_objective", frame["dealt"][0])
    label = card_label(rules, frame["dealt"][0])
    for seat in range(3):
        words = view.describe_decision(state, seat)
        name = view.action_name(state, keep, seat)
        if seat == frame["player"]:
            assert label in words and name.endswith(f" = {label}")
        else:
            assert "dealt: 3 objectives; keep 1" in words and label not in words
            assert name == "keep_objective(a purple card)"
    assert label in view.describe_decision(state)  # the debugging view names them


def test_the_view_shows_a_barter_to_its_two_parties_only():
    """Barter (Y11): the card taken is named to the actor and the victim; the onlooker reads
    its colour, and the victim's hand only as a count."""
    rules, state = _barter_position()
    view = OriginView(rules)
    o5 = cid(rules, "O5")
    take = rules.layout.encode("take_card", o5)
    assert "O5" in view.describe_decision(state, 0)  # the actor looks at the hand
    assert "player_1's hand: 3 cards" in view.describe_decision(state, 2)
    assert view.action_name(state, take, 2) == "take_card(a purple card)"
    assert view.action_name(state, take, 1) == view.action_name(state, take, 0)
    state = act(rules, state, "take_card", o5)
    for seat, sees in ((0, True), (1, True), (2, False)):
        words = view.describe_decision(state, seat)
        assert (f"taken: {card_label(rules, o5)}" in words) == sees
        assert ("taken: a purple card" in words) == (not sees)
    assert "Hand of player_0" not in view.to_text(state, 1)
    assert "Hand of player_0 (to decide)" in view.to_text(state, 0)
