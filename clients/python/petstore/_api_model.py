"""What every model of the API shares beside its fields: the request id of the answer it came in."""

from __future__ import annotations

from typing import ClassVar


class ApiModel:
    """The base of every model of petstore._models (Pet, Order, WebhookEndpoint, Event, …)."""

    _request_id: ClassVar[str | None] = None
    """The X-Request-Id of the answer this object came in (None for one made otherwise): quote it to
    support. Public despite its underscore, which keeps it clear of the API's own fields; set on the
    object, not a field of its dataclass, so to_wire(), dataclasses.asdict(), == and repr() leave it
    out."""
