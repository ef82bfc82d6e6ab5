"""Every kind of failure raises its own exception, with the diagnostic as data."""

from __future__ import annotations

import pytest

import takeaway


def test_an_unknown_name_is_a_game_error_pointing_at_it():
    with pytest.raises(takeaway.GameError) as caught:
        takeaway.Game.from_source('game "x"\npiles\nmove: take 1..k\n')
    e = caught.value
    assert e.code == "takeaway::check::unknown_name"
    assert (e.line, e.column) == (3, 15)
    assert e.help == "the names here are `n`, `t`, `last`"
    assert e.message == "unknown name `k`"
    # str() is the rendered diagnostic, with the line and the caret under the name.
    assert "move: take 1..k" in str(e) and "unknown name `k`" in str(e)
    assert e.diagnostics[0]["code"] == "takeaway::check::unknown_name"
    assert isinstance(e, takeaway.TakeawayError)


def test_a_misspelt_word_and_an_unfinished_statement_are_told_apart():
    with pytest.raises(takeaway.GameError) as wrong:
        takeaway.Game.from_source('game "x"\npiles\nmove: tak 1..3\n')
    assert wrong.value.code == "takeaway::parse::unexpected"
    assert (wrong.value.line, wrong.value.column) == (3, 7)
    assert wrong.value.help.startswith("did you mean `take`?")
    with pytest.raises(takeaway.GameError) as short:
        takeaway.Game.from_source('game "x"\npiles\nmove: take 1..3\nmove:')
    assert short.value.code == "takeaway::parse::incomplete"


def test_a_bad_position_and_a_missing_file_are_game_errors(game):
    with pytest.raises(takeaway.GameError) as caught:
        game("nim").solve("3 x")
    assert caught.value.code == "takeaway::position::not_a_number"
    assert (caught.value.line, caught.value.column) == (1, 3)
    with pytest.raises(takeaway.GameError) as missing:
        takeaway.Game.from_file("no-such-file.game")
    assert missing.value.code == "takeaway::file::read"
    with pytest.raises(TypeError):
        game("nim").solve(3, 2.5)


def test_a_question_that_does_not_fit_the_game_is_a_question_error(game):
    with pytest.raises(takeaway.QuestionError) as caught:
        game("nim").quotient()
    assert caught.value.code == "takeaway::quotient::normal_play"
    assert "play misère" in caught.value.help
    with pytest.raises(takeaway.QuestionError) as last:
        game("nim").solve(3, last=2)
    assert last.value.code == "takeaway::query::last_unused"
    with pytest.raises(takeaway.QuestionError) as partizan:
        game("partizan-one-or-two").period()
    assert partizan.value.code == "takeaway::query::impartial_only"


def test_a_hopeless_question_is_refused_at_once_with_the_estimate(game):
    with pytest.raises(takeaway.Refused) as caught:
        game("grundys-game").solve(10**12)
    e = caught.value
    assert e.code == "takeaway::solve::too_much_work"
    assert "moves examined (about 13 days), past the budget of about 30 s" in e.message
    assert "within the limits" in e.help
    # A smaller budget refuses what the default allows.
    assert game("three-pile-wythoff").solve(10, 10, 10).outcome == "P"
    with pytest.raises(takeaway.Refused):
        game("three-pile-wythoff").solve(10, 10, 10, max_states=50)


def test_budget_arguments_are_checked(game):
    nim = game("nim")
    with pytest.raises(ValueError):
        nim.solve(1, timeout=-1)
    with pytest.raises(ValueError):
        nim.solve(1, max_states=0)
    with pytest.raises(TypeError):
        nim.solve(1, max_sates=10)
    with pytest.raises(TypeError):
        takeaway.Game.from_source('game "S"\nparam S = {1, 2}\npiles\nmove: take S\n', S="1,2")


def test_numbers_out_of_range_are_said_as_such(game):
    nim = game("nim")
    with pytest.raises(takeaway.GameError) as caught:
        nim.solve(10**30)
    assert caught.value.code == "takeaway::position::too_large"
    with pytest.raises(takeaway.ArgumentError, match="expected u64"):
        nim.table(-1)
    with pytest.raises(ValueError, match="too large"):
        takeaway.Game.from_source('game "a"\npiles\nmove: take 1..k\n', k=10**40)
    # Too long to write (a billion rows), then too many to hold (a table in Python is held).
    with pytest.raises(takeaway.Refused) as refused:
        nim.table(10**9)
    assert refused.value.code == "takeaway::table::too_long_to_write"
    with pytest.raises(takeaway.Refused) as refused:
        nim.table(10**7)
    assert refused.value.code == "takeaway::table::too_many_rows"
