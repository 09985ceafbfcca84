"""``primeval play``: a human (scripted through stdin) against agents."""

from __future__ import annotations

import io
import re

import pytest

from primeval.training import cli
from primeval.training.play import PlayError, opponent_specs, play_cli

BAD_INPUTS = ["abc", "0", "", "99999", "-1", "1.5", "two"]


def run_play(argv: list[str], stdin_text: str) -> tuple[int, str, io.StringIO]:
    args = cli.build_parser().parse_args(["play", *argv])
    stdin = io.StringIO(stdin_text)
    stdout = io.StringIO()
    code = play_cli(args, stdin=stdin, stdout=stdout)
    return code, stdout.getvalue(), stdin


def scripted_lines(count: int, bad_every: int) -> list[str]:
    """``"1"`` answers with a bad input every ``bad_every`` lines."""
    return [BAD_INPUTS[(i // bad_every) % len(BAD_INPUTS)] if i % bad_every == bad_every - 1
            else "1" for i in range(count)]


#: A prompt's first line and the listed first choice after it (the decision may wrap).
DECISION = r"^Your decision \((player_\d+)\): .*\n(?:    (?!\s*\d+\. ).*\n)*\s+1\. (.*)\n"


def check_full_game(out: str, lines: list[str], human: str, num_players: int) -> None:
    decisions = len(re.findall(r"^Your decision \(", out, flags=re.M))
    errors = re.findall(r"^(.*) is not a number between 1 and (\d+), b, u, h or q$", out,
                        flags=re.M)
    # Piped input is echoed after the prompt.
    echoed = re.findall(r"^your choice \(1-(\d+), b board, u undo, h hint, q quit\): (.*)$",
                        out, flags=re.M)
    assert decisions > 5
    # Every line read was either an answer or a re-prompted bad input, in script order.
    consumed = lines[:decisions + len(errors)]
    assert [text for _count, text in echoed] == consumed
    # A decision with one legal choice is never asked: it is taken and shown in one line.
    assert all(int(count) >= 2 for count, _text in echoed)
    bad = [line for line in consumed if line != "1"]
    assert len(errors) == len(bad) > 0
    shown = [text for text, _k in errors]
    assert shown == [repr(b) if b else "an empty line" for b in bad]
    # The human always took the first listed choice.
    blocks = re.findall(DECISION, out, flags=re.M)
    assert {who for who, _first in blocks} == {human}
    taken = re.findall(rf"^{human} \(you\): (.*)$", out, flags=re.M)
    asked = [t for t in taken if not t.endswith(" (only choice)")]
    assert len(blocks) == len(asked) == decisions
    assert [first for _who, first in blocks] == asked
    # Final ranking: one line per seat, ranks 1..n.
    assert out.rstrip().splitlines()[-num_players - 1] == "Final ranking:"
    ranking = re.findall(r"^  rank ([\d.]+): (player_\d+) \((.*?)\), score (\S+)$", out,
                         flags=re.M)
    assert sorted(p for _r, p, _a, _s in ranking) == [f"player_{i}" for i in range(num_players)]
    assert ranking[0][0] == "1"
    assert not re.search(r"^quit$", out, flags=re.M)


def test_primordial_soup_full_game_with_bad_inputs():
    lines = scripted_lines(4000, bad_every=9)
    code, out, _ = run_play(["--game", "primordial_soup", "--players", "3", "--seat", "1",
                             "--opponents", "heuristic", "random", "--seed", "3"],
                            "\n".join(lines) + "\n")
    assert code == 0
    check_full_game(out, lines, "player_1", 3)
    assert "Primordial Soup: round" in out
    assert "Pending:" not in out  # the decision is said once, below the board
    assert re.search(r"^player_0: \S", out, flags=re.M)  # heuristic opponent's moves
    assert re.search(r"^player_2: \S", out, flags=re.M)  # random opponent's moves
    assert "player_0 (heuristic)" in out and "player_2 (random)" in out


def test_origin_full_game_with_bad_inputs():
    lines = scripted_lines(4000, bad_every=5)
    code, out, _ = run_play(["--game", "origin", "--players", "2", "--seat", "0",
                             "--opponents", "heuristic", "--seed", "1"],
                            "\n".join(lines) + "\n")
    assert code == 0
    check_full_game(out, lines, "player_0", 2)
    assert "Origin: turn" in out
    # Readable names next to the layout's ids, and hidden cards stay hidden.
    assert re.search(r"^\s+\d+\. evolve_at\(\w+\) = \w+ .+ \(\w+\)$", out, flags=re.M)
    assert re.search(r"^player_1: keep_objective\(a purple card\)$", out, flags=re.M)
    assert not re.search(r"^player_1: keep_objective\(O", out, flags=re.M)


def test_quit_with_q():
    code, out, stdin = run_play(["--game", "primordial_soup", "--players", "3",
                                 "--opponents", "random", "--seed", "0"], "1\nq\n1\n")
    assert code == 0
    assert out.rstrip().endswith("\nquit")
    assert "Final ranking" not in out
    assert stdin.readline() == "1\n"  # nothing read after q


def test_quit_at_end_of_input():
    code, out, _ = run_play(["--game", "origin", "--players", "2", "--opponents", "random",
                             "--seed", "0"], "")
    assert code == 0
    assert out.rstrip().endswith("\nquit")
    code, out, _ = run_play(["--game", "origin", "--players", "2", "--opponents", "random",
                             "--seed", "0"], "1\nxyz\n1")
    assert code == 0
    assert "'xyz' is not a number between 1 and" in out
    assert out.rstrip().endswith("\nquit")


def test_same_seed_same_game():
    argv = ["--game", "primordial_soup", "--players", "3", "--opponents", "random",
            "heuristic", "--seed", "7"]
    first = run_play(argv, "1\n" * 30)[1]
    assert first == run_play(argv, "1\n" * 30)[1]


def test_opponent_specs():
    assert opponent_specs(4, 0, ["heuristic"]) == [None, "heuristic", "heuristic", "heuristic"]
    assert opponent_specs(3, 1, ["random", "heuristic"]) == ["random", None, "heuristic"]
    with pytest.raises(PlayError, match="out of range"):
        opponent_specs(3, 3, ["random"])
    with pytest.raises(PlayError, match="one per other seat"):
        opponent_specs(4, 0, ["random", "random"])


def test_cli_errors(capsys):
    assert cli.main(["play", "--players", "3", "--seat", "5"]) == 2
    assert "--seat 5 is out of range" in capsys.readouterr().err
    assert cli.main(["play", "--players", "4", "--opponents", "random", "random"]) == 2
    assert "one per other seat" in capsys.readouterr().err
    assert cli.main(["play", "--players", "3", "--opponents", "alien"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    assert cli.main(["play", "--game", "origin", "--players", "7"]) == 2
    assert "num_players" in capsys.readouterr().err
