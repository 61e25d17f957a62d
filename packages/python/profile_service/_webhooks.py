"""Verifying the service's webhooks (Standard Webhooks): the ``webhook-id``, ``webhook-timestamp`` and
``webhook-signature`` headers, each ``v1,`` entry the base64 HMAC-SHA256 of ``<id>.<timestamp>.<body>``
under the endpoint's ``whsec_`` secret."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any, Literal

__all__ = ["WEBHOOK_TOLERANCE_SECONDS", "WebhookVerificationError", "WebhookVerificationReason", "verify_webhook"]

#: How far a delivery's timestamp may be from this clock, in seconds (Standard Webhooks' default).
WEBHOOK_TOLERANCE_SECONDS = 300

WebhookVerificationReason = Literal["missing_headers", "timestamp_out_of_range", "invalid_signature", "invalid_secret", "invalid_body"]


class WebhookVerificationError(ValueError):
    """A delivery that is not the service's, or not now: answer it with 400 and do nothing it says."""

    def __init__(self, reason: WebhookVerificationReason, message: str) -> None:
        super().__init__(message)
        self.reason: WebhookVerificationReason = reason


def _header(headers: Mapping[str, Any], name: str) -> str | None:
    # Any case: WSGI and http.server keep the sender's, Starlette and Django lower-case them.
    for key, value in headers.items():
        if key.lower() == name:
            if isinstance(value, (list, tuple)):
                value = value[0] if value else None
            return None if value is None else str(value)
    return None


def _base64(text: str) -> bytes | None:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None


def verify_webhook(
    secret: str,
    headers: Mapping[str, Any],
    raw_body: bytes | str,
    *,
    now: float | None = None,
    tolerance: int = WEBHOOK_TOLERANCE_SECONDS,
) -> dict[str, Any]:
    """Verifies a delivery and returns its event (``id``, ``type``, ``createdAt``, ``livemode``, ``data``).

    ``secret`` is the endpoint's ``whsec_…`` secret (during a rotation either one verifies: the delivery
    carries a signature under each); ``raw_body`` the body exactly as received, before any JSON parsing.
    Raises :class:`WebhookVerificationError` when a header is missing, the timestamp is more than
    ``tolerance`` seconds away, or no ``v1`` signature matches. Signatures are compared in constant time.
    """
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing_headers", "The webhook-id, webhook-timestamp and webhook-signature headers are required.")
    clock = time.time() if now is None else now
    if not timestamp.isdigit() or abs(clock - int(timestamp)) > tolerance:
        raise WebhookVerificationError("timestamp_out_of_range", f"The webhook-timestamp is more than {tolerance} s from this clock.")
    key = _base64(secret[len("whsec_") :] if secret.startswith("whsec_") else secret)
    if not key:
        raise WebhookVerificationError("invalid_secret", "The secret is not a whsec_ secret (base64 after the prefix).")
    body = raw_body.encode() if isinstance(raw_body, str) else raw_body
    expected = hmac.new(key, msg_id.encode() + b"." + timestamp.encode() + b"." + body, hashlib.sha256).digest()
    valid = False
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        given = _base64(signature) if version == "v1" else None
        # Every entry is checked, so the time taken does not say which one matched.
        if given is not None and hmac.compare_digest(given, expected):
            valid = True
    if not valid:
        raise WebhookVerificationError("invalid_signature", "No v1 signature of the delivery matches the secret.")
    try:
        event = json.loads(body)
    except ValueError:
        raise WebhookVerificationError("invalid_body", "The signed body is not JSON.") from None
    if not isinstance(event, dict):
        raise WebhookVerificationError("invalid_body", "The signed body is not a JSON object.")
    return event
