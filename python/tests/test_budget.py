"""A long question stops on its timeout, on a CancelToken from another thread, and on Ctrl-C;
other Python threads run while the engine works."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

import takeaway

# About ten seconds on a 2-core machine (the grid of 3·10⁷ positions, 300 MB), far more than
# any test waits for: every test below stops it or refuses it long before.
LONG = (300, 310, 320)
ROOM = 100_000_000


def test_a_timeout_stops_a_long_question(game):
    # A period run looks for its period as far as its time allows: the clock stops it.
    splittles = game("splittles")
    started = time.monotonic()
    with pytest.raises(takeaway.Timeout) as caught:
        splittles.period(timeout=0.3)
    # The signal comes at 0.3 s; the question looks for it every 50 ms and stops at its next look.
    assert time.monotonic() - started < 1.3
    assert caught.value.code == "takeaway::period::stopped"
    assert caught.value.kind == "timeout"
    assert isinstance(caught.value, takeaway.Refused)


def test_a_question_that_cannot_finish_in_its_timeout_is_refused_at_once(game):
    # The estimate is held to the question's own time: a question of about 10 s asked to end in
    # half a second is refused before it starts, saying how long it would take.
    wythoff = game("three-pile-wythoff")
    started = time.monotonic()
    with pytest.raises(takeaway.Refused) as caught:
        wythoff.solve(*LONG, max_states=ROOM, timeout=0.5)
    assert time.monotonic() - started < 2
    assert not isinstance(caught.value, takeaway.Timeout)
    assert caught.value.code == "takeaway::solve::too_many_positions"
    assert "past the budget of under a second" in caught.value.message


def test_a_cancel_token_stops_a_question_from_another_thread(game):
    wythoff = game("three-pile-wythoff")
    token = takeaway.CancelToken()
    timer = threading.Timer(0.3, token.cancel)
    timer.start()
    started = time.monotonic()
    with pytest.raises(takeaway.Cancelled) as caught:
        wythoff.solve(*LONG, max_states=ROOM, cancel=token)
    timer.join()
    # The signal comes at 0.3 s; the question looks for it every 50 ms and stops at its next look.
    assert time.monotonic() - started < 1.3
    assert caught.value.code == "takeaway::solve::cancelled"
    assert token.cancelled
    token.reset()
    assert wythoff.solve(1, 2, 3, cancel=token).grundy == 3


def test_other_threads_run_while_the_engine_works(game):
    wythoff = game("three-pile-wythoff")
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        with pytest.raises(takeaway.Timeout):
            game("splittles").period(timeout=0.5)
    finally:
        stop.set()
        counter.join()
    # Had the question held the GIL, the counter would have stood still for half a second.
    assert len(ticks) > 50


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs POSIX signals")
def test_ctrl_c_stops_a_long_question_with_keyboard_interrupt(game):
    wythoff = game("three-pile-wythoff")
    main = threading.main_thread().ident
    # Python raises KeyboardInterrupt only where SIGINT was not ignored when it started: a shell
    # ignores it in the jobs it starts in the background (`.ci/run &`), so the test sets the
    # handler a terminal would have.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT))
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            wythoff.solve(*LONG, max_states=ROOM)
    finally:
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGINT, previous)
    # The signal comes at 0.3 s; the question looks for it every 50 ms and stops at its next look.
    assert time.monotonic() - started < 1.3


def test_ctrl_c_stops_the_check_of_a_long_game_text():
    # A megabyte of rules: its parse and check take most of a second, read a piece at a time
    # with the cancel token looked at between pieces, so Ctrl-C stops it at once.
    line = "move: take 1..3 where t < 1 + 2 * 3   # a rule\n"
    text = 'game "long"\npile\n' + line * ((1 << 20) // len(line) - 1)
    main = threading.main_thread().ident
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.1, lambda: signal.pthread_kill(main, signal.SIGINT))
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            takeaway.Game.from_source(text)
    finally:
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGINT, previous)
    stopped = time.monotonic() - started
    # Checked whole, the same text takes this machine 0.6 s; stopped, a piece (65,536 bytes).
    whole = time.monotonic()
    assert len(takeaway.Game.from_source(text).table(upto=4).grundy) == 5
    assert stopped < 0.1 + (time.monotonic() - whole) / 2, f"stopped after {stopped:.2f} s"
