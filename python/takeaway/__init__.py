"""takeaway: combinatorial take-away games, in a few lines of a small language, solved.

Load a game from text or from a file, then ask about it::

    import takeaway
    nim = takeaway.Game.from_file("games/nim.game")
    nim.solve(41, 163, 13).winning_moves[0].to        # (41, 36, 13)
    kayles = takeaway.Game.from_source('game "Kayles"\\npiles\\nmove: take 1..2, then split')
    kayles.table(30).grundy[:8]                         # [0, 1, 2, 3, 1, 4, 3, 2]

Every question takes a budget as keyword arguments, as the command line's flags name them:
``timeout`` (seconds; without it, a question estimated past half a minute is refused),
``max_states`` or ``memory`` (positions, or MB, a search may keep), ``max_moves`` (the moves
it may examine, counted), ``threads`` and ``keep_table``, and ``cancel`` (a :class:`CancelToken`). Every argument left out, or given as
None, takes the engine's default, the same as on the command line and the web page. A question
past its budget raises :class:`Refused` at once, with the estimate and what would make it fit;
Ctrl-C (a notebook's interrupt) stops a long one with ``KeyboardInterrupt``. The engine works
with the GIL released, so other threads run meanwhile.

Answers hold the same data as the command line's ``--format json`` (``.json``) and its text
(``.text``, also ``str(answer)``); tables show as HTML in a notebook, plots as SVG.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _native
from ._native import CancelToken
from ._sweep import octal_codes, sweep, sweep_rows
from .errors import (
    ArgumentError,
    Cancelled,
    GameError,
    InvalidArgument,
    QuestionError,
    Refused,
    TakeawayError,
    Timeout,
)

__version__ = _native.__version__

__all__ = [
    "Game",
    "sweep",
    "sweep_rows",
    "octal_codes",
    "Solution",
    "Move",
    "Table",
    "Period",
    "Explanation",
    "Plot",
    "Quotient",
    "PeriodReport",
    "Comparison",
    "PlayStep",
    "CancelToken",
    "TakeawayError",
    "GameError",
    "QuestionError",
    "ArgumentError",
    "InvalidArgument",
    "Refused",
    "Timeout",
    "Cancelled",
]

Setting = Union[int, Sequence[int]]


def _position(piles: Sequence[Union[int, str]]) -> str:
    if len(piles) == 1 and isinstance(piles[0], str):
        return piles[0]
    for p in piles:
        if isinstance(p, bool) or not isinstance(p, int):
            raise TypeError(f"a pile is a whole number, not {p!r}")
    return " ".join(str(p) for p in piles)


class _Answer:
    """What every answer has: its JSON (``.json``) and its text (``.text``, ``str()``)."""

    __slots__ = ("_native", "json")

    def __init__(self, native: Any, data: Dict[str, Any]):
        self._native = native
        #: The answer as ``--format json`` gives it.
        self.json = data

    @property
    def text(self) -> str:
        """The answer as the command line prints it."""
        return self._native.text()

    def __str__(self) -> str:
        return self.text

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.text)

    def __reduce__(self) -> Any:
        # An answer pickles as its JSON and its text (and CSV, for a table), made now: a process
        # pool's worker hands back `solve()`'s answer, and the engine's object stays behind.
        return (_answer_again, (type(self), self.json, self._native.text(), self._native.csv()))


class _Rendered:
    # What an unpickled answer keeps of the engine's object: its text and CSV, already made.
    __slots__ = ("_text", "_csv")

    def __init__(self, text: str, csv: Optional[str]):
        self._text = text
        self._csv = csv

    def text(self) -> str:
        return self._text

    def csv(self) -> Optional[str]:
        return self._csv


def _answer_again(cls: Any, data: Dict[str, Any], text: str, csv: Optional[str]) -> Any:
    """A pickled answer, made again from its JSON, text and CSV."""
    return cls(_Rendered(text, csv), data)


@dataclass(frozen=True)
class Move:
    """One move: what it does, in words, and the position it leaves."""

    description: str
    to: Tuple[int, ...]

    @staticmethod
    def _of(data: Dict[str, Any]) -> "Move":
        return Move(data["move"], tuple(int(p) for p in data["to"]))


class Solution(_Answer):
    """The answer of :meth:`Game.solve`."""

    __slots__ = (
        "outcome",
        "grundy",
        "value",
        "winning_moves",
        "left_moves",
        "right_moves",
        "position",
        "last",
        "remoteness",
        "mean",
        "temperature",
        "stops",
        "thermograph",
        "atomic_weight",
        "reduced",
        "cooled",
        "sum_heat",
    )

    def __init__(self, native: Any, data: Dict[str, Any]):
        super().__init__(native, data)
        heat = data.get("heat") or {}
        #: An all-small partizan position's atomic weight (a game, as text; None otherwise).
        self.atomic_weight: Optional[str] = data.get("atomic_weight")
        #: A partizan value's reduced canonical form (the value up to infinitesimals), as text.
        self.reduced: Optional[str] = data.get("reduced")
        #: The value cooled by ``cool`` (as text), when asked.
        self.cooled: Optional[str] = (data.get("cooled") or {}).get("value")
        #: For a sum of piles too large to search: what temperature theory proves of it (its
        #: mean, a bound on its temperature, bounds on its stops, each side's move by
        #: temperature), as data; None otherwise.
        self.sum_heat: Optional[Dict[str, Any]] = data.get("sum_heat")
        #: A partizan position's mean value and temperature, as exact fractions (None otherwise).
        self.mean: Optional[Fraction] = Fraction(heat["mean"]) if heat else None
        self.temperature: Optional[Fraction] = Fraction(heat["temperature"]) if heat else None
        #: Left's and Right's stops, as fractions (None for an impartial game).
        self.stops: Optional[Tuple[Fraction, Fraction]] = (
            (Fraction(heat["left_stop"]), Fraction(heat["right_stop"])) if heat else None
        )
        #: The thermograph in its text form (None for an impartial game).
        self.thermograph: Optional[str] = heat.get("thermograph")
        #: ``"P"``, ``"N"``, ``"D"`` (a draw), or for a partizan game ``"L"`` or ``"R"`` too.
        self.outcome: str = data["outcome"]
        #: The Grundy value, or None where it is not defined (misère and partizan play) or not computed.
        self.grundy: Optional[int] = data.get("grundy")
        #: A partizan game's canonical value, as text (None otherwise).
        self.value: Optional[str] = data.get("value")
        #: The position asked about.
        self.position: Tuple[int, ...] = tuple(int(p) for p in data.get("position", ()))
        #: The previous move's size, for games whose rules read it.
        self.last: Optional[int] = data.get("last")
        #: How many moves the game lasts with best play (the winner hurries, the loser delays),
        #: or None when the position is too large to search for it (or ``remoteness=False``).
        self.remoteness: Optional[int] = data.get("remoteness")
        if "left_winning_moves" in data:
            self.left_moves = [Move._of(m) for m in data["left_winning_moves"]]
            self.right_moves = [Move._of(m) for m in data["right_winning_moves"]]
            #: The winning moves of the player to move: for a partizan game, Left's then Right's.
            self.winning_moves = self.left_moves + self.right_moves
        else:
            self.left_moves = []
            self.right_moves = []
            self.winning_moves = [Move._of(m) for m in data.get("winning_moves", [])]

    def __repr__(self) -> str:
        value = f", grundy={self.grundy}" if self.grundy is not None else ""
        if self.value is not None:
            value = f", value={self.value!r}"
        return f"<Solution {' '.join(map(str, self.position))}: {self.outcome}{value}>"


@dataclass(frozen=True)
class Period:
    """A period of one pile's values: G(n + period) = G(n) + saltus for n ≥ preperiod."""

    preperiod: int
    period: int
    saltus: int
    #: Whether a theorem proves it (otherwise it is only apparent in the values computed).
    proven: bool
    theorem: Optional[str]


class Table(_Answer):
    """The answer of :meth:`Game.table`: every position up to a bound, with its outcome and
    Grundy value (lists indexed by n for one pile; grids for two piles and boards; for three
    or more piles, in the order of ``positions``)."""

    __slots__ = ("outcomes", "grundy", "values", "p_positions", "period", "pattern", "positions")

    def __init__(self, native: Any, data: Dict[str, Any]):
        super().__init__(native, data)
        rows = data.get("rows")
        #: A partizan game's canonical values, as text, indexed by n (None for impartial games).
        self.values: Optional[List[str]] = None
        if rows is not None:  # a partizan table: one row per pile
            self.outcomes: List[Any] = [r["outcome"] for r in rows]
            self.grundy: List[Any] = [None for _ in rows]
            self.values = [r.get("value") for r in rows]
            self.p_positions: List[Any] = [r["n"] for r in rows if r["outcome"] == "P"]
        else:
            self.outcomes = data["outcomes"]
            self.grundy = data["grundy"]
            ps = data["p_positions"]
            self.p_positions = [tuple(p) if isinstance(p, list) else p for p in ps]
        period = data.get("period")
        #: The period of one pile's values, where one was found (None otherwise).
        self.period: Optional[Period] = None
        if isinstance(period, dict) and "saltus" in period:
            self.period = Period(
                period["preperiod"], period["period"], period["saltus"], bool(period["proven"]), period.get("theorem")
            )
        #: A famous pattern the P-positions follow, in words.
        self.pattern: Optional[str] = data.get("pattern")
        #: For three or more piles: the positions, in the order of ``outcomes`` and ``grundy``.
        self.positions: List[Tuple[int, ...]] = [tuple(p) for p in data.get("positions", [])]

    @property
    def csv(self) -> str:
        """The table as ``--format csv`` prints it."""
        return self._native.csv() or ""

    def to_pandas(self) -> Any:
        """The table as a pandas DataFrame, one row per position (needs pandas)."""
        import io

        try:
            import pandas
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("Table.to_pandas needs pandas: pip install pandas") from e
        return pandas.read_csv(io.StringIO(self.csv), keep_default_na=False, na_values=[""])

    def _repr_html_(self) -> str:
        """A notebook's view: one row per position, P-positions marked."""
        lines = self.csv.splitlines()
        if not lines:
            return f"<pre>{html.escape(self.text)}</pre>"
        shown = lines[: 1 + 1000]
        header = shown[0].split(",")
        out = [f"<p><b>{html.escape(self.json.get('game', ''))}</b></p>", "<table>", "<tr>"]
        out += [f"<th>{html.escape(h)}</th>" for h in header] + ["</tr>"]
        outcome = header.index("outcome") if "outcome" in header else -1
        for line in shown[1:]:
            cells = line.split(",")
            p = outcome >= 0 and outcome < len(cells) and cells[outcome] == "P"
            style = ' style="background:#fde2a7;font-weight:bold"' if p else ""
            out.append(f"<tr{style}>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
        out.append("</table>")
        if len(lines) > len(shown):
            out.append(f"<p>… {len(lines) - len(shown)} more rows (.csv or .to_pandas() has them all)</p>")
        if self.period is not None:
            word = "proven" if self.period.proven else "apparent"
            out.append(
                f"<p>period {self.period.period} from n = {self.period.preperiod}"
                f"{', saltus ' + str(self.period.saltus) if self.period.saltus else ''} ({word})</p>"
            )
        if self.pattern:
            out.append(f"<p>pattern: the P-positions are {html.escape(self.pattern)}</p>")
        return "\n".join(out)


class Explanation(_Answer):
    """The answer of :meth:`Game.explain`: the text a student reads, and its steps as data
    (``.steps``: the mex of the options, the binary columns of a nim-sum, the winning move)."""

    __slots__ = ("kind", "outcome")

    def __init__(self, native: Any, data: Dict[str, Any]):
        super().__init__(native, data)
        #: Which explanation: ``mex``, ``nim_sum``, ``schwenk``, ``moore``, ``quotient``, ``options``, …
        self.kind: Optional[str] = data.get("kind")
        self.outcome: Optional[str] = data.get("outcome")

    @property
    def steps(self) -> Dict[str, Any]:
        """The explanation as data (the JSON the command line gives)."""
        return self.json

    def __repr__(self) -> str:
        return self.text


class Plot(_Answer):
    """The answer of :meth:`Game.plot`: an SVG picture (shown inline in a notebook)."""

    __slots__ = ()

    @property
    def svg(self) -> str:
        return self.json["svg"]

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: "Union[str, os.PathLike[str]]") -> None:
        """Writes the SVG to `path` as the command line's ``plot -o`` does: a regular file is
        replaced only by a complete new one, keeping its mode; a link is written through to its
        target; a device or a pipe is written into; a folder or a socket is refused
        (``OSError``)."""
        _native.write_file(os.fspath(path), self.svg.encode("utf-8"))


class Quotient(_Answer):
    """The answer of :meth:`Game.quotient`: the misère quotient of a heap game."""

    __slots__ = ("elements", "p_portion", "phi", "order")

    def __init__(self, native: Any, data: Dict[str, Any]):
        super().__init__(native, data)
        #: The elements, as words in the generators.
        self.elements: List[str] = data["elements"]
        self.order: int = data["order"]
        #: The P-portion, as words.
        self.p_portion: List[str] = [self.elements[i] for i in data["p_portion"]]
        #: Φ(n) for heaps n = 0, 1, …, as words.
        self.phi: List[str] = [self.elements[i] for i in data["phi"]]


class PeriodReport(_Answer):
    """The answer of :meth:`Game.period`."""

    __slots__ = ("preperiod", "period", "proven")

    def __init__(self, native: Any, data: Dict[str, Any]):
        super().__init__(native, data)
        self.proven: bool = bool(data.get("proven"))
        self.preperiod: Optional[int] = data.get("preperiod")
        self.period: Optional[int] = data.get("period")

    def __repr__(self) -> str:
        if self.proven:
            return f"<PeriodReport period {self.period} from {self.preperiod}, proven>"
        return "<PeriodReport: no period proven>"


class Comparison(_Answer):
    """The answer of :meth:`Game.compare`."""

    __slots__ = ("identical", "first_difference")

    def __init__(self, native: Any, data: Dict[str, Any]):
        super().__init__(native, data)
        self.identical: bool = data["identical"]
        #: None, or the pile where the games first differ: (n, value in this game, value in the other).
        self.first_difference: Optional[Tuple[int, Any, Any]] = None
        diff = data.get("first_difference")
        if diff:
            a, b = diff
            # What was compared: Grundy values while both games have them, else outcomes.
            field = data["compared"]
            self.first_difference = (a["n"], a[field], b[field])


class Game:
    """A game, loaded from the takeaway language and checked.

    Build one with :meth:`from_source` or :meth:`from_file`; parameters of the game are
    given as keyword arguments (``k=5``, ``S=[1, 2, 5]``).
    """

    __slots__ = ("_game",)

    def __init__(self, native: Any):
        self._game = native

    @staticmethod
    def from_source(text: str, *, name: str = "game", directory: str = ".", **settings: Setting) -> "Game":
        """A game from its text. Raises :class:`GameError` with the diagnostic (its ``code``,
        ``line``, ``column`` and ``help``) when the text is wrong."""
        return Game(_native.NativeGame.from_source(text, name, settings, directory))

    @staticmethod
    def from_file(path: Union[str, "os.PathLike[str]"], **settings: Setting) -> "Game":
        """A game from a ``.game`` file (a product's games are found beside it)."""
        return Game(_native.NativeGame.from_file(str(path), settings))

    @property
    def name(self) -> str:
        return self._game.name

    @property
    def source(self) -> str:
        """The game's text."""
        return self._game.source

    @property
    def partizan(self) -> bool:
        """True when Left and Right have different moves."""
        return self._game.partizan

    @property
    def misere(self) -> bool:
        """True under misère play (whoever moves last loses)."""
        return self._game.misere

    def __repr__(self) -> str:
        return f"<takeaway.Game {self.name!r}>"

    def __reduce__(self) -> Any:
        # A game pickles as its text, its name and the values of its parameters: a process pool
        # loads it again on the other side.
        native = self._game
        return (_game_again, (self.source, native.source_name, os.fspath(native.directory), dict(native.settings)))

    def _ask(self, verb: str, args: Dict[str, Any], budget: Dict[str, Any], other: Optional["Game"] = None) -> Any:
        # The arguments given, the question's and its budget's, as the engine's request schema
        # names them: every default is the engine's (None is left out).
        cancel = budget.pop("cancel", None)
        given = {k: v for k, v in {**args, **budget}.items() if v is not None}
        native = self._game.ask(verb, given, cancel, other._game if other is not None else None)
        return native, native.json()

    def check(self, **budget: Any) -> Dict[str, Any]:
        """What ``takeaway check`` says of a right game, as data (for a partizan game, whose
        each rule is)."""
        _, data = self._ask("check", {}, budget)
        return data

    def solve(
        self,
        *piles: Union[int, str],
        last: Optional[int] = None,
        remoteness: Optional[bool] = None,
        cool: Union[None, int, str, Fraction] = None,
        **budget: Any,
    ) -> Solution:
        """Outcome, Grundy value (or a partizan value), winning moves and remoteness of a
        position: ``game.solve(41, 163, 13)``, or ``game.solve("41 163 13")``; ``last`` is the
        previous move, for games that remember it; ``remoteness=False`` skips the search for how
        long best play lasts; ``cool=Fraction(1, 2)`` (or ``"1/2"``) also cools a partizan
        position's value by that temperature."""
        args = {"position": _position(piles), "last": last, "remoteness": remoteness, "cool": None if cool is None else str(cool)}
        return Solution(*self._ask("solve", args, budget))

    def explain(
        self, *piles: Union[int, str], last: Optional[int] = None, all: Optional[bool] = None, **budget: Any
    ) -> Explanation:
        """How the answer for a position follows, in the terms of the theory; ``all`` also
        lists the Grundy values of every smaller pile."""
        args = {"position": _position(piles), "last": last, "all": all}
        return Explanation(*self._ask("explain", args, budget))

    def table(
        self,
        upto: Optional[int] = None,
        *,
        piles: Optional[int] = None,
        remoteness: Optional[bool] = None,
        by_last: Optional[bool] = None,
        period_values: Optional[int] = None,
        **budget: Any,
    ) -> Table:
        """Every position up to ``upto`` (the engine's default when left out): one pile of
        0..upto, or every pair for two piles; ``piles=3`` lists every position of three piles of
        a game on any number of piles."""
        args = {"upto": upto, "piles": piles, "remoteness": remoteness, "by_last": by_last, "period_values": period_values}
        return Table(*self._ask("table", args, budget))

    def plot(
        self, upto: Optional[int] = None, *, thermograph: Optional[Sequence[Union[int, str]]] = None, **budget: Any
    ) -> Plot:
        """The values as an SVG picture (shown inline in a notebook); with ``thermograph`` (a
        list of positions of a partizan game), their thermographs overlaid instead."""
        positions = [str(p) for p in thermograph] if thermograph else None
        return Plot(*self._ask("plot", {"upto": upto, "thermograph": positions}, budget))

    def quotient(self, upto: Optional[int] = None, **budget: Any) -> Quotient:
        """The misère quotient of heaps 0..upto, for misère heap games; without ``upto``, until
        its period is proven (within the budget)."""
        return Quotient(*self._ask("quotient", {"upto": upto}, budget))

    def period(
        self,
        upto: Optional[int] = None,
        *,
        checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
        window: Optional[int] = None,
        **budget: Any,
    ) -> PeriodReport:
        """One pile's values until a theorem proves their period (octal and subtraction games);
        ``checkpoint`` keeps the values in a file, to stop and resume a long run; ``window`` keeps
        only the latest values and finds the period as the window's first repeat."""
        args = {
            "upto": upto,
            "checkpoint": os.fspath(checkpoint) if checkpoint is not None else None,
            "window": window,
        }
        return PeriodReport(*self._ask("period", args, budget))

    def compare(
        self, other: "Game", upto: Optional[int] = None, *, shift: Optional[int] = None, **budget: Any
    ) -> Comparison:
        """The first pile where this game and ``other`` (read ``shift`` piles further on) differ."""
        if not isinstance(other, Game):
            raise TypeError("compare takes another takeaway.Game")
        return Comparison(*self._ask("compare", {"upto": upto, "shift": shift}, budget, other))

    def play(
        self,
        *piles: Union[int, str],
        to: Optional[Union[str, Sequence[int]]] = None,
        computer: Optional[bool] = None,
        hint: Optional[bool] = None,
        last: Optional[int] = None,
        strength: Optional[int] = None,
        seed: Optional[int] = None,
        side: Optional[str] = None,
        **budget: Any,
    ) -> "PlayStep":
        """One step of a game against the computer from a position: the player's move (``to``,
        the position it leads to), the computer's move (``computer=True``) or a ``hint``; with
        none of them, where the game stands and the moves to choose from. A partizan game is
        played as ``side`` (``"Left"`` or ``"Right"``)."""
        if to is not None and not isinstance(to, str):
            to = _position(tuple(to))
        args = {
            "position": _position(piles),
            "to": to,
            "computer": computer,
            "hint": hint,
            "last": last,
            "strength": strength,
            "seed": seed,
            "side": side,
        }
        return PlayStep(*self._ask("play", args, budget))


def _game_again(source: str, name: str, directory: str, settings: Dict[str, Any]) -> Game:
    """A pickled game, loaded again from its text."""
    return Game.from_source(source, name=name, directory=directory or ".", **settings)


class PlayStep(_Answer):
    """The answer of :meth:`Game.play`: what was played, and where the game stands."""

    __slots__ = ("position", "over", "winner", "to_move", "outcome", "moves", "you", "computer", "hint", "side", "positions")

    def __init__(self, native: Any, data: Dict[str, Any]):
        super().__init__(native, data)
        #: The position after the step.
        self.position: Tuple[int, ...] = tuple(data["position"])
        self.over: bool = data["over"]
        #: ``"you"`` or ``"computer"``, once the game is over.
        self.winner: Optional[str] = data.get("winner")
        #: ``"you"`` or ``"computer"``, while it goes on.
        self.to_move: Optional[str] = data.get("to_move")
        #: ``"P"``, ``"N"`` or ``"D"``, while it goes on.
        self.outcome: Optional[str] = data.get("outcome")
        #: The moves from the position.
        self.moves: List[Move] = [Move._of(m) for m in data["moves"]]
        #: The player's move, with ``slip`` where it let a win go (as the JSON gives it).
        self.you: Optional[Dict[str, Any]] = data.get("you")
        #: The computer's move (as the JSON gives it).
        self.computer: Optional[Dict[str, Any]] = data.get("computer")
        #: The hint asked for (as the JSON gives it).
        self.hint: Optional[Dict[str, Any]] = data.get("hint")
        #: In a partizan game, the player's side: ``"Left"`` or ``"Right"``.
        self.side: Optional[str] = data.get("side")
        #: The step's positions in order, each with what it means for the player
        #: (``for_you``), its remoteness and value (as the JSON gives them): a value history.
        self.positions: List[Dict[str, Any]] = data["positions"]
