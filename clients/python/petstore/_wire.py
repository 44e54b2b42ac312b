"""Date-times as the service writes and reads them: RFC 3339, answered in UTC with milliseconds."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

# datetime.fromisoformat takes neither `Z` nor a fraction other than 3 or 6 digits before Python 3.11.
_RFC_3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))"
)


def parse_datetime(text: str) -> datetime:
    """An aware datetime of an RFC 3339 date-time (`2026-12-01T09:30:00.000Z`); digits past microseconds are dropped."""
    match = _RFC_3339.fullmatch(text)
    if match is None:
        raise ValueError(f"not an RFC 3339 date-time: {text!r}")
    year, month, day, hour, minute, second, fraction, zulu, sign, offset_hours, offset_minutes = match.groups()
    if zulu:
        zone = timezone.utc
    else:
        offset = timedelta(hours=int(offset_hours), minutes=int(offset_minutes))
        zone = timezone(-offset if sign == "-" else offset)
    microseconds = int((fraction or "0")[:6].ljust(6, "0"))
    return datetime(int(year), int(month), int(day), int(hour), int(minute), int(second), microseconds, zone)


def format_datetime(moment: datetime) -> str:
    """`moment` in UTC with milliseconds, as the service answers it; a naive datetime is refused (which zone would it be?)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{moment!r} has no time zone: give an aware datetime, such as datetime.now(timezone.utc)")
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
