"""Origin's card ids name the card's kind (issue 26 item 12): ``Y`` yellow action, ``P``
orange permanent, ``O`` purple objective; the text view says so where a hand is shown, and
the rules reference where the cards are described."""

from __future__ import annotations

from pathlib import Path

from primeval.envs import origin_v0
from primeval.envs.origin.view_text import CARD_IDS

ROOT = Path(__file__).resolve().parents[3]
KINDS = {"Y": "yellow", "P": "orange", "O": "purple"}


def test_every_id_starts_with_its_kinds_letter():
    rules = origin_v0.raw_env().rules
    for card in rules.data.cards:
        assert KINDS[card.id[0]] == card.colour, card.id
        assert card.id[1:].isdigit(), card.id
    assert CARD_IDS == "ids: Y yellow action, P orange permanent, O purple objective"


def test_the_text_view_explains_the_ids_under_the_hand():
    env = origin_v0.raw_env()
    env.reset(seed=0)
    seat = env.possible_agents.index(env.agent_selection)
    lines = env.view.to_text(env.game_state, seat).splitlines()
    hand = next(i for i, line in enumerate(lines) if line.startswith(f"Hand of player_{seat}"))
    assert f"  (card {CARD_IDS})" in lines[hand + 1 :]
    other = (seat + 1) % len(env.possible_agents)
    assert CARD_IDS not in env.view.to_text(env.game_state, other)  # no hand, no legend


def test_the_docs_say_how_ids_read():
    text = (ROOT / "docs/rules/origin.md").read_text(encoding="utf-8")
    assert "`O7` is purple and orange cards are `P*`" in text
    assert "`Y*` yellow action, `P*` orange permanent, `O*` purple objective" in (
        ROOT / "docs/positions.md"
    ).read_text(encoding="utf-8")
