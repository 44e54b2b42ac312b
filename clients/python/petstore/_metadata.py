"""Maps as the calls take them (any mapping) and the models hold them (a dict), a patch's None and OMITTED kept.

The calls' keywords that use these are written by scripts/generate.py, for any map a request schema has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from ._not_modified import Omitted

V = TypeVar("V")


def map_of(metadata: Mapping[str, V] | None) -> dict[str, V] | None:
    """A create's map: None leaves it out."""
    return None if metadata is None else dict(metadata)


def patch_of(metadata: Mapping[str, V] | None | Omitted) -> dict[str, V] | None | Omitted:
    """A patch's map: OMITTED leaves it unchanged, None removes every key, a key given None is removed."""
    return metadata if metadata is None or isinstance(metadata, Omitted) else dict(metadata)
