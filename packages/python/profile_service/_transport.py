"""One request to the service: credentials, a time limit per try, and retries with backoff for the
errors that may pass (rate limits, 5xx, time-outs, network failures), honouring Retry-After."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from ._errors import TYPE_CLIENT, TYPE_NETWORK_ERROR, TYPE_TIMEOUT, ServiceError, error_from_answer

__all__ = ["DEFAULT_BASE_URL", "DEFAULT_TIMEOUT", "RetryInfo", "RetryOptions", "Transport", "deadline"]

#: The service's address when none is given.
DEFAULT_BASE_URL = "http://localhost:3000"
#: The time limit of each try, in seconds: for connecting, and for each wait on the answer's bytes.
DEFAULT_TIMEOUT = 10.0

Query = Mapping[str, str | int | float | bool | None]


@dataclass(frozen=True)
class RetryOptions:
    """How the library retries a request that failed with a retryable error."""

    #: Tries after the first one. 0 turns retries off.
    retries: int = 2
    #: The first backoff in seconds, doubled each try, with jitter.
    base_delay: float = 0.25
    #: The longest backoff in seconds.
    max_delay: float = 5.0
    #: The longest Retry-After the library waits for, in seconds; a longer one is raised at once.
    max_retry_after: float = 30.0


@dataclass(frozen=True)
class RetryInfo:
    """What ``on_retry`` receives before each wait between tries."""

    #: The try about to be made (1 for the first retry).
    attempt: int
    #: The wait before it, in seconds.
    delay: float
    #: The failure that is retried.
    error: ServiceError


# The moment (time.monotonic) by which the calls made in this context must be over: set by deadline().
_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("profile_service_deadline", default=None)


@contextlib.contextmanager
def deadline(budget: float) -> Iterator[None]:
    """Every call of the library in the ``with`` block ends within ``budget`` seconds, retries included:
    each try's time limit is cut to what is left, and a wait that would pass the end is a TIMEOUT."""
    token = _DEADLINE.set((time.monotonic() + budget, budget))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _budget_error(method: str, path: str, budget: float, base_url: str) -> ServiceError:
    return ServiceError("TIMEOUT", f"{method} {path} took longer than its {budget:g} s budget.", type=TYPE_TIMEOUT, base_url=base_url)


def _is_timeout(err: BaseException) -> bool:
    if isinstance(err, (TimeoutError, socket.timeout)):
        return True
    return isinstance(err, urllib.error.URLError) and isinstance(err.reason, (TimeoutError, socket.timeout))


def _parse(raw: bytes) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


class Transport:
    """The HTTP layer: the base address, credentials, headers, time limits and retries."""

    def __init__(
        self,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        agent: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retry: RetryOptions | None = None,
        headers: Mapping[str, str] | None = None,
        on_retry: Callable[[RetryInfo], None] | None = None,
        user_agent: str = "profile-service-python",
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.agent = agent
        self.timeout = timeout
        self.retry = retry or RetryOptions()
        self.headers = dict(headers or {})
        self.on_retry = on_retry
        self.user_agent = user_agent
        self._opener = urllib.request.build_opener()

    def url(self, path: str, query: Query | None = None) -> str:
        """The absolute address of a path, with the query's set values."""
        params = [(k, str(v).lower() if isinstance(v, bool) else str(v)) for k, v in (query or {}).items() if v is not None]
        return self.base_url + path + (f"?{urllib.parse.urlencode(params)}" if params else "")

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Query | None = None,
        body: Any = None,
        headers: Mapping[str, str | None] | None = None,
        key: bool = True,
        timeout: float | None = None,
    ) -> Any:
        """Sends the request, retrying retryable failures; returns the parsed JSON answer."""
        retries = max(0, self.retry.retries)
        attempt = 0
        while True:
            try:
                return self._once(method, path, query=query, body=body, headers=headers, key=key, timeout=timeout)
            except ServiceError as err:
                if not err.retryable or attempt >= retries:
                    raise
                delay = self._delay(err, attempt)
                if delay is None:
                    raise
                limit = _DEADLINE.get()
                if limit is not None and time.monotonic() + delay >= limit[0]:
                    raise _budget_error(method, path, limit[1], self.base_url) from err
                attempt += 1
                if self.on_retry is not None:
                    self.on_retry(RetryInfo(attempt=attempt, delay=delay, error=err))
                time.sleep(delay)

    def _delay(self, err: ServiceError, attempt: int) -> float | None:
        if err.retry_after is not None:
            return None if err.retry_after > self.retry.max_retry_after else float(err.retry_after)
        base = self.retry.base_delay * 2**attempt
        return min(self.retry.max_delay, base / 2 + random.random() * (base / 2))

    def _headers(self, headers: Mapping[str, str | None] | None, key: bool, has_body: bool) -> dict[str, str]:
        out: dict[str, str] = {"accept": "application/json", "user-agent": self.user_agent}
        out.update({k.lower(): v for k, v in self.headers.items()})
        if key:
            if not self.api_key:
                raise ServiceError(
                    "API_KEY_MISSING",
                    "No API key: pass api_key (a secret key, sk_… or sk_test_…) to the client.",
                    type=TYPE_CLIENT,
                    base_url=self.base_url,
                )
            out["x-api-key"] = self.api_key
        if self.agent:
            out["x-agent"] = self.agent
        for k, v in (headers or {}).items():
            if v is not None:
                out[k.lower()] = v
        if has_body:
            out["content-type"] = "application/json"
        return out

    def _once(
        self,
        method: str,
        path: str,
        *,
        query: Query | None,
        body: Any,
        headers: Mapping[str, str | None] | None,
        key: bool,
        timeout: float | None,
    ) -> Any:
        sent = self._headers(headers, key, body is not None)
        data = json.dumps(body).encode("utf-8") if body is not None else None
        limit = timeout if timeout is not None else self.timeout
        budget = _DEADLINE.get()
        if budget is not None:
            left = budget[0] - time.monotonic()
            if left <= 0:
                raise _budget_error(method, path, budget[1], self.base_url)
            limit = min(limit, left)
        req = urllib.request.Request(self.url(path, query), data=data, headers=sent, method=method)
        try:
            with self._opener.open(req, timeout=limit) as res:
                status, answer_headers, raw = res.status, dict(res.headers.items()), res.read()
        except urllib.error.HTTPError as err:
            # An answer with an error status: read it as the service's error shape.
            try:
                raw = err.read()
            except (OSError, http.client.HTTPException):
                raw = b""
            raise error_from_answer(err.code, _parse(raw), dict(err.headers.items()) if err.headers else {}, self.base_url) from None
        except (OSError, http.client.HTTPException, ValueError) as err:
            if _is_timeout(err):
                raise ServiceError(
                    "TIMEOUT", f"{method} {path} got no answer within {limit:g} s.", type=TYPE_TIMEOUT, base_url=self.base_url
                ) from err
            reason = err.reason if isinstance(err, urllib.error.URLError) else err
            raise ServiceError(
                "NETWORK_ERROR",
                f"{method} {path} failed before an answer: {reason}",
                type=TYPE_NETWORK_ERROR,
                base_url=self.base_url,
            ) from err
        parsed = _parse(raw)
        if status >= 400:
            raise error_from_answer(status, parsed, answer_headers, self.base_url)
        return parsed
