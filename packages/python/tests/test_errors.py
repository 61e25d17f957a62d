"""The thirteen error codes: the tables, and the codes the running service's answers become
(a wrong key, an unapproved user, an unknown user, a refused request), each with its status, the
service's own code, the doc URL and the request id."""

from __future__ import annotations

import unittest

from _service import BASE_URL, AGENT, SECRET_KEY, needs_live_key, needs_service, sandbox, sandbox_client, second_agent, stand_in, Answer

from profile_service import (
    ERROR_CODES,
    RETRYABLE_CODES,
    WIRE_ERROR_CODES,
    ProfileClient,
    RetryOptions,
    ServiceError,
    code_for_status,
    error_doc_url,
    retry_after_header,
)

THIRTEEN = {
    "API_KEY_MISSING",
    "AUTH_REQUIRED",
    "ACCESS_DENIED",
    "TOOL_NOT_CONNECTED",
    "COMMIT_REQUIRED",
    "PAYMENT_REQUIRED",
    "RATE_LIMITED",
    "INVALID_INPUT",
    "NOT_FOUND",
    "TOOL_ERROR",
    "TIMEOUT",
    "NETWORK_ERROR",
    "SERVER_ERROR",
}


def failure(call: object) -> ServiceError:
    """The ServiceError a call raises."""
    assert callable(call)
    try:
        call()
    except ServiceError as err:
        return err
    raise AssertionError("no ServiceError was raised")


class ErrorTables(unittest.TestCase):
    def test_the_thirteen_codes(self) -> None:
        self.assertEqual(set(ERROR_CODES), THIRTEEN)
        self.assertEqual(len(ERROR_CODES), 13)
        self.assertTrue(set(WIRE_ERROR_CODES.values()) <= THIRTEEN)
        self.assertEqual(WIRE_ERROR_CODES["agent_not_approved"], "AUTH_REQUIRED")
        self.assertEqual(RETRYABLE_CODES, {"RATE_LIMITED", "TIMEOUT", "NETWORK_ERROR", "SERVER_ERROR"})

    def test_statuses_without_a_known_code(self) -> None:
        expected = {400: "INVALID_INPUT", 401: "AUTH_REQUIRED", 402: "PAYMENT_REQUIRED", 403: "AUTH_REQUIRED", 404: "NOT_FOUND", 408: "TIMEOUT", 428: "COMMIT_REQUIRED", 429: "RATE_LIMITED", 503: "SERVER_ERROR"}
        for status, code in expected.items():
            self.assertEqual(code_for_status(status), code, status)

    def test_retry_after_header(self) -> None:
        self.assertEqual(retry_after_header("3"), 3)
        self.assertIsNone(retry_after_header(None))
        self.assertIsNone(retry_after_header("soon"))
        self.assertEqual(retry_after_header("Thu, 01 Jan 2026 00:00:10 GMT", now=1767225600.0), 10)

    def test_doc_url(self) -> None:
        self.assertEqual(error_doc_url("RATE_LIMITED", "https://p.example/"), "https://p.example/docs/client#error-rate-limited")
        err = ServiceError("NOT_FOUND", "gone", base_url="https://p.example")
        self.assertEqual(err.doc_url, "https://p.example/docs/client#error-not-found")
        self.assertEqual((err.status, err.status_code, err.type, err.suggested_action, err.retryable), (0, 0, "not_found", None, False))

    def test_an_answer_in_the_wire_format(self) -> None:
        body = {"error": {"code": "quota_exceeded", "message": "Over quota.", "suggested_action": "upgrade_plan"}, "request_id": "req_standin"}
        with stand_in([Answer(402, body)]) as server:
            client = ProfileClient(base_url=server.url, api_key="sk_x", agent="a", retry=RetryOptions(retries=0))
            err = failure(lambda: client.read(user_id="u"))
        self.assertEqual((err.code, err.status, err.type, err.message, err.request_id), ("PAYMENT_REQUIRED", 402, "quota_exceeded", "Over quota.", "req_standin"))
        self.assertEqual(err.doc_url, f"{server.url}/docs/client#error-payment-required")

    def test_no_key_is_refused_before_sending(self) -> None:
        with stand_in([Answer(200, {})]) as server:
            err = failure(lambda: ProfileClient(base_url=server.url, agent="a").read(user_id="u"))
            self.assertEqual(server.requests, [])
        self.assertEqual((err.code, err.status, err.type), ("API_KEY_MISSING", 0, "client"))


@needs_service
class ServiceAnswers(unittest.TestCase):
    def test_a_wrong_key_is_401_auth_required(self) -> None:
        s = sandbox()
        client = ProfileClient(base_url=BASE_URL, api_key="sk_test_" + "x" * 32, agent=s.agent)
        err = failure(lambda: client.read(user_id=s.user_external_id))
        self.assertEqual((err.code, err.status, err.type), ("AUTH_REQUIRED", 401, "invalid_api_key"))
        self.assertFalse(err.retryable)
        self.assertEqual(err.suggested_action, "reauthenticate")
        self.assertTrue(err.request_id and err.request_id.startswith("req_"), err.request_id)
        self.assertTrue(err.doc_url.endswith("#error-auth-required"), err.doc_url)

    def test_a_user_who_has_not_approved_the_agent_is_403_auth_required(self) -> None:
        s = sandbox()
        client = sandbox_client(agent=second_agent())
        err = failure(lambda: client.read(user_id=s.user_external_id))
        self.assertEqual((err.code, err.status, err.type), ("AUTH_REQUIRED", 403, "agent_not_approved"))

    def test_an_unknown_user_is_404_not_found(self) -> None:
        err = failure(lambda: sandbox_client().read(user_id="nobody-by-this-id"))
        self.assertEqual((err.code, err.status, err.type), ("NOT_FOUND", 404, "unknown_user"))

    def test_a_refused_request_is_invalid_input_and_not_retried(self) -> None:
        client = sandbox_client(retry=RetryOptions(retries=3, base_delay=0.01))
        err = failure(lambda: client.remember(user_id=sandbox().user_external_id, text=""))
        self.assertEqual((err.code, err.status), ("INVALID_INPUT", 400))
        self.assertIn("text", str(err.details))

    @needs_live_key
    def test_a_live_key_resolves_none_of_the_sandbox_users(self) -> None:
        live = ProfileClient(base_url=BASE_URL, api_key=SECRET_KEY, agent=AGENT)
        err = failure(lambda: live.read(user_id=sandbox().user_external_id))
        self.assertEqual((err.code, err.status, err.type), ("NOT_FOUND", 404, "unknown_user"))


if __name__ == "__main__":
    unittest.main()
