"""Play a game against agents from the terminal.

``primeval play --game GAME --players N --seat 0 --opponents heuristic [--seed S]
[--record FILE] [--hint SPEC] [--window]``

The human takes seat ``--seat``; every other seat is an agent named as ``primeval evaluate``
names them (``random``, ``heuristic``, ``ppo:PATH``, ``mcts:...``): one spec for all of them,
or one per other seat in seat order. Opponents act on their own and each of their actions is
printed as one line.

On the human's turn the prompt is compact:

* the board is printed before a decision only when it changed since the human last saw it
  by more than the human's own choices: an opponent moved, or a die, a card or a tile was
  drawn (after the human's own choices, their one-line echoes say what changed); ``b``
  prints it any time. The pending decision and the legal choices (numbered ``1..k``)
  follow;
* a decision with one legal choice is taken without asking and shown in one line, marked
  ``(only choice)``;
* a number picks that choice; ``b`` shows the board; ``u`` undoes the human's last decision
  (the game goes back to the state before it; see below); ``h`` asks the ``--hint`` agent
  (default ``heuristic``) what it would play here, shown as the choice's number and name
  (the game is unchanged); ``q`` (or the end of the input) quits.

Everything shown comes from the env's view (``env.view``), read as the human's seat: the
board (``view.board_text``, the table without the pending decision, when the view has it),
the decision, the names of the choices (``pass = end the turn``) and of the opponents'
actions, which never name what the human may not see (an opponent's hidden cards in
Origin). Nothing here knows which game is played.

Seeds: the env is reset with ``--seed`` (a fresh one, printed, when none is given). Before
each of its moves an opponent is reseeded from the run's seed tree
(:class:`~primeval.training.seeding.RunSeeds`, stream ``opponents``, keys ``"play"``, its seat
and the number of actions taken so far), so its move depends on the position and the seed
alone. Undo restores the env's saved state from before the human's decision
(``env.get_state()`` / ``env.set_state()``, dice generator included); the opponents' moves
after it are then made again from the same seeds, so the game after ``u`` and a new choice is
the game a fresh run with that choice plays.

``--record FILE`` writes the game (finished, or up to the quit) as one record line in the
format of ``primeval evaluate --record``, which ``primeval replay FILE`` replays; the
human's seat is named ``human``, and a game quit before its end has ``"finished": false``.

``--window`` plays with the env's ``render_mode="human"``: a pygame-ce window shows the
picture of the game after every move, while the prompt stays in the terminal.

The logic is :func:`play_cli` (``args`` as parsed by the ``play`` subcommand), which reads and
writes the streams it is given, so it can be driven by ``io.StringIO`` in tests.
"""

from __future__ import annotations

import json
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from primeval.envs.games import GAMES, make_raw_env
from primeval.training.evaluate import agent_from_spec, game_record, ranks_of
from primeval.training.seeding import RunSeeds

__all__ = ["HUMAN", "PlayError", "opponent_specs", "play_cli", "read_choice", "read_command"]

QUIT_WORDS = ("q", "quit")
#: The name of the human's seat in a record's ``agents``.
HUMAN = "human"
#: The hint agent when ``--hint`` is not given.
DEFAULT_HINT = "heuristic"


class PlayError(ValueError):
    """Bad ``play`` arguments (seat, opponents, record file)."""


def opponent_specs(num_players: int, seat: int, opponents: list[str]) -> list[str | None]:
    """The agent spec of every seat (``None`` for the human's seat).

    Args:
        num_players: Seats in the game.
        seat: The human's seat.
        opponents: One spec for every other seat, or one spec per other seat in seat order.

    Raises:
        PlayError: Seat out of range or a wrong number of opponent specs.
    """
    if not 0 <= seat < num_players:
        raise PlayError(
            f"--seat {seat} is out of range: {num_players} players have seats 0..{num_players - 1}"
        )
    others = num_players - 1
    if len(opponents) == 1:
        opponents = opponents * others
    elif len(opponents) != others:
        raise PlayError(
            f"--opponents needs one spec for all {others} other seats or one per "
            f"other seat ({others}), got {len(opponents)}: {opponents}"
        )
    specs: list[str | None] = list(opponents)
    specs.insert(seat, None)
    return specs


def read_command(
    count: int, stdin: TextIO, stdout: TextIO, commands: tuple[str, ...] = ()
) -> int | str | None:
    """Prompt until a line names a choice ``1..count`` or one of ``commands`` (single
    letters such as ``"b"``); the 0-based choice, the command's letter, or ``None`` to quit
    (``q`` or the end of the input)."""
    extra = "".join(f", {c} {_COMMAND_WORDS.get(c, c)}" for c in commands)
    while True:
        stdout.write(f"your choice (1-{count}{extra}, q quit): ")
        stdout.flush()
        line = stdin.readline()
        if line == "":  # end of input
            stdout.write("\n")
            return None
        text = line.strip()
        if not _isatty(stdin):  # piped input: echo it, as a terminal would
            stdout.write(text + "\n")
        if text.lower() in QUIT_WORDS:
            return None
        if text.lower() in commands:
            return text.lower()
        try:
            number = int(text)
        except ValueError:
            number = None
        if number is not None and 1 <= number <= count:
            return number - 1
        shown = repr(text) if text else "an empty line"
        letters = "".join(f", {c}" for c in commands)
        print(f"{shown} is not a number between 1 and {count}{letters} or q", file=stdout)


_COMMAND_WORDS = {"b": "board", "u": "undo", "h": "hint"}


def read_choice(count: int, stdin: TextIO, stdout: TextIO) -> int | None:
    """Prompt until a line names a choice ``1..count``; the 0-based choice, or ``None`` to
    quit (``q`` or the end of the input)."""
    picked = read_command(count, stdin, stdout)
    return picked if picked is None or isinstance(picked, int) else None


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _fmt_score(score: float) -> str:
    return f"{score:g}"


class _PumpingInput:
    """``stdin`` whose ``readline`` keeps the window responsive while it waits: the line is
    read in a thread while the window's events are handled here (pygame wants them handled
    in the main thread)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def isatty(self) -> bool:
        return _isatty(self.stream)

    def readline(self) -> str:
        from primeval.envs.core.picture_window import pump_events

        box: list[tuple[str, BaseException | None]] = []

        def read() -> None:
            try:
                box.append((self.stream.readline(), None))
            except BaseException as exc:  # noqa: BLE001  (raised again in the main thread)
                box.append(("", exc))

        reader = threading.Thread(target=read, name="play-input", daemon=True)
        reader.start()
        while reader.is_alive():
            pump_events()
            reader.join(0.05)
        line, error = box[0]
        if error is not None:
            raise error
        return line


def _fresh_seed() -> int:
    """A new seed from the operating system's entropy (31 bits, as RunSeeds hands out)."""
    return int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0] >> 1)


class _Game:
    """One game of ``primeval play``: the env, the agents, the actions taken and the undo
    points (the env's saved state before each of the human's decisions)."""

    def __init__(self, args: Any, stdout: TextIO) -> None:
        self.stdout = stdout
        self.game = args.game
        self.num_players = args.players or (
            GAMES[self.game].default_players if self.game in GAMES else 0
        )
        self.seed = _fresh_seed() if args.seed is None else args.seed
        self.window = bool(getattr(args, "window", False))
        env_kwargs = dict(getattr(args, "env_kwargs", None) or {})
        if self.window:
            env_kwargs["render_mode"] = "human"
        self.env = make_raw_env(self.game, self.num_players, **env_kwargs)
        self.human = args.seat
        self.specs = opponent_specs(self.num_players, self.human, list(args.opponents))
        self.trust = getattr(args, "trust_checkpoint", False)
        self.seeds = RunSeeds(self.seed).child("opponents", "play")
        self.agents: list[Any] = [
            None
            if spec is None
            else agent_from_spec(spec, self.game, seed=self.seeds.spawn(s), trust_checkpoint=self.trust)
            for s, spec in enumerate(self.specs)
        ]
        self.hint_spec = getattr(args, "hint", None)
        self.hint_agent: Any = None
        if self.hint_spec is not None:  # a bad spec or checkpoint fails before the game
            self.hint_agent = self._make_hint_agent()
        self._check_agents()
        self.record_path = getattr(args, "record", None)
        self.actions: list[int] = []
        self.undo_points: list[tuple[dict[str, Any], int]] = []
        self.last_board: str | None = None
        self.others_moved = True  # the board is shown before the first decision
        self.names = [
            f"player_{s}" + (" (you)" if s == self.human else f" ({spec})")
            for s, spec in enumerate(self.specs)
        ]

    # -- agents ---------------------------------------------------------------------------

    def _make_hint_agent(self) -> Any:
        spec = self.hint_spec or DEFAULT_HINT
        return agent_from_spec(
            spec, self.game, seed=self.seeds.spawn("hint"), trust_checkpoint=self.trust
        )

    def _check_agents(self) -> None:
        """Refuse, before the game, an opponent or hint checkpoint trained on another game,
        player count, encoder or spaces (the message names its spec), as ``gymnasium.make``
        and ``evaluate`` do."""
        from primeval.training.gym_env import check_opponents

        pairs = [(spec, agent) for spec, agent in zip(self.specs, self.agents, strict=True)
                 if agent is not None]
        if self.hint_agent is not None:
            pairs.append((self.hint_spec or DEFAULT_HINT, self.hint_agent))
        check_opponents([a for _s, a in pairs], [s for s, _a in pairs], self.env, self.game,
                        self.env.unwrapped.obs_encoder.name)

    def _agent_action(self, agent: Any, agent_name: str, *keys: int | str) -> int:
        """``agent``'s action for ``agent_name`` now, the agent reseeded first from the
        seed tree (``keys`` and the number of actions taken), so that the action depends on
        the position and the seed only (an undo makes it again)."""
        if hasattr(agent, "seed"):
            agent.seed(self.seeds.spawn(*keys, len(self.actions)))
        env = self.env
        seat = env.possible_agents.index(agent_name)
        obs = env.observe(agent_name)
        return int(
            agent.act(obs["observation"], obs["action_mask"], state=env.game_state, seat=seat)
        )

    # -- the game -------------------------------------------------------------------------

    def print(self, *parts: Any) -> None:
        print(*parts, file=self.stdout)

    def over(self) -> bool:
        env = self.env
        agent = env.agent_selection
        return not env.agents or env.terminations[agent] or env.truncations[agent]

    def step(self, action: int) -> None:
        self.actions.append(action)
        self.env.step(action)

    def board(self) -> str:
        view, state = self.env.view, self.env.game_state
        board_text = getattr(view, "board_text", None)
        if callable(board_text):
            return board_text(state, self.human)
        return view.to_text(state, self.human)

    def show_board_if_changed(self, saved: dict[str, Any]) -> None:
        """Print the board if it changed since the human last saw it by more than the
        human's own choices: an opponent moved (or an undo went back) since, or chance (a
        die, a card, a tile drawn) was used since the human's last decision (``saved``, the
        env's state now, holds the generator's state)."""
        board = self.board()
        if board == self.last_board:
            return
        last = self.undo_points[-1][0] if self.undo_points else None
        chance = last is None or last.get("rng") != saved.get("rng")
        if self.others_moved or chance:
            self.print("")
            self.print(board)
            self.last_board = board
            self.others_moved = False

    def play(self, stdin: TextIO) -> bool:
        """Play until the end (``True``) or a quit (``False``)."""
        env = self.env
        env.reset(seed=self.seed)
        if self.window:
            env.render()
            stdin = _PumpingInput(stdin)
        view = env.view
        while not self.over():
            agent_name = env.agent_selection
            seat = env.possible_agents.index(agent_name)
            state = env.game_state
            if seat != self.human:
                action = self._agent_action(self.agents[seat], agent_name, seat)
                self.print(f"{agent_name}: {view.action_name(state, action, self.human)}")
                self.step(action)
                self.others_moved = True
                continue
            legal = np.flatnonzero(env.action_mask(agent_name))
            if len(legal) == 1:
                action = int(legal[0])
                self.print(
                    f"{agent_name} (you): {view.action_name(state, action, self.human)}"
                    " (only choice)"
                )
                self.step(action)
                continue
            outcome = self.decide(stdin, agent_name, legal)
            if outcome is None:
                return False
        return True

    def decide(self, stdin: TextIO, agent_name: str, legal: np.ndarray) -> bool | None:
        """One decision of the human: ``True`` once an action is taken or undone, ``None``
        to quit."""
        env, view = self.env, self.env.view
        state = env.game_state
        saved = env.get_state()
        self.show_board_if_changed(saved)
        self.print("")
        decision = f"Your decision ({agent_name}): {view.describe_decision(state, self.human)}"
        self.print("\n".join(textwrap.wrap(decision, 100, subsequent_indent="    ")))
        names = [view.action_name(state, int(a), self.human) for a in legal]
        for k, name in enumerate(names, start=1):
            self.print(f"  {k:>3}. {name}")
        while True:
            picked = read_command(len(legal), stdin, self.stdout, ("b", "u", "h"))
            if picked is None:
                self.print("quit")
                return None
            if picked == "b":
                self.last_board = self.board()
                self.print(self.last_board)
                continue
            if picked == "h":
                self.hint(agent_name, legal, names)
                continue
            if picked == "u":
                if self.undo():
                    return True
                continue
            action = int(legal[picked])
            self.undo_points.append((saved, len(self.actions)))
            self.print(f"{agent_name} (you): {names[picked]}")
            self.step(action)
            return True

    def hint(self, agent_name: str, legal: np.ndarray, names: list[str]) -> None:
        """What the hint agent would play here; the game is left as it is."""
        if self.hint_agent is None:
            try:
                self.hint_agent = self._make_hint_agent()
            except ValueError as exc:
                self.print(f"no hint: {exc}")
                return
        action = self._agent_action(self.hint_agent, agent_name, "hint")
        matches = np.flatnonzero(legal == action)
        spec = self.hint_spec or DEFAULT_HINT
        if not matches.size:
            self.print(f"hint ({spec}): action {action}, which is not legal here")
            return
        k = int(matches[0])
        self.print(f"hint ({spec}): {k + 1}. {names[k]}")

    def undo(self) -> bool:
        """Back to the state before the human's last decision; ``False`` if there is none."""
        if not self.undo_points:
            self.print("nothing to undo: you have not decided anything yet")
            return False
        saved, taken = self.undo_points.pop()
        undone = self.actions[taken]
        self.env.set_state(saved)
        del self.actions[taken:]
        state = self.env.game_state
        name = self.env.view.action_name(state, undone, self.human)
        self.print(f"undone: {name}")
        self.others_moved = True  # show the board as it was, if it differs
        if self.window:
            self.env.render()
        return True

    # -- the end --------------------------------------------------------------------------

    def finish(self, finished: bool) -> None:
        env = self.env
        rules, state = env.rules, env.game_state
        if self.record_path is not None:
            self.write_record(finished)
        if not finished:
            return
        self.print("")
        self.print(self.board())
        self.print("")
        if not rules.is_terminal(state):
            self.print(
                f"game truncated after {env.num_steps} steps (max_steps); ranking by "
                "the current scores"
            )
        scores = rules.scores(state)
        ranks = ranks_of(scores)
        self.print("Final ranking:")
        for s in sorted(range(self.num_players), key=lambda s: (ranks[s], s)):
            self.print(f"  rank {ranks[s]:g}: {self.names[s]}, score {_fmt_score(scores[s])}")

    def write_record(self, finished: bool) -> None:
        agents = [HUMAN if spec is None else spec for spec in self.specs]
        scores = [float(x) for x in self.env.rules.scores(self.env.game_state)]
        record = game_record(self.env, agents, self.seed, self.actions, scores)
        if not finished:
            record["finished"] = False
        path = Path(self.record_path)
        try:
            path.write_text(json.dumps(record) + "\n", encoding="utf-8")
        except OSError as exc:
            raise PlayError(f"--record {path}: cannot write the record: {exc}") from None
        what = "the game" if finished else f"the game up to the quit ({len(self.actions)} actions)"
        self.print(f"recorded {what} in {path}; replay it with `primeval replay {path}`")


def play_cli(args: Any, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run ``primeval play``: one game, the human at ``args.seat``; returns the exit code.

    ``args`` needs ``game``, ``players`` (``None``: the game's default), ``seat``,
    ``opponents`` (a list of specs) and ``seed`` (``None``: fresh entropy); it may have
    ``record`` (a file path), ``hint`` (an agent spec), ``window`` (bool),
    ``trust_checkpoint`` and ``env_kwargs`` (the env keywords of the agents' checkpoints).

    Raises:
        PlayError: Bad seat or opponent count, or a record file that cannot be written.
        ValueError: Unknown game or agent spec (from ``make_raw_env`` / ``make_agent``).
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    record = getattr(args, "record", None)
    if record is not None:  # checked before the game, not after it
        if Path(record).is_dir():
            raise PlayError(f"--record {record} is a folder; give a file name")
        if not Path(record).parent.is_dir():
            raise PlayError(f"--record {record}: no such folder {Path(record).parent}")
    game = _Game(args, stdout)
    others = ", ".join(game.names[s] for s in range(game.num_players) if s != game.human)
    game.print(
        f"{game.game}, {game.num_players} players; you are player_{game.human}; "
        f"{others}; seed {game.seed}"
    )
    try:
        finished = game.play(stdin)
        game.finish(finished)
    finally:
        game.env.close()
    return 0
