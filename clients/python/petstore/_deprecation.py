"""Deprecated operations: marked for editors and type checkers (PEP 702), warned of from the caller's line."""

# mypy 1.0 needs the ignore below, later ones do not and would call it unused.
# mypy: warn-unused-ignores=False

from __future__ import annotations

import sys
import warnings
from typing import TYPE_CHECKING, Any

__all__ = ["PetStoreDeprecationWarning", "deprecated", "warn_deprecated"]


class PetStoreDeprecationWarning(FutureWarning):
    """An operation the service removes at a date (its Sunset header says which).

    A FutureWarning, which Python shows from whatever module the call is in: a DeprecationWarning
    is shown only for a call in __main__, so a program's own modules would never see it.
    """


if TYPE_CHECKING:
    # PEP 702, for the editor (pyright, Pylance) and mypy 1.5+; mypy 1.0's typeshed predates it.
    from typing_extensions import deprecated  # type: ignore[attr-defined]
else:
    try:
        from warnings import deprecated  # Python 3.13
    except ImportError:
        try:
            from typing_extensions import deprecated  # typing_extensions 4.5
        except ImportError:

            def deprecated(message: str, /, *, category: Any = None, stacklevel: int = 1) -> Any:
                """PEP 702's decorator where nothing installed has it: records the message as the PEP does."""

                def mark(function: Any) -> Any:
                    function.__deprecated__ = message
                    return function

                return mark


def warn_deprecated(message: str) -> None:
    """Warns at the caller's line: the first frame outside this package, however the call came through it
    (a `with_raw_response` method, an async one), so that the warning names the line to change."""
    frame = sys._getframe(1)
    level = 2
    while frame.f_back is not None and frame.f_globals.get("__name__", "").partition(".")[0] == __name__.partition(".")[0]:
        frame = frame.f_back
        level += 1
    warnings.warn(message, PetStoreDeprecationWarning, stacklevel=level)
