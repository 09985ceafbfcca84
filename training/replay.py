"""Replay a recorded game: ``primeval replay games.jsonl --game-index 3``.

``primeval evaluate ... --record games.jsonl`` writes one JSON line per game (see
:func:`primeval.training.evaluate.game_record`): the game, the player count, the rules config,
the env's ``max_steps``, the seed, the agents by seat, every action and the final scores
(``primeval play --record`` writes the same, with ``"finished": false`` for a game quit
before its end: its replay stops after the last action and checks the scores so far).
Replaying rebuilds the env from the record, resets it with the seed, checks that every action
is legal before taking it, prints the text board after every step (``--every N``: every N
steps; the start and the end are always shown) or, with ``--render picture``, saves PNG frames
drawn by ``view.to_rgb_array(state)`` into ``--out-dir``, and finally checks that the scores
are the recorded ones. The board, the actions and the decisions are the env's view's
(``env.view``), its debugging view: a replay shows every hand.

A record is data from someone else: it never chooses files for primeval to open. The env is
built with the package's own game data; a record whose config names a data file
(``map_file``, ``cards_file``, ``components_file``: any ``*_file`` entry) is refused unless
the user passes that file explicitly (``--map-file PATH`` and the like, or ``data_files=`` in
Python), and then the user's file is the one read.

Every problem with the file or the record raises :class:`ReplayError` (a ``ValueError``), which
``primeval`` reports with exit code 2.
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from primeval.envs.core.values import short_repr
from primeval.envs.games import GAMES, make_raw_env

__all__ = ["DATA_FILE_FLAGS", "REQUIRED_FIELDS", "ReplayError", "load_record", "load_records",
           "replay_cli", "replay_record", "write_png"]

REQUIRED_FIELDS = ("game", "players", "config", "seed", "actions", "scores")
#: The config entries that name data files, with the ``primeval replay`` flag that passes
#: the user's own (any other ``*_file`` entry is refused too).
DATA_FILE_FLAGS = {"map_file": "--map-file", "cards_file": "--cards-file",
                   "components_file": "--components-file"}


class ReplayError(ValueError):
    """A record file or a record that cannot be replayed (the message says which and why)."""


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """Every record of a JSON-lines file (blank lines are skipped).

    Raises:
        ReplayError: The file is missing or unreadable, a line is not a JSON object, or the
            file holds no record.
    """
    path = Path(path)
    if not path.is_file():
        raise ReplayError(f"record file {path} does not exist")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"record file {path} cannot be read: {exc}") from None
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayError(
                f"{path} line {number} is not JSON ({exc.msg}); a record file has one JSON "
                "object per line, as written by `primeval evaluate --record`"
            ) from None
        except RecursionError:
            raise ReplayError(f"{path} line {number} is JSON nested too deeply to be a game "
                              "record") from None
        if not isinstance(record, dict):
            raise ReplayError(f"{path} line {number} is a JSON {type(record).__name__}, not "
                              "a game record object")
        records.append(record)
    if not records:
        raise ReplayError(f"record file {path} holds no game record")
    return records


def load_record(path: str | Path, index: int, game: str | None = None) -> dict[str, Any]:
    """Record number ``index`` (0-based) of a file, checked for the fields a replay needs.

    Args:
        game: If given, the record must be a game of this name.

    Raises:
        ReplayError: Bad file, index out of range, missing or malformed fields, another game.
    """
    records = load_records(path)
    if not 0 <= index < len(records):
        raise ReplayError(f"{path} holds {len(records)} game record(s): --game-index {index} "
                          f"is out of range 0..{len(records) - 1}")
    record = records[index]
    where = f"{path} game {index}"
    missing = [k for k in REQUIRED_FIELDS if k not in record]
    if missing:
        raise ReplayError(f"{where}: not a game record, missing field(s) {missing}")
    if record["game"] not in GAMES:
        raise ReplayError(f"{where}: unknown game {short_repr(record['game'])}; games: "
                          f"{', '.join(GAMES)}")
    if game is not None and record["game"] != game:
        raise ReplayError(f"{where} is a game of {record['game']}, not of {game}")
    if not _is_int(record["players"]):
        raise ReplayError(f"{where}: players must be an int, got "
                          f"{short_repr(record['players'])}")
    if not isinstance(record["config"], dict):
        raise ReplayError(f"{where}: config must be an object, got "
                          f"{short_repr(record['config'])}")
    if "finished" in record and not isinstance(record["finished"], bool):
        raise ReplayError(f"{where}: finished must be true or false, got "
                          f"{short_repr(record['finished'])}")
    if record["seed"] is not None and not _is_int(record["seed"]):
        raise ReplayError(f"{where}: seed must be an int, got {short_repr(record['seed'])}")
    if record.get("chance", "duplicate") != "duplicate" or (
            record.get("chance") == "duplicate" and record["seed"] is None):
        raise ReplayError(f"{where}: chance must be \"duplicate\" (with an int seed) or "
                          f"absent, got {short_repr(record.get('chance'))}")
    if not isinstance(record["actions"], list) or not all(_is_int(a) for a in record["actions"]):
        raise ReplayError(f"{where}: actions must be a list of ints")
    scores = record["scores"]
    if (not isinstance(scores, list) or len(scores) != record["players"]
            or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in scores)):
        raise ReplayError(f"{where}: scores must be a list of {record['players']} numbers, got "
                          f"{short_repr(scores)}")
    return record


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _data_files(config: dict[str, Any], data_files: dict[str, Any] | None,
                where: str) -> dict[str, Any]:
    """The config with its data-file entries replaced by the user's files: a record never
    names a file to open (it may come from anyone); a file the record names and the user
    did not pass is refused, naming the flag that passes one."""
    given = dict(data_files or {})
    for name, value in given.items():
        if not isinstance(name, str) or not name.endswith("_file"):
            raise ReplayError(f"data_files: {short_repr(name)} is not a data-file entry "
                              f"(known: {', '.join(DATA_FILE_FLAGS)})")
        if value is not None and not isinstance(value, str | Path):
            raise ReplayError(f"data_files[{name!r}] must be a path, got "
                              f"{type(value).__name__}")
    config = dict(config)
    for name in [k for k in config if isinstance(k, str) and k.endswith("_file")]:
        value = config.pop(name)
        if value is not None and given.get(name) is None:
            flag = DATA_FILE_FLAGS.get(name, f"--{name.replace('_', '-')}")
            raise ReplayError(
                f"{where}: the record names a data file, {name}={short_repr(value, 80)}; a "
                "record cannot choose files for primeval to open. Replay it with the file "
                f"you mean: {flag} PATH (data_files={{{name!r}: PATH}} in Python)")
    for name, value in given.items():
        if value is not None:
            config[name] = str(value)
    return config


def build_env(record: dict[str, Any], where: str = "record",
              data_files: dict[str, Any] | None = None):
    """The raw env of a record: its game, player count, config and ``max_steps``, with the
    package's own data files, or the ones the user passes in ``data_files``
    (``{"map_file": PATH, ...}``)."""
    config = _data_files(record["config"], data_files, where)
    players = record["players"]
    if config.pop("num_players", players) != players:
        raise ReplayError(f"{where}: config num_players "
                          f"{short_repr(record['config']['num_players'])} differs from players "
                          f"{players}")
    try:  # the rules settings of this game: a record's config holds nothing else
        settings = make_raw_env(record["game"], players).rules.config.to_dict()
    except (ValueError, TypeError) as exc:
        raise ReplayError(f"{where}: cannot build the {record['game']} env: "
                          f"{short_repr(str(exc), 300)}") from None
    unknown = sorted(str(k) for k in config if k not in settings)
    if unknown:
        raise ReplayError(f"{where}: config entries {short_repr(unknown, 200)} are not "
                          f"{record['game']} rules settings (known: {', '.join(settings)})")
    kwargs: dict[str, Any] = dict(config)
    if "max_steps" in record:
        kwargs["max_steps"] = record["max_steps"]
    try:
        return make_raw_env(record["game"], players, **kwargs)
    except (ValueError, TypeError, OSError) as exc:
        text = str(exc)
        text = text if len(text) <= 300 else text[:297] + "..."
        raise ReplayError(f"{where}: cannot build the {record['game']} env: {text}") from None
    except RecursionError:
        raise ReplayError(f"{where}: cannot build the {record['game']} env: a config value is "
                          "nested too deeply") from None


def replay_record(record: dict[str, Any], *, where: str = "record", render: str = "text",
                  every: int = 1, out_dir: str | Path | None = None,
                  stdout: TextIO | None = None,
                  data_files: dict[str, Any] | None = None,
                  at_end: Callable[[Any, Any], None] | None = None,
                  on_step: Callable[[Any, Any, int, int, np.ndarray], None] | None = None
                  ) -> list[float]:
    """Replay one record; returns the replayed final scores.

    Args:
        record: A game record (see :func:`load_record`).
        where: Names the record in messages (``FILE game I``).
        render: ``"text"`` (print the board), ``"picture"`` (save PNG frames into
            ``out_dir``) or ``"none"`` (only the moves and the scores).
        every: Show the board every this many steps (the start and the end always).
        out_dir: Folder for the PNG frames of ``render="picture"``.
        data_files: The user's own data files, ``{"map_file": PATH, ...}``, for a record of
            a game played with them (a record never names the files to read itself).
        at_end: Called as ``at_end(rules, state)`` with the final state once its scores
            match the record's (to read more of the end than the scores).
        on_step: Called as ``on_step(rules, state, seat, action, legal_mask)`` before each
            recorded action is played, once it is known to be legal (to read the decisions;
            the state must not be changed).

    Raises:
        ReplayError: A record naming a data file not passed in ``data_files``, an illegal
            action (naming the step and the action), a record that ends
            before the game or goes on after it, a missing picture renderer, or replayed
            scores that differ from the recorded ones.
    """
    stdout = sys.stdout if stdout is None else stdout
    if render not in ("text", "picture", "none"):
        raise ReplayError(f"unknown render {render!r}; use text, picture or none")
    if not _is_int(every) or every < 1:
        raise ReplayError(f"--every must be an int >= 1, got {every!r}")
    env = build_env(record, where, data_files)
    rules, view = env.rules, env.view
    frames: Path | None = None
    if render == "picture":
        to_rgb = getattr(view, "to_rgb_array", None)
        if not callable(to_rgb):
            raise ReplayError(f"the {record['game']} view has no picture renderer "
                              "(view.to_rgb_array); use --render text")
        if out_dir is None:
            raise ReplayError("--render picture needs --out-dir DIR for the PNG files")
        frames = Path(out_dir)
        frames.mkdir(parents=True, exist_ok=True)

    def show(step: int, title: str) -> None:
        if render == "text":
            print(f"--- {title} ---", file=stdout)
            print(view.to_text(env.game_state), file=stdout)
        elif render == "picture":
            assert frames is not None
            file = frames / f"step_{step:05d}.png"
            try:
                image = view.to_rgb_array(env.game_state)
            except ImportError as exc:
                raise ReplayError(f"the {record['game']} picture renderer cannot be loaded "
                                  f"(ImportError: {exc}); use --render text") from exc
            except Exception as exc:
                raise ReplayError(f"{where}: view.to_rgb_array failed at step {step}: "
                                  f"{type(exc).__name__}: {exc}") from exc
            write_png(file, image)
            print(f"--- {title}: {file} ---", file=stdout)

    actions = record["actions"]
    source = None
    if record.get("chance") == "duplicate":  # evaluate --duplicate: chance fixed per event
        from primeval.envs.core.chance import DuplicateChance

        source = DuplicateChance(record["seed"])
        env.unwrapped.use_chance(source)
    env.reset(seed=record["seed"])
    print(f"{where}: {record['game']}, {record['players']} players, seed {record['seed']}, "
          f"{len(actions)} actions"
          + (f", agents {', '.join(map(str, record['agents']))}" if record.get("agents")
             else ""), file=stdout)
    show(0, "start")
    for step, action in enumerate(actions, start=1):
        agent = env.agent_selection
        if not env.agents or env.terminations[agent] or env.truncations[agent]:
            raise ReplayError(f"{where}: the game ended after step {step - 1} but the record "
                              f"has {len(actions)} actions (next: {action})")
        state = env.game_state
        n = rules.layout.n
        if not 0 <= action < n:
            raise ReplayError(f"{where}: step {step}: action {action} is out of range "
                              f"0..{n - 1} for {agent}")
        mask = np.asarray(rules.legal_mask(state), dtype=bool)
        name = view.action_name(state, action)
        if not mask[action]:
            legal = np.flatnonzero(mask)
            some = ", ".join(f"{a}={rules.action_to_str(state, int(a))}" for a in legal[:8])
            more = f", ... ({len(legal)} in all)" if len(legal) > 8 else ""
            raise ReplayError(f"{where}: step {step}: action {action} ({name}) is not legal "
                              f"for {agent} (decision: {view.describe_decision(state)}); "
                              f"legal: {some}{more}")
        print(f"step {step}: {agent}: {name}", file=stdout)
        if on_step is not None:
            on_step(rules, state, env.possible_agents.index(agent), action, mask)
        if source is not None:
            source.context = env.possible_agents.index(agent)  # as evaluate.play_game
        env.step(action)
        if step % every == 0 and step < len(actions):
            show(step, f"after step {step}")
    agent = env.agent_selection
    unfinished = record.get("finished", True) is False  # `primeval play --record`, quit early
    if env.agents and not (env.terminations[agent] or env.truncations[agent]) and not unfinished:
        raise ReplayError(f"{where}: the record ends after {len(actions)} actions but the game "
                          f"is not over ({env.agent_selection} to decide: "
                          f"{view.describe_decision(env.game_state)})")
    show(len(actions), "end")
    state = env.game_state
    scores = [float(x) for x in rules.scores(state)]
    if unfinished and env.agents and not (env.terminations[agent] or env.truncations[agent]):
        print(f"game quit before its end ({env.agent_selection} to decide: "
              f"{view.describe_decision(env.game_state)}); scores so far", file=stdout)
    elif not rules.is_terminal(state):
        print(f"game truncated after {env.num_steps} steps (max_steps)", file=stdout)
    print("final scores: " + ", ".join(f"player_{s} {x:g}" for s, x in enumerate(scores)),
          file=stdout)
    recorded = [float(x) for x in record["scores"]]
    if scores != recorded:
        raise ReplayError(f"{where}: replayed scores {scores} differ from the recorded "
                          f"scores {recorded}")
    print("scores match the record", file=stdout)
    if at_end is not None:
        at_end(rules, state)
    return scores


def write_png(path: str | Path, image: Any) -> None:
    """Save an ``(H, W, 3)`` or ``(H, W, 4)`` uint8 array (or ``(H, W)`` grey) as a PNG,
    with the standard library only."""
    arr = np.asarray(image)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if arr.ndim != 3 or arr.shape[2] not in (1, 3, 4) or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ReplayError(f"to_rgb_array returned shape {arr.shape}; expected (H, W, 3), "
                          "(H, W, 4) or (H, W)")
    if arr.dtype != np.uint8:
        if np.issubdtype(arr.dtype, np.floating) and arr.size and arr.max() <= 1.0:
            arr = arr * 255.0
        arr = np.clip(arr, 0, 255).astype(np.uint8)
    height, width, channels = arr.shape
    colour_type = {1: 0, 3: 2, 4: 6}[channels]
    raw = b"".join(b"\x00" + arr[y].tobytes() for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    png = (b"\x89PNG\r\n\x1a\n"
           + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 6))
           + chunk(b"IEND", b""))
    Path(path).write_bytes(png)


def replay_cli(args: Any, stdout: TextIO | None = None) -> int:
    """Run ``primeval replay`` (``args.file``, ``args.game_index``, ``args.render``,
    ``args.every``, ``args.out_dir``, optional ``args.game``, ``args.map_file``,
    ``args.cards_file``, ``args.components_file``); returns the exit code."""
    record = load_record(args.file, args.game_index, getattr(args, "game", None))
    data_files = {name: getattr(args, name) for name in DATA_FILE_FLAGS
                  if getattr(args, name, None) is not None}
    replay_record(record, where=f"{args.file} game {args.game_index}", render=args.render,
                  every=args.every, out_dir=args.out_dir, stdout=stdout,
                  data_files=data_files)
    return 0
