"""The `petstore` logger: what the client did, shown wherever the program's logging shows it.

At info: each answer (method, path, status, duration, request id), each attempt that had none, each
wait before a retry and each wait refused; at debug, each attempt as it is sent, too. Never the API
key or a body. PETSTORE_LOG=info or debug, read when the package is imported, gives the logger a
handler of its own on stderr at that level, for a program that configures no logging of its own
(one that does sets the `petstore` logger's level instead).
"""

from __future__ import annotations

import logging
import os

logger = logging.getLogger("petstore")

_LEVELS = {"info": logging.INFO, "debug": logging.DEBUG}


def log_from_environment() -> None:
    """Shows the logger's records on stderr at PETSTORE_LOG's level, when it names one."""
    level = _LEVELS.get(os.environ.get("PETSTORE_LOG", "").strip().lower())
    if level is None:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(level)
