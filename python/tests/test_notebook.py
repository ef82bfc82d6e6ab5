"""notebooks/tour.ipynb runs from top to bottom in a fresh kernel, and says what the theory says."""

from __future__ import annotations

import json

import pytest

from conftest import ROOT, subtraction_values

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")


def brute_period(values):
    """The shortest period of the values, then the shortest preperiod, checked over the tail."""
    for period in range(1, len(values) // 4):
        for pre in range(0, len(values) // 2):
            if all(values[n] == values[n + period] for n in range(pre, len(values) - period)):
                return pre, period
    raise AssertionError("no period in the values computed")


def outputs(cell):
    texts, data = [], {}
    for o in cell.get("outputs", []):
        if "text" in o:
            texts.append(o["text"])
        for kind, value in o.get("data", {}).items():
            data.setdefault(kind, []).append(value)
            if kind == "text/plain":
                texts.append(value)
    return "".join(texts), data


@pytest.fixture(scope="module")
def tour():
    path = ROOT / "notebooks" / "tour.ipynb"
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()
    return [outputs(c) for c in nb.cells if c.cell_type == "code"]


def cell_with(tour, needle):
    for text, data in tour:
        if needle in text:
            return text, data
    raise AssertionError(f"no cell printed {needle!r}")


def test_the_teachers_tour(tour):
    text, _ = cell_with(tour, "N 135")
    assert "take 127 from the pile of 163 -> (41, 36, 13)" in text
    text, _ = cell_with(tour, "Nim, position 25 28 10")
    assert "nim-sum (XOR) is 15" in text
    text, _ = cell_with(tour, "Kayles, one pile of 4")
    assert "mex" in text
    html = [d["text/html"][0] for _, d in tour if "text/html" in d and "Kayles" in d["text/html"][0]]
    assert html and "<table>" in html[0] and html[0].count("font-weight:bold") == 1  # only 0 is P to 24
    text, _ = cell_with(tour, "[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4]")
    assert "period 12 from n = 71" in text
    svg = [d["image/svg+xml"][0] for _, d in tour if "image/svg+xml" in d]
    assert svg and svg[0].lstrip().startswith("<svg")
    text, _ = cell_with(tour, "order 40")
    assert text.startswith("P\n")
    text, _ = cell_with(tour, "{1|0}")
    assert text.splitlines()[2] == "2"


def test_the_research_sweep_finds_the_periods_a_brute_force_finds(tour):
    line = next(t for t, _ in tour if t.startswith("{"))
    periods = json.loads(line)
    assert len(periods) == 55
    for key, (pre, period) in periods.items():
        takes = tuple(int(x) for x in key.split())
        assert (pre, period) == brute_period(subtraction_values(takes, 600)), key
    text, _ = cell_with(tour, "longest period")
    assert "(1, 11, 12) (0, 23)" in text
