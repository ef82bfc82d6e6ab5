"""Values the theory gives, checked against the engine through the Python package."""

from __future__ import annotations

import itertools
import os
import random
import stat
from fractions import Fraction

import pytest

import takeaway

from conftest import kayles_values, misere_kayles_wins, subtraction_values


def test_bouton_outcome_value_and_winning_moves(game):
    nim = game("nim")
    rng = random.Random(33)
    positions = [tuple(rng.randrange(0, 300) for _ in range(rng.randrange(1, 5))) for _ in range(300)]
    positions += [(41, 163, 13), (3, 5, 6), (0,), (10**18, 3, 10**18 + 3)]
    for piles in positions:
        s = nim.solve(*piles)
        x = 0
        for p in piles:
            x ^= p
        assert s.grundy == x, piles
        assert s.outcome == ("P" if x == 0 else "N"), piles
        if x == 0:
            assert s.winning_moves == []
        else:
            # Bouton: a move wins exactly when it leaves nim-sum 0; one per pile whose bit is
            # set (piles of one size are one move, up to the order of the piles).
            expected = len({p for p in piles if p ^ x < p})
            assert len(s.winning_moves) == expected, piles
            for m in s.winning_moves:
                left = 0
                for p in m.to:
                    left ^= p
                # Where it leads: one pile made p XOR x, and among several piles the empty ones
                # left out (a single pile stays, as 0).
                leads = set()
                for i, p in enumerate(piles):
                    if p ^ x < p:
                        after = list(piles[:i]) + [p ^ x] + list(piles[i + 1 :])
                        if len(piles) > 1:
                            after = [q for q in after if q > 0] or [0]
                        leads.add(tuple(after))
                assert left == 0 and m.to in leads, (piles, m.to)
                assert nim.solve(*m.to).outcome == "P"


def test_the_first_example_of_the_readme(game):
    s = game("nim").solve(41, 163, 13)
    assert (s.outcome, s.grundy) == ("N", 135)
    assert [(m.description, m.to) for m in s.winning_moves] == [("take 127 from the pile of 163", (41, 36, 13))]
    assert "take 127 from the pile of 163, to 41 36 13" in str(s)


def test_a_subtraction_games_values_and_proven_period():
    sub = takeaway.Game.from_source("game \"S\"\nparam S = {1, 3, 4}\npiles\nmove: take S\n")
    table = sub.table(60)
    assert table.grundy == subtraction_values((1, 3, 4), 60)
    assert table.p_positions == [n for n in range(61) if n % 7 in (0, 2)]
    assert (table.period.preperiod, table.period.period, table.period.saltus) == (0, 7, 0)
    assert table.period.proven
    # Settings as keyword arguments: another set without editing the text.
    other = sub.__class__.from_source(sub.source, S=[2, 5, 6])
    assert other.table(60).grundy == subtraction_values((2, 5, 6), 60)


def test_kayles_values_match_brute_force(game):
    assert game("kayles").table(80).grundy == kayles_values(80)
    # Past the proven period (12 from 71), a huge row is answered from it.
    g = kayles_values(200)
    assert game("kayles").solve(10**12 + 5).grundy == g[71 + (10**12 + 5 - 71) % 12]


def test_misere_kayles(game):
    kayles = game("misere-kayles")
    assert kayles.misere
    assert kayles.solve(20, 25, 30, 35).outcome == "P"
    assert kayles.solve(20, 25, 30, 35).grundy is None
    # Every sum of up to three rows of at most 7 pins, against a brute force of misère play.
    for k in (1, 2, 3):
        for rows in itertools.combinations_with_replacement(range(1, 8), k):
            expected = "N" if misere_kayles_wins(rows) else "P"
            assert kayles.solve(*rows).outcome == expected, rows
    q = kayles.quotient()
    assert (q.order, len(q.p_portion)) == (40, 9)


def test_a_partizan_canonical_form(game):
    g = game("partizan-one-or-two")
    assert g.partizan
    table = g.table(8)
    assert table.outcomes == ["P", "L", "N"] * 3
    assert table.values == ["0", "1", "{1|0}"] * 3
    s = g.solve(2, 2, 1)
    assert (s.outcome, s.value, s.grundy) == ("L", "2", None)
    assert [m.to for m in s.left_moves] == [(1, 2, 1), (2, 2)]
    assert s.right_moves == []


def test_schwenk_fibonacci_nim(game):
    # Fibonacci Nim: the first player loses exactly on Fibonacci numbers (Whinihan).
    fib = game("fibonacci-nim")
    fibs = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89}
    for n in range(2, 100):
        assert (fib.solve(n).outcome == "P") == (n in fibs), n


def test_remoteness_is_searched_as_on_the_command_line(game):
    nim = game("nim")
    s = nim.solve(3, 5, 6)
    assert "remoteness: 14" in s.text
    assert s.remoteness == 14  # 3 + 5 + 6 counters, one at a time: the loser delays
    assert nim.solve(1, 1).remoteness == 2
    assert nim.solve(1, 1, remoteness=False).remoteness is None
    assert nim.solve(200, 300, 400).remoteness is None  # too many positions to search


def test_explain_names_the_mex_and_the_nim_sum(game):
    e = game("nim").explain(3, 5, 6)
    assert e.outcome == "P"
    assert "nim-sum" in e.text
    k = game("kayles").explain(4)
    assert "mex" in k.text


def test_compare_and_period(game):
    tag = game("tag")
    same = takeaway.Game.from_source('game "1..3"\npiles\nmove: take 1..3\n')
    assert tag.compare(same, 200).identical
    other = takeaway.Game.from_source('game "1..4"\npiles\nmove: take 1..4\n')
    c = tag.compare(other, 50)
    assert not c.identical
    assert c.first_difference == (4, 0, 4)
    p = tag.period()
    assert p.proven and (p.preperiod, p.period) == (0, 4)


def test_tables_render_for_notebooks(game, tmp_path):
    table = game("tag").table(12)
    html = table._repr_html_()
    assert "<table>" in html and html.count("font-weight:bold") == 4  # 0, 4, 8, 12
    df = table.to_pandas()
    assert list(df["grundy"]) == [n % 4 for n in range(13)]
    plot = game("kayles").plot(30)
    assert plot._repr_svg_().startswith("<svg")
    target = tmp_path / "kayles.svg"
    target.write_text("old")
    plot.save(str(target))
    assert target.read_text() == plot.svg
    assert [p.name for p in tmp_path.iterdir()] == ["kayles.svg"]


def test_save_writes_through_a_link_keeps_the_mode_and_refuses_a_pipe_nobody_reads(game, tmp_path):
    plot = game("kayles").plot(10)
    target = tmp_path / "target.svg"
    target.write_text("old")
    target.chmod(0o600)
    link = tmp_path / "link.svg"
    link.symlink_to("target.svg")
    plot.save(link)
    assert link.is_symlink() and target.read_text() == plot.svg
    assert target.stat().st_mode & 0o777 == 0o600
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        plot.save(fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_partizan_position_s_mean_temperature_and_stops():
    # Left takes 1, Right takes 2: a pile of 5 is the switch {1 | 0}, mean and temperature 1/2
    # (Winning Ways ch. 6), stops 1 and 0.
    game = takeaway.Game.from_source('game "one or two"\npiles\nleft move: take 1\nright move: take 2')
    s = game.solve(5)
    assert s.value == "{1|0}"
    assert (s.mean, s.temperature, s.stops) == (Fraction(1, 2), Fraction(1, 2), (1, 0))
    assert s.thermograph.startswith("Thermograph(1/2,")
    # Its thermograph drawn: the walls as data beside the picture.
    plot = game.plot(thermograph=[5, "2"])
    assert plot._repr_svg_().startswith("<svg")
    walls = plot.json["thermographs"][0]
    assert (walls["left_wall"], walls["right_wall"]) == ([["-1", "2"], ["1/2", "1/2"]], [["-1", "-1"], ["1/2", "1/2"]])
    # An impartial game has none of these.
    assert game_free_of_heat(takeaway.Game.from_source("pile\nmove: take 1..3").solve(5))


def test_cooling_reduced_forms_atomic_weights_and_sums_at_scale():
    # {1 | 0} cooled by t is {1 - t | t} up to its temperature 1/2, then the number 1/2.
    switch = takeaway.Game.from_source('game "one or two"\npiles\nleft move: take 1\nright move: take 2')
    assert switch.solve(5, cool=Fraction(1, 4)).cooled == "{3/4|1/4}"
    assert switch.solve(5, cool="1").cooled == "½"
    # Left takes 1 or 2, Right 1: a pile of n >= 2 is (n - 1) ups, of atomic weight n - 1.
    ups = takeaway.Game.from_source('game "ups"\npiles\nleft move: take 1 or 2\nright move: take 1')
    assert [ups.solve(n).atomic_weight for n in range(2, 7)] == ["1", "2", "3", "4", "5"]
    assert switch.solve(5).atomic_weight is None
    # L{1,3} R{2,3}: a pile of 8 is {1|0} up to infinitesimals; 100 piles near 10,000 are too
    # many to search, and their means add: 34 of mean 1 and 33 of 1/2.
    hot = takeaway.Game.from_source('game "h"\npiles\nleft move: take 1 or 3\nright move: take 2 or 3')
    assert hot.solve(8).value != "{1|0}" and hot.solve(8).reduced == "{1|0}"
    big = hot.solve(*range(9901, 10001))
    assert (big.outcome, big.sum_heat["mean"], big.sum_heat["temperature_at_most"]) == ("L", "101/2", "1/2")
    with pytest.raises(takeaway.TakeawayError) as e:
        ups.solve(3, cool="1/3")
    assert e.value.code == "takeaway::query::invalid"


def game_free_of_heat(s) -> bool:
    return s.mean is None and s.temperature is None and s.stops is None and s.thermograph is None
