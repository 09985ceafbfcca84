"""`make bench-check` (primeval.training.ppo.bench_check): the comparison of measured ratios
with the committed figures, on made-up measurements (never a speed)."""

from __future__ import annotations

import json

import pytest

from primeval.training.ppo import bench_check

COMMITTED = {
    "origin / chess_v6": 10.0,
    "origin / go_v5": 2.5,
    "origin / training over SB3 alone": 0.4,
}


def test_a_30_percent_drop_fails_naming_the_figure_and_a_10_percent_drop_passes():
    measured = {
        "origin / chess_v6": 7.0,
        "origin / go_v5": 2.25,
        "origin / training over SB3 alone": 0.4,
    }
    rows = bench_check.compare(measured, COMMITTED, tolerance=0.25)
    assert bench_check.failures(rows) == ["origin / chess_v6"]
    by_name = {row["name"]: row for row in rows}
    assert by_name["origin / chess_v6"]["change"] == pytest.approx(-0.30)
    assert by_name["origin / go_v5"]["ok"] and by_name["origin / go_v5"]["change"] == (
        pytest.approx(-0.10)
    )
    lines = bench_check.report_lines(rows, 0.25)
    assert "origin / chess_v6: 7.000 (committed 10.000, -30.0%) SLOWER by more than 25%" in lines
    # The tolerance is configurable: 35% lets the 30% drop through, 5% fails the 10% one too.
    assert bench_check.failures(bench_check.compare(measured, COMMITTED, 0.35)) == []
    assert bench_check.failures(bench_check.compare(measured, COMMITTED, 0.05)) == [
        "origin / chess_v6",
        "origin / go_v5",
    ]


def test_a_faster_figure_passes():
    measured = {name: 2 * value for name, value in COMMITTED.items()}
    rows = bench_check.compare(measured, COMMITTED)
    assert bench_check.failures(rows) == [] and all(r["change"] == 1.0 for r in rows)


def test_a_figure_missing_on_either_side_is_a_clear_error():
    measured = {**COMMITTED, "primordial_soup / go_v5": 2.6}
    with pytest.raises(
        bench_check.FiguresError,
        match=r"no committed figure for 'primordial_soup / go_v5'; .* --update",
    ):
        bench_check.compare(measured, COMMITTED)
    partial = dict(COMMITTED)
    del partial["origin / go_v5"]
    with pytest.raises(
        bench_check.FiguresError, match=r"committed figure\(s\) 'origin / go_v5' were not measured"
    ):
        bench_check.compare(partial, COMMITTED)


@pytest.mark.parametrize(
    ("measured", "committed", "tolerance", "message"),
    [
        ({"a": 1.0}, {"a": 0.0}, 0.25, "committed figure 'a' must be a positive number, got 0.0"),
        ({"a": "fast"}, {"a": 1.0}, 0.25, "measured figure 'a' must be a positive number"),
        ({"a": 1.0}, {"a": 1.0}, 1.5, r"tolerance must be in \[0, 1\)"),
    ],
)
def test_bad_figures_or_tolerance_are_refused(measured, committed, tolerance, message):
    with pytest.raises(bench_check.FiguresError, match=message):
        bench_check.compare(measured, committed, tolerance)


def test_main_fails_with_the_figure_named_and_passes_within_the_tolerance(
    tmp_path, monkeypatch, capsys
):
    """The command with a fake measurement: exit 1 naming the slower figure, 0 within the
    tolerance, 2 when the committed file lacks a figure or is missing; --update rewrites it."""
    figures = tmp_path / "bench-check.json"
    figures.write_text(json.dumps({"date": "2026-12-02", "figures": COMMITTED}))
    measured = dict(COMMITTED)

    def fake_measure(rounds, seconds):
        return {"figures": dict(measured), "rounds": [], "settings": {}}

    monkeypatch.setattr(bench_check, "measure", fake_measure)
    assert bench_check.main(["--figures", str(figures)]) == 0
    measured["origin / go_v5"] = 2.5 * 0.7
    assert bench_check.main(["--figures", str(figures)]) == 1
    err = capsys.readouterr().err
    assert "FAILED" in err and "origin / go_v5" in err and "origin / chess_v6" not in err
    assert bench_check.main(["--figures", str(figures), "--tolerance", "0.35"]) == 0
    measured["primordial_soup / go_v5"] = 2.6
    assert bench_check.main(["--figures", str(figures)]) == 2
    assert "no committed figure for 'primordial_soup / go_v5'" in capsys.readouterr().err
    assert bench_check.main(["--figures", str(tmp_path / "none.json")]) == 2
    assert "no committed figures at" in capsys.readouterr().err
    assert json.loads(figures.read_text())["figures"] == COMMITTED  # nothing was rewritten
    assert bench_check.main(["--figures", str(figures), "--update"]) == 0
    written = json.loads(figures.read_text())["machines"]
    # the old record named no machine, so it stays beside this machine's new one
    assert written[0]["figures"] == COMMITTED and written[1]["figures"] == measured
    assert {"date", "machine", "load_average_1_5_15", "command"} <= set(written[1])
    assert bench_check.main(["--figures", str(figures)]) == 0
    assert "against the figures recorded on this CPU" in capsys.readouterr().out


def test_each_machine_is_compared_with_its_own_record(tmp_path, monkeypatch, capsys):
    """Ratios depend on the CPU: a run meets its CPU's record; a CPU with none meets each
    figure's lowest over the records; --update replaces only its own CPU's record."""
    fast = {"origin / chess_v6": 10.0, "origin / go_v5": 2.5}
    slow = {"origin / chess_v6": 7.5, "origin / go_v5": 2.6}
    data = {"machines": [
        {"figures": fast, "date": "2026-12-02", "machine": {"cpu": "AMD EPYC"}},
        {"figures": slow, "date": "2026-12-05", "machine": {"cpu": "Intel(R) Xeon(R) Processor"}},
    ]}
    path = tmp_path / "bench-check.json"
    path.write_text(json.dumps(data))
    loaded = bench_check.load_figures(path)
    record, which = bench_check.figures_for(loaded, "AMD EPYC 7B13")
    assert record["figures"] == fast and "(AMD EPYC)" in which
    record, _ = bench_check.figures_for(loaded, "Intel(R) Xeon(R) Processor")
    assert record["figures"] == slow
    record, which = bench_check.figures_for(loaded, "Some Other CPU")
    assert record["figures"] == {"origin / chess_v6": 7.5, "origin / go_v5": 2.5}
    assert "no figures recorded on this CPU (Some Other CPU)" in which
    # a run at 7.4 on the Xeon passes there, and would fail against the EPYC's 10.0
    monkeypatch.setattr("primeval.envs.testing.bench.machine",
                        lambda: {"cpu": "Intel(R) Xeon(R) Processor", "cores": 2})
    measured = {"origin / chess_v6": 7.4, "origin / go_v5": 2.6}
    monkeypatch.setattr(bench_check, "measure",
                        lambda rounds, seconds: {"figures": dict(measured)})
    assert bench_check.main(["--figures", str(path)]) == 0
    assert "(Intel(R) Xeon(R) Processor)" in capsys.readouterr().out
    assert bench_check.compare(measured, fast, 0.25)[0]["ok"] is False
    assert bench_check.main(["--figures", str(path), "--update"]) == 0
    written = json.loads(path.read_text())["machines"]
    assert [r["figures"] for r in written] == [fast, measured]
    assert written[1]["machine"]["cpu"] == "Intel(R) Xeon(R) Processor"


@pytest.mark.parametrize("text, message", [
    ('{"machines": []}', "non-empty list"),
    ('{"machines": [{"date": "x"}]}', "record 0 has no 'figures'"),
    ('{"machines": [{"figures": {}, "machine": 3}]}', "'machine' is not an object"),
    ('[1, 2]', "is not an object"),
])
def test_a_broken_figures_file_is_refused_naming_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "bench-check.json"
    path.write_text(text)
    with pytest.raises(bench_check.FiguresError, match=message):
        bench_check.load_figures(path)


def test_bad_arguments_are_refused_before_measuring(monkeypatch, tmp_path):
    monkeypatch.setattr(bench_check, "measure", lambda *a: pytest.fail("measured"))
    for argv in (["--tolerance", "1"], ["--rounds", "0"], ["--seconds", "0"]):
        with pytest.raises(SystemExit) as exit_info:
            bench_check.main(["--figures", str(tmp_path / "f.json"), *argv])
        assert exit_info.value.code == 2


def test_the_committed_figures_name_every_figure_the_check_measures():
    data = bench_check.load_figures(bench_check.DEFAULT_FIGURES)
    assert len(data["machines"]) >= 2  # the AMD EPYC's and the Intel Xeon's
    for record in data["machines"]:
        assert sorted(record["figures"]) == sorted(bench_check.figure_names())
        assert all(value > 0 for value in record["figures"].values())
        assert {"date", "machine", "load_average_1_5_15", "command"} <= set(record)
        assert record["machine"]["cpu"]
