"""takeaway's exceptions: one class for each kind of failure the engine reports, each carrying
the diagnostic's stable code, where it points, its help and every diagnostic as data.

They are plain Python classes of this module, so that they pickle (a process pool hands them
back intact) and read as ``takeaway.GameError`` in a traceback. The engine chooses the class
from the failure's kind; a request whose arguments are wrong is also a ``TypeError`` (a name
or a type) or a ``ValueError`` (a value out of range), as Python's own calls are.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional


class TakeawayError(Exception):
    """A question about a game failed: the base of takeaway's errors."""

    #: The failure's kind: ``game``, ``question``, ``refused``, ``timeout`` or ``cancelled``.
    kind: Optional[str]
    #: The first diagnostic's stable code, such as ``"takeaway::check::unknown_name"``.
    code: Optional[str]
    #: Where in the text it points (1-based), when it points into a text.
    line: Optional[int]
    column: Optional[int]
    help: Optional[str]
    #: The first diagnostic's one-line message.
    message: str
    #: Every diagnostic, rendered (also ``str(error)``).
    rendered: str
    #: Every diagnostic as data: ``{"code", "message", "help", "source", "labels"}``, each label
    #: ``{"text", "line", "column", "end_line", "end_column"}``.
    diagnostics: List[Dict[str, Any]]
    #: What a stopped question had found before it stopped, where it keeps that (its JSON).
    partial: Optional[Any]

    def __init__(self, rendered: str = "", **fields: Any) -> None:
        super().__init__(rendered)
        self.kind = fields.get("kind")
        self.code = fields.get("code")
        self.line = fields.get("line")
        self.column = fields.get("column")
        self.help = fields.get("help")
        self.message = fields.get("message", rendered)
        self.rendered = rendered
        self.diagnostics = fields.get("diagnostics", [])
        self.partial = fields.get("partial")

    def __reduce__(self) -> Any:
        # The rendered text as the argument, every field as state: a pickled error comes back
        # with its code, place and diagnostics.
        return (type(self), (self.rendered,), dict(self.__dict__))


class GameError(TakeawayError):
    """The game text, its file or a position is wrong."""


class QuestionError(TakeawayError):
    """The question does not fit the game."""


class ArgumentError(QuestionError, TypeError):
    """A question was asked with an argument it does not take, or of the wrong type."""


class InvalidArgument(QuestionError, ValueError):
    """A question's argument is out of its range (a negative timeout, no positions at all)."""


class Refused(TakeawayError):
    """The question's estimated or counted work passed its budget."""


class Timeout(Refused):
    """The question's timeout passed."""


class Cancelled(TakeawayError):
    """The question was cancelled through its CancelToken."""


#: The class of each kind the engine reports.
BY_KIND: Dict[str, type] = {
    "game": GameError,
    "question": QuestionError,
    "refused": Refused,
    "timeout": Timeout,
    "cancelled": Cancelled,
}
