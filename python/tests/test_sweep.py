"""Sweeps: rows checked against octal games' values computed here by brute force from the octal
code's definition, the rows file resumed after a kill, and the sweep on a real Dask cluster
(a LocalCluster of two worker processes on loopback) with one worker killed mid-sweep."""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys

import pytest

import takeaway
from conftest import mex

# Columns that are the run's own measurements (they differ between two runs of the same game).
MEASURED = ("seconds", "work", "resumed_at")


def octal_values(code: str, upto: int):
    """Grundy values of one heap of the octal game `code`, from its definition: digit d_k's bit
    1 takes k leaving nothing, bit 2 leaving one heap, bit 4 leaving two non-empty heaps."""
    lead, rest = code.split(".")
    digits = [int(lead)] + [int(c) for c in rest]
    g = []
    for n in range(upto):
        options = set()
        for k, d in enumerate(digits):
            if k > n:
                break
            left = n - k
            if d & 1 and left == 0 and k > 0:
                options.add(0)
            if d & 2 and left > 0 and k > 0:
                options.add(g[left])
            if d & 4 and left >= 2:
                for a in range(1, left // 2 + 1):
                    options.add(g[a] ^ g[left - a])
        g.append(mex(options))
    return g


def fnv(values):
    h = 0xCBF29CE484222325
    for v in values:
        for byte in int(v).to_bytes(4, "little"):
            h ^= byte
            h = (h * 0x100000001B3) % (1 << 64)
    return f"{h:016x}"


def comparable(rows):
    return [{k: v for k, v in r.items() if k not in MEASURED} for r in rows]


def test_octal_codes_are_every_code_up_to_k_digits():
    codes = takeaway.octal_codes(2)
    assert len(codes) == 2 * (7 + 56)
    assert codes[:3] == ["0.1", "0.2", "0.3"] and codes[-1] == "4.77"
    assert all(not c.endswith("0") for c in codes)
    assert len(takeaway.octal_codes(4)) == 8190


def test_rows_agree_with_brute_force_and_the_periodicity_theorem():
    rows, _ = takeaway.sweep_rows(octal=2, upto=2048)
    assert len(rows) == 126
    proven = [r for r in rows if r["status"] == "proven"]
    assert len(proven) > 90
    for r in proven:
        pre, p = r["preperiod"], r["period"]
        t = len(r["game"].split(".")[1])
        # Guy and Smith: G(n + p) = G(n) for pre ≤ n < 2·pre + p + t proves it everywhere.
        need = 2 * pre + 2 * p + t
        g = octal_values(r["game"], need + p)
        assert all(g[n + p] == g[n] for n in range(pre, need)), r["game"]
        # the smallest period and preperiod
        assert pre == 0 or g[pre - 1] != g[pre - 1 + p], r["game"]
        assert r["checksum"] == fnv(g[: pre + p]), r["game"]
        assert r["largest_value"] == max(g[: pre + p])
    for r in rows:
        if r["status"] == "open":
            g = octal_values(r["game"], r["values_computed"]) if r["values_computed"] <= 2048 else None
            assert g is not None and r["checksum"] == fnv(g), r["game"]
            assert r["largest_value"] == max(g) and r["largest_at"] == g.index(max(g))


def test_published_periods():
    # Kayles (0.77): period 12 from 71; Dawson's chess (0.137): 34 from 52 (Winning Ways); 0.16:
    # 149,459 from 105,351 (Gangolli and Plambeck).
    df = takeaway.sweep(["0.77", "0.137", "0.16"], upto=600_000)
    got = {r.game: (int(r.preperiod), int(r.period)) for r in df.itertuples()}
    assert got == {"0.77": (71, 12), "0.137": (52, 34), "0.16": (105351, 149459)}
    assert list(df.status) == ["proven"] * 3


def test_histograms_count_the_values_at_every_power_of_two(cluster, tmp_path):
    # Each row's histograms, here and on the Dask cluster, against counts of the values computed
    # here from the octal codes' definition.
    from distributed import Client

    upto = 1 << 11
    codes = ["0.6", "0.106", "0.137"]
    rows, _ = takeaway.sweep_rows(codes, upto=upto, histograms=True, workers=1)
    with Client(cluster) as client:
        on_dask, _ = takeaway.sweep_rows(codes, upto=upto, histograms=True, client=client, out=tmp_path / "h.jsonl")
    assert comparable(on_dask) == comparable(rows)
    for row, code in zip(rows, codes):
        values = octal_values(code, row["values_computed"])
        for histogram in row["histograms"]:
            n = histogram["values"]
            counts = [0] * (max(values[:n]) + 1)
            for v in values[:n]:
                counts[v] += 1
            assert histogram["counts"] == counts, (code, n)
        sizes = [h["values"] for h in row["histograms"]]
        assert sizes[: len(sizes) - 1] == [1 << k for k in range(len(sizes) - 1)], code
    assert "histograms" not in takeaway.sweep_rows(["0.6"], upto=64)[0][0]
    with pytest.raises(takeaway.TakeawayError) as refused:
        takeaway.sweep_rows(["0.6"], upto=64, histograms=True, out=tmp_path / "rows.csv")
    assert refused.value.code == "takeaway::query::invalid"


def test_same_values_are_marked():
    # 0.5 and 0.7 play as 0.3 (a last take of one counter, or of the whole heap): proven alike.
    df = takeaway.sweep(["0.3", "0.5", "0.7", "0.6"], upto=1024)
    marked = dict(zip(df.game, df.same_values_as))
    assert marked["0.5"] == "0.3" and marked["0.7"] == "0.3"
    assert list(df[df.game == "0.5"].same_values) == ["proven"]
    assert octal_values("0.5", 200) == octal_values("0.3", 200)


def test_a_parameter_family_and_a_bad_game_are_rows():
    game = takeaway.Game.from_source('game "s"\nparam k = 1\npile\nmove: take 1..k\n')
    rows, _ = takeaway.sweep_rows(game=game, each=["k=1..4"], upto=100)
    assert [r["game"] for r in rows] == ["k=1", "k=2", "k=3", "k=4"]
    assert [(r["preperiod"], r["period"]) for r in rows] == [(0, 2), (0, 3), (0, 4), (0, 5)]
    rows, _ = takeaway.sweep_rows(games=["game \"x\"\npile\nmove: take 1..\n", game], upto=100)
    assert rows[0]["status"] == "refused" and rows[0]["error_code"].startswith("takeaway::parse")
    assert rows[1]["status"] == "proven"


def test_games_are_rows_named_by_their_game_lines():
    # Games loaded from text are named by their `game` line, not "game 1"; two of one name are
    # told apart by their place, not refused.
    s = 'game "S{1,%d}"\npile\nmove: take 1 or %d\n'
    games = [takeaway.Game.from_source(s % (k, k)) for k in (2, 3)]
    twin = takeaway.Game.from_source(s % (2, 2))
    rows, _ = takeaway.sweep_rows(games=games + [twin], upto=100)
    assert [r["game"] for r in rows] == ["S{1,2}", "S{1,3}", "S{1,2} (2)"]
    # {1, 2}: 0 1 2 repeating; {1, 3}: 0 1 0 1 repeating.
    assert [(r["preperiod"], r["period"]) for r in rows] == [(0, 3), (0, 2), (0, 3)]
    with pytest.raises(takeaway.InvalidArgument) as raised:
        takeaway.sweep_rows(["0.16", "0.16"])
    assert "`codes`" in str(raised.value) and "named twice" in str(raised.value)


def test_wrong_requests_raise_with_their_codes():
    with pytest.raises(takeaway.InvalidArgument) as raised:
        takeaway.sweep_rows(octal=9)
    assert raised.value.code == "takeaway::query::invalid"
    again = pickle.loads(pickle.dumps(raised.value))
    assert again.code == raised.value.code and type(again) is type(raised.value)
    with pytest.raises(takeaway.InvalidArgument):
        takeaway.sweep_rows(["0.9"])


def test_the_rows_file_resumes_after_a_kill(tmp_path):
    whole, _ = takeaway.sweep_rows(octal=2, upto=1024)
    out = tmp_path / "rows.jsonl"
    # As a killed sweep leaves it: some rows, out of order, the last line cut short.
    lines = [json.dumps(r) for r in whole[40:60]]
    out.write_text("\n".join(lines) + "\n" + lines[0][:25])
    rows, resumed = takeaway.sweep_rows(octal=2, upto=1024, out=out)
    assert resumed == 20
    assert comparable(rows) == comparable(whole)
    assert [json.loads(l)["game"] for l in out.read_text().splitlines()] == [r["game"] for r in whole]
    # CSV too: the same rows once, in order.
    csv_out = tmp_path / "rows.csv"
    takeaway.sweep_rows(octal=1, upto=1024, out=csv_out)
    first = csv_out.read_text()
    rows, resumed = takeaway.sweep_rows(octal=1, upto=1024, out=csv_out)
    assert resumed == 14 and csv_out.read_text().splitlines()[0] == first.splitlines()[0]
    assert len(csv_out.read_text().splitlines()) == 15


# Codes whose values are slow to compute (a plain scan of every split) beside quick ones, so that
# a worker is killed with games in flight.
DASK_CODES = [
    "0.004", "0.005", "0.006", "0.007", "0.016", "0.024", "0.025", "0.026", "0.027", "0.036",
    "0.037", "0.042", "0.061", "0.062", "0.063", "0.114", "0.125", "0.126", "0.135", "0.136",
    "0.07", "0.77", "0.137", "0.16", "0.6", "0.51", "0.15", "4.027", "4.047", "4.66",
    "4.404", "0.356", "0.165", "0.127", "0.56", "0.354",
]


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as c:
        yield c


def test_dask_sweep_survives_a_killed_worker(cluster, tmp_path):
    from distributed import Client

    upto = 1 << 16
    alone, _ = takeaway.sweep_rows(DASK_CODES, upto=upto, workers=1)
    killed = []
    with Client(cluster) as client:
        before = client.run(os.getpid)

        def kill_one(row):
            if len(killed) == 0:
                pid = sorted(before.values())[0]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        rows, _ = takeaway.sweep_rows(DASK_CODES, upto=upto, client=client, on_row=kill_one, out=tmp_path / "d.jsonl")
        client.wait_for_workers(2, timeout=60)
        after = client.run(os.getpid)
    assert killed and killed[0] not in after.values()
    assert [r["game"] for r in rows] == DASK_CODES
    assert comparable(rows) == comparable(alone)
    lines = (tmp_path / "d.jsonl").read_text().splitlines()
    assert [json.loads(l)["game"] for l in lines] == DASK_CODES


def test_the_command_lines_dask_entry(cluster, tmp_path):
    # What `takeaway sweep --scheduler ADDRESS` runs: the request in the engine's schema.
    request = json.dumps({"codes": ["0.77", "0.137", "0.6"], "upto": 4096, "out": str(tmp_path / "r.csv")})
    done = subprocess.run(
        [sys.executable, "-m", "takeaway._sweep", "--scheduler", cluster.scheduler_address, "--request", request],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "0.77" in done.stdout and "period 12 from 71" in done.stdout
    assert "3 games: 2 proven, 1 open" in done.stdout
    csv_lines = (tmp_path / "r.csv").read_text().splitlines()
    assert csv_lines[0].startswith("game,status,preperiod,period") and len(csv_lines) == 4
    bad = subprocess.run(
        [sys.executable, "-m", "takeaway._sweep", "--scheduler", cluster.scheduler_address, "--request", '{"octal": 0}'],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 1 and "takeaway::query::invalid" in bad.stderr


def test_the_dask_entry_refuses_a_bad_address_without_a_traceback_and_imports_nothing_planted(tmp_path):
    # `takeaway sweep --scheduler` starts `python3 -I -m takeaway._sweep` (the binary's own test
    # checks the `-I`): a `takeaway/` or `json.py` planted in the current folder never runs.
    marker = tmp_path / "ran"
    plant = f"open({str(marker)!r}, 'w').write('planted')\n"
    (tmp_path / "json.py").write_text(plant)
    (tmp_path / "takeaway").mkdir()
    (tmp_path / "takeaway" / "__init__.py").write_text(plant)
    request = json.dumps({"codes": ["0.77"], "upto": 64})
    for address in ["foo://bar", "tcp://", "tcp://[::1", "::::"]:
        done = subprocess.run(
            [sys.executable, "-I", "-m", "takeaway._sweep", "--scheduler", address, "--request", request],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
        assert done.returncode == 1, done.stderr
        assert "takeaway::sweep::scheduler" in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert "help: give the scheduler's address" in done.stderr
    assert not marker.exists()


def test_the_manual_example_prints_what_it_says():
    import contextlib
    import io
    import re

    from conftest import ROOT

    chapter = (ROOT / "docs" / "src" / "atlas.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", chapter, re.S).group(1)
    promised = [line[2:] for line in code.splitlines() if line.startswith("# ")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/src/atlas.md", "exec"), {})
    assert out.getvalue().splitlines() == promised
