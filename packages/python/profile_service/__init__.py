"""The Profile Service client library for Python: profile reads and writes, hosted sign-in, MCP
sessions and tool calls over the standard library's urllib, with one error class and fail-open
helpers for agent turns.

    from profile_service import ProfileClient, read_for_turn, commit_for_turn

    service = ProfileClient(base_url="https://profile.example.com", api_key="sk_…", agent="assistant")
    profile = read_for_turn(service, user_id="user-123", conversation_id="chat_7", turn_id="3")
"""

from . import _generated as api
from ._client import ExchangedCode, ProfileClient
from ._errors import (
    ERROR_CODES,
    ERROR_DOCS_PATH,
    RETRYABLE_CODES,
    SUGGESTED_ACTIONS,
    WIRE_ERROR_CODES,
    ErrorCode,
    ServiceError,
    code_for_status,
    error_doc_url,
    retry_after_header,
)
from ._fail_open import DEFAULT_BUDGET, EmptyProfile, FailOpenResult, call_tool_for_turn, commit_for_turn, fail_open, read_for_turn
from ._mcp import MCP_COMMIT_REQUIRED, anthropic_mcp_servers, openai_mcp_tools
from ._sign_in import RequiredEntries, SignInConnector, SignInDefaults, build_sign_in_url, required_param
from ._transport import DEFAULT_BASE_URL, DEFAULT_TIMEOUT, RetryInfo, RetryOptions
from ._version import __version__
from ._webhooks import WEBHOOK_TOLERANCE_SECONDS, WebhookVerificationError, WebhookVerificationReason, verify_webhook

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_BUDGET",
    "DEFAULT_TIMEOUT",
    "ERROR_CODES",
    "ERROR_DOCS_PATH",
    "MCP_COMMIT_REQUIRED",
    "RETRYABLE_CODES",
    "SUGGESTED_ACTIONS",
    "WEBHOOK_TOLERANCE_SECONDS",
    "WIRE_ERROR_CODES",
    "EmptyProfile",
    "ErrorCode",
    "ExchangedCode",
    "FailOpenResult",
    "ProfileClient",
    "RequiredEntries",
    "RetryInfo",
    "RetryOptions",
    "ServiceError",
    "SignInConnector",
    "SignInDefaults",
    "WebhookVerificationError",
    "WebhookVerificationReason",
    "__version__",
    "anthropic_mcp_servers",
    "api",
    "build_sign_in_url",
    "call_tool_for_turn",
    "code_for_status",
    "commit_for_turn",
    "error_doc_url",
    "fail_open",
    "openai_mcp_tools",
    "read_for_turn",
    "required_param",
    "retry_after_header",
    "verify_webhook",
]
