"""The library's one error class, its thirteen codes, and how every answer of the service maps onto them."""

from __future__ import annotations

import email.utils
import math
import time
from collections.abc import Mapping
from typing import Any

from ._generated import ERROR_CODES, ERROR_DOCS_PATH, WIRE_ERROR_CODES, ErrorCode

__all__ = [
    "ERROR_CODES",
    "ERROR_DOCS_PATH",
    "RETRYABLE_CODES",
    "SUGGESTED_ACTIONS",
    "WIRE_ERROR_CODES",
    "ErrorCode",
    "ServiceError",
    "code_for_status",
    "error_doc_url",
    "error_from_answer",
    "retry_after_header",
]

#: The codes of failures that may pass: the library tries these again itself.
RETRYABLE_CODES: frozenset[ErrorCode] = frozenset({"RATE_LIMITED", "TIMEOUT", "NETWORK_ERROR", "SERVER_ERROR"})

#: What the caller should do, by code, when the service does not say (its `suggested_action`).
SUGGESTED_ACTIONS: dict[ErrorCode, str] = {
    "API_KEY_MISSING": "set_api_key",
    "AUTH_REQUIRED": "reauthenticate",
    "ACCESS_DENIED": "request_access",
    "TOOL_NOT_CONNECTED": "connect",
    "COMMIT_REQUIRED": "commit",
    "PAYMENT_REQUIRED": "upgrade_plan",
    "RATE_LIMITED": "retry_later",
    "INVALID_INPUT": "fix_request",
    "TIMEOUT": "retry",
    "NETWORK_ERROR": "retry",
    "SERVER_ERROR": "retry_later",
}

# What each type the library gives a failure without an answer is called (ServiceError.type).
TYPE_CLIENT = "client"
TYPE_TIMEOUT = "timeout"
TYPE_NETWORK_ERROR = "network_error"


def code_for_status(status: int) -> ErrorCode:
    """The library code for an HTTP status whose error code the library does not know."""
    if status in (401, 403):
        return "AUTH_REQUIRED"
    if status == 402:
        return "PAYMENT_REQUIRED"
    if status == 404:
        return "NOT_FOUND"
    if status == 408:
        return "TIMEOUT"
    if status == 428:
        return "COMMIT_REQUIRED"
    if status == 429:
        return "RATE_LIMITED"
    if status >= 500:
        return "SERVER_ERROR"
    return "INVALID_INPUT"


def error_doc_url(code: ErrorCode, base_url: str = "") -> str:
    """Where a code is explained: ``{base_url}/docs/client#error-<code>``, or the path alone without a base address."""
    return f"{base_url.rstrip('/')}{ERROR_DOCS_PATH}#error-{code.lower().replace('_', '-')}"


class ServiceError(Exception):
    """Every failure of the library: an error answer of the service, a time-out or a network failure.

    ``code`` is one of the thirteen :data:`ERROR_CODES`; ``status`` the HTTP status (0 when no answer
    came); ``type`` the service's own code (``code_already_used``), or ``timeout``, ``network_error``,
    ``client``; ``retry_after`` the seconds to wait when the service said so; ``details`` the answer's
    whole error object.
    """

    code: ErrorCode
    message: str
    status: int
    type: str
    retryable: bool
    suggested_action: str | None
    doc_url: str
    retry_after: float | None
    request_id: str | None
    details: dict[str, Any]

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        status: int = 0,
        type: str | None = None,
        suggested_action: str | None = None,
        doc_url: str | None = None,
        base_url: str = "",
        retry_after: float | None = None,
        request_id: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.type = type or code.lower()
        self.retryable = code in RETRYABLE_CODES
        self.suggested_action = suggested_action or SUGGESTED_ACTIONS.get(code)
        self.doc_url = doc_url or error_doc_url(code, base_url)
        self.retry_after = retry_after
        self.request_id = request_id
        self.details = dict(details or {})

    @property
    def status_code(self) -> int:
        """The HTTP status, as the TypeScript library names it (``statusCode``)."""
        return self.status

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def __repr__(self) -> str:
        return f"ServiceError(code={self.code!r}, status={self.status}, type={self.type!r}, message={self.message!r})"


def _seconds(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip()) if value.strip() else None
        except ValueError:
            return None
    if isinstance(value, (int, float)) and math.isfinite(value) and value >= 0:
        return value
    return None


def retry_after_header(value: str | None, now: float | None = None) -> float | None:
    """Seconds from a Retry-After header: delta-seconds or an HTTP date."""
    if not value:
        return None
    delta = _seconds(value)
    if delta is not None:
        return delta
    try:
        at = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError):
        return None
    return max(0, math.ceil(at - (time.time() if now is None else now)))


def error_from_answer(status: int, body: Any, headers: Mapping[str, str], base_url: str = "") -> ServiceError:
    """The ServiceError for an error answer of the service (any status of 400 and above)."""
    answer: dict[str, Any] = body if isinstance(body, dict) else {}
    raw = answer.get("error")
    if isinstance(raw, dict):
        error: dict[str, Any] = raw
    elif isinstance(raw, str):
        # An OAuth-style answer: { error, error_description }.
        error = {"code": raw, "message": answer.get("error_description")}
    else:
        error = {}
    wire = error.get("code") if isinstance(error.get("code"), str) else None
    code = (WIRE_ERROR_CODES.get(wire) if wire is not None else None) or code_for_status(status)
    message = error.get("message") if isinstance(error.get("message"), str) else f"The service answered {status}."
    lower = {k.lower(): v for k, v in headers.items()}
    retry_after = _seconds(error.get("retry_after"))
    if retry_after is None:
        retry_after = retry_after_header(lower.get("retry-after"))
    request_id = answer.get("request_id") if isinstance(answer.get("request_id"), str) else lower.get("x-request-id")
    return ServiceError(
        code,
        message,
        status=status,
        type=wire or f"http_{status}",
        suggested_action=error.get("suggested_action") if isinstance(error.get("suggested_action"), str) else None,
        doc_url=error.get("doc_url") if isinstance(error.get("doc_url"), str) else None,
        base_url=base_url,
        retry_after=retry_after,
        request_id=request_id,
        details=error,
    )
