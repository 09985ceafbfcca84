"""An agent in another process (any language) over JSON lines on stdin/stdout.

``primeval benchmark --task soup-4p --agent "cmd:python my_agent.py"`` starts the command
(split with :func:`shlex.split`, run without a shell, in the current folder) and talks to it
one JSON object per line (UTF-8, ``\\n``-terminated). The agent reads its stdin and writes its
stdout; its stderr passes through to the terminal.

1. Handshake. primeval writes ``{"type": "hello", "protocol": "primeval-jsonl/1", "game":
   "primordial_soup", "players": 4, "num_actions": N, "observation_shape": [D]}``; the agent
   answers ``{"type": "ready", "name": "my-agent"}`` (``name`` optional).
2. Every decision. primeval writes ``{"type": "act", "observation": [...], "action_mask":
   [0, 1, ...], "legal_actions": [[id, "name"], ...], "seat": k, "game": "primordial_soup"}``;
   the agent answers ``{"action": id}``, a legal id.
3. End. primeval writes ``{"type": "end"}`` and closes the agent's stdin; the agent exits.

Each answer must come within the time-out (:data:`DEFAULT_TIMEOUT` seconds, ``--timeout``).
An answer that is not one JSON object, names no legal ``action``, comes late, or an agent
that exits, fails the game with a :class:`ProtocolError` naming what went wrong (and the
agent's exit code); the process is then ended. ``docs/examples/jsonl_random_client.py`` is a
client in 20 lines.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
from typing import Any

import numpy as np

from primeval.training.benchmark.seat import EncoderFreeAgent

#: The protocol's name and version, in the handshake.
PROTOCOL = "primeval-jsonl/1"
#: Seconds an agent may take for the handshake or one answer.
DEFAULT_TIMEOUT = 30.0
#: Longest line read from an agent (bytes); a longer one is refused.
MAX_LINE = 1 << 20


class ProtocolError(RuntimeError):
    """An agent process broke the JSON-lines protocol (the message says how)."""


class ProcessAgent(EncoderFreeAgent):
    """The agent behind ``cmd:COMMAND``: a child process speaking :data:`PROTOCOL`.

    The process starts at the first decision (or :meth:`start`) and ends at :meth:`close`
    (the benchmark closes it after the last game; the garbage collector too).
    """

    def __init__(
        self, command: str, game: str, players: int | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        argv = shlex.split(command)
        if not argv:
            raise ValueError("cmd: names no command (e.g. cmd:python my_agent.py)")
        if not timeout > 0:
            raise ValueError(f"timeout must be positive, got {timeout!r}")
        super().__init__(game, players, f"cmd:{command}")
        self.argv = argv
        self.timeout = float(timeout)
        self.proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self.remote_name: str | None = None

    # -- the process ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the process and do the handshake (once)."""
        if self.proc is not None:
            return
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
            )  # noqa: S603
        except OSError as exc:
            raise ProtocolError(f"{self.name}: cannot start {self.argv[0]!r}: {exc}") from None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        env = get_game_env(self.game, self.players)
        self._send(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "game": self.game,
                "players": self.players,
                "num_actions": env["num_actions"],
                "observation_shape": env["observation_shape"],
            },
            "the handshake",
        )
        reply = self._receive("the handshake")
        if reply.get("type") != "ready":
            self._fail(f'answered the handshake with {reply!r}, not {{"type": "ready", ...}}')
        self.remote_name = str(reply.get("name", "")) or None

    def _read(self, stream) -> None:
        while True:
            line = stream.readline(MAX_LINE + 1)
            self._lines.put(line)
            if not line:
                return

    def _send(self, message: dict[str, Any], what: str) -> None:
        """Write ``message`` for the agent to answer as ``what``; an agent that went away
        first is named as ``_receive`` names one that goes away before its answer (which of
        the two sees it is a race between the agent's exit and this write)."""
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._fail(f"closed its input before answering {what} (did it exit?)")

    def _receive(self, what: str) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._fail(f"gave no answer to {what} within {self.timeout:g} s")
        if not line:
            self._fail(f"closed its output before answering {what}")
        if len(line) > MAX_LINE:
            self._fail(f"answered {what} with a line longer than {MAX_LINE} bytes")
        try:
            reply = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            self._fail(f"answered {what} with {line[:200]!r}, not one JSON object")
        if not isinstance(reply, dict):
            self._fail(f"answered {what} with {reply!r}, not a JSON object")
        return reply

    def _fail(self, what: str) -> None:
        code = None
        if self.proc is not None:
            self.close(graceful=False)
            code = self.proc.returncode
        exited = f" (exit code {code})" if code is not None else ""
        raise ProtocolError(f"agent {self.name}: {what}{exited}")

    def close(self, graceful: bool = True) -> None:
        """Say ``end``, close the agent's stdin and wait for it (ended after the time-out)."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        try:
            if graceful:
                proc.stdin.write(b'{"type": "end"}\n')
            proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            proc.wait(timeout=self.timeout if graceful else 0.5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter shutdown: nothing to tell
            self.close(graceful=False)

    # -- the Agent interface --------------------------------------------------------------

    def act(self, observation, action_mask, *, state=None, seat=None) -> int:
        self.start()
        info = self.info(action_mask, state, seat)
        obs = [] if observation is None else np.asarray(observation).ravel().tolist()
        self._send(
            {
                "type": "act",
                "observation": obs,
                "action_mask": np.asarray(action_mask).astype(int).tolist(),
                "legal_actions": [[a, n] for a, n in info["legal_actions"]],
                "seat": seat,
                "game": self.game,
            },
            f"a decision of seat {seat}",
        )
        reply = self._receive(f"a decision of seat {seat}")
        if "action" not in reply:
            self._fail(f'answered {reply!r}, with no "action"')
        try:
            return self.checked(reply["action"], action_mask)
        except (TypeError, ValueError) as exc:
            self._fail(str(exc).split(": ", 1)[-1])
        raise AssertionError("unreachable")


def get_game_env(game: str, players: int) -> dict[str, Any]:
    """The action count and observation shape of ``game`` (the flat encoder)."""
    env = get_game_module(game).raw_env(players)
    agent = env.possible_agents[0]
    return {
        "num_actions": int(env.action_space(agent).n),
        "observation_shape": list(env.observation_space(agent)["observation"].shape),
    }


def get_game_module(game: str):
    from primeval.envs.games import get_game

    return get_game(game)


__all__ = ["DEFAULT_TIMEOUT", "PROTOCOL", "ProcessAgent", "ProtocolError"]
