"""Fail open: when the service cannot be reached, or answers too late, a turn's read gives the empty
profile, its commit and tool calls None, each with a warning; against the running service they give
the real answers."""

from __future__ import annotations

import logging
import time
import unittest

from _service import Answer, free_port, needs_service, sandbox, sandbox_client, stand_in

from profile_service import ProfileClient, RetryOptions, call_tool_for_turn, commit_for_turn, fail_open, read_for_turn

LOGGER = "profile_service.tests"


def unreachable() -> ProfileClient:
    return ProfileClient(base_url=f"http://127.0.0.1:{free_port()}", api_key="sk_x", agent="a", retry=RetryOptions(retries=1, base_delay=0.01))


class Unreachable(unittest.TestCase):
    def test_a_read_gives_the_empty_profile_and_a_warning(self) -> None:
        log = logging.getLogger(LOGGER)
        with self.assertLogs(log, level="WARNING") as logs:
            profile = read_for_turn(unreachable(), user_id="u", conversation_id="chat_7", turn_id="1", logger=log)
        self.assertEqual({k: v for k, v in profile.items() if k != "error"}, {"linked": False, "unavailable": True, "preferences": [], "summary": ""})
        self.assertEqual(profile["error"].code, "NETWORK_ERROR")  # type: ignore[typeddict-item]
        self.assertEqual(len(logs.records), 1)
        self.assertIn("profile read failed", logs.output[0])
        self.assertEqual(logs.records[0].profile_service["code"], "NETWORK_ERROR")  # type: ignore[attr-defined]

    def test_a_commit_and_a_tool_call_give_none(self) -> None:
        log = logging.getLogger(LOGGER)
        with self.assertLogs(log, level="WARNING") as logs:
            self.assertIsNone(commit_for_turn(unreachable(), user_id="u", messages=[{"role": "user", "content": "hi"}], logger=log))
            self.assertIsNone(call_tool_for_turn(unreachable(), "service_profile_read", user_id="u", logger=log))
        self.assertEqual([r.profile_service["code"] for r in logs.records], ["NETWORK_ERROR", "NETWORK_ERROR"])  # type: ignore[attr-defined]

    def test_a_read_past_its_budget_is_a_timeout_within_the_budget(self) -> None:
        log = logging.getLogger(LOGGER)
        with stand_in([Answer(200, {"linked": True}, delay=3)]) as server:
            slow = ProfileClient(base_url=server.url, api_key="sk_x", agent="a")
            started = time.monotonic()
            with self.assertLogs(log, level="WARNING"):
                profile = read_for_turn(slow, user_id="u", budget=0.3, logger=log)
            self.assertLess(time.monotonic() - started, 1.5)
        self.assertEqual(profile["error"].code, "TIMEOUT")  # type: ignore[typeddict-item]

    def test_retries_stop_at_the_budget(self) -> None:
        log = logging.getLogger(LOGGER)
        limited = {"error": {"code": "rate_limited", "message": "slow down"}}
        with stand_in([Answer(429, limited, {"Retry-After": "5"})]) as server:
            client = ProfileClient(base_url=server.url, api_key="sk_x", agent="a")
            started = time.monotonic()
            with self.assertLogs(log, level="WARNING"):
                result = fail_open("profile read", lambda: client.read(user_id="u"), "fallback", budget=1, logger=log)
            self.assertLess(time.monotonic() - started, 1)
            self.assertEqual(len(server.requests), 1)
        self.assertEqual((result.ok, result.value, result.error and result.error.code), (False, "fallback", "TIMEOUT"))

    def test_an_agent_turn_answers_whether_or_not_the_service_does(self) -> None:
        def turn(service: ProfileClient, message: str) -> str:
            profile = read_for_turn(service, user_id="u", budget=0.5, logger=logging.getLogger(LOGGER))
            answer = f"{'(personal) ' if profile.get('summary') else ''}echo: {message}"
            commit_for_turn(service, user_id="u", messages=[{"role": "user", "content": message}], response=answer, budget=0.5, logger=logging.getLogger(LOGGER))
            return answer

        with self.assertLogs(LOGGER, level="WARNING"):
            self.assertEqual(turn(unreachable(), "hello"), "echo: hello")


@needs_service
class Reachable(unittest.TestCase):
    def test_a_turn_reads_and_commits(self) -> None:
        client, user = sandbox_client(), sandbox().user_external_id
        profile = read_for_turn(client, user_id=user, conversation_id="chat_9", turn_id="1")
        self.assertIs(profile["linked"], True)
        self.assertNotIn("unavailable", profile)
        committed = commit_for_turn(client, user_id=user, conversation_id="chat_9", turn_id="1", messages=[{"role": "user", "content": "I cycle to work."}], sync=True)
        self.assertIsNotNone(committed)
        self.assertEqual(committed and committed["status"], "completed")
        self.assertIs(call_tool_for_turn(client, "service_profile_read", user_id=user)["linked"], True)


if __name__ == "__main__":
    unittest.main()
