"""Metadata as the calls take it (any mapping) and the models hold it (a dict), a patch's None and OMITTED kept."""

from __future__ import annotations

from collections.abc import Mapping

from ._not_modified import Omitted


def map_of(metadata: Mapping[str, str] | None) -> dict[str, str] | None:
    """A create's metadata: None leaves it out."""
    return None if metadata is None else dict(metadata)


def patch_of(metadata: Mapping[str, str | None] | None | Omitted) -> dict[str, str | None] | None | Omitted:
    """A patch's metadata: OMITTED leaves it unchanged, None removes every key, a key given None is removed."""
    return metadata if metadata is None or isinstance(metadata, Omitted) else dict(metadata)
