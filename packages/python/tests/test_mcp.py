"""MCP sessions as LLM APIs take them (Anthropic's mcp_servers, OpenAI's remote MCP tools), continued
sessions, and tool calls on the developer MCP server answered as values or ServiceErrors."""

from __future__ import annotations

import unittest

from _service import Answer, needs_service, sandbox, sandbox_client, stand_in

from profile_service import MCP_COMMIT_REQUIRED, ProfileClient, RetryOptions, ServiceError, anthropic_mcp_servers, openai_mcp_tools


@needs_service
class Sessions(unittest.TestCase):
    def test_a_session_is_what_the_llm_apis_take_and_continues(self) -> None:
        s = sandbox()
        client = sandbox_client()
        first = client.mcp_session(user_id=s.user_external_id)
        self.assertEqual((first["ok"], first["linked"], first["continued"]), (True, True, False))
        token = first["session"]["token"]
        self.assertEqual(first["mcp_servers"], [{"type": "url", "url": first["mcp_url"], "name": first["mcp_servers"][0]["name"], "authorization_token": token}])
        self.assertEqual(anthropic_mcp_servers(first), first["mcp_servers"])
        server = first["mcp_servers"][0]
        self.assertEqual(
            openai_mcp_tools(first, require_approval="never"),
            [{"type": "mcp", "server_label": server["name"], "server_url": first["mcp_url"], "headers": {"Authorization": f"Bearer {token}"}, "require_approval": "never"}],
        )
        self.assertNotIn("require_approval", openai_mcp_tools(first)[0])
        following = client.mcp_session(user_id=s.user_external_id, previous_token=token)
        self.assertIs(following["continued"], True)
        profile = client.call_tool("service_profile_read", user_id=None, token=following["session"]["token"])
        self.assertIs(profile["linked"], True)

    def test_a_session_for_a_user_nobody_linked_is_not_linked(self) -> None:
        session = sandbox_client().mcp_session(user_id="nobody-by-this-id")
        self.assertEqual((session["ok"], session["linked"]), (True, False))

    def test_a_personal_tool_for_a_user_who_never_approved_is_tool_not_connected(self) -> None:
        with self.assertRaises(ServiceError) as caught:
            sandbox_client().call_tool("service_profile_read", user_id="nobody-by-this-id")
        self.assertEqual(caught.exception.code, "TOOL_NOT_CONNECTED")

    def test_a_tool_outside_the_declared_set_is_refused_before_sending(self) -> None:
        client = sandbox_client(tools=["service_profile_read"])
        with self.assertRaises(ServiceError) as caught:
            client.call_tool("service_email_send", {"to": "a@example.com"}, user_id=sandbox().user_external_id)
        self.assertEqual((caught.exception.code, caught.exception.type), ("ACCESS_DENIED", "client"))


class ToolAnswers(unittest.TestCase):
    def call(self, answer: dict[str, object]) -> ServiceError:
        with stand_in([Answer(200, {"jsonrpc": "2.0", "id": 1, **answer})]) as server:
            client = ProfileClient(base_url=server.url, api_key="sk_x", agent="a", retry=RetryOptions(retries=0))
            with self.assertRaises(ServiceError) as caught:
                client.call_tool("service_profile_read", user_id="u")
            self.assertEqual(server.requests[0][3]["params"], {"name": "service_profile_read", "arguments": {}})
        return caught.exception

    def test_a_commit_required_refusal(self) -> None:
        err = self.call({"error": {"code": MCP_COMMIT_REQUIRED, "message": "Commit first."}})
        self.assertEqual((err.code, err.type, err.status), ("COMMIT_REQUIRED", "commit_required", 200))

    def test_a_failed_connector(self) -> None:
        err = self.call({"result": {"isError": True, "content": [{"type": "text", "text": '{"error":{"code":"provider_error","message":"Gmail failed."}}'}]}})
        self.assertEqual((err.code, err.type, err.message), ("TOOL_ERROR", "provider_error", "Gmail failed."))

    def test_an_app_not_connected(self) -> None:
        err = self.call({"result": {"isError": True, "content": [{"type": "text", "text": '{"error":{"code":"app_not_connected","message":"Connect Gmail."}}'}]}})
        self.assertEqual(err.code, "TOOL_NOT_CONNECTED")

    def test_a_structured_result_is_the_value(self) -> None:
        with stand_in([Answer(200, {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "{}"}], "structuredContent": {"linked": True}}})]) as server:
            client = ProfileClient(base_url=server.url, api_key="sk_x", agent="a")
            self.assertEqual(client.call_tool("service_profile_read", token="t"), {"linked": True})
            self.assertEqual(server.requests[0][2]["authorization"], "Bearer t")


if __name__ == "__main__":
    unittest.main()
