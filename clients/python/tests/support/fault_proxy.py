"""A proxy in front of the service, on 127.0.0.1, that causes the faults a network and a gateway cause.

What the proxy does with one request (`plan(method, path, nth)`, nth counting requests of the same
method and path from 0):
- "forward": passes it to the service, and its answer back;
- "lose-answer": passes it to the service, which carries it out, then answers 503 in the Error shape
  instead (a gateway that lost the answer);
- "cut-after": passes it on, then closes the client's connection without an answer;
- "hang": never answers (until the proxy closes);
- an Answer of its own, never passed on.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


Fault = Any  # "forward" | "lose-answer" | "cut-after" | "hang" | Answer
Plan = Callable[[str, str, int], Fault]

LOST = Answer(503, {"code": "SERVICE_UNAVAILABLE", "message": "The gateway lost the answer.", "status": 503}, {"Retry-After": "0"})
_HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length"}


@dataclass(frozen=True)
class Seen:
    """A request the proxy saw: `METHOD /path`, its Idempotency-Key and its query string, as sent."""

    call: str
    idempotency_key: str | None
    query: str = ""


class FaultProxy:
    def __init__(self, target: str, plan: Plan) -> None:
        self.seen: list[Seen] = []
        self._target = urlsplit(target)
        self._plan = plan
        self._closing = threading.Event()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def calls(self) -> list[str]:
        return [seen.call for seen in self.seen]

    def close(self) -> None:
        self._closing.set()
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                proxy._handle(self)

            do_POST = do_PATCH = do_DELETE = do_GET

            def log_message(self, format: str, *args: Any) -> None:
                pass  # the test's output is no place for an access log

        return Handler

    def _handle(self, request: BaseHTTPRequestHandler) -> None:
        body = request.rfile.read(int(request.headers.get("Content-Length") or 0))
        target = urlsplit(request.path)
        path = target.path
        with self._lock:
            call = f"{request.command} {path}"
            nth = sum(1 for seen in self.seen if seen.call == call)
            self.seen.append(Seen(call, request.headers.get("Idempotency-Key"), target.query))
        fault = self._plan(request.command, path, nth)
        if fault == "hang":
            self._closing.wait(60)
            request.close_connection = True
            return
        if isinstance(fault, Answer):
            self._answer(request, fault.status, fault.headers, json.dumps(fault.body).encode())
            return
        status, headers, answer = self._forward(request, body)
        if fault == "cut-after":
            request.close_connection = True
            return
        if fault == "lose-answer":
            self._answer(request, LOST.status, LOST.headers, json.dumps(LOST.body).encode())
            return
        self._answer(request, status, headers, answer)

    def _forward(self, request: BaseHTTPRequestHandler, body: bytes) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection(self._target.hostname or "127.0.0.1", self._target.port, timeout=30)
        try:
            headers = {name: value for name, value in request.headers.items() if name.lower() not in _HOP_BY_HOP}
            connection.request(request.command, request.path, body=body or None, headers=headers)
            response = connection.getresponse()
            answer = response.read()
            forwarded = {name: value for name, value in response.getheaders() if name.lower() not in _HOP_BY_HOP}
            return response.status, forwarded, answer
        finally:
            connection.close()

    @staticmethod
    def _answer(request: BaseHTTPRequestHandler, status: int, headers: dict[str, str], body: bytes) -> None:
        request.send_response(status)
        for name, value in {"Content-Type": "application/json", **headers}.items():
            request.send_header(name, value)
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)
