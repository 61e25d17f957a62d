"""The hosted sign-in link: the agent's sign-in address with its query parameters."""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ._errors import TYPE_CLIENT, ServiceError

__all__ = ["MAX_DISPLAY_NAME", "MAX_STATE", "RequiredEntries", "SignInConnector", "SignInDefaults", "build_sign_in_url", "required_param"]

#: A connector a sign-in link may name.
SignInConnector = Literal["gmail", "calendar", "drive", "notion", "sheets"]

#: What the person must connect or import first: each entry must be met; an inner sequence (or ``a|b``)
#: is met by any one of its names.
RequiredEntries = Sequence[str | Sequence[str]]

#: The longest ``state`` a link carries.
MAX_STATE = 2048
#: The longest name the hosted pages show for the app.
MAX_DISPLAY_NAME = 80


@dataclass(frozen=True)
class SignInDefaults:
    """Hosted sign-in defaults of a client: the agent's ``sign_in_url`` and your app's constant return destination."""

    url: str | None = None
    return_to: str | None = None
    display_name: str | None = None
    publishable_key: str | None = None


def _invalid(message: str) -> ServiceError:
    return ServiceError("INVALID_INPUT", message, type=TYPE_CLIENT)


def required_param(required: RequiredEntries) -> str:
    """The ``required`` parameter's value: entries separated by commas, alternatives by ``|``."""
    return ",".join(entry if isinstance(entry, str) else "|".join(entry) for entry in required)


def build_sign_in_url(
    sign_in_url: str,
    *,
    return_to: str | None = None,
    state: str | None = None,
    display_name: str | None = None,
    publishable_key: str | None = None,
    connectors: Sequence[SignInConnector] | None = None,
    required: RequiredEntries | None = None,
) -> str:
    """A hosted sign-in link. Finishing the flow sends the browser to ``return_to`` with ``code`` and
    ``state`` (or ``error=access_denied`` and ``state``); exchange the code on your server.

    ``sign_in_url`` is the agent's ``sign_in_url``, sent unchanged; ``return_to`` a registered return
    destination (keep it a constant of your app, never built from the request); ``publishable_key`` a
    ``pk_…`` key (``pk_test_…`` runs the flow on the test plane).
    """
    parts = urllib.parse.urlsplit(sign_in_url)
    if not parts.scheme or not parts.netloc:
        raise _invalid("sign_in_url must be the agent's absolute sign_in_url.")
    params = dict(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
    if return_to is not None:
        target = urllib.parse.urlsplit(return_to)
        if not target.scheme or (target.scheme in ("http", "https") and not target.netloc):
            raise _invalid("return_to must be an absolute URL or an app link (com.example.app://callback).")
        params["return_to"] = return_to
    if state is not None:
        if len(state) > MAX_STATE:
            raise _invalid("state is at most 2,048 characters.")
        params["state"] = state
    if display_name is not None:
        if len(display_name) > MAX_DISPLAY_NAME:
            raise _invalid("display_name is at most 80 characters.")
        params["display_name"] = display_name
    if connectors:
        params["connectors"] = ",".join(dict.fromkeys(connectors))
    if required:
        params["required"] = required_param(required)
    if publishable_key is not None:
        if not publishable_key.startswith("pk_"):
            raise _invalid("publishable_key must be a publishable key (pk_… or pk_test_…), never a secret key.")
        params["publishable_key"] = publishable_key
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(params)))
