"""Receiving webhooks: a delivery checked as the Standard Webhooks specification says, and signed for tests.

The service signs `{webhook-id}.{webhook-timestamp}.{body}` with HMAC-SHA256 under the endpoint's
secret (`whsec_` and base64) and sends `v1,<base64>` in `webhook-signature`, two of them while a
secret rolls.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from typing import Any, Protocol

from ._errors import PetStoreError
from ._models import WEBHOOK_EVENT_TYPES, Event, WebhookEvent

DEFAULT_TOLERANCE_SECONDS = 5 * 60
"""How far `webhook-timestamp` may be from now, either way: the specification's 5 minutes."""


class WebhookHeaders(Protocol):
    """A request's headers as any server hands them over: a dict, http.server's `self.headers`, Starlette's, Flask's."""

    def items(self) -> Iterable[tuple[str, str]]: ...


class WebhookVerificationError(PetStoreError):
    """A delivery that is not provably the service's: a header missing, a stale timestamp, or no matching signature."""


class Webhooks:
    """`petstore.webhooks` (also `from petstore import webhooks`): checks and makes signatures; needs no API key."""

    def verify(
        self,
        body: bytes | str,
        headers: WebhookHeaders,
        secret: str | Sequence[str],
        *,
        tolerance: float = DEFAULT_TOLERANCE_SECONDS,
        now: datetime | None = None,
    ) -> WebhookEvent | Event:
        """Checks a delivery, then answers its event; raises WebhookVerificationError when it is not the service's.

        `body` is the body exactly as received: JSON parsed and written again no longer matches its
        signature. `headers` are the request's (any case). `secret` is the endpoint's `whsec_…`;
        give a list of both while you roll it. Each signature is compared in constant time
        (hmac.compare_digest). The event is a PetCreatedEvent, PetUpdatedEvent, PetDeletedEvent,
        OrderPlacedEvent, OrderUpdatedEvent or WebhookTestEvent by its `type` (an update's
        `data.previous_attributes` holds the fields that changed, by their names on the wire, as they
        were before); one of a type newer than this client is a plain Event.
        """
        lowered = {name.lower(): value for name, value in headers.items()}
        webhook_id = lowered.get("webhook-id")
        timestamp = lowered.get("webhook-timestamp")
        signatures = lowered.get("webhook-signature")
        if not webhook_id or not timestamp or not signatures:
            raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header.")
        if not re.fullmatch(r"[0-9]{1,15}", timestamp):
            raise WebhookVerificationError("The webhook-timestamp header is not a time in Unix seconds.")
        moment = (now or datetime.now(timezone.utc)).timestamp()
        if abs(moment - int(timestamp)) > tolerance:
            raise WebhookVerificationError(
                f"The webhook-timestamp is more than {tolerance:g} s from now: a replay, or a clock far off."
            )
        raw = body.encode() if isinstance(body, str) else body
        signed = f"{webhook_id}.{timestamp}.".encode() + raw
        candidates = [_base64(entry[3:]) for entry in signatures.split(" ") if entry.startswith("v1,")]
        for key in [_key(one) for one in ([secret] if isinstance(secret, str) else secret)]:
            expected = hmac.new(key, signed, hashlib.sha256).digest()
            if any(candidate is not None and hmac.compare_digest(expected, candidate) for candidate in candidates):
                return _event(raw)
        raise WebhookVerificationError("No webhook-signature matches the body under the secret.")

    def sign(
        self,
        payload: str,
        secret: str,
        *,
        webhook_id: str | None = None,
        timestamp: datetime | None = None,
    ) -> dict[str, str]:
        """The three headers the service would send with `payload`: for a receiver's own tests, with no service.

        `webhook_id` is the event's id in `payload` when left out; `timestamp` is now.
        """
        if webhook_id is None:
            webhook_id = json.loads(payload).get("id")
            if not isinstance(webhook_id, str):
                raise ValueError("Give sign a webhook_id, or a payload with a string id.")
        seconds = str(int((timestamp or datetime.now(timezone.utc)).timestamp()))
        mac = hmac.new(_key(secret), f"{webhook_id}.{seconds}.{payload}".encode(), hashlib.sha256).digest()
        return {
            "webhook-id": webhook_id,
            "webhook-timestamp": seconds,
            "webhook-signature": f"v1,{base64.b64encode(mac).decode()}",
        }


webhooks = Webhooks()


def _key(secret: str) -> bytes:
    key = _base64(secret.removeprefix("whsec_"))
    if not key:
        raise WebhookVerificationError("The secret is not a whsec_… signing secret.")
    return key


def _base64(text: str) -> bytes | None:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None


def _event(raw: bytes) -> WebhookEvent | Event:
    try:
        wire: Any = json.loads(raw)
        kind = WEBHOOK_EVENT_TYPES.get(wire["type"], Event)
        return kind.from_wire(wire)
    except (KeyError, TypeError, ValueError) as cause:
        raise WebhookVerificationError(f"The body is signed but is not an event ({cause!r}).") from cause
