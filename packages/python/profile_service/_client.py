"""ProfileClient: one method per profile route, the hosted sign-in calls, MCP sessions and tool calls."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Unpack, cast
from urllib.parse import quote

from . import _generated as api
from ._errors import TYPE_CLIENT, ServiceError
from ._mcp import json_rpc_answer, tool_result
from ._sign_in import RequiredEntries, SignInConnector, SignInDefaults, build_sign_in_url
from ._transport import DEFAULT_BASE_URL, DEFAULT_TIMEOUT, RetryInfo, RetryOptions, Transport
from ._version import __version__

__all__ = ["ExchangedCode", "ProfileClient"]

# The headers naming the person and the turn a profile call is about.
HEADER_USER_ID = "x-user-id"
HEADER_CONVERSATION = "x-service-conversation-id"
HEADER_TURN = "x-service-turn-id"


@dataclass(frozen=True)
class ExchangedCode:
    """A sign-in code exchanged for the person's agent token."""

    #: The agent token: store it server side, send it as ``token=`` on later calls.
    token: str
    #: The service's id of the person.
    user_id: str
    #: True when the code had been used and the held token (``current_token``) stood in for it.
    replayed: bool


def _wire(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON fields of keyword arguments: unset ones dropped, and a trailing underscore taken off
    a name that is a Python keyword (``from_`` is sent as ``from``)."""
    return {(k[:-1] if k.endswith("_") else k): v for k, v in fields.items() if v is not None}


def _user_headers(user_id: str | None, token: str | None) -> dict[str, str]:
    if token:
        return {"authorization": f"Bearer {token}"}
    if user_id:
        return {HEADER_USER_ID: user_id}
    raise ServiceError("INVALID_INPUT", "Name the person: pass user_id (your own id for them) or token (their agent token).", type=TYPE_CLIENT)


def _profile_headers(user_id: str | None, token: str | None, conversation_id: str | None, turn_id: str | None) -> dict[str, str | None]:
    headers: dict[str, str | None] = dict(_user_headers(user_id, token))
    if conversation_id is not None:
        headers[HEADER_CONVERSATION] = conversation_id
        headers[HEADER_TURN] = turn_id
    return headers


class ProfileClient:
    """One agent's client of the service: every profile route, the hosted sign-in calls, MCP sessions
    and tool calls. Server side only: it holds a secret key. Every method raises a :class:`ServiceError`.

    Profile methods name the person with ``user_id`` (your own id for them, sent as X-User-Id) or
    ``token`` (an agent token from sign-in, or an OpenID Connect access token), and optionally the
    conversation and turn the call belongs to (``conversation_id``, ``turn_id``: your own ids, 1–128
    letters, digits, ``.``, ``_``, ``:`` or ``-``). Their other keyword arguments are the route's fields
    as the API names them (``None`` leaves a field out). ``timeout`` is the call's time limit per try, in
    seconds.
    """

    def __init__(
        self,
        *,
        agent: str,
        api_key: str | None = None,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT,
        retry: RetryOptions | None = None,
        on_retry: Callable[[RetryInfo], None] | None = None,
        sign_in: SignInDefaults | None = None,
        tools: Sequence[str] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.agent = agent
        self.sign_in = sign_in or SignInDefaults()
        self.tools = tuple(tools) if tools is not None else None
        self.transport = Transport(
            base_url=base_url,
            api_key=api_key,
            agent=agent,
            timeout=timeout,
            retry=retry,
            headers=headers,
            on_retry=on_retry,
            user_agent=f"profile-service-python/{__version__}",
        )

    @property
    def base_url(self) -> str:
        """The service's address."""
        return self.transport.base_url

    # Profile routes: one method each.

    def read(
        self,
        *,
        user_id: str | None = None,
        token: str | None = None,
        conversation_id: str | None = None,
        turn_id: str | None = None,
        timeout: float | None = None,
        **query: Unpack[api.GetV1ProfileQuery],
    ) -> api.GetV1ProfileResponse:
        """GET /v1/profile: the composed profile (``sections="identity,preferences,summary"`` for prompts), or one box."""
        headers = _profile_headers(user_id, token, conversation_id, turn_id)
        return cast(api.GetV1ProfileResponse, self.transport.request("GET", "/v1/profile", query=_wire(query), headers=headers, timeout=timeout))

    def search(
        self,
        *,
        user_id: str | None = None,
        token: str | None = None,
        conversation_id: str | None = None,
        turn_id: str | None = None,
        timeout: float | None = None,
        from_: str | None = None,
        **query: Unpack[api.GetV1ProfileSearchQuery],
    ) -> api.GetV1ProfileSearchResponse:
        """GET /v1/profile/search: memories matching a query, source, box or date range (``from_``, ``to``)."""
        headers = _profile_headers(user_id, token, conversation_id, turn_id)
        params = _wire({**query, "from_": from_})
        return cast(api.GetV1ProfileSearchResponse, self.transport.request("GET", "/v1/profile/search", query=params, headers=headers, timeout=timeout))

    def remember(
        self,
        *,
        user_id: str | None = None,
        token: str | None = None,
        conversation_id: str | None = None,
        turn_id: str | None = None,
        timeout: float | None = None,
        **body: Unpack[api.PostV1ProfileRememberBody],
    ) -> api.PostV1ProfileRememberResponse:
        """POST /v1/profile/remember: saves one durable fact."""
        headers = _profile_headers(user_id, token, conversation_id, turn_id)
        return cast(api.PostV1ProfileRememberResponse, self.transport.request("POST", "/v1/profile/remember", body=_wire(body), headers=headers, timeout=timeout))

    def forget(
        self,
        *,
        user_id: str | None = None,
        token: str | None = None,
        conversation_id: str | None = None,
        turn_id: str | None = None,
        timeout: float | None = None,
        **body: Unpack[api.PostV1ProfileForgetBody],
    ) -> api.PostV1ProfileForgetResponse:
        """POST /v1/profile/forget: deletes by ``id``, or previews by ``match``, ``import_id`` or ``scope`` until sent again with ``confirm=True``."""
        headers = _profile_headers(user_id, token, conversation_id, turn_id)
        return cast(api.PostV1ProfileForgetResponse, self.transport.request("POST", "/v1/profile/forget", body=_wire(body), headers=headers, timeout=timeout))

    def import_(
        self,
        *,
        user_id: str | None = None,
        token: str | None = None,
        conversation_id: str | None = None,
        turn_id: str | None = None,
        timeout: float | None = None,
        **body: Unpack[api.PostV1ProfileImportBody],
    ) -> api.PostV1ProfileImportResponse:
        """POST /v1/profile/import: distils a chunk of text into memories (``import`` is a Python keyword, hence the underscore)."""
        headers = _profile_headers(user_id, token, conversation_id, turn_id)
        return cast(api.PostV1ProfileImportResponse, self.transport.request("POST", "/v1/profile/import", body=_wire(body), headers=headers, timeout=timeout))

    def commit(
        self,
        *,
        user_id: str | None = None,
        token: str | None = None,
        conversation_id: str | None = None,
        turn_id: str | None = None,
        timeout: float | None = None,
        **body: Unpack[api.PostV1ProfileCommitBody],
    ) -> api.PostV1ProfileCommitResponse:
        """POST /v1/profile/commit: the turn's messages (and explicit memories); clears the read obligation. ``sync=True`` waits for the result."""
        headers = _profile_headers(user_id, token, conversation_id, turn_id)
        return cast(api.PostV1ProfileCommitResponse, self.transport.request("POST", "/v1/profile/commit", body=_wire(body), headers=headers, timeout=timeout))

    def mcp_session(self, *, user_id: str, previous_token: str | None = None, timeout: float | None = None) -> api.PostV1ProfileMcpSessionResponse:
        """POST /v1/profile/mcp-session: a 15-minute MCP session for one conversation and one user, never
        stored nor given to a browser. Its ``mcp_servers`` is what Anthropic's Messages API takes as
        ``mcp_servers``; :func:`openai_mcp_tools` gives OpenAI's Responses API tools. Pass the last token
        (``session["session"]["token"]``) as ``previous_token`` to keep its correlation."""
        body = {"previous_token": previous_token} if previous_token else {}
        answer = self.transport.request("POST", "/v1/profile/mcp-session", body=body, headers={HEADER_USER_ID: user_id}, timeout=timeout)
        return cast(api.PostV1ProfileMcpSessionResponse, answer)

    def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        user_id: str | None = None,
        token: str | None = None,
        timeout: float | None = None,
    ) -> Any:
        """Calls a tool of the developer MCP server ({base_url}/mcp) for a user (``user_id``, an agent token
        or an MCP session token as ``token``) and returns its result. A refusal or a failed tool is a
        ServiceError: TOOL_NOT_CONNECTED, TOOL_ERROR, COMMIT_REQUIRED, ACCESS_DENIED (a tool outside ``tools``), …"""
        if self.tools is not None and name not in self.tools:
            raise ServiceError(
                "ACCESS_DENIED",
                f"{name} is not one of the tools this client declared ({', '.join(self.tools)}).",
                type=TYPE_CLIENT,
                base_url=self.base_url,
            )
        rpc = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": dict(arguments or {})}}
        headers: dict[str, str | None] = {**_user_headers(user_id, token), "accept": "application/json, text/event-stream"}
        answer = self.transport.request("POST", "/mcp", body=rpc, headers=headers, timeout=timeout)
        return tool_result(name, json_rpc_answer(answer), self.base_url)

    # Hosted sign-in.

    def sign_in_url(
        self,
        *,
        return_to: str | None = None,
        state: str | None = None,
        display_name: str | None = None,
        publishable_key: str | None = None,
        connectors: Sequence[SignInConnector] | None = None,
        required: RequiredEntries | None = None,
        sign_in_url: str | None = None,
    ) -> str:
        """A hosted sign-in link for this agent; the client's ``sign_in`` defaults fill what is not given
        (the link goes to ``{base_url}/sign-in/<agent>`` without a ``sign_in.url``)."""
        defaults = self.sign_in
        return build_sign_in_url(
            sign_in_url or defaults.url or f"{self.base_url}/sign-in/{quote(self.agent, safe='')}",
            return_to=return_to if return_to is not None else defaults.return_to,
            state=state,
            display_name=display_name if display_name is not None else defaults.display_name,
            publishable_key=publishable_key if publishable_key is not None else defaults.publishable_key,
            connectors=connectors,
            required=required,
        )

    def exchange_code(self, *, code: str, current_token: str | None = None, timeout: float | None = None) -> ExchangedCode:
        """POST /v1/auth/sign-in/exchange: the code from the return destination for the person's token.

        A replayed URL (a reload or the Back button) brings back a used code: when the caller still holds
        a valid token (``current_token``, checked with :meth:`validate`), that is already a sign-in and its
        token is returned with ``replayed=True``; otherwise the error is raised."""
        try:
            answer = self.transport.request("POST", "/v1/auth/sign-in/exchange", body={"code": code}, timeout=timeout)
            return ExchangedCode(token=answer["token"], user_id=answer["userId"], replayed=False)
        except ServiceError as err:
            if err.type != "code_already_used" or not current_token:
                raise
            held = self.validate(token=current_token, timeout=timeout)
            if not held.get("valid") or not held.get("userId"):
                raise
            return ExchangedCode(token=current_token, user_id=str(held["userId"]), replayed=True)

    def validate(self, *, token: str, timeout: float | None = None) -> api.PostV1AuthSignInValidateResponse:
        """POST /v1/auth/sign-in/validate: whether an agent token is still good for this key's developer, this agent and plane, and an approving user."""
        return cast(api.PostV1AuthSignInValidateResponse, self.transport.request("POST", "/v1/auth/sign-in/validate", body={"token": token}, timeout=timeout))

    def register_return_destination(self, *, return_to: str | None = None, timeout: float | None = None) -> api.PostV1AuthSignInReturnDestinationsResponse:
        """POST /v1/auth/sign-in/return-destinations: allowlists a return destination (idempotent: call it at every start). Defaults to ``sign_in.return_to``."""
        target = return_to or self.sign_in.return_to
        if not target:
            raise ServiceError("INVALID_INPUT", "return_to is required (or set sign_in.return_to).", type=TYPE_CLIENT, base_url=self.base_url)
        answer = self.transport.request("POST", "/v1/auth/sign-in/return-destinations", body={"return_to": target}, timeout=timeout)
        return cast(api.PostV1AuthSignInReturnDestinationsResponse, answer)

    def list_return_destinations(self, *, timeout: float | None = None) -> api.GetV1AuthSignInReturnDestinationsResponse:
        """GET /v1/auth/sign-in/return-destinations."""
        return cast(api.GetV1AuthSignInReturnDestinationsResponse, self.transport.request("GET", "/v1/auth/sign-in/return-destinations", timeout=timeout))

    def remove_return_destination(self, *, return_to: str, timeout: float | None = None) -> api.DeleteV1AuthSignInReturnDestinationsResponse:
        """DELETE /v1/auth/sign-in/return-destinations: links naming it stop working at once."""
        answer = self.transport.request("DELETE", "/v1/auth/sign-in/return-destinations", body={"return_to": return_to}, timeout=timeout)
        return cast(api.DeleteV1AuthSignInReturnDestinationsResponse, answer)

    def register_message_line(self, *, timeout: float | None = None, **body: Unpack[api.PostV1AuthSignInMessageLinesBody]) -> api.PostV1AuthSignInMessageLinesResponse:
        """POST /v1/auth/sign-in/message-lines: registers a provider-owned number the agent texts from (idempotent)."""
        answer = self.transport.request("POST", "/v1/auth/sign-in/message-lines", body=_wire(body), timeout=timeout)
        return cast(api.PostV1AuthSignInMessageLinesResponse, answer)

    def list_message_lines(self, *, timeout: float | None = None) -> api.GetV1AuthSignInMessageLinesResponse:
        """GET /v1/auth/sign-in/message-lines: the agent's active lines, without their numbers."""
        return cast(api.GetV1AuthSignInMessageLinesResponse, self.transport.request("GET", "/v1/auth/sign-in/message-lines", timeout=timeout))

    def revoke_message_line(self, *, timeout: float | None = None, **body: Unpack[api.DeleteV1AuthSignInMessageLinesBody]) -> api.DeleteV1AuthSignInMessageLinesResponse:
        """DELETE /v1/auth/sign-in/message-lines: revokes the line with that number (on one channel, or all)."""
        answer = self.transport.request("DELETE", "/v1/auth/sign-in/message-lines", body=_wire(body), timeout=timeout)
        return cast(api.DeleteV1AuthSignInMessageLinesResponse, answer)

    def create_message_sign_in_url(self, *, timeout: float | None = None, **body: Any) -> api.PostV1AuthSignInMessageUrlResponse:
        """POST /v1/auth/sign-in/message-url: a text-back sign-in (or reconnect) link for a message thread,
        or with ``reason="permission_review"`` the connect link asking the person (``subject``) for a
        ``capability`` or one app in ``connectors``. Call it from a trusted server only, never from a
        browser or a model prompt. ``required`` is not taken and is dropped. Fields: those of
        :class:`PostV1AuthSignInMessageUrlBody`."""
        body.pop("required", None)
        answer = self.transport.request("POST", "/v1/auth/sign-in/message-url", body=_wire(body), timeout=timeout)
        return cast(api.PostV1AuthSignInMessageUrlResponse, answer)

    def recognize_phone(self, *, candidates: Sequence[str], timeout: float | None = None) -> api.PostV1AuthSignInRecognizePhoneResponse:
        """POST /v1/auth/sign-in/recognize-phone: whether a message's sender ids name one person; a token only when they already approved the agent."""
        answer = self.transport.request("POST", "/v1/auth/sign-in/recognize-phone", body={"candidates": list(candidates)}, timeout=timeout)
        return cast(api.PostV1AuthSignInRecognizePhoneResponse, answer)
