# Written by clients/python/scripts/generate.py from openapi.json: do not edit.
"""The types of the Pet Store API, as its OpenAPI document declares them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Literal

from ._api_model import ApiModel
from ._not_modified import OMITTED, Omitted
from ._wire import format_datetime, parse_datetime

API_VERSION: Final = "1.6.0"
"""The version of the document these types were written from."""

PetStatus = Literal["available", "pending", "sold"]

ErrorCode = Literal[
    "VALIDATION_FAILED",
    "MALFORMED_JSON",
    "MALFORMED_REQUEST",
    "UNSUPPORTED_MEDIA_TYPE",
    "API_KEY_MISSING",
    "API_KEY_INVALID",
    "API_KEY_EXPIRED",
    "INSUFFICIENT_SCOPE",
    "PET_NOT_FOUND",
    "ORDER_NOT_FOUND",
    "WEBHOOK_ENDPOINT_NOT_FOUND",
    "EVENT_NOT_FOUND",
    "REQUEST_NOT_FOUND",
    "REQUEST_LOG_DISABLED",
    "SANDBOX_NOT_FOUND",
    "ROUTE_NOT_FOUND",
    "METHOD_NOT_ALLOWED",
    "REQUEST_TIMEOUT",
    "IDEMPOTENCY_KEY_IN_USE",
    "INVALID_TRANSITION",
    "PET_NOT_AVAILABLE",
    "PET_HAS_OPEN_ORDER",
    "PET_HAS_ORDERS",
    "SANDBOX_LIMIT_REACHED",
    "PRECONDITION_FAILED",
    "EXPECTATION_FAILED",
    "PAYLOAD_TOO_LARGE",
    "IDEMPOTENCY_KEY_REUSED",
    "RATE_LIMITED",
    "HEADERS_TOO_LARGE",
    "INTERNAL_ERROR",
    "SERVICE_UNAVAILABLE",
]

OrderStatus = Literal["placed", "approved", "delivered", "cancelled"]

PlaceableOrderStatus = Literal["placed", "approved", "delivered"]
"""Where the order stands when placed: placed (the default) or approved hold the animal;
delivered sells it.
"""

NewWebhookEndpointEventsItem = Literal[
    "pet.created",
    "pet.updated",
    "pet.deleted",
    "order.placed",
    "order.updated",
    "*",
]

EventType = Literal[
    "pet.created",
    "pet.updated",
    "pet.deleted",
    "order.placed",
    "order.updated",
    "webhook.test",
]

WebhookDeliveryState = Literal["pending", "delivered", "failed"]

NewPetStatus = PetStatus
"""Availability status. It moves (updatePet) from available to pending or sold, from pending to
available or sold; sold is final. A pet an open order holds moves only with that order. The
service's default: "available".
"""

NewOrderStatus = PlaceableOrderStatus
"""Where the order stands when placed: placed (the default) or approved hold the animal;
delivered sells it. The service's default: "placed".
"""

NewSandboxExpiresIn = int
"""Seconds until the sandbox expires by itself: its keys stop then, and its data is removed. A
minute to 30 days; 24 hours when not given. The service's default: 86400.
"""

ListEventsType = Literal[
    "pet.created",
    "pet.updated",
    "pet.deleted",
    "order.placed",
    "order.updated",
]

ERROR_CODES_BY_STATUS: Final[Mapping[int, tuple[ErrorCode, ...]]] = {
    400: ("VALIDATION_FAILED", "MALFORMED_JSON", "MALFORMED_REQUEST", "UNSUPPORTED_MEDIA_TYPE"),
    401: ("API_KEY_MISSING", "API_KEY_INVALID", "API_KEY_EXPIRED"),
    403: ("INSUFFICIENT_SCOPE",),
    404: ("PET_NOT_FOUND", "ORDER_NOT_FOUND", "WEBHOOK_ENDPOINT_NOT_FOUND", "EVENT_NOT_FOUND", "REQUEST_NOT_FOUND", "REQUEST_LOG_DISABLED", "SANDBOX_NOT_FOUND", "ROUTE_NOT_FOUND"),
    405: ("METHOD_NOT_ALLOWED",),
    408: ("REQUEST_TIMEOUT",),
    409: ("IDEMPOTENCY_KEY_IN_USE", "INVALID_TRANSITION", "PET_NOT_AVAILABLE", "PET_HAS_OPEN_ORDER", "PET_HAS_ORDERS", "SANDBOX_LIMIT_REACHED"),
    412: ("PRECONDITION_FAILED",),
    413: ("PAYLOAD_TOO_LARGE",),
    417: ("EXPECTATION_FAILED",),
    422: ("IDEMPOTENCY_KEY_REUSED",),
    429: ("RATE_LIMITED",),
    431: ("HEADERS_TOO_LARGE",),
    500: ("INTERNAL_ERROR",),
    503: ("SERVICE_UNAVAILABLE",),
}
"""The codes an error answer of each HTTP status carries, as the document lists them."""

ErrorCode400 = Literal[
    "VALIDATION_FAILED",
    "MALFORMED_JSON",
    "MALFORMED_REQUEST",
    "UNSUPPORTED_MEDIA_TYPE",
]
ErrorCode401 = Literal["API_KEY_MISSING", "API_KEY_INVALID", "API_KEY_EXPIRED"]
ErrorCode403 = Literal["INSUFFICIENT_SCOPE"]
ErrorCode404 = Literal[
    "PET_NOT_FOUND",
    "ORDER_NOT_FOUND",
    "WEBHOOK_ENDPOINT_NOT_FOUND",
    "EVENT_NOT_FOUND",
    "REQUEST_NOT_FOUND",
    "REQUEST_LOG_DISABLED",
    "SANDBOX_NOT_FOUND",
    "ROUTE_NOT_FOUND",
]
ErrorCode405 = Literal["METHOD_NOT_ALLOWED"]
ErrorCode408 = Literal["REQUEST_TIMEOUT"]
ErrorCode409 = Literal[
    "IDEMPOTENCY_KEY_IN_USE",
    "INVALID_TRANSITION",
    "PET_NOT_AVAILABLE",
    "PET_HAS_OPEN_ORDER",
    "PET_HAS_ORDERS",
    "SANDBOX_LIMIT_REACHED",
]
ErrorCode412 = Literal["PRECONDITION_FAILED"]
ErrorCode413 = Literal["PAYLOAD_TOO_LARGE"]
ErrorCode417 = Literal["EXPECTATION_FAILED"]
ErrorCode422 = Literal["IDEMPOTENCY_KEY_REUSED"]
ErrorCode429 = Literal["RATE_LIMITED"]
ErrorCode431 = Literal["HEADERS_TOO_LARGE"]
ErrorCode500 = Literal["INTERNAL_ERROR"]
ErrorCode503 = Literal["SERVICE_UNAVAILABLE"]


@dataclass(frozen=True, kw_only=True)
class Pet(ApiModel):
    """An animal in the store."""

    id: int
    """Unique identifier, assigned on creation."""
    name: str
    """The animal's name: 1 to 255 characters, not only white space, stored exactly as sent."""
    category_id: int
    """Identifier of the category the animal belongs to."""
    status: PetStatus
    """Availability status. It moves (updatePet) from available to pending or sold, from pending
    to available or sold; sold is final. A pet an open order holds moves only with that order.
    """
    metadata: dict[str, str] = field(default_factory=dict)
    """Your own references (an order's id in your ERP, say): up to 50 keys of 1 to 40 characters
    of A-Z, a-z, 0-9, _, . and -, each a string of up to 500 characters; `{}` when none. A
    PATCH merges it (RFC 7396): a key set to null is removed, `metadata: null` removes them
    all. Listings filter by one pair: `metadata[key]=value`. Added in 1.5.0: an answer of an
    older version, or an event recorded before, has none, read as {}.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Pet:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            name=wire["name"],
            category_id=wire["categoryId"],
            status=wire["status"],
            metadata=dict(wire["metadata"]) if "metadata" in wire else {},
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "categoryId": self.category_id,
            "status": self.status,
            "metadata": dict(self.metadata),
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class NewPet(ApiModel):
    """An animal to add to the store."""

    name: str
    """The animal's name: 1 to 255 characters, not only white space, stored exactly as sent."""
    category_id: int
    """Identifier of the category the animal belongs to."""
    status: NewPetStatus | None = None
    """Availability status. It moves (updatePet) from available to pending or sold, from pending
    to available or sold; sold is final. A pet an open order holds moves only with that order.
    The service's default: "available".
    """
    metadata: dict[str, str] | None = None
    """Your own references (an order's id in your ERP, say): up to 50 keys of 1 to 40 characters
    of A-Z, a-z, 0-9, _, . and -, each a string of up to 500 characters; `{}` when none. A
    PATCH merges it (RFC 7396): a key set to null is removed, `metadata: null` removes them
    all. Listings filter by one pair: `metadata[key]=value`.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> NewPet:
        """The model of its JSON form, as the service sends it."""
        return cls(
            name=wire["name"],
            category_id=wire["categoryId"],
            status=wire.get("status"),
            metadata=None if wire.get("metadata") is None else dict(wire["metadata"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "name": self.name,
            "categoryId": self.category_id,
        }
        if self.status is not None:
            wire["status"] = self.status
        if self.metadata is not None:
            wire["metadata"] = dict(self.metadata)
        return wire


@dataclass(frozen=True, kw_only=True)
class PetPatch(ApiModel):
    """A JSON Merge Patch (RFC 7396) of an animal: the fields given replace the stored ones, each
    valid as in NewPet; a field left out is unchanged, and none may be null but metadata,
    whose members merge (null removes one, or all).
    """

    name: str | None = None
    """The animal's name: 1 to 255 characters, not only white space, stored exactly as sent."""
    category_id: int | None = None
    """Identifier of the category the animal belongs to."""
    status: PetStatus | None = None
    """Availability status. It moves (updatePet) from available to pending or sold, from pending
    to available or sold; sold is final. A pet an open order holds moves only with that order.
    """
    metadata: dict[str, str | None] | None | Omitted = OMITTED
    """Your own references (an order's id in your ERP, say): up to 50 keys of 1 to 40 characters
    of A-Z, a-z, 0-9, _, . and -, each a string of up to 500 characters; `{}` when none. A
    PATCH merges it (RFC 7396): a key set to null is removed, `metadata: null` removes them
    all. Listings filter by one pair: `metadata[key]=value`. Left out (OMITTED) it is
    unchanged; None sends null.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> PetPatch:
        """The model of its JSON form, as the service sends it."""
        return cls(
            name=wire.get("name"),
            category_id=wire.get("categoryId"),
            status=wire.get("status"),
            metadata=OMITTED if "metadata" not in wire else None if wire["metadata"] is None else dict(wire["metadata"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None, or OMITTED where None is null, are left out."""
        wire: dict[str, Any] = {}
        if self.name is not None:
            wire["name"] = self.name
        if self.category_id is not None:
            wire["categoryId"] = self.category_id
        if self.status is not None:
            wire["status"] = self.status
        if not isinstance(self.metadata, Omitted):
            wire["metadata"] = None if self.metadata is None else dict(self.metadata)
        return wire


@dataclass(frozen=True, kw_only=True)
class Order(ApiModel):
    """An order for an animal."""

    id: int
    """Unique identifier, assigned when placed."""
    pet_id: int
    """The animal ordered; it must exist."""
    quantity: int
    status: OrderStatus
    """Where the order stands."""
    ship_date: datetime | None = None
    """When the order ships, in UTC with milliseconds; absent when none was given."""
    complete: bool
    """Whether the order is complete: exactly when it is delivered."""
    metadata: dict[str, str] = field(default_factory=dict)
    """Your own references (an order's id in your ERP, say): up to 50 keys of 1 to 40 characters
    of A-Z, a-z, 0-9, _, . and -, each a string of up to 500 characters; `{}` when none. A
    PATCH merges it (RFC 7396): a key set to null is removed, `metadata: null` removes them
    all. Listings filter by one pair: `metadata[key]=value`. Added in 1.5.0: an answer of an
    older version, or an event recorded before, has none, read as {}.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Order:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            pet_id=wire["petId"],
            quantity=wire["quantity"],
            status=wire["status"],
            ship_date=None if wire.get("shipDate") is None else parse_datetime(wire["shipDate"]),
            complete=wire["complete"],
            metadata=dict(wire["metadata"]) if "metadata" in wire else {},
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "petId": self.pet_id,
            "quantity": self.quantity,
            "status": self.status,
            "complete": self.complete,
            "metadata": dict(self.metadata),
        }
        if self.ship_date is not None:
            wire["shipDate"] = format_datetime(self.ship_date)
        return wire


@dataclass(frozen=True, kw_only=True)
class NewOrder(ApiModel):
    """An order to place for an animal."""

    pet_id: int
    """The animal ordered; it must exist."""
    quantity: int
    status: NewOrderStatus | None = None
    """Where the order stands when placed: placed (the default) or approved hold the animal;
    delivered sells it. The service's default: "placed".
    """
    ship_date: datetime | None = None
    """When the order ships. An RFC 3339 date-time with an offset (`Z` or `+hh:mm`; `T` and `Z`
    in either case) in the years 1000 to 9999; no other ISO 8601 form (week dates, ordinal
    dates, basic format, no offset). Answered in UTC with milliseconds.
    """
    complete: bool | None = None
    """Whether the order is complete, which it is exactly when delivered: it may be left out, or
    given as the status makes it (true with delivered, false otherwise); any other value is
    refused.
    """
    metadata: dict[str, str] | None = None
    """Your own references (an order's id in your ERP, say): up to 50 keys of 1 to 40 characters
    of A-Z, a-z, 0-9, _, . and -, each a string of up to 500 characters; `{}` when none. A
    PATCH merges it (RFC 7396): a key set to null is removed, `metadata: null` removes them
    all. Listings filter by one pair: `metadata[key]=value`.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> NewOrder:
        """The model of its JSON form, as the service sends it."""
        return cls(
            pet_id=wire["petId"],
            quantity=wire["quantity"],
            status=wire.get("status"),
            ship_date=None if wire.get("shipDate") is None else parse_datetime(wire["shipDate"]),
            complete=wire.get("complete"),
            metadata=None if wire.get("metadata") is None else dict(wire["metadata"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "petId": self.pet_id,
            "quantity": self.quantity,
        }
        if self.status is not None:
            wire["status"] = self.status
        if self.ship_date is not None:
            wire["shipDate"] = format_datetime(self.ship_date)
        if self.complete is not None:
            wire["complete"] = self.complete
        if self.metadata is not None:
            wire["metadata"] = dict(self.metadata)
        return wire


@dataclass(frozen=True, kw_only=True)
class OrderPatch(ApiModel):
    """A JSON Merge Patch (RFC 7396) of an order: its status moves placed to approved, approved
    to delivered (which sells the animal and completes the order); its shipDate may be set
    while the order is open (delivered and cancelled are final). Its metadata merges (a key
    set to null is removed, `metadata: null` removes them all), final or not. A field left out
    is unchanged; none may be null but metadata. An order is cancelled with POST
    /store/orders/{orderId}/cancel.
    """

    status: OrderStatus | None = None
    """Where the order stands."""
    ship_date: datetime | None = None
    """When the order ships. An RFC 3339 date-time with an offset (`Z` or `+hh:mm`; `T` and `Z`
    in either case) in the years 1000 to 9999; no other ISO 8601 form (week dates, ordinal
    dates, basic format, no offset). Answered in UTC with milliseconds.
    """
    metadata: dict[str, str | None] | None | Omitted = OMITTED
    """Your own references (an order's id in your ERP, say): up to 50 keys of 1 to 40 characters
    of A-Z, a-z, 0-9, _, . and -, each a string of up to 500 characters; `{}` when none. A
    PATCH merges it (RFC 7396): a key set to null is removed, `metadata: null` removes them
    all. Listings filter by one pair: `metadata[key]=value`. Left out (OMITTED) it is
    unchanged; None sends null.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> OrderPatch:
        """The model of its JSON form, as the service sends it."""
        return cls(
            status=wire.get("status"),
            ship_date=None if wire.get("shipDate") is None else parse_datetime(wire["shipDate"]),
            metadata=OMITTED if "metadata" not in wire else None if wire["metadata"] is None else dict(wire["metadata"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None, or OMITTED where None is null, are left out."""
        wire: dict[str, Any] = {}
        if self.status is not None:
            wire["status"] = self.status
        if self.ship_date is not None:
            wire["shipDate"] = format_datetime(self.ship_date)
        if not isinstance(self.metadata, Omitted):
            wire["metadata"] = None if self.metadata is None else dict(self.metadata)
        return wire


@dataclass(frozen=True, kw_only=True)
class Inventory(ApiModel):
    """How many animals have each status; every status is always present."""

    available: int
    pending: int
    sold: int

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Inventory:
        """The model of its JSON form, as the service sends it."""
        return cls(
            available=wire["available"],
            pending=wire["pending"],
            sold=wire["sold"],
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "available": self.available,
            "pending": self.pending,
            "sold": self.sold,
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class NewWebhookEndpoint(ApiModel):
    """An endpoint to send events to."""

    url: str
    """Where events are POSTed: an `https` URL (plain `http` only where the operator allows it)
    whose host resolves to a public address; checked again at every attempt, against the
    address connected to.
    """
    events: list[NewWebhookEndpointEventsItem]
    """The event types sent to this endpoint; `*` for all of them, those added later included."""
    description: str | None = None
    """What the endpoint is for."""

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> NewWebhookEndpoint:
        """The model of its JSON form, as the service sends it."""
        return cls(
            url=wire["url"],
            events=list(wire["events"]),
            description=wire.get("description"),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "url": self.url,
            "events": list(self.events),
        }
        if self.description is not None:
            wire["description"] = self.description
        return wire


@dataclass(frozen=True, kw_only=True)
class NewWebhookEndpointSecret(ApiModel):
    """A new endpoint, with its signing secret: the one time it is shown."""

    id: str
    """Unique identifier, assigned on creation."""
    url: str
    """Where events are POSTed: an `https` URL (plain `http` only where the operator allows it)
    whose host resolves to a public address; checked again at every attempt, against the
    address connected to.
    """
    events: list[NewWebhookEndpointEventsItem]
    """The event types sent to this endpoint; `*` for all of them, those added later included."""
    description: str | None = None
    """What the endpoint is for."""
    enabled: bool
    """Whether events are sent to it; a disabled endpoint gets none until enabled."""
    disabled_reason: str | None = None
    """Why the service disabled it (`410 Gone`, or every delivery failing for the whole retry
    schedule).
    """
    created_at: datetime
    """When it was made; it gets the events of writes from then on."""
    secret: str
    """The signing secret (Standard Webhooks: `whsec_` and base64). Shown only in this answer:
    keep it.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> NewWebhookEndpointSecret:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            url=wire["url"],
            events=list(wire["events"]),
            description=wire.get("description"),
            enabled=wire["enabled"],
            disabled_reason=wire.get("disabledReason"),
            created_at=parse_datetime(wire["createdAt"]),
            secret=wire["secret"],
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "url": self.url,
            "events": list(self.events),
            "enabled": self.enabled,
            "createdAt": format_datetime(self.created_at),
            "secret": self.secret,
        }
        if self.description is not None:
            wire["description"] = self.description
        if self.disabled_reason is not None:
            wire["disabledReason"] = self.disabled_reason
        return wire


@dataclass(frozen=True, kw_only=True)
class WebhookEndpoint(ApiModel):
    """An endpoint events are sent to."""

    id: str
    """Unique identifier, assigned on creation."""
    url: str
    """Where events are POSTed: an `https` URL (plain `http` only where the operator allows it)
    whose host resolves to a public address; checked again at every attempt, against the
    address connected to.
    """
    events: list[NewWebhookEndpointEventsItem]
    """The event types sent to this endpoint; `*` for all of them, those added later included."""
    description: str | None = None
    """What the endpoint is for."""
    enabled: bool
    """Whether events are sent to it; a disabled endpoint gets none until enabled."""
    disabled_reason: str | None = None
    """Why the service disabled it (`410 Gone`, or every delivery failing for the whole retry
    schedule).
    """
    created_at: datetime
    """When it was made; it gets the events of writes from then on."""

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> WebhookEndpoint:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            url=wire["url"],
            events=list(wire["events"]),
            description=wire.get("description"),
            enabled=wire["enabled"],
            disabled_reason=wire.get("disabledReason"),
            created_at=parse_datetime(wire["createdAt"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "url": self.url,
            "events": list(self.events),
            "enabled": self.enabled,
            "createdAt": format_datetime(self.created_at),
        }
        if self.description is not None:
            wire["description"] = self.description
        if self.disabled_reason is not None:
            wire["disabledReason"] = self.disabled_reason
        return wire


@dataclass(frozen=True, kw_only=True)
class WebhookSecret(ApiModel):
    """A new signing secret; the previous one keeps signing beside it until
    `previousSecretExpiresAt`.
    """

    secret: str
    """The signing secret (Standard Webhooks: `whsec_` and base64). Shown only in this answer:
    keep it.
    """
    previous_secret_expires_at: datetime
    """Until when deliveries carry a signature under the previous secret too."""

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> WebhookSecret:
        """The model of its JSON form, as the service sends it."""
        return cls(
            secret=wire["secret"],
            previous_secret_expires_at=parse_datetime(wire["previousSecretExpiresAt"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "secret": self.secret,
            "previousSecretExpiresAt": format_datetime(self.previous_secret_expires_at),
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class EventCause(ApiModel):
    """The request that caused an event: its id, which `GET /requests/{requestId}` finds in the
    request log, and its Idempotency-Key.
    """

    id: str
    """The X-Request-Id of the request."""
    idempotency_key: str | None
    """Its Idempotency-Key, or null."""

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> EventCause:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            idempotency_key=wire["idempotencyKey"],
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out, but required ones, sent as null."""
        wire: dict[str, Any] = {
            "id": self.id,
            "idempotencyKey": self.idempotency_key,
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class EventData(ApiModel):
    """What the event is about."""

    object: dict[str, Any]
    """The object exactly as the write answered it: the `Pet`, the `Order` (as it was, for a
    deletion).
    """
    previous_attributes: dict[str, Any] | None = None
    """On an update (`pet.updated`, `order.updated`): the fields that changed, as they were
    before.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> EventData:
        """The model of its JSON form, as the service sends it."""
        return cls(
            object=dict(wire["object"]),
            previous_attributes=None if wire.get("previousAttributes") is None else dict(wire["previousAttributes"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "object": dict(self.object),
        }
        if self.previous_attributes is not None:
            wire["previousAttributes"] = dict(self.previous_attributes)
        return wire


@dataclass(frozen=True, kw_only=True)
class Event(ApiModel):
    """Something that happened, as sent to webhook endpoints and listed by `GET /events`.
    Immutable. An event carries the whole object as it was then, so a receiver that gets
    events out of order can tell an older one by its content.
    """

    id: str
    """Unique identifier; also the `webhook-id` of every delivery of it: the key to de-duplicate
    on.
    """
    type: EventType
    """What happened."""
    created_at: datetime
    """When the write happened."""
    api_version: str
    """The API version whose schemas `data.object` follows."""
    request: EventCause | None = None
    """The request that caused the event (from API version 1.5.0; absent from older events): `GET
    /requests/{requestId}` finds it in the request log. Null for an event the service made of
    its own accord.
    """
    data: EventData
    """What the event is about."""

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Event:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            type=wire["type"],
            created_at=parse_datetime(wire["createdAt"]),
            api_version=wire["apiVersion"],
            request=None if wire.get("request") is None else EventCause.from_wire(wire["request"]),
            data=EventData.from_wire(wire["data"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "createdAt": format_datetime(self.created_at),
            "apiVersion": self.api_version,
            "data": self.data.to_wire(),
        }
        if self.request is not None:
            wire["request"] = self.request.to_wire()
        return wire


@dataclass(frozen=True, kw_only=True)
class Recovery(ApiModel):
    """Send again every delivery to this endpoint that failed, of events since a time."""

    since: datetime
    """Events from this time on. An RFC 3339 date-time with an offset (`Z` or `+hh:mm`; `T` and
    `Z` in either case) in the years 1000 to 9999; no other ISO 8601 form (week dates, ordinal
    dates, basic format, no offset). Answered in UTC with milliseconds.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Recovery:
        """The model of its JSON form, as the service sends it."""
        return cls(
            since=parse_datetime(wire["since"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "since": format_datetime(self.since),
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class Queued(ApiModel):
    """How many deliveries were queued."""

    queued: int

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Queued:
        """The model of its JSON form, as the service sends it."""
        return cls(
            queued=wire["queued"],
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "queued": self.queued,
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class WebhookAttempt(ApiModel):
    """One try of a delivery."""

    attempted_at: datetime
    status: int | None = None
    """The receiver's answer status; absent when none came."""
    duration_ms: int
    """How long the attempt took, in milliseconds."""
    error: str | None = None
    """Why no answer counted: refused, timed out, an address not allowed."""
    response_body: str | None = None
    """The first KiB of the receiver's answer."""

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> WebhookAttempt:
        """The model of its JSON form, as the service sends it."""
        return cls(
            attempted_at=parse_datetime(wire["attemptedAt"]),
            status=wire.get("status"),
            duration_ms=wire["durationMs"],
            error=wire.get("error"),
            response_body=wire.get("responseBody"),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "attemptedAt": format_datetime(self.attempted_at),
            "durationMs": self.duration_ms,
        }
        if self.status is not None:
            wire["status"] = self.status
        if self.error is not None:
            wire["error"] = self.error
        if self.response_body is not None:
            wire["responseBody"] = self.response_body
        return wire


@dataclass(frozen=True, kw_only=True)
class WebhookDelivery(ApiModel):
    """An event's delivery to one endpoint."""

    endpoint_id: str
    state: WebhookDeliveryState
    next_attempt_at: datetime | None = None
    """When a pending delivery is tried next."""
    attempts: list[WebhookAttempt]

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> WebhookDelivery:
        """The model of its JSON form, as the service sends it."""
        return cls(
            endpoint_id=wire["endpointId"],
            state=wire["state"],
            next_attempt_at=None if wire.get("nextAttemptAt") is None else parse_datetime(wire["nextAttemptAt"]),
            attempts=[WebhookAttempt.from_wire(item) for item in wire["attempts"]],
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "endpointId": self.endpoint_id,
            "state": self.state,
            "attempts": [item.to_wire() for item in self.attempts],
        }
        if self.next_attempt_at is not None:
            wire["nextAttemptAt"] = format_datetime(self.next_attempt_at)
        return wire


@dataclass(frozen=True, kw_only=True)
class EventWithDeliveries(ApiModel):
    """An event and its delivery to each endpoint, every attempt included."""

    id: str
    """Unique identifier; also the `webhook-id` of every delivery of it: the key to de-duplicate
    on.
    """
    type: EventType
    """What happened."""
    created_at: datetime
    """When the write happened."""
    api_version: str
    """The API version whose schemas `data.object` follows."""
    request: EventCause | None = None
    """The request that caused the event (from API version 1.5.0; absent from older events): `GET
    /requests/{requestId}` finds it in the request log. Null for an event the service made of
    its own accord.
    """
    data: EventData
    """What the event is about."""
    deliveries: list[WebhookDelivery]

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> EventWithDeliveries:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            type=wire["type"],
            created_at=parse_datetime(wire["createdAt"]),
            api_version=wire["apiVersion"],
            request=None if wire.get("request") is None else EventCause.from_wire(wire["request"]),
            data=EventData.from_wire(wire["data"]),
            deliveries=[WebhookDelivery.from_wire(item) for item in wire["deliveries"]],
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "createdAt": format_datetime(self.created_at),
            "apiVersion": self.api_version,
            "data": self.data.to_wire(),
            "deliveries": [item.to_wire() for item in self.deliveries],
        }
        if self.request is not None:
            wire["request"] = self.request.to_wire()
        return wire


@dataclass(frozen=True, kw_only=True)
class Redelivery(ApiModel):
    """Which endpoint to send the event to again; all subscribed ones when absent."""

    endpoint_id: str | None = None

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Redelivery:
        """The model of its JSON form, as the service sends it."""
        return cls(
            endpoint_id=wire.get("endpointId"),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {}
        if self.endpoint_id is not None:
            wire["endpointId"] = self.endpoint_id
        return wire


@dataclass(frozen=True, kw_only=True)
class AnsweredError(ApiModel):
    """The error a request was answered with: its code and message, as the Error said them."""

    code: ErrorCode
    message: str

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> AnsweredError:
        """The model of its JSON form, as the service sends it."""
        return cls(
            code=wire["code"],
            message=wire["message"],
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class RequestLogEntry(ApiModel):
    """A request your API key made, as the service answered it: every change (POST, PATCH,
    DELETE) and every failure, and the successful reads where the operator keeps those too.
    Never its body or a credential. A key’s rate-limited answers (429) are one entry a minute,
    the first’s, whose `count` says how many there were.
    """

    id: str
    """The request id: its `X-Request-Id`, as answered (yours, when you sent one)."""
    created_at: datetime
    """When the request arrived, in UTC with milliseconds."""
    method: str
    path: str
    """The path and query as sent, a query value only under the operation’s own parameters (every
    other value `[redacted]`), and text shaped like an API key `psk_[redacted]`.
    """
    operation: str | None
    """The operationId of the operation the request reached; null when it reached none (404
    ROUTE_NOT_FOUND).
    """
    status: int
    """The HTTP status answered."""
    duration_ms: int
    """How long the answer took, in milliseconds."""
    idempotency_key: str | None
    """The `Idempotency-Key` sent, or null."""
    replayed: bool
    """Whether the answer was the one stored for an earlier request with the same
    Idempotency-Key.
    """
    error: AnsweredError | None
    """The error answered, or null for a success."""
    count: int = 1
    """How many requests the entry stands for: 1, but for a rate-limited answer (429), every one
    your key was refused in the minute from this one (their own ids are not kept). The
    service's default: 1. Added in 1.5.1: an answer of an older version, or an event recorded
    before, has none, read as 1.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> RequestLogEntry:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            created_at=parse_datetime(wire["createdAt"]),
            method=wire["method"],
            path=wire["path"],
            operation=wire["operation"],
            status=wire["status"],
            duration_ms=wire["durationMs"],
            idempotency_key=wire["idempotencyKey"],
            replayed=wire["replayed"],
            error=None if wire["error"] is None else AnsweredError.from_wire(wire["error"]),
            count=wire["count"] if "count" in wire else 1,
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out, but required ones, sent as null."""
        wire: dict[str, Any] = {
            "id": self.id,
            "createdAt": format_datetime(self.created_at),
            "method": self.method,
            "path": self.path,
            "operation": self.operation,
            "status": self.status,
            "durationMs": self.duration_ms,
            "idempotencyKey": self.idempotency_key,
            "replayed": self.replayed,
            "error": None if self.error is None else self.error.to_wire(),
            "count": self.count,
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class NewSandbox(ApiModel):
    """A sandbox to make."""

    name: str
    """What the sandbox is for: a label, 1 to 100 characters, not only white space."""
    expires_in: NewSandboxExpiresIn | None = None
    """Seconds until the sandbox expires by itself: its keys stop then, and its data is removed.
    A minute to 30 days; 24 hours when not given. The service's default: 86400.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> NewSandbox:
        """The model of its JSON form, as the service sends it."""
        return cls(
            name=wire["name"],
            expires_in=wire.get("expiresIn"),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "name": self.name,
        }
        if self.expires_in is not None:
            wire["expiresIn"] = self.expires_in
        return wire


@dataclass(frozen=True, kw_only=True)
class NewSandboxKey(ApiModel):
    """A new sandbox, with its API key: the one time the key is shown."""

    id: str
    """Unique identifier, assigned on creation (`sbx_…`)."""
    name: str
    """What the sandbox is for: a label, 1 to 100 characters, not only white space."""
    created_at: datetime
    """When it was made."""
    expires_at: datetime
    """When it expires: its keys stop, and it and its data are removed."""
    livemode: bool
    """Always true: a sandbox is managed from live, with a live key."""
    api_key: str
    """An API key of the sandbox (`psk_test_…`), holding every scope but the sandboxes’ own; it
    stops when the sandbox expires or is deleted. Shown only in this answer: keep it. More:
    `npm run apikey -- create NAME --sandbox sbx_…` (the operator).
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> NewSandboxKey:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            name=wire["name"],
            created_at=parse_datetime(wire["createdAt"]),
            expires_at=parse_datetime(wire["expiresAt"]),
            livemode=wire["livemode"],
            api_key=wire["apiKey"],
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "createdAt": format_datetime(self.created_at),
            "expiresAt": format_datetime(self.expires_at),
            "livemode": self.livemode,
            "apiKey": self.api_key,
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class Sandbox(ApiModel):
    """An environment of its own: its pets, orders, webhook endpoints, events, request log and
    keys, none of which live keys see, nor it theirs. Its keys (`psk_test_…`) act in it alone;
    its objects say `livemode: false`.
    """

    id: str
    """Unique identifier, assigned on creation (`sbx_…`)."""
    name: str
    """What the sandbox is for: a label, 1 to 100 characters, not only white space."""
    created_at: datetime
    """When it was made."""
    expires_at: datetime
    """When it expires: its keys stop, and it and its data are removed."""
    livemode: bool
    """Always true: a sandbox is managed from live, with a live key."""

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Sandbox:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            name=wire["name"],
            created_at=parse_datetime(wire["createdAt"]),
            expires_at=parse_datetime(wire["expiresAt"]),
            livemode=wire["livemode"],
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "createdAt": format_datetime(self.created_at),
            "expiresAt": format_datetime(self.expires_at),
            "livemode": self.livemode,
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class PetCreatedEventData(ApiModel):
    """The `data` of a PetCreatedEvent."""

    object: Pet
    """An animal in the store."""

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> PetCreatedEventData:
        """The model of its JSON form, as the service sends it."""
        return cls(
            object=Pet.from_wire(wire["object"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "object": self.object.to_wire(),
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class PetCreatedEvent(ApiModel):
    """A pet was added: the Pet as createPet answered it. Delivered as the body of a signed POST
    (see the callback of createWebhookEndpoint).
    """

    id: str
    """The event id: the `webhook-id` header too, the key to de-duplicate on."""
    type: Literal["pet.created"]
    created_at: datetime
    """When the write happened."""
    api_version: str
    """The API version whose schemas `data.object` follows."""
    request: EventRequest | None = None
    """The request that caused the event (from API version 1.5.0; absent from older events): an
    EventCause, or null for an event the service made of its own accord.
    """
    data: PetCreatedEventData

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> PetCreatedEvent:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            type=wire["type"],
            created_at=parse_datetime(wire["createdAt"]),
            api_version=wire["apiVersion"],
            request=None if wire.get("request") is None else EventRequest.from_wire(wire["request"]),
            data=PetCreatedEventData.from_wire(wire["data"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "createdAt": format_datetime(self.created_at),
            "apiVersion": self.api_version,
            "data": self.data.to_wire(),
        }
        if self.request is not None:
            wire["request"] = self.request.to_wire()
        return wire


@dataclass(frozen=True, kw_only=True)
class PetUpdatedEventData(ApiModel):
    """The `data` of a PetUpdatedEvent."""

    object: Pet
    """An animal in the store."""
    previous_attributes: dict[str, Any] | None = None
    """The fields of the Pet that changed, with their values before the change (Stripe's shape);
    null for a field it did not have.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> PetUpdatedEventData:
        """The model of its JSON form, as the service sends it."""
        return cls(
            object=Pet.from_wire(wire["object"]),
            previous_attributes=None if wire.get("previousAttributes") is None else dict(wire["previousAttributes"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "object": self.object.to_wire(),
        }
        if self.previous_attributes is not None:
            wire["previousAttributes"] = dict(self.previous_attributes)
        return wire


@dataclass(frozen=True, kw_only=True)
class PetUpdatedEvent(ApiModel):
    """A pet changed, by updatePet or by an order that holds, sells or releases it: the Pet after
    the change. Delivered as the body of a signed POST (see the callback of
    createWebhookEndpoint).
    """

    id: str
    """The event id: the `webhook-id` header too, the key to de-duplicate on."""
    type: Literal["pet.updated"]
    created_at: datetime
    """When the write happened."""
    api_version: str
    """The API version whose schemas `data.object` follows."""
    request: EventRequest | None = None
    """The request that caused the event (from API version 1.5.0; absent from older events): an
    EventCause, or null for an event the service made of its own accord.
    """
    data: PetUpdatedEventData

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> PetUpdatedEvent:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            type=wire["type"],
            created_at=parse_datetime(wire["createdAt"]),
            api_version=wire["apiVersion"],
            request=None if wire.get("request") is None else EventRequest.from_wire(wire["request"]),
            data=PetUpdatedEventData.from_wire(wire["data"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "createdAt": format_datetime(self.created_at),
            "apiVersion": self.api_version,
            "data": self.data.to_wire(),
        }
        if self.request is not None:
            wire["request"] = self.request.to_wire()
        return wire


@dataclass(frozen=True, kw_only=True)
class PetDeletedEventData(ApiModel):
    """The `data` of a PetDeletedEvent."""

    object: Pet
    """An animal in the store."""

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> PetDeletedEventData:
        """The model of its JSON form, as the service sends it."""
        return cls(
            object=Pet.from_wire(wire["object"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "object": self.object.to_wire(),
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class PetDeletedEvent(ApiModel):
    """A pet was removed by deletePet: the Pet as it was. Delivered as the body of a signed POST
    (see the callback of createWebhookEndpoint).
    """

    id: str
    """The event id: the `webhook-id` header too, the key to de-duplicate on."""
    type: Literal["pet.deleted"]
    created_at: datetime
    """When the write happened."""
    api_version: str
    """The API version whose schemas `data.object` follows."""
    request: EventRequest | None = None
    """The request that caused the event (from API version 1.5.0; absent from older events): an
    EventCause, or null for an event the service made of its own accord.
    """
    data: PetDeletedEventData

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> PetDeletedEvent:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            type=wire["type"],
            created_at=parse_datetime(wire["createdAt"]),
            api_version=wire["apiVersion"],
            request=None if wire.get("request") is None else EventRequest.from_wire(wire["request"]),
            data=PetDeletedEventData.from_wire(wire["data"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "createdAt": format_datetime(self.created_at),
            "apiVersion": self.api_version,
            "data": self.data.to_wire(),
        }
        if self.request is not None:
            wire["request"] = self.request.to_wire()
        return wire


@dataclass(frozen=True, kw_only=True)
class OrderPlacedEventData(ApiModel):
    """The `data` of a OrderPlacedEvent."""

    object: Order
    """An order for an animal."""

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> OrderPlacedEventData:
        """The model of its JSON form, as the service sends it."""
        return cls(
            object=Order.from_wire(wire["object"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "object": self.object.to_wire(),
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class OrderPlacedEvent(ApiModel):
    """An order was placed: the Order as placeOrder answered it. Delivered as the body of a
    signed POST (see the callback of createWebhookEndpoint).
    """

    id: str
    """The event id: the `webhook-id` header too, the key to de-duplicate on."""
    type: Literal["order.placed"]
    created_at: datetime
    """When the write happened."""
    api_version: str
    """The API version whose schemas `data.object` follows."""
    request: EventRequest | None = None
    """The request that caused the event (from API version 1.5.0; absent from older events): an
    EventCause, or null for an event the service made of its own accord.
    """
    data: OrderPlacedEventData

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> OrderPlacedEvent:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            type=wire["type"],
            created_at=parse_datetime(wire["createdAt"]),
            api_version=wire["apiVersion"],
            request=None if wire.get("request") is None else EventRequest.from_wire(wire["request"]),
            data=OrderPlacedEventData.from_wire(wire["data"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "createdAt": format_datetime(self.created_at),
            "apiVersion": self.api_version,
            "data": self.data.to_wire(),
        }
        if self.request is not None:
            wire["request"] = self.request.to_wire()
        return wire


@dataclass(frozen=True, kw_only=True)
class OrderUpdatedEventData(ApiModel):
    """The `data` of a OrderUpdatedEvent."""

    object: Order
    """An order for an animal."""
    previous_attributes: dict[str, Any] | None = None
    """The fields of the Order that changed, with their values before the change (Stripe's
    shape); null for a field it did not have.
    """

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> OrderUpdatedEventData:
        """The model of its JSON form, as the service sends it."""
        return cls(
            object=Order.from_wire(wire["object"]),
            previous_attributes=None if wire.get("previousAttributes") is None else dict(wire["previousAttributes"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "object": self.object.to_wire(),
        }
        if self.previous_attributes is not None:
            wire["previousAttributes"] = dict(self.previous_attributes)
        return wire


@dataclass(frozen=True, kw_only=True)
class OrderUpdatedEvent(ApiModel):
    """An order moved, by updateOrder or cancelOrder: the Order after the move. Delivered as the
    body of a signed POST (see the callback of createWebhookEndpoint).
    """

    id: str
    """The event id: the `webhook-id` header too, the key to de-duplicate on."""
    type: Literal["order.updated"]
    created_at: datetime
    """When the write happened."""
    api_version: str
    """The API version whose schemas `data.object` follows."""
    request: EventRequest | None = None
    """The request that caused the event (from API version 1.5.0; absent from older events): an
    EventCause, or null for an event the service made of its own accord.
    """
    data: OrderUpdatedEventData

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> OrderUpdatedEvent:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            type=wire["type"],
            created_at=parse_datetime(wire["createdAt"]),
            api_version=wire["apiVersion"],
            request=None if wire.get("request") is None else EventRequest.from_wire(wire["request"]),
            data=OrderUpdatedEventData.from_wire(wire["data"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "createdAt": format_datetime(self.created_at),
            "apiVersion": self.api_version,
            "data": self.data.to_wire(),
        }
        if self.request is not None:
            wire["request"] = self.request.to_wire()
        return wire


@dataclass(frozen=True, kw_only=True)
class WebhookTestEventDataObject(ApiModel):
    """The `object` of a WebhookTestEventData."""

    endpoint_id: str

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> WebhookTestEventDataObject:
        """The model of its JSON form, as the service sends it."""
        return cls(
            endpoint_id=wire["endpointId"],
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "endpointId": self.endpoint_id,
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class WebhookTestEventData(ApiModel):
    """The `data` of a WebhookTestEvent."""

    object: WebhookTestEventDataObject

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> WebhookTestEventData:
        """The model of its JSON form, as the service sends it."""
        return cls(
            object=WebhookTestEventDataObject.from_wire(wire["object"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "object": self.object.to_wire(),
        }
        return wire


@dataclass(frozen=True, kw_only=True)
class WebhookTestEvent(ApiModel):
    """Sent by testWebhookEndpoint to that endpoint only: the endpoint it was sent to. Delivered
    as the body of a signed POST (see the callback of createWebhookEndpoint).
    """

    id: str
    """The event id: the `webhook-id` header too, the key to de-duplicate on."""
    type: Literal["webhook.test"]
    created_at: datetime
    """When the write happened."""
    api_version: str
    """The API version whose schemas `data.object` follows."""
    request: EventRequest | None = None
    """The request that caused the event (from API version 1.5.0; absent from older events): an
    EventCause, or null for an event the service made of its own accord.
    """
    data: WebhookTestEventData

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> WebhookTestEvent:
        """The model of its JSON form, as the service sends it."""
        return cls(
            id=wire["id"],
            type=wire["type"],
            created_at=parse_datetime(wire["createdAt"]),
            api_version=wire["apiVersion"],
            request=None if wire.get("request") is None else EventRequest.from_wire(wire["request"]),
            data=WebhookTestEventData.from_wire(wire["data"]),
        )

    def to_wire(self) -> dict[str, Any]:
        """Its JSON form, as the service reads it; fields that are None are left out."""
        wire: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "createdAt": format_datetime(self.created_at),
            "apiVersion": self.api_version,
            "data": self.data.to_wire(),
        }
        if self.request is not None:
            wire["request"] = self.request.to_wire()
        return wire


EventRequest = EventCause
"""The request that caused the event (from API version 1.5.0; absent from older events): an
EventCause, or null for an event the service made of its own accord.
"""


WebhookEvent = PetCreatedEvent | PetUpdatedEvent | PetDeletedEvent | OrderPlacedEvent | OrderUpdatedEvent | WebhookTestEvent
"""An event, POSTed to the endpoint"""

WEBHOOK_EVENT_TYPES: Final[Mapping[str, type[WebhookEvent]]] = {
    "pet.created": PetCreatedEvent,
    "pet.updated": PetUpdatedEvent,
    "pet.deleted": PetDeletedEvent,
    "order.placed": OrderPlacedEvent,
    "order.updated": OrderUpdatedEvent,
    "webhook.test": WebhookTestEvent,
}
"""Which class a WebhookEvent is, by its `type`."""
