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
``infos[agent]["decision"]`` the pending decision (see *Observation forms and infos*).

## Observation

Ego-centric. Each agent sees the board, the rewards board, everyone's tiles, tokens, cards in
play and scores, its own hand and objectives; other hands only as counts by colour, decks
only as sizes (never their order), the tile reserve only as a count. Encoders: ``"flat"``,
``"graph"`` (per-territory feature rows plus the adjacency matrix) and ``"flat_objectives"``
(``"flat"``, then the progress of each objective in the observer's hand and, per territory,
the objective points one more of its pawns there would bring or its pawn there would take
away: ``ObjectivesEncoder``). ``"flat"`` leaves out
what is the same in every observation: the map's colours, continents and strait ends
(``FlatEncoder(rules, include_static=True)`` keeps them) and the entries of cards that a pile
never holds (cards in play are orange, objectives purple, discards yellow; ``cards_of(piece)``
names each entry's card).

Pieces of the ``"flat"`` encoder, in order:

{observation}

## Observation forms and infos

{forms}

## State

``env.state()`` and ``env.state_space`` are PettingZoo's global state, for centralised
critics (MAPPO, TorchRL's ``return_state=True``): one float32 vector of the ``"flat"``
pieces seen from no seat. Every per-player row is in absolute seat order, ``player_0``
first, and ``actor`` and ``current`` are absolute seats. ``to_act`` (about the observer) and
the private pieces (``frame_dealt``, ``frame_taken``, ``victim_hand``, ``hand``: what only one
seat sees) are left out, so by default the state is **public information only**. Pieces, in
order:

{state}

``state_private=True`` adds every private piece once per seat, at the end, shaped
``(4, ...)``: row ``p`` is what ``player_p`` sees in it (``hand[p]`` is its hand, the others
are non-zero only for the seat deciding), for a critic trained with what no single player
knows. The decks' order and the face-down tiles' levels are in no state. The added pieces:

{state_private}

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
reward_mode="rank", observation_form="dict", mask_in_info=None, info_form="names",
state_private=False, **config_overrides)`` with fields of :class:`OriginConfig`.
``observation_form``, ``mask_in_info`` and ``info_form``: see *Observation forms and infos*
(``mask_in_info=None`` means only with ``"box"``); ``state_private``: see *State*.

``render_mode``: ``"ansi"`` makes ``render()`` return the text table, ``"rgb_array"``
returns a 720 x 1200 x 3 uint8 picture of the map, the rewards board and every player's
tiles, tokens, points and hand sizes (never which cards; drawn with matplotlib:
``pip install primeval[viz]``), ``"human"`` shows that picture in a pygame-ce window after
every step (``pip install primeval[window]``; it printed the text before).

## Version history

* v0: first release.
"""

from __future__ import annotations

from typing import Any

from primeval.envs.core.aec import TurnBasedAECEnv
from primeval.envs.core.builder import EnvBuilder
from primeval.envs.core.encoders import pieces_table
from primeval.envs.core.forms import forms_doc
from primeval.envs.origin.actions import build_layout
from primeval.envs.origin.config import OriginConfig
from primeval.envs.origin.encoders import DECISION_KINDS, ENCODERS, make_state_encoder
from primeval.envs.origin.rules import OriginRules
from primeval.envs.origin.state import PHASES
from primeval.envs.origin.view import OriginView

#: The names the info ids stand for (``info_form="ids"``): the phases, and the decision
#: kinds with ``""`` (none: the game is over) last, as in the observation's one-hots.
INFO_NAMES: dict[str, tuple[str, ...]] = {"phase": PHASES, "decision": (*DECISION_KINDS, "")}


def _doc_tables() -> dict[str, str]:
    rules = OriginRules()
    flat = ENCODERS["flat"](rules)
    public = make_state_encoder(rules, flat=flat).pieces
    private = make_state_encoder(rules, private=True, flat=flat).pieces
    return {"{actions}": build_layout(rules.data).markdown_table(),
            "{observation}": pieces_table(flat.pieces),
            "{forms}": forms_doc(INFO_NAMES),
            "{state}": pieces_table(public),
            "{state_private}": pieces_table(
                {name: sl for name, sl in private.items() if name not in public})}


for _key, _table in _doc_tables().items():
    __doc__ = __doc__.replace(_key, _table)  # noqa: A001


class OriginEnv(TurnBasedAECEnv):
    """Origin's AEC core: the dict observation, the named infos, the public state.
    :func:`raw_env` builds it and adds the forms asked for."""

    metadata = {
        "name": "origin_v0",
        "render_modes": list(OriginView.render_modes),
        "is_parallelizable": False,
        "render_fps": 1,
    }


#: Builds the env from the keywords every game shares (see ``EnvBuilder.raw_env``).
BUILDER = EnvBuilder(OriginEnv, OriginConfig.from_overrides, OriginRules, ENCODERS,
                     OriginView, INFO_NAMES, make_state_encoder, max_steps=5000)


def raw_env(num_players: int = 3, obs_encoder: Any = "flat", **kwargs: Any):
    """Origin without PettingZoo's safety wrappers, in the forms asked for; the keywords
    are in the module docstring (*Arguments*)."""
    return BUILDER.raw_env(num_players, obs_encoder, **kwargs)


def env(num_players: int = 3, obs_encoder: Any = "flat", **kwargs: Any):
    """The environment with PettingZoo's TerminateIllegal, AssertOutOfBounds and
    OrderEnforcing wrappers (the usual way to use it)."""
    return BUILDER.env(num_players, obs_encoder, **kwargs)
