"""`with_raw_response`: each method of a resource, answering its whole answer (a RawResponse) rather than its result.

The method itself runs, unchanged; the answers its requests get are collected meanwhile (in a
context variable, so per thread and per asyncio task) and the last one, its success, is answered
with the method's result as `data`.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

from ._pagination import AsyncPage, AsyncPager, Page, Pager
from ._transport import ANSWERS, RawResponse

P = ParamSpec("P")
T = TypeVar("T")
D = TypeVar("D")


@contextmanager
def _answers() -> Iterator[list[RawResponse[Any]]]:
    answers: list[RawResponse[Any]] = []
    collecting = ANSWERS.set(answers)
    try:
        yield answers
    finally:
        ANSWERS.reset(collecting)


def _with_data(answer: RawResponse[Any], data: D) -> RawResponse[D]:
    return RawResponse(data, answer.status, answer.headers, answer.request_id)


def raw(method: Callable[P, T]) -> Callable[P, RawResponse[T]]:
    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> RawResponse[T]:
        with _answers() as answers:
            data = method(*args, **kwargs)
        return _with_data(answers[-1], data)

    return call


def async_raw(method: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[RawResponse[T]]]:
    @functools.wraps(method)
    async def call(*args: P.args, **kwargs: P.kwargs) -> RawResponse[T]:
        with _answers() as answers:
            data = await method(*args, **kwargs)
        return _with_data(answers[-1], data)

    return call


def raw_of(call: Callable[[], T]) -> RawResponse[T]:
    """What `call()` answers, as the whole answer of its last request: for a method whose overloads a wrapper's ParamSpec would lose."""
    with _answers() as answers:
        data = call()
    return _with_data(answers[-1], data)


async def async_raw_of(call: Callable[[], Awaitable[T]]) -> RawResponse[T]:
    """What `await call()` answers, as the whole answer of its last request."""
    with _answers() as answers:
        data = await call()
    return _with_data(answers[-1], data)


def raw_first_page(method: Callable[P, Pager[T]]) -> Callable[P, RawResponse[Page[T]]]:
    """A listing's method, answering its first page's whole answer."""

    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> RawResponse[Page[T]]:
        with _answers() as answers:
            page = method(*args, **kwargs).first_page()
        return _with_data(answers[-1], page)

    return call


def async_raw_first_page(method: Callable[P, AsyncPager[T]]) -> Callable[P, Awaitable[RawResponse[AsyncPage[T]]]]:
    """A listing's method, answering its first page's whole answer."""

    @functools.wraps(method)
    async def call(*args: P.args, **kwargs: P.kwargs) -> RawResponse[AsyncPage[T]]:
        with _answers() as answers:
            page = await method(*args, **kwargs).first_page()
        return _with_data(answers[-1], page)

    return call
