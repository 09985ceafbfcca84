"""Primordial Soup (Ursuppe) as a PettingZoo AEC environment.

| | |
|---|---|
| Import | `from primeval.envs import primordial_soup_v1` |
| Actions | Discrete(290), masked |
| Parallel API | No (`is_parallelizable=False`) |
| Agents | `player_0 ... player_{n-1}`, n = 3 or 4 |
| Observation | `{"observation": float32 array, "action_mask": int8 (290,)}` |
| Rewards | 0 until the end, then by final ladder rank (first +1, last -1, linear between) |

Amoebas drift through the primordial soup, eat the cubes other colours excrete, buy genes,
divide and die; the player whose score marker is farthest along the ladder when the game
ends wins. The rules follow the original German rulebook (see
``docs/rules/primordial_soup.md``); where the published rules are silent, the choice is a
named field of :class:`PrimordialSoupConfig` and is listed in the README. The board layout
and the environment cards' values are **reconstructions**, not the printed components.

## Turn structure

Every decision is a single masked action of one agent; the agent that decides is
``env.agent_selection`` and the same agent may act several times in a row. A compound turn
(move an amoeba, choose the direction after a 6, take cubes with Tentacle, feed, ...) is a
sequence of such sub-decisions. Interrupts select another agent: the owner of an attacked
amoeba decides on Escape/Defense, a Holding owner decides whether to cling. A choice whose
only option is to decline (nothing affordable to buy, ...) is resolved automatically; a choice
with a single option that is not declining is still offered (a wrapper may auto-apply it).
``infos[agent]["phase"]`` names the phase and ``infos[agent]["decision"]`` the pending
decision kind (see *Observation forms and infos*).

## Observation

Ego-centric (the observer first, then the others in turn order; colours likewise). Encoders:
``"flat"`` (1-D float32), ``"planes"`` (C x H x W float32 over the 5 x 5 board grid) and
``"graph"`` (1-D float32: a row per soup space, the spaces' adjacency, the global pieces; what
a structured policy reads); all carry the phase and the pending decision (which amoeba, which attack, how much defect is left).
The game has no hidden information. The action mask is all zeros for agents not to act.

Pieces of the ``"flat"`` encoder, in order:

{observation}

## Observation forms and infos

{forms}

## State

``env.state()`` and ``env.state_space`` are PettingZoo's global state, for centralised
critics (MAPPO, TorchRL's ``return_state=True``): one float32 vector of the ``"flat"``
pieces seen from no seat. Every per-player row and colour is in absolute seat order,
``player_0`` first, and ``actor`` is the absolute seat to decide; ``to_act`` (about the
observer) is left out. Everything in the game is public (the environment deck's order is
never encoded), so ``state_private`` changes nothing. Pieces, in order:

{state}

## Actions

Colours and players in action ids are relative to the acting player (0 = self).

{actions}

## Rewards

Zero during play. At the end by final rank: first +1, last -1, linear between
(``reward_mode="rank"``); ``"win"`` and ``"score"`` are alternatives. Through ``env()`` an
illegal action ends the game with -1 for the offender; through ``raw_env`` it raises
:class:`~primeval.envs.core.errors.IllegalActionError`.

## Arguments

``primordial_soup_v1.env(num_players=4, obs_encoder="flat", render_mode=None,
max_steps=None, reward_mode="rank", observation_form="dict", mask_in_info=None,
info_form="names", state_private=False, **config_overrides)``: ``config_overrides`` are fields
of :class:`PrimordialSoupConfig` (for example ``board_layout="B"``, ``finish_zone_start=41``,
``six_allows_stay=False``); unknown names or bad values raise ``ValueError``.
``observation_form``, ``mask_in_info`` and ``info_form``: see *Observation forms and infos*
(``mask_in_info=None`` means only with ``"box"``); ``state_private``: see *State*.

``render_mode``: ``"ansi"`` makes ``render()`` return the text board, ``"rgb_array"``
returns a 600 x 900 x 3 uint8 picture of the soup, the compass, the ladder and the players
(drawn with matplotlib: ``pip install primeval[viz]``), ``"human"`` shows that picture in a
pygame-ce window after every step (``pip install primeval[window]``; it printed the text
before).

## Version history

* v1 (issue 15): two rules v0 lacked, both from the user's summary (and the Z-Man FAQ):
  an amoeba clinging with Holding may use its Tentacle too (it takes cubes along right after
  its cling; config ``holding_tentacle``), and an attacked amoeba that loses its Defense fight
  may still escape (Defense, then Escape; ``escape_after_lost_defense``). The observation
  gains the piece ``carried_cubes`` (the cubes a move takes along, at tentacle and cling
  decisions). ``holding_tentacle=False, escape_after_lost_defense=False`` plays the v0
  rules, but v0 saved states are refused and ``primordial_soup_v0`` no longer imports.
* v0: first release.
"""

from __future__ import annotations

from typing import Any

from primeval.envs.core.aec import TurnBasedAECEnv
from primeval.envs.core.builder import EnvBuilder
from primeval.envs.core.encoders import pieces_table
from primeval.envs.core.forms import forms_doc
from primeval.envs.primordial_soup.actions import LAYOUT
from primeval.envs.primordial_soup.config import PrimordialSoupConfig
from primeval.envs.primordial_soup.encoders import DECISION_KINDS, ENCODERS, make_state_encoder
from primeval.envs.primordial_soup.rules import PrimordialSoupRules
from primeval.envs.primordial_soup.state import PHASES
from primeval.envs.primordial_soup.view import PrimordialSoupView

#: The names the info ids stand for (``info_form="ids"``): the phases, and the decision
#: kinds with ``""`` (none: the game is over) last, as in the observation's one-hots.
INFO_NAMES: dict[str, tuple[str, ...]] = {"phase": PHASES, "decision": (*DECISION_KINDS, "")}


def _doc_tables() -> dict[str, str]:
    rules = PrimordialSoupRules()
    flat = ENCODERS["flat"](rules)
    return {"{actions}": LAYOUT.markdown_table(), "{observation}": pieces_table(flat.pieces),
            "{forms}": forms_doc(INFO_NAMES),
            "{state}": pieces_table(make_state_encoder(rules, flat=flat).pieces)}


for _key, _table in _doc_tables().items():
    __doc__ = __doc__.replace(_key, _table)  # noqa: A001


class PrimordialSoupEnv(TurnBasedAECEnv):
    """Primordial Soup's AEC core: the dict observation, the named infos, the public state.
    :func:`raw_env` builds it and adds the forms asked for."""

    metadata = {
        "name": "primordial_soup_v1",
        "render_modes": list(PrimordialSoupView.render_modes),
        "is_parallelizable": False,
        "render_fps": 1,
    }


#: Builds the env from the keywords every game shares (see ``EnvBuilder.raw_env``).
BUILDER = EnvBuilder(PrimordialSoupEnv, PrimordialSoupConfig.from_overrides, PrimordialSoupRules, ENCODERS,
                     PrimordialSoupView, INFO_NAMES, make_state_encoder)


def raw_env(num_players: int = 4, obs_encoder: Any = "flat", **kwargs: Any):
    """Primordial Soup without PettingZoo's safety wrappers, in the forms asked for; the keywords
    are in the module docstring (*Arguments*)."""
    return BUILDER.raw_env(num_players, obs_encoder, **kwargs)


def env(num_players: int = 4, obs_encoder: Any = "flat", **kwargs: Any):
    """The environment with PettingZoo's TerminateIllegal, AssertOutOfBounds and
    OrderEnforcing wrappers (the usual way to use it)."""
    return BUILDER.env(num_players, obs_encoder, **kwargs)
