"""Sweeps over families of games: on this machine's cores by the engine, or on a Dask cluster.

``takeaway.sweep(...)`` returns one row a game as a pandas DataFrame. Without a ``client`` the
engine runs the games on every core of this machine (nothing else to install). With a
``dask.distributed.Client`` each game is a Dask task (``takeaway_core::sweep_game`` on a worker)
and the cluster does the scheduling: a worker that dies has its games run again elsewhere.
Either way, with ``out`` the rows are appended to a file as games finish, a rerun skips the
games already there, and the finished file holds the rows in the family's order.

``python -m takeaway._sweep --scheduler ADDRESS --request JSON`` is what ``takeaway sweep
--scheduler`` runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

from . import _native

Row = Dict[str, Any]


def octal_codes(digits: int, leading: Optional[Sequence[int]] = None) -> List[str]:
    """Every octal code ``L.d₁…d_k`` with k ≤ ``digits``, the last digit not 0, for each leading
    digit (0 and 4 unless told)."""
    return list(_native.octal_codes(digits, list(leading) if leading is not None else None))


def _game_text(game: Any) -> Dict[str, Any]:
    # A takeaway.Game as the schema's game text: its source, name and settings.
    if isinstance(game, str):
        return {"source": game}
    native = getattr(game, "_game", None)
    if native is None:
        raise TypeError(f"a game of a sweep is a takeaway.Game or a game's text, not {type(game).__name__}")
    return {"source": native.source, "name": native.source_name, "settings": dict(native.settings)}


def _request(
    codes: Optional[Iterable[str]],
    octal: Optional[int],
    at_least: Optional[int],
    leading: Optional[Sequence[int]],
    games: Optional[Iterable[Any]],
    game: Any,
    each: Optional[Iterable[str]],
    upto: Optional[int],
    out: Optional[Union[str, "os.PathLike[str]"]],
    checkpoints: Optional[Union[str, "os.PathLike[str]"]],
    workers: Optional[int],
    histograms: bool = False,
) -> Dict[str, Any]:
    request: Dict[str, Any] = {
        "codes": list(codes) if codes is not None else None,
        "octal": octal,
        "at_least": at_least,
        "leading": list(leading) if leading is not None else None,
        "games": [_game_text(g) for g in games] if games is not None else None,
        "game": _game_text(game) if game is not None else None,
        "each": list(each) if each is not None else None,
        "upto": upto,
        "out": os.fspath(out) if out is not None else None,
        "checkpoints": os.fspath(checkpoints) if checkpoints is not None else None,
        "workers": workers,
        "histograms": histograms or None,
    }
    return {k: v for k, v in request.items() if v is not None}


def _row_on_worker(
    game: Dict[str, Any], upto: int, checkpoints: Optional[str], budget: Dict[str, Any], histograms: bool = False
) -> Row:
    # What a Dask worker runs for one game: the engine's own row (a game that fails is a row
    # saying so; only a cancelled budget raises).
    return _native.sweep_game(game, upto, checkpoints, budget, histograms=histograms)


def _lost(label: str, error: BaseException) -> Row:
    # A game whose task the cluster gave up on (its workers died too often): a row saying so.
    message = f"the cluster gave up on this game: {type(error).__name__}: {error}"
    return _native.sweep_refused_row(label, "takeaway::sweep::worker_lost", message)


def _on_dask(
    client: Any, request: Dict[str, Any], budget: Dict[str, Any], on_row: Optional[Callable[[Row], Any]]
) -> "tuple[List[Row], int]":
    from distributed import as_completed

    plan = _native.sweep_family(request)
    args, games = plan["args"], plan["games"]
    histograms = bool(args.get("histograms", False))
    rows_file = _native.SweepRows(args["out"], games, args["upto"], histograms) if args.get("out") else None
    done: List[Row] = list(rows_file.done) if rows_file is not None else []
    finished = {row["game"] for row in done}
    todo = [g for g in games if g["label"] not in finished]
    checkpoints = args.get("checkpoints")
    if checkpoints:
        os.makedirs(checkpoints, exist_ok=True)
    futures = client.map(
        _row_on_worker,
        todo,
        upto=args["upto"],
        checkpoints=checkpoints,
        budget=budget,
        histograms=histograms,
        pure=False,
    )
    label_of = {f.key: g["label"] for f, g in zip(futures, todo)}
    rows: List[Row] = []
    try:
        for future in as_completed(futures):
            try:
                row = future.result()
            except Exception as error:  # noqa: BLE001 - the cluster's own errors, made rows
                from . import errors

                if isinstance(error, errors.TakeawayError):
                    raise
                row = _lost(label_of[future.key], error)
            if rows_file is not None:
                rows_file.append(row)
            if on_row is not None:
                on_row(row)
            rows.append(row)
    finally:
        # An interrupted sweep leaves no work behind on the cluster.
        client.cancel(futures)
    ordered = _native.sweep_order(games, done + rows)
    if rows_file is not None:
        rows_file.finish(ordered)
    return ordered, len(done)


def sweep_rows(
    codes: Optional[Iterable[str]] = None,
    *,
    octal: Optional[int] = None,
    at_least: Optional[int] = None,
    leading: Optional[Sequence[int]] = None,
    games: Optional[Iterable[Any]] = None,
    game: Any = None,
    each: Optional[Iterable[str]] = None,
    upto: Optional[int] = None,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    checkpoints: Optional[Union[str, "os.PathLike[str]"]] = None,
    workers: Optional[int] = None,
    histograms: bool = False,
    client: Any = None,
    on_row: Optional[Callable[[Row], Any]] = None,
    **budget: Any,
) -> "tuple[List[Row], int]":
    """As :func:`sweep`, the rows as dicts, with how many were read from ``out``."""
    request = _request(codes, octal, at_least, leading, games, game, each, upto, out, checkpoints, workers, histograms)
    cancel = budget.pop("cancel", None)
    budget = {k: v for k, v in budget.items() if v is not None}
    if client is not None:
        return _on_dask(client, request, budget, on_row)
    return _native.sweep(request, budget, cancel, on_row)


def sweep(
    codes: Optional[Iterable[str]] = None,
    *,
    octal: Optional[int] = None,
    at_least: Optional[int] = None,
    leading: Optional[Sequence[int]] = None,
    games: Optional[Iterable[Any]] = None,
    game: Any = None,
    each: Optional[Iterable[str]] = None,
    upto: Optional[int] = None,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    checkpoints: Optional[Union[str, "os.PathLike[str]"]] = None,
    workers: Optional[int] = None,
    histograms: bool = False,
    client: Any = None,
    on_row: Optional[Callable[[Row], Any]] = None,
    **budget: Any,
) -> Any:
    """Sweeps a family of games: one row a game, as a pandas DataFrame in the family's order.

    The family is one of: ``codes`` (octal codes such as ``["0.16", "4.337"]``); ``octal=k``
    (every code of up to k digits, those of at least ``at_least`` digits when given, ``leading``
    digits 0 and 4 unless told); ``games`` (a list
    of :class:`takeaway.Game` or game texts); ``game`` with ``each`` (one game, a game for each
    setting: ``["k=1..20"]``, ``["S={1,2,5}", "S={1,3,5}"]``).

    ``upto`` bounds each game's values (2¹⁷ unless told) unless a period is proven first.
    ``out`` is the rows file (``.jsonl`` or CSV): rows are appended as games finish and a rerun
    skips the games already in it. ``checkpoints`` is a folder where a game stopped by its
    budget keeps its values. ``client`` (a ``dask.distributed.Client``) runs the games on its
    cluster; without it, ``workers`` games run at once on this machine (its cores unless told).
    ``histograms=True`` gives each row (``out`` a ``.jsonl`` file) how often each value occurs
    among the first 2^k values, for every power of two computed. ``on_row(row)`` hears each row as it comes. The rest is each game's budget: ``timeout``,
    ``max_states``, and ``cancel`` (a :class:`takeaway.CancelToken`).
    """
    import pandas

    rows, _ = sweep_rows(
        codes,
        octal=octal,
        at_least=at_least,
        leading=leading,
        games=games,
        game=game,
        each=each,
        upto=upto,
        out=out,
        checkpoints=checkpoints,
        workers=workers,
        histograms=histograms,
        client=client,
        on_row=on_row,
        **budget,
    )
    return pandas.DataFrame(rows)


def main(argv: Optional[List[str]] = None) -> int:
    """``takeaway sweep --scheduler``: the command line's request, run on a Dask cluster."""
    parser = argparse.ArgumentParser(prog="python -m takeaway._sweep")
    parser.add_argument("--scheduler", required=True, help="the Dask scheduler's address, tcp://HOST:8786")
    parser.add_argument("--request", required=True, help="the sweep's request, as the engine's JSON schema")
    parser.add_argument("--budget", default="{}", help="each game's budget, as JSON")
    parser.add_argument("--format", default="text", choices=["text", "json", "csv"])
    given = parser.parse_args(argv)
    from distributed import Client

    from .errors import TakeawayError

    request = json.loads(given.request)
    budget = {k: v for k, v in json.loads(given.budget).items() if v not in (None, False)}
    text = given.format == "text"

    def say(row: Row) -> None:
        if text:
            print(_native.sweep_render([row], "text").splitlines()[0], flush=True)

    def unreachable(error: BaseException) -> int:
        # The scheduler's diagnostic, never a traceback: an address Dask cannot read (ValueError),
        # or one nobody answers at (OSError). Control characters of the address are escaped.
        said = "".join(c if c.isprintable() else repr(c)[1:-1] for c in f"{given.scheduler}: {error}")
        print(
            f"takeaway::sweep::scheduler\n\n  × cannot reach the Dask scheduler {said}\n"
            "  help: give the scheduler's address as dask-scheduler prints it, such as tcp://10.0.0.5:8786",
            file=sys.stderr,
        )
        return 1

    try:
        client = Client(given.scheduler)
    except (OSError, ValueError, TypeError) as error:
        return unreachable(error)
    try:
        with client:
            rows, resumed = _on_dask(client, request, budget, say)
    except TakeawayError as error:
        print(error.rendered, file=sys.stderr)
        return 1
    except OSError as error:
        return unreachable(error)
    if text:
        summary = _native.sweep_render(rows, "text", resumed, request.get("out"))
        print("\n".join(summary.splitlines()[len(rows):]))
    else:
        sys.stdout.write(_native.sweep_render(rows, given.format))
    return 0


if __name__ == "__main__":
    sys.exit(main())
