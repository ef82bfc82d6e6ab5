"""Shared fixtures: the bundled games, and brute-force solvers written here from the definitions
(mex of the options; a position is P when every move leads to N), independent of the engine."""

from __future__ import annotations

import functools
import pathlib
from typing import Iterable, Tuple

import pytest

import takeaway

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"


@pytest.fixture
def game():
    """Loads a bundled game by its file name: game("nim")."""

    def load(name: str, **settings):
        return takeaway.Game.from_file(GAMES / f"{name}.game", **settings)

    return load


def mex(values: Iterable[int]) -> int:
    seen = set(values)
    n = 0
    while n in seen:
        n += 1
    return n


def subtraction_values(takes: Tuple[int, ...], upto: int):
    g = []
    for n in range(upto + 1):
        g.append(mex(g[n - t] for t in takes if t <= n))
    return g


def kayles_values(upto: int):
    """Kayles: take 1 or 2 adjacent pins from a row, which may leave two rows."""
    g = []
    for n in range(upto + 1):
        options = set()
        for t in (1, 2):
            for a in range(0, n - t + 1):
                options.add(g[a] ^ g[n - t - a])
        g.append(mex(options))
    return g


@functools.lru_cache(maxsize=None)
def misere_kayles_wins(rows: Tuple[int, ...]) -> bool:
    """Whether the player to move wins misère Kayles on these rows (sorted, no empty rows)."""
    if not rows:
        return True  # the previous player knocked down the last pin, and lost
    for i, n in enumerate(rows):
        rest = rows[:i] + rows[i + 1 :]
        for t in (1, 2):
            for a in range(0, n - t + 1):
                parts = tuple(p for p in (a, n - t - a) if p > 0)
                if not misere_kayles_wins(tuple(sorted(rest + parts))):
                    return True
    return False
