"""The engine's one request schema, as Python asks it: the defaults are the engine's (the same
as the command line's), a step of play is a question like any other, games and errors cross a
process pool whole."""

from __future__ import annotations

import concurrent.futures
import json
import pickle
import subprocess
import sys
from typing import Tuple

import pytest

import takeaway
from conftest import GAMES, ROOT


def cli_json(*args: str):
    """The command line's --format json of the same question (the binary the tests built)."""
    binary = ROOT / "target" / "debug" / "takeaway"
    if not binary.exists():
        pytest.fail(f"{binary} is missing: the command line is built by `cargo test` first")
    out = subprocess.run([str(binary), *args, "--format", "json"], capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout)


def test_compare_reads_what_both_games_have(game):
    # Kayles against misère Kayles: misère play has no Grundy values, so outcomes are compared.
    # At 0 the player to move has no move: P under normal play, N under misère play.
    c = game("kayles").compare(game("misere-kayles"), 20)
    assert not c.identical
    assert c.json["compared"] == "outcome"
    assert c.first_difference == (0, "P", "N")
    # Two normal-play games compare Grundy values: take 1..3 against take 1..4 part at 4.
    tag = game("tag")
    four = takeaway.Game.from_source('game "1..4"\npiles\nmove: take 1..4\n')
    assert tag.compare(four, 50).first_difference == (4, 0, 4)


def test_a_step_of_play_is_a_question(game):
    tag = game("tag")
    start = tag.play(10)
    assert (start.position, start.outcome, start.over, start.to_move) == ((10,), "N", False, "you")
    assert [m.to for m in start.moves] == [(9,), (8,), (7,)]
    assert tag.play(10, hint=True).hint == {"kind": "win", "move": "take 2 from the pile of 10", "to": [8]}
    # 10 → 9 lets the win go; the computer answers 9 → 8.
    step = tag.play(10, to=(9,))
    assert step.you["slip"]["better"] == "take 2 from the pile of 10"
    assert step.computer["to"] == [8]
    assert step.position == (8,)
    # Each listed move says what it means for the one who makes it: TAG's P-positions are the
    # multiples of 4, and a position's Grundy value is n mod 4.
    assert [(m["to"], m["result"], m["value"]) for m in step.json["moves"]] == [
        ([7], "lose", "3"), ([6], "lose", "2"), ([5], "lose", "1")]
    # The step's positions as the player saw them: 10 a win, 9 (after the slip) a loss.
    assert [(p["position"], p["for_you"]) for p in step.positions] == [([10], "win"), ([9], "lose"), ([8], "lose")]
    # A partizan game as Right: in L{1,3} R{2,3} a pile of 2 is {1|0}, and Right moving
    # first wins (taking 2 leaves 0).
    sub = game("partizan-subtraction")
    right = sub.play(2, side="Right")
    assert right.side == "Right"
    assert [(m.to, m_json["result"]) for m, m_json in zip(right.moves, right.json["moves"])] == [((0,), "win")]
    # The hint in a sum names its hottest pile: of 1 and 8, the 8, at temperature 1/2.
    assert sub.play(1, 8, side="Left", hint=True).hint["hottest"] == {"pile": 8, "temperature": "1/2"}
    with pytest.raises(takeaway.QuestionError) as caught:
        tag.play(10, to=(2,))
    assert caught.value.code == "takeaway::query::not_a_move"


def test_the_defaults_are_the_engines_whatever_the_front_end(game):
    # The same questions, left to their defaults, as the command line asks them.
    path = str(GAMES / "kayles.game")
    kayles = game("kayles")
    assert kayles.table().json == cli_json("table", path)
    assert kayles.solve(10).json == cli_json("solve", path, "10")
    assert kayles.period().json == cli_json("period", path)
    assert kayles.plot().json == cli_json("plot", path)


def test_arguments_are_checked_by_the_engine(game):
    nim = game("nim")
    with pytest.raises(takeaway.ArgumentError) as caught:
        nim.table(uptoo=3)
    assert caught.value.code == "takeaway::query::arguments"
    assert "did you mean `upto`?" in caught.value.help
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, takeaway.QuestionError)
    with pytest.raises(takeaway.InvalidArgument) as caught:
        nim.solve(1, threads=0)
    assert isinstance(caught.value, ValueError)


def raise_a_game_error(text: str) -> None:
    takeaway.Game.from_source(text)


def question_in_another_process(g: takeaway.Game) -> int:
    return g.solve(3, 5, 6).grundy


def test_errors_and_games_cross_a_process_pool_whole(game):
    # An error pickles with its code, place and diagnostics.
    with pytest.raises(takeaway.GameError) as caught:
        raise_a_game_error('game "x"\npiles\nmove: take 1..k\n')
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is takeaway.GameError
    assert (again.code, again.line, again.column) == ("takeaway::check::unknown_name", 3, 15)
    assert again.diagnostics == caught.value.diagnostics
    # A game pickles as its text and settings.
    s = game("subtraction-set", S=[1, 2, 5])
    back = pickle.loads(pickle.dumps(s))
    assert back.table(9).grundy == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    # A cancel token pickles as whether it was cancelled (a token of its own on the other side).
    token = takeaway.CancelToken()
    assert pickle.loads(pickle.dumps(token)).cancelled is False
    token.cancel()
    again_token = pickle.loads(pickle.dumps(token))
    assert again_token.cancelled is True
    again_token.reset()
    assert token.cancelled is True
    # Through a real process pool, both ways.
    context = "fork" if sys.platform.startswith("linux") else None
    import multiprocessing

    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context(context)) as pool:
        assert pool.submit(question_in_another_process, game("nim")).result() == 3 ^ 5 ^ 6
        with pytest.raises(takeaway.GameError) as far:
            pool.submit(raise_a_game_error, "pile\nmove: tkae 1\n").result()
    assert far.value.code == "takeaway::parse::unexpected"
    assert type(far.value) is takeaway.GameError and far.value.line == 2


def solve_in_another_process(piles: Tuple[int, ...]) -> takeaway.Solution:
    return takeaway.Game.from_source('game "Nim"\npiles\nmove: take any\n').solve(*piles)


def test_every_answer_pickles_and_a_pool_hands_solutions_back(game):
    # Each kind of answer: its class, JSON, text and CSV come back the same.
    nim, kayles = game("nim"), game("kayles")
    answers = [
        nim.solve(3, 5, 7),
        kayles.explain(7),
        kayles.table(20),
        kayles.plot(30),
        game("misere-kayles").quotient(20),
        kayles.period(),
        kayles.compare(game("dawsons-kayles"), upto=30),
        nim.play(3, 5, computer=True, seed=1),
    ]
    for answer in answers:
        back = pickle.loads(pickle.dumps(answer))
        assert type(back) is type(answer)
        assert back.json == answer.json and back.text == answer.text and str(back) == str(answer)
    table = pickle.loads(pickle.dumps(answers[2]))
    assert table.grundy == answers[2].grundy and table.csv == answers[2].csv and table.csv.startswith("n,")
    assert table.grundy[:8] == [0, 1, 2, 3, 1, 4, 3, 2]  # Kayles, by its definition in Winning Ways
    solution = pickle.loads(pickle.dumps(answers[0]))
    assert (solution.grundy, solution.outcome) == (3 ^ 5 ^ 7, "N")
    # A process pool's map that returns solve()'s answers.
    import multiprocessing

    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        solved = list(pool.map(solve_in_another_process, [(1, 2, 3), (3, 5, 7), (4, 4)]))
    assert [s.grundy for s in solved] == [0, 3 ^ 5 ^ 7, 0]
    assert [s.outcome for s in solved] == ["P", "N", "P"]
