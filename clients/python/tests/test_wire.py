"""What needs no service: date-times on the wire, the Link header, and when a failed call is retried."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from petstore import ConnectionError, ConflictError, InternalServerError, RateLimitError, ServiceUnavailableError
from petstore._errors import error_of_answer
from petstore._pagination import next_page_query
from petstore._transport import ApiRequest, delay_before_retry
from petstore._wire import format_datetime, parse_datetime

UTC = timezone.utc


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("2026-12-01T09:30:00.000Z", datetime(2026, 12, 1, 9, 30, tzinfo=UTC)),
        ("2026-12-01T09:30:00Z", datetime(2026, 12, 1, 9, 30, tzinfo=UTC)),
        ("2026-12-01t09:30:00.5z", datetime(2026, 12, 1, 9, 30, 0, 500_000, tzinfo=UTC)),
        ("2026-12-01T09:30:00.123456789+02:00", datetime(2026, 12, 1, 9, 30, 0, 123_456, tzinfo=timezone(timedelta(hours=2)))),
        ("2026-12-01 09:30:00-05:30", datetime(2026, 12, 1, 9, 30, tzinfo=timezone(-timedelta(hours=5, minutes=30)))),
    ],
)
def test_reads_rfc_3339_date_times_as_aware_datetimes_on_every_supported_python(text: str, moment: datetime) -> None:
    parsed = parse_datetime(text)
    assert parsed == moment and parsed.utcoffset() == moment.utcoffset()


@pytest.mark.parametrize("text", ["2026-12-01", "2026-12-01T09:30:00", "yesterday", "2026-12-01T09:30:00.Z"])
def test_refuses_what_is_no_rfc_3339_date_time(text: str) -> None:
    with pytest.raises(ValueError, match="RFC 3339"):
        parse_datetime(text)


def test_writes_date_times_in_utc_with_milliseconds_as_the_service_answers_them() -> None:
    moment = datetime(2026, 12, 1, 11, 30, 0, 123_999, tzinfo=timezone(timedelta(hours=2)))
    assert format_datetime(moment) == "2026-12-01T09:30:00.123Z"
    with pytest.raises(ValueError, match="time zone"):
        format_datetime(datetime(2026, 12, 1, 9, 30))


@pytest.mark.parametrize(
    ("link", "query"),
    [
        ('<http://h/v1/pets?limit=50&status=sold&cursor=eyJpZCI6NX0>; rel="next"', {"limit": "50", "status": "sold", "cursor": "eyJpZCI6NX0"}),
        ('<http://h/v1/pets>; rel="successor-version", <http://h/v1/pets?cursor=a%2Cb>; rel=next', {"cursor": "a,b"}),
        ('<http://h/v1/pets?cursor=c>; title="x"; REL="prev next"', {"cursor": "c"}),
        ('<http://h/v1/pets>; rel="successor-version"', None),
        ("", None),
        (None, None),
    ],
)
def test_follows_only_the_next_link_of_a_link_header(link: str | None, query: dict[str, str] | None) -> None:
    assert next_page_query(link) == query


GET = ApiRequest("GET", "/pets", lambda wire: wire)
KEYED_POST = ApiRequest("POST", "/pets", lambda wire: wire, idempotency_key="k")
BARE_POST = ApiRequest("POST", "/webhook-endpoints/we_1/rotate-secret", lambda wire: wire)


def test_retries_no_answer_gateways_429_and_a_create_still_running_and_nothing_else() -> None:
    no_answer = ConnectionError("cut")
    assert delay_before_retry(GET, no_answer, 0, 2) is not None
    assert delay_before_retry(KEYED_POST, no_answer, 0, 2) is not None
    assert delay_before_retry(BARE_POST, no_answer, 0, 2) is None, "a POST without a key could happen twice"
    assert delay_before_retry(GET, no_answer, 2, 2) is None, "max_retries spent"
    for status in (502, 503, 504):
        assert delay_before_retry(GET, ServiceUnavailableError("down", status=status), 0, 2) is not None
    assert delay_before_retry(GET, InternalServerError("broken", status=500), 0, 2) is None
    assert delay_before_retry(KEYED_POST, ConflictError("running", status=409, code="IDEMPOTENCY_KEY_IN_USE"), 0, 2) is not None
    assert delay_before_retry(KEYED_POST, ConflictError("other", status=409), 0, 2) is None


def test_waits_what_retry_after_asks_up_to_30_s_else_backs_off_with_jitter() -> None:
    assert delay_before_retry(GET, RateLimitError("slow", status=429, retry_after=7), 0, 2) == 7.0
    assert delay_before_retry(GET, RateLimitError("slow", status=429, retry_after=45), 0, 2) is None
    for retries, (low, high) in enumerate([(0.25, 0.5), (0.5, 1.0), (1.0, 2.0), (2.0, 4.0), (4.0, 8.0), (4.0, 8.0)]):
        delays = [delay_before_retry(GET, ConnectionError("cut"), retries, 9) for _ in range(50)]
        assert all(delay is not None and low <= delay <= high for delay in delays)


def test_reads_an_error_answer_whatever_its_body() -> None:
    error = error_of_answer(429, {"code": "RATE_LIMITED", "message": "Slow.", "status": 429}, "12", "req-h")
    assert isinstance(error, RateLimitError) and (error.code, error.retry_after, error.request_id) == ("RATE_LIMITED", 12, "req-h")
    odd = error_of_answer(404, {"code": "SOMETHING_NEWER", "requestId": "req-b"}, "Wed, 21 Oct 2026 07:28:00 GMT", None)
    assert (odd.code, odd.message, odd.retry_after, odd.request_id) == (None, "The service answered 404.", None, "req-b")
    teapot = error_of_answer(418, "<html>", None, None)
    assert type(teapot).__name__ == "PetStoreError" and teapot.status == 418
