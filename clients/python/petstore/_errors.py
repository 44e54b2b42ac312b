"""Every error the client raises: one class per kind of failure, each under PetStoreError."""

from __future__ import annotations

from typing import Any, Literal

from ._models import (
    ERROR_CODES_BY_STATUS,
    ErrorCode,
    ErrorCode400,
    ErrorCode401,
    ErrorCode403,
    ErrorCode404,
    ErrorCode409,
    ErrorCode412,
    ErrorCode422,
    ErrorCode429,
    ErrorCode500,
    ErrorCode503,
)


class PetStoreError(Exception):
    """Every error of this client.

    `status`, `code` and `request_id` are the service's (None when no answer came); quote
    `request_id` to support, or find the call in the request log: `petstore.requests.get(e.request_id,
    wait=2)`. Each subclass types `status` as its own and `code` as the codes that
    status carries (None when the answer was not the service's Error, say a proxy's page).
    `retry_after` is the seconds the service asked to wait, when it said (429, 503, 409 while a
    create with the same Idempotency-Key runs).
    """

    status: int | None
    code: ErrorCode | None

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: ErrorCode | None = None,
        request_id: str | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.request_id = request_id
        self.retry_after = retry_after

    def __str__(self) -> str:
        said = " ".join(str(part) for part in (self.status, self.code) if part is not None)
        request = f" (request {self.request_id})" if self.request_id else ""
        return f"{said}: {self.message}{request}" if said else f"{self.message}{request}"

    def __repr__(self) -> str:
        """What a log's %r, a debugger and a list of errors show: the class, then what the service said."""
        said = {
            "status": self.status,
            "code": self.code,
            "request_id": self.request_id,
            "retry_after": self.retry_after,
            "current_etag": getattr(self, "current_etag", None),
        }
        fields = [f"{name}={value!r}" for name, value in said.items() if value is not None]
        return f"{type(self).__name__}({', '.join([*fields, f'message={self.message!r}'])})"


class BadRequestError(PetStoreError):
    """400: the request is not valid (VALIDATION_FAILED and its kin); the message names what."""

    status: Literal[400]
    code: ErrorCode400 | None


class AuthenticationError(PetStoreError):
    """401: no API key, an unknown or revoked one (API_KEY_INVALID), or an expired one (API_KEY_EXPIRED)."""

    status: Literal[401]
    code: ErrorCode401 | None


class PermissionDeniedError(PetStoreError):
    """403: the API key does not hold the scope the operation needs (INSUFFICIENT_SCOPE)."""

    status: Literal[403]
    code: ErrorCode403 | None


class NotFoundError(PetStoreError):
    """404: no such pet, order, webhook endpoint, event or logged request (PET_NOT_FOUND, ORDER_NOT_FOUND, ...)."""

    status: Literal[404]
    code: ErrorCode404 | None


class ConflictError(PetStoreError):
    """409: the change does not fit where the pet or order stands, or a request with the same key still runs.

    A status move it cannot make (INVALID_TRANSITION: sold, delivered and cancelled are final), an
    order for a pet that is not available (PET_NOT_AVAILABLE), a pet's status changed while an open
    order holds it (PET_HAS_OPEN_ORDER), a pet deleted that orders name (PET_HAS_ORDERS); the
    message says which moves remain. Never retried, but for IDEMPOTENCY_KEY_IN_USE: a request with
    the same Idempotency-Key still being carried out, retried by the client after its Retry-After.
    """

    status: Literal[409]
    code: ErrorCode409 | None


class PreconditionFailedError(PetStoreError):
    """412: the `if_match=` given names a pet or order that changed since you read it; nothing was changed now.

    `current_etag` is its ETag as it stands: read it again, decide anew, and send that. Never retried.
    """

    status: Literal[412]
    code: ErrorCode412 | None

    def __init__(self, message: str, *, current_etag: str | None = None, **details: Any) -> None:
        super().__init__(message, **details)
        self.current_etag = current_etag
        """The ETag of the pet or order as it stands now (the answer's ETag header), when the answer had one."""


class UnprocessableEntityError(PetStoreError):
    """422: the Idempotency-Key was used with another body (IDEMPOTENCY_KEY_REUSED)."""

    status: Literal[422]
    code: ErrorCode422 | None


class RateLimitError(PetStoreError):
    """429: over the API key's rate limit; `retry_after` says for how many seconds (retried by the client)."""

    status: Literal[429]
    code: ErrorCode429 | None


class InternalServerError(PetStoreError):
    """500: the service failed unexpectedly; `request_id` lets support find it."""

    status: Literal[500]
    code: ErrorCode500 | None


class ServiceUnavailableError(PetStoreError):
    """503 (and a gateway's 502 or 504): the service or its database cannot answer now (retried by the client)."""

    status: Literal[502, 503, 504]
    code: ErrorCode503 | None


class ConnectionError(PetStoreError):
    """No answer came: the connection failed or was cut.

    A create may have been carried out all the same; the client retries it with its Idempotency-Key,
    so it is carried out once. Not the builtin ConnectionError (an OSError): this one is a
    PetStoreError, as is its subclass TimeoutError.
    """

    status: None
    code: None
    request_id: None


class TimeoutError(ConnectionError):
    """No answer came within the client's `timeout`."""


_BY_STATUS: dict[int, type[PetStoreError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    412: PreconditionFailedError,
    422: UnprocessableEntityError,
    429: RateLimitError,
    500: InternalServerError,
    502: ServiceUnavailableError,
    503: ServiceUnavailableError,
    504: ServiceUnavailableError,
}


def error_of_answer(
    status: int, body: object, retry_after: str | None, request_id: str | None, etag: str | None = None
) -> PetStoreError:
    """The error for an answer of `status` whose body is the service's Error (or, from a proxy, anything).

    A code the document does not list for `status` (a proxy's body, a newer service's) is left out.
    """
    error = body if isinstance(body, dict) else {}
    code = error.get("code")
    message = error.get("message")
    body_request_id = error.get("requestId")
    details: dict[str, Any] = {
        "status": status,
        "code": code if code in ERROR_CODES_BY_STATUS.get(status, ()) else None,
        "request_id": body_request_id if isinstance(body_request_id, str) else request_id,
        "retry_after": int(retry_after) if retry_after is not None and retry_after.isascii() and retry_after.isdigit() else None,
    }
    if status == 412:
        details["current_etag"] = etag
    return _BY_STATUS.get(status, PetStoreError)(message if isinstance(message, str) else f"The service answered {status}.", **details)
