"""Type stubs for the native half of takeaway (built from python/src/lib.rs)."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

__version__: str

class TakeawayError(Exception):
    """A question about a game failed: the base of takeaway's errors."""

    #: The diagnostic's stable code, such as ``"takeaway::check::unknown_name"``.
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
    diagnostics: List[Dict[str, Optional[str]]]
    #: What a stopped question had found before it stopped, where it keeps that (its JSON).
    partial: Optional[Any]

class GameError(TakeawayError):
    """The game text, its file or a position is wrong."""

class QuestionError(TakeawayError):
    """The question does not fit the game."""

class Refused(TakeawayError):
    """The question's estimated or counted work passed its budget."""

class Timeout(Refused):
    """The question's timeout passed."""

class Cancelled(TakeawayError):
    """The question was cancelled through its CancelToken."""

class CancelToken:
    """A token that cancels the questions it is given to, from any thread."""

    def __init__(self) -> None: ...
    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...
    def reset(self) -> None: ...

class NativeAnswer:
    def json(self) -> Any: ...
    def text(self) -> str: ...
    def csv(self) -> Optional[str]: ...

class NativeGame:
    @staticmethod
    def from_source(
        text: str,
        name: str = "game",
        settings: Optional[Mapping[str, Union[int, Sequence[int]]]] = None,
        directory: str = ".",
    ) -> "NativeGame": ...
    @staticmethod
    def from_file(path: str, settings: Optional[Mapping[str, Union[int, Sequence[int]]]] = None) -> "NativeGame": ...
    @property
    def name(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def partizan(self) -> bool: ...
    @property
    def misere(self) -> bool: ...
    def ask(
        self,
        verb: str,
        args: Dict[str, Any],
        max_states: Optional[int] = None,
        timeout: Optional[float] = None,
        cancel: Optional[CancelToken] = None,
        other: Optional["NativeGame"] = None,
    ) -> NativeAnswer: ...

def verbs() -> List[str]: ...
