"""A webhook receiver on 127.0.0.1 that records every delivery as it came: its path, headers and raw body."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Delivery:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    """`status(path, nth)` says what to answer the nth request to a path (from 0); 200 by default."""

    def __init__(self, status: Callable[[str, int], int] = lambda path, nth: 200) -> None:
        self.received: list[Delivery] = []
        self.status = status
        self._arrived = threading.Condition()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def wait_for(self, path: str, count: int, timeout: float = 10) -> list[Delivery]:
        """The first `count` deliveries to `path`, once they have come; raises after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while len(arrived := [d for d in self.received if d.path == path]) < count:
                if not self._arrived.wait(deadline - time.monotonic()):
                    raise TimeoutError(f"{len(arrived)} of {count} deliveries to {path} within {timeout} s")
            return arrived[:count]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver._arrived:
                    nth = sum(1 for delivery in receiver.received if delivery.path == self.path)
                    receiver.received.append(Delivery(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    receiver._arrived.notify_all()
                status = receiver.status(self.path, nth)
                answer = f"answered {status}".encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # the test's output is no place for an access log

        return Handler
