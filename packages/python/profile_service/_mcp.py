"""MCP sessions as LLM APIs take them, and a tool call on the developer MCP server ({base_url}/mcp)
answered as a value or a ServiceError."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ._errors import ServiceError, WIRE_ERROR_CODES, ErrorCode
from ._generated import PostV1ProfileMcpSessionResponse

__all__ = ["MCP_COMMIT_REQUIRED", "anthropic_mcp_servers", "openai_mcp_tools", "tool_result"]

#: The JSON-RPC error code of a commit_required refusal.
MCP_COMMIT_REQUIRED = -32009
#: The JSON-RPC error code of invalid params (an unknown tool among them).
_INVALID_PARAMS = -32602
# The personal tools answer this way when nobody approved the agent: the user must connect first.
_NOT_CONNECTED = re.compile(r"connect first|service_connect", re.IGNORECASE)


def anthropic_mcp_servers(session: PostV1ProfileMcpSessionResponse) -> list[dict[str, Any]]:
    """The Anthropic Messages API's ``mcp_servers`` value: the session's ``mcp_servers``, unchanged
    (``[{"type": "url", "url", "name", "authorization_token"}]``)."""
    return [dict(server) for server in session["mcp_servers"]]


def openai_mcp_tools(session: PostV1ProfileMcpSessionResponse, *, require_approval: str | Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The OpenAI Responses API's remote MCP tools for the session:
    ``[{"type": "mcp", "server_label", "server_url", "headers": {"Authorization": "Bearer …"}}]``.

    ``require_approval`` (``"never"``, ``"always"`` or OpenAI's per-tool filter) is added when given;
    without it the Responses API asks for approval of each call.
    """
    tools: list[dict[str, Any]] = []
    for server in session["mcp_servers"]:
        tool: dict[str, Any] = {
            "type": "mcp",
            "server_label": server["name"],
            "server_url": server["url"],
            "headers": {"Authorization": f"Bearer {server['authorization_token']}"},
        }
        if require_approval is not None:
            tool["require_approval"] = require_approval
        tools.append(tool)
    return tools


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def json_rpc_answer(answer: Any) -> dict[str, Any]:
    """The JSON-RPC message of an answer: the JSON itself, or the last ``data:`` line of an event stream."""
    if isinstance(answer, dict):
        return answer
    if isinstance(answer, str):
        for line in reversed(answer.splitlines()):
            if line.startswith("data:"):
                parsed = _parse_json(line[5:].strip())
                if isinstance(parsed, dict):
                    return parsed
    return {}


def tool_result(name: str, answer: Mapping[str, Any], base_url: str = "") -> Any:
    """The value of a tool call's answer, or the ServiceError it stands for (``base_url``: the service's address, for ``doc_url``)."""

    def failure(code: ErrorCode, type: str, message: str, details: Mapping[str, Any] | None = None) -> ServiceError:
        return ServiceError(code, message, status=200, type=type, details=details or {}, base_url=base_url)

    error = answer.get("error")
    if isinstance(error, dict):
        code, message, data = error.get("code"), str(error.get("message", "")), error.get("data")
        details = data if isinstance(data, dict) else {}
        if code == MCP_COMMIT_REQUIRED:
            raise failure("COMMIT_REQUIRED", "commit_required", message, details)
        if code == _INVALID_PARAMS and re.search(r"not found", message, re.IGNORECASE):
            raise failure("ACCESS_DENIED", "tool_not_found", message, details)
        raise failure("TOOL_ERROR", f"jsonrpc_{code}", message, details)
    result = answer.get("result") if isinstance(answer.get("result"), dict) else {}
    text = "\n".join(c.get("text", "") or "" for c in result.get("content") or [] if isinstance(c, dict) and c.get("type") == "text")
    if not result.get("isError"):
        if result.get("structuredContent") is not None:
            return result["structuredContent"]
        parsed = _parse_json(text)
        return parsed if parsed is not None else text
    parsed = _parse_json(text)
    wire = parsed.get("error") if isinstance(parsed, dict) else None
    if isinstance(wire, dict) and isinstance(wire.get("code"), str):
        mapped = WIRE_ERROR_CODES.get(wire["code"])
        message = wire["message"] if isinstance(wire.get("message"), str) else f"{name} failed."
        # A tool's own failure (a connector that failed) is TOOL_ERROR; a refused request keeps its code.
        raise failure("TOOL_ERROR" if mapped is None or mapped == "SERVER_ERROR" else mapped, wire["code"], message, wire)
    if _NOT_CONNECTED.search(text):
        raise failure("TOOL_NOT_CONNECTED", "not_connected", text, {"tool": name})
    raise failure("TOOL_ERROR", "tool_error", text or f"{name} failed.", {"tool": name})
