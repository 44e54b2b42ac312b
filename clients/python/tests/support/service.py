"""The real service, as an operator runs it: `node dist/src/main.js` in its own process, configured by its environment.

The repository's build (dist/) must exist: `npx nest build` (npm run build). Node is PETSTORE_NODE,
else the `node` on PATH (22 or later; `. scripts/use-node.sh` puts one there).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx

REPOSITORY = Path(__file__).resolve().parents[4]
MAIN_SCRIPT = REPOSITORY / "dist" / "src" / "main.js"
APIKEY_SCRIPT = REPOSITORY / "dist" / "src" / "cli" / "apikey.js"

# Deliveries to 127.0.0.1 over http, retried after 1 s and 1 s, each attempt cut at 1.5 s: the schedule in seconds, not days.
WEBHOOK_ENVIRONMENT = {
    "WEBHOOK_ALLOW_HTTP": "true",
    "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
    "WEBHOOK_RETRY_SCHEDULE": "0,1,1",
    "WEBHOOK_TIMEOUT_MS": "1500",
}


def node() -> str:
    binary = os.environ.get("PETSTORE_NODE") or shutil.which("node")
    if not binary:
        raise RuntimeError("No node: put Node 22+ on PATH (. scripts/use-node.sh) or set PETSTORE_NODE.")
    return binary


class Database:
    """A database of the test run's own: a SQLite file in a temporary directory, or a MySQL database made and dropped.

    PETSTORE_TEST_DATABASE=mysql picks MySQL on PETSTORE_TEST_MYSQL_URL (else TEST_DATABASE_URL, else mysql://root@127.0.0.1:3306).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.directory = Path(tempfile.mkdtemp(prefix="petstore-python-"))
        """Where the SQLite file and the service's log are kept, until drop()."""
        if kind == "sqlite":
            self.url = f"sqlite:{self.directory}/petstore.sqlite"
        elif kind == "mysql":
            server = os.environ.get("PETSTORE_TEST_MYSQL_URL", os.environ.get("TEST_DATABASE_URL", "mysql://root@127.0.0.1:3306")).rstrip("/")
            self._server = urlsplit(server)
            self._name = f"petstore_python_{os.getpid()}_{secrets.token_hex(4)}"
            # As production's (docker-compose.yml's server), whatever this server's default.
            self._mysql(f"CREATE DATABASE `{self._name}` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci")
            self.url = f"{server}/{self._name}"
        else:
            raise ValueError(f"PETSTORE_TEST_DATABASE must be sqlite or mysql (got {kind!r})")

    def drop(self) -> None:
        if self.kind == "mysql":
            self._mysql(f"DROP DATABASE IF EXISTS `{self._name}`")
        shutil.rmtree(self.directory, ignore_errors=True)

    def _mysql(self, statement: str) -> None:
        server = self._server
        command = ["mysql", "--protocol=tcp", f"--host={server.hostname}", f"--port={server.port or 3306}"]
        command.append(f"--user={server.username or 'root'}")
        environment = {**os.environ, "MYSQL_PWD": server.password or ""}
        subprocess.run([*command, "-e", statement], check=True, env=environment, timeout=30)


@dataclass
class Service:
    """A running service: its base URL (ending in /v1), its bootstrap keys (every scope), and its log."""

    process: subprocess.Popen[bytes]
    root_url: str
    api_keys: list[str]
    database: Database
    log: Path

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    @property
    def api_key(self) -> str:
        return self.api_keys[0]

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def mint_key(self, name: str, scopes: list[str]) -> str:
        """A key of the given scopes, made with the project's key tool as an operator makes one."""
        done = subprocess.run(
            [node(), str(APIKEY_SCRIPT), "create", name, "--scopes", ",".join(scopes)],
            cwd=REPOSITORY,
            env=_environment({"DATABASE_URL": self.database.url, "LOG_LEVEL": "warn"}),
            capture_output=True,
            text=True,
            timeout=30,
        )
        key = re.search(r"psk_[A-Za-z0-9_-]+", done.stdout)
        if done.returncode != 0 or key is None:
            raise RuntimeError(f"the key tool failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return key.group(0)

    def stop(self) -> None:
        """SIGTERM, as an orchestrator stops it; SIGKILL if it has not gone within 10 s."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_service(database: Database, environment: dict[str, str], key_count: int = 1) -> Service:
    """Starts the service on a free port of 127.0.0.1 and waits until it is ready."""
    if not MAIN_SCRIPT.exists():
        raise RuntimeError(f"{MAIN_SCRIPT} is missing: build the service first (npx nest build, or npm run build).")
    keys = [f"psk_python_{secrets.token_urlsafe(24)}" for _ in range(key_count)]
    log = database.directory / "service.log"
    settings = {
        "HOST": "127.0.0.1",
        "PORT": "0",
        "DATABASE_URL": database.url,
        "API_KEYS": ",".join(keys),
        "LOG_LEVEL": "info",
        **environment,
    }
    with log.open("wb") as output:
        process = subprocess.Popen(
            [node(), str(MAIN_SCRIPT)], cwd=REPOSITORY, env=_environment(settings), stdout=output, stderr=subprocess.STDOUT
        )
    service = Service(process, _listening(process, log), keys, database, log)
    _wait_until_ready(service)
    return service


def _environment(settings: dict[str, str]) -> dict[str, str]:
    """Only what the process needs: none of this shell's DATABASE_URL, REDIS_URL, PUBLIC_BASE_URL, ...

    NODE_COMPILE_CACHE (npm test sets it) only makes Node start faster, so it goes along too.
    """
    kept = ("PATH", "HOME", "TMPDIR", "LANG", "NODE_COMPILE_CACHE")
    inherited = {name: os.environ[name] for name in kept if name in os.environ}
    return {**inherited, **settings}


def _listening(process: subprocess.Popen[bytes], log: Path, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        match = re.search(r"Listening on .*; on this machine at (http://[^\s/]+)", log.read_text(encoding="utf-8", errors="replace"))
        if match:
            return match.group(1)
        time.sleep(0.05)
    process.kill()
    process.wait()
    raise RuntimeError(f"the service did not start (exit {process.returncode}):\n{log.read_text()[-4000:]}")


def _wait_until_ready(service: Service, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{service.root_url}/health/ready", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    service.stop()
    raise RuntimeError(f"the service never became ready:\n{service.log_text()[-4000:]}")
