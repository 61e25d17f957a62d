"""What the tests share: the running service they call (from the environment), a sandbox provisioned on
it once per run, and local HTTP servers that answer as scripted (for retries and failures).

Environment:
  PROFILE_SERVICE_URL         the running service's address (http://localhost:3000); without it the
                              tests that call the service are skipped and only the local ones run
  PROFILE_SERVICE_SECRET_KEY  a live secret key (sk_…) of a developer on that service
  PROFILE_SERVICE_AGENT       that developer's agent handle
The sandbox (test keys, an agent and a user who approved it) is provisioned over HTTP with
POST /v1/sandbox/provision, which needs no key.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import socket
import sys
import threading
import time
import unittest
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The library from this folder's parent when it is not installed (python3 -m unittest discover -s packages/python/tests).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from profile_service import ProfileClient, RetryOptions  # noqa: E402

ENV_URL = "PROFILE_SERVICE_URL"
ENV_SECRET_KEY = "PROFILE_SERVICE_SECRET_KEY"
ENV_AGENT = "PROFILE_SERVICE_AGENT"

BASE_URL = os.environ.get(ENV_URL, "").rstrip("/")
SECRET_KEY = os.environ.get(ENV_SECRET_KEY, "")
AGENT = os.environ.get(ENV_AGENT, "")

needs_service = unittest.skipUnless(BASE_URL, f"{ENV_URL} is not set")
needs_live_key = unittest.skipUnless(BASE_URL and SECRET_KEY and AGENT, f"{ENV_URL}, {ENV_SECRET_KEY} and {ENV_AGENT} are not all set")


def post_json(path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """A plain POST to the service (for set-up the library has no method for): status and JSON answer."""
    data = json.dumps(body if body is not None else {}).encode()
    req = urllib.request.Request(BASE_URL + path, data=data, method="POST", headers={"content-type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            return res.status, json.loads(res.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


@dataclass(frozen=True)
class Sandbox:
    """A sandbox of the service: its test keys, agent, and the synthetic user who approved the agent."""

    secret_key: str
    publishable_key: str
    agent: str
    sign_in_url: str
    user_external_id: str
    user_id: str
    agent_token: str


@functools.cache
def sandbox() -> Sandbox:
    """The run's sandbox, provisioned once."""
    status, body = post_json("/v1/sandbox/provision")
    if status != 201:
        raise AssertionError(f"POST /v1/sandbox/provision answered {status}: {body}")
    return Sandbox(
        secret_key=body["secret_key"],
        publishable_key=body["publishable_key"],
        agent=body["agent"]["handle"],
        sign_in_url=body["agent"]["sign_in_url"],
        user_external_id=body["user"]["external_id"],
        user_id=body["user"]["id"],
        agent_token=body["user"]["agent_token"],
    )


@functools.cache
def second_agent() -> str:
    """Another agent of the sandbox's developer, which the sandbox user has not approved."""
    status, body = post_json("/v1/agents", {"handle": "second-agent", "display_name": "Second Agent"}, {"x-api-key": sandbox().secret_key})
    if status != 201:
        raise AssertionError(f"POST /v1/agents answered {status}: {body}")
    return str(body["agent"]["handle"])


def sandbox_client(**options: Any) -> ProfileClient:
    """A client of the sandbox's agent with its test key; no retries unless asked."""
    s = sandbox()
    return ProfileClient(**{"base_url": BASE_URL, "api_key": s.secret_key, "agent": s.agent, "retry": RetryOptions(retries=0), **options})


def free_port() -> int:
    """A port nothing listens on now (so also an address that refuses connections)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Answer:
    """One scripted answer of a stand-in server."""

    status: int
    body: Any = None
    headers: dict[str, str] | None = None
    delay: float = 0.0


@dataclass
class StandIn:
    """A local HTTP server answering from a script; what it received."""

    url: str
    requests: list[tuple[str, str, dict[str, str], Any]]
    times: list[float]


@contextmanager
def stand_in(script: list[Answer] | Callable[[int], Answer]) -> Iterator[StandIn]:
    """Serves the scripted answers in order (the last one again once the script runs out), each in the
    service's wire format: a JSON body and its headers."""
    received: list[tuple[str, str, dict[str, str], Any]] = []
    times: list[float] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def answer(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            received.append((self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, json.loads(raw) if raw else None))
            times.append(time.monotonic())
            n = len(received) - 1
            a = script(n) if callable(script) else script[min(n, len(script) - 1)]
            if a.delay:
                time.sleep(a.delay)
            payload = b"" if a.body is None else (a.body.encode() if isinstance(a.body, str) else json.dumps(a.body).encode())
            try:
                self.send_response(a.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                for k, v in (a.headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass

        do_GET = do_POST = do_DELETE = answer

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield StandIn(url=f"http://127.0.0.1:{server.server_address[1]}", requests=received, times=times)
    finally:
        server.shutdown()
        server.server_close()
