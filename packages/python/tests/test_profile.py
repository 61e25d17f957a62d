"""Every profile method against the running service, for the sandbox user (who approved the agent):
remember, search, read, import, forget and commit; the user by id and by agent token; the turn headers."""

from __future__ import annotations

import unittest

from _service import needs_service, sandbox, sandbox_client

from profile_service import ServiceError


@needs_service
class ProfileMethods(unittest.TestCase):
    def setUp(self) -> None:
        self.client = sandbox_client()
        self.user = sandbox().user_external_id

    def test_remember_search_read_import_forget_and_commit(self) -> None:
        c, user = self.client, self.user
        saved = c.remember(user_id=user, text="I live in York", kind="location")
        self.assertTrue(saved["saved"])
        self.assertTrue(saved["memory"]["id"].startswith("mem_"))
        self.assertIn("York", saved["memory"]["text"])
        found = c.search(user_id=user, query="York")
        self.assertIn(saved["memory"]["id"], [r["id"] for r in found["results"]])
        profile = c.read(user_id=user, sections="identity,preferences,summary")
        self.assertIs(profile["linked"], True)
        self.assertIs(profile["livemode"], False)
        imported = c.import_(user_id=user, text="I love hiking in the Dales. I work as a carpenter.")
        self.assertTrue(imported["saved"])
        preview = c.forget(user_id=user, match="York")
        self.assertEqual((preview["deleted"], preview.get("confirm_required")), (False, True))
        gone = c.forget(user_id=user, id=saved["memory"]["id"])
        self.assertEqual((gone["deleted"], gone.get("deleted_count")), (True, 1))
        committed = c.commit(user_id=user, messages=[{"role": "user", "content": "I prefer tea to coffee."}], sync=True)
        self.assertEqual(committed["status"], "completed")

    def test_search_takes_a_date_range(self) -> None:
        found = self.client.search(user_id=self.user, query="York", from_="2000-01-01", to="2999-12-31")
        self.assertIsInstance(found["results"], list)

    def test_the_user_as_an_agent_token(self) -> None:
        profile = self.client.read(token=sandbox().agent_token, sections="identity")
        self.assertIs(profile["linked"], True)
        self.assertEqual(profile.get("identity", {}).get("given_name"), "Sam")

    def test_the_turn_headers(self) -> None:
        profile = self.client.read(user_id=self.user, conversation_id="chat_7", turn_id="3", sections="summary")
        self.assertIs(profile["linked"], True)
        with self.assertRaises(ServiceError) as caught:
            self.client.read(user_id=self.user, conversation_id="chat 7")
        self.assertEqual((caught.exception.code, caught.exception.status), ("INVALID_INPUT", 400))
        self.assertEqual(caught.exception.message, "Invalid headers: X-Service-Conversation-Id.")

    def test_a_call_names_its_person(self) -> None:
        with self.assertRaises(ServiceError) as caught:
            self.client.read()
        self.assertEqual((caught.exception.code, caught.exception.type), ("INVALID_INPUT", "client"))


if __name__ == "__main__":
    unittest.main()
