"""Origin as a PettingZoo AEC environment, with hidden hands.

| | |
|---|---|
| Import | `from primeval.envs import origin_v0` |
| Actions | Discrete, masked (size from the data files; 564 with the shipped data) |
| Parallel API | No (`is_parallelizable=False`) |
| Agents | `player_0 ... player_{n-1}`, n = 2, 3 or 4 |
| Observation | `{"observation": float32 array, "action_mask": int8}` |
| Rewards | 0 until the end, then by final rank (first +1, last -1, linear between) |

Tribes spread from the Origin territory in Africa over a world map by evolving, migrating
and swapping pawns; rewards bring innovation tiles, cards and tokens; objectives score
points. The rules follow ``docs/rules/origin.md``, the project's rules reference.

**Reconstruction.** The printed map, the 14 yellow and 14 orange cards, the tile levels, the
token values and objectives O17-O20 were not found in any public source. The shipped data
files (``primeval/envs/origin/data/*.yaml``) are reconstructions, not the
printed components; pass your own through ``map_file``, ``cards_file`` and
``components_file``.

## Turn structure

A turn is a sequence of masked sub-decisions of the acting agent: the turn menu (start
Evolve at a territory, Migrate or Swap from a territory, play a card, or ``pass`` to end the
turn once the action is taken), then the second half of the action (the pawn, the
destination), the reward option, the tiles, the cards to return, and any card's targets.
The passive player of a swap may get a decision (Trade Routes). Forced single choices stay
in the raw env. ``infos[agent]["phase"]`` names the phase (setup, play, final_round) and
``infos[agent]["decision"]`` the pending decision.

## Observation

Ego-centric. Each agent sees the board, the rewards board, everyone's tiles, tokens, cards in
play and scores, its own hand and objectives; other hands only as counts by colour, decks
only as sizes (never their order), the tile reserve only as a count. Encoders: ``"flat"``
and ``"graph"`` (per-territory feature rows plus the adjacency matrix). ``"flat"`` leaves out
what is the same in every observation: the map's colours, continents and strait ends
(``FlatEncoder(rules, include_static=True)`` keeps them) and the entries of cards that a pile
never holds (cards in play are orange, objectives purple, discards yellow; ``cards_of(piece)``
names each entry's card).

Pieces of the ``"flat"`` encoder, in order:

{observation}

## Actions

Players in action ids are relative to the acting player.

{actions}

## Rewards

Zero during play; at the end by final rank (ties share; the score includes the rulebook's
tie-break, cards in hand, as a hundredth). ``reward_mode="win"`` and ``"score"`` are
alternatives. Through ``env()`` an illegal action ends the game with -1 for the offender;
through ``raw_env`` it raises ``IllegalActionError``.

## Arguments

``origin_v0.env(num_players=3, obs_encoder="flat", render_mode=None, max_steps=5000,
reward_mode="rank", **config_overrides)`` with fields of :class:`OriginConfig`.

``render_mode``: ``"ansi"`` makes ``render()`` return the text table, ``"human"`` prints it
after every step, ``"rgb_array"`` returns a 720 x 1200 x 3 uint8 picture of the map, the
rewards board and every player's tiles, tokens, points and hand sizes (never which cards;
drawn with matplotlib: ``pip install primeval[viz]``).

## Version history

* v0: first release.
"""

from __future__ import annotations

from typing import Any

from primeval.envs.core.aec import TurnBasedAECEnv
from primeval.envs.core.encoders import make_encoder, pieces_table
from primeval.envs.core.wrappers import with_safety_wrappers
from primeval.envs.origin.actions import build_layout
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.encoders import ENCODERS
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.view import OriginView

__doc__ = __doc__.replace(  # noqa: A001
    "{actions}", build_layout(OriginConfig().data).markdown_table()
).replace("{observation}", pieces_table(ENCODERS["flat"](OriginRules()).pieces))


class raw_env(TurnBasedAECEnv):  # noqa: N801  (PettingZoo naming)
    """Origin without PettingZoo's safety wrappers; see the module docstring."""

    metadata = {
        "name": "origin_v0",
        "render_modes": list(OriginView.render_modes),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 3,
        obs_encoder: Any = "flat",
        render_mode: str | None = None,
        max_steps: int | None = 5000,
        reward_mode: str = "rank",
        **config_overrides: Any,
    ) -> None:
        config = OriginConfig.from_overrides(num_players=num_players, **config_overrides)
        rules = OriginRules(config)
        super().__init__(
            rules,
            make_encoder(ENCODERS, obs_encoder, rules),
            OriginView(rules),
            render_mode=render_mode,
            max_steps=max_steps,
            reward_mode=reward_mode,
        )


def env(**kwargs: Any):
    """The environment with PettingZoo's TerminateIllegal, AssertOutOfBounds and
    OrderEnforcing wrappers (the usual way to use it)."""
    return with_safety_wrappers(raw_env(**kwargs))
