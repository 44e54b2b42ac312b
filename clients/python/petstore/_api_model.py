"""What every model of the API shares beside its fields: the request id and the ETag of the answer it came in."""

from __future__ import annotations

from typing import ClassVar


class ApiModel:
    """The base of every model of petstore._models (Pet, Order, WebhookEndpoint, Event, …)."""

    _request_id: ClassVar[str | None] = None
    """The X-Request-Id of the answer this object came in (None for one made otherwise): quote it to
    support. Public despite its underscore, which keeps it clear of the API's own fields; set on the
    object, not a field of its dataclass, so to_wire(), dataclasses.asdict(), == and repr() leave it
    out."""

    _etag: ClassVar[str | None] = None
    """The ETag of the answer this object came in (None when it had none, for an item of a page, or
    one made otherwise): a pet's or an order's goes back as `if_match=` so that a change applies only
    to what you saw, or as `if_none_match=` to be answered NOT_MODIFIED while it is current. Set as
    `_request_id` is."""
