"""NOT_MODIFIED: what a conditional read (`if_none_match=`) answers while what you hold is current."""

from __future__ import annotations

import enum
from typing import Final, Literal


class NotModifiedType(enum.Enum):
    """The type of NOT_MODIFIED, its one value: an enumeration, so that `is NOT_MODIFIED` narrows for mypy and pyright."""

    NOT_MODIFIED = "NOT_MODIFIED"

    def __repr__(self) -> str:
        return "NOT_MODIFIED"


NOT_MODIFIED: Final = NotModifiedType.NOT_MODIFIED
"""The service answered `304 Not Modified` to `if_none_match=`: the pet, order or page you hold (by its
`_etag`) is still current, and no body came. Neither an error nor retried; compare with `is`.
`with_raw_response` still has the answer's status (304), headers and request id."""

NotModified = Literal[NotModifiedType.NOT_MODIFIED]
"""The type of NOT_MODIFIED, for annotations: `Order | NotModified`."""


class Omitted(enum.Enum):
    """A keyword left out, told apart from one given as None: `list(if_none_match=page._etag)` asks
    for the first page alone even when the page had no ETag (a proxy dropped it)."""

    OMITTED = "OMITTED"


OMITTED: Final = Omitted.OMITTED
