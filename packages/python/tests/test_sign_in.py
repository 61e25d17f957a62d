"""Hosted sign-in: the links the library builds (and the service opens), return destinations, a code
exchanged for a token (and a replayed one), and validation."""

from __future__ import annotations

import unittest
import urllib.parse
import urllib.request

from _service import needs_service, post_json, sandbox, sandbox_client

from profile_service import ProfileClient, ServiceError, SignInDefaults, build_sign_in_url, required_param

RETURN_TO = "https://app.example.com/sign-in/done"


class Links(unittest.TestCase):
    def test_the_link_carries_each_parameter(self) -> None:
        url = build_sign_in_url(
            "https://signin.example/trailhead",
            return_to=RETURN_TO,
            state="s1",
            display_name="Demo",
            connectors=["gmail", "gmail"],
            required=[["gmail", "outlook"], "chatgpt"],
            publishable_key="pk_test_abc",
        )
        parts = urllib.parse.urlsplit(url)
        self.assertEqual(parts.path, "/trailhead")
        self.assertEqual(
            dict(urllib.parse.parse_qsl(parts.query)),
            {"return_to": RETURN_TO, "state": "s1", "display_name": "Demo", "connectors": "gmail", "required": "gmail|outlook,chatgpt", "publishable_key": "pk_test_abc"},
        )
        self.assertIn("required=gmail%7Coutlook%2Cchatgpt", url)
        self.assertEqual(required_param(["a", ("b", "c")]), "a,b|c")

    def test_what_a_link_refuses(self) -> None:
        for kwargs in ({"publishable_key": "sk_live_x"}, {"state": "x" * 2049}, {"display_name": "x" * 81}, {"return_to": "/relative"}):
            with self.assertRaises(ServiceError, msg=str(kwargs)) as caught:
                build_sign_in_url("https://signin.example/a", **kwargs)  # type: ignore[arg-type]
            self.assertEqual(caught.exception.code, "INVALID_INPUT")
        with self.assertRaises(ServiceError):
            build_sign_in_url("not a url")
        self.assertIn("return_to=com.example.app%3A%2F%2Fcallback", build_sign_in_url("https://signin.example/a", return_to="com.example.app://callback"))

    def test_the_client_fills_its_defaults(self) -> None:
        client = ProfileClient(base_url="https://p.example", agent="trailhead", sign_in=SignInDefaults(return_to=RETURN_TO, display_name="Acme"))
        url = urllib.parse.urlsplit(client.sign_in_url(state="s"))
        self.assertEqual((url.netloc, url.path), ("p.example", "/sign-in/trailhead"))
        self.assertEqual(dict(urllib.parse.parse_qsl(url.query)), {"return_to": RETURN_TO, "state": "s", "display_name": "Acme"})


@needs_service
class HostedSignIn(unittest.TestCase):
    def test_a_link_the_sign_in_host_opens_once_its_return_destination_is_registered(self) -> None:
        s = sandbox()
        client = sandbox_client(sign_in=SignInDefaults(url=s.sign_in_url, return_to=RETURN_TO, publishable_key=s.publishable_key))
        self.assertIs(client.register_return_destination()["created"], True)
        self.assertIs(client.register_return_destination()["created"], False)
        self.assertIn(RETURN_TO, [d["returnTo"] for d in client.list_return_destinations()["destinations"]])
        url = client.sign_in_url(state="s1", display_name="Demo", connectors=["gmail"])
        self.assertTrue(url.startswith(s.sign_in_url), url)
        with urllib.request.urlopen(url, timeout=30) as res:
            self.assertLess(res.status, 400)
        other = "https://app.example.com/elsewhere"
        client.register_return_destination(return_to=other)
        self.assertIs(client.remove_return_destination(return_to=other)["deleted"], True)

    def test_a_code_is_exchanged_once_and_a_replayed_url_with_a_valid_token_is_a_sign_in(self) -> None:
        s = sandbox()
        status, body = post_json("/v1/auth/sign-in/code", headers={"x-api-key": s.secret_key, "x-agent": s.agent, "authorization": f"Bearer {s.agent_token}"})
        self.assertEqual(status, 201, body)
        code = body["code"]
        client = sandbox_client()
        first = client.exchange_code(code=code)
        self.assertEqual((first.user_id, first.replayed), (s.user_id, False))
        validation = client.validate(token=first.token)
        self.assertEqual((validation["valid"], validation.get("userId")), (True, s.user_id))
        replay = client.exchange_code(code=code, current_token=first.token)
        self.assertEqual((replay.token, replay.user_id, replay.replayed), (first.token, s.user_id, True))
        with self.assertRaises(ServiceError) as caught:
            client.exchange_code(code=code)
        self.assertEqual((caught.exception.code, caught.exception.type), ("INVALID_INPUT", "code_already_used"))
        with self.assertRaises(ServiceError) as caught:
            client.exchange_code(code="unknown-code")
        self.assertEqual(caught.exception.type, "invalid_code")

    def test_message_lines_text_back_links_and_phone_recognition(self) -> None:
        client, phone = sandbox_client(), "+14155550123"
        line = client.register_message_line(phone=phone, label="Support")["line"]
        self.assertEqual((line["phoneLast4"], line["status"]), ("0123", "active"))
        self.assertIn(line["id"], [l["id"] for l in client.list_message_lines()["lines"]])
        link = client.create_message_sign_in_url(agentPhone=phone, messageBody="hi", required=["gmail"])
        self.assertEqual((link["mode"], link["reason"], link.get("fallbackReason")), ("plain", "signin", "sender_proof_missing"))
        self.assertNotIn("required", dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link["url"]).query)))
        self.assertIs(client.revoke_message_line(phone=phone)["deleted"], True)
        recognized = client.recognize_phone(candidates=["tel:+14155550987"])
        self.assertEqual((recognized["matched"], recognized["approved"], recognized["token"]), (False, False, None))

    def test_an_unknown_token_is_not_valid(self) -> None:
        self.assertIs(sandbox_client().validate(token="not-a-token")["valid"], False)


if __name__ == "__main__":
    unittest.main()
