"""Fail open: a failed read, commit or tool call costs the turn its personalisation, not its answer."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypedDict, TypeVar, Unpack

from . import _generated as api
from ._client import ProfileClient
from ._errors import TYPE_CLIENT, ServiceError
from ._transport import deadline

__all__ = ["DEFAULT_BUDGET", "EmptyProfile", "FailOpenResult", "call_tool_for_turn", "commit_for_turn", "fail_open", "read_for_turn"]

T = TypeVar("T")
F = TypeVar("F")

#: The most time a fail-open call takes before the turn goes on without it, in seconds.
DEFAULT_BUDGET = 2.0
#: The sections a turn's read asks for when it names neither sections nor a box: what a prompt needs.
TURN_SECTIONS = "identity,preferences,summary"

#: Where warnings go by default.
LOGGER = logging.getLogger("profile_service")


class EmptyProfile(TypedDict):
    """The profile a turn gets when the read failed: nothing personal, and ``unavailable: True``."""

    #: No person is known for this turn.
    linked: Literal[False]
    #: The read failed (unlike a person who simply has no profile yet).
    unavailable: Literal[True]
    #: No preferences.
    preferences: list[str]
    #: No summary.
    summary: str
    #: Why the read failed.
    error: ServiceError


@dataclass(frozen=True)
class FailOpenResult(Generic[T, F]):
    """The outcome of a fail-open call: its value, or the fallback and the error."""

    ok: bool
    value: T | F
    error: ServiceError | None = None


def _as_service_error(err: Exception) -> ServiceError:
    return err if isinstance(err, ServiceError) else ServiceError("SERVER_ERROR", str(err) or type(err).__name__, type=TYPE_CLIENT)


def fail_open(
    label: str,
    task: Callable[[], T],
    fallback: F,
    *,
    budget: float = DEFAULT_BUDGET,
    logger: logging.Logger | None = None,
) -> FailOpenResult[T, F]:
    """Runs ``task`` within ``budget`` seconds (the library's calls in it, retries included, end by then).
    It never raises for a failure of the task: a failure or a time-out is logged as a warning and answered
    with ``fallback``."""
    try:
        with deadline(budget):
            return FailOpenResult(ok=True, value=task())
    except Exception as err:  # Failing open is the point: any failure gives the fallback.
        error = _as_service_error(err)
        details: dict[str, Any] = {"code": error.code, "type": error.type, "request_id": error.request_id, "message": error.message}
        (logger or LOGGER).warning("%s failed; the turn goes on without it: %s", label, error, extra={"profile_service": details})
        return FailOpenResult(ok=False, value=fallback, error=error)


def read_for_turn(
    client: ProfileClient,
    *,
    user_id: str | None = None,
    token: str | None = None,
    conversation_id: str | None = None,
    turn_id: str | None = None,
    budget: float = DEFAULT_BUDGET,
    logger: logging.Logger | None = None,
    **query: Unpack[api.GetV1ProfileQuery],
) -> api.GetV1ProfileResponse | EmptyProfile:
    """The profile for a turn, or an :class:`EmptyProfile` when the read fails or runs past its budget.
    With ``conversation_id`` (and ``turn_id``), the read is recorded as part of that conversation and turn
    (send the same ids to :func:`commit_for_turn`)."""
    if query.get("sections") is None and query.get("box") is None:
        query["sections"] = TURN_SECTIONS

    def read() -> api.GetV1ProfileResponse:
        return client.read(user_id=user_id, token=token, conversation_id=conversation_id, turn_id=turn_id, **query)

    result = fail_open("profile read", read, None, budget=budget, logger=logger)
    if result.ok and result.value is not None:
        return result.value
    return EmptyProfile(linked=False, unavailable=True, preferences=[], summary="", error=_error_of(result.error))


def commit_for_turn(
    client: ProfileClient,
    *,
    user_id: str | None = None,
    token: str | None = None,
    conversation_id: str | None = None,
    turn_id: str | None = None,
    budget: float = DEFAULT_BUDGET,
    logger: logging.Logger | None = None,
    **body: Unpack[api.PostV1ProfileCommitBody],
) -> api.PostV1ProfileCommitResponse | None:
    """Commits the turn (recorded with ``conversation_id`` and ``turn_id``, as the turn's reads were);
    None (and a warning) when the commit fails or runs past its budget."""

    def commit() -> api.PostV1ProfileCommitResponse:
        return client.commit(user_id=user_id, token=token, conversation_id=conversation_id, turn_id=turn_id, **body)

    return fail_open("profile commit", commit, None, budget=budget, logger=logger).value


def call_tool_for_turn(
    client: ProfileClient,
    name: str,
    arguments: Mapping[str, Any] | None = None,
    *,
    user_id: str | None = None,
    token: str | None = None,
    budget: float = DEFAULT_BUDGET,
    logger: logging.Logger | None = None,
) -> Any:
    """Calls a tool; None (and a warning) when the call fails or runs past its budget."""
    return fail_open(f"tool {name}", lambda: client.call_tool(name, arguments, user_id=user_id, token=token), None, budget=budget, logger=logger).value


def _error_of(error: ServiceError | None) -> ServiceError:
    """The error of a failed fail-open call (a read that answered nothing counts as a server error)."""
    return error if error is not None else ServiceError("SERVER_ERROR", "The profile read answered nothing.", type=TYPE_CLIENT)
