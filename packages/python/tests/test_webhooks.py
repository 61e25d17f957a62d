"""verify_webhook: Standard Webhooks' published example verifies; deliveries signed here (as the service
signs) verify under either secret of a rotation; anything else is refused with its reason."""

import base64
import hashlib
import hmac
import json
import os
import unittest

from profile_service import WEBHOOK_TOLERANCE_SECONDS, WebhookVerificationError, verify_webhook

# The example of the Standard Webhooks specification (and Svix's documentation).
EXAMPLE = {
    "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    "id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
    "timestamp": "1614265330",
    "body": b'{"test": 2432232314}',
    "signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
}
NOW = 1_800_000_000
BODY = json.dumps({"id": "evt_1", "type": "user.deleted", "createdAt": "2027-01-15T08:00:00.000Z", "livemode": False, "data": {"userId": "u", "externalIds": []}}).encode()


def new_secret():
    return "whsec_" + base64.b64encode(os.urandom(32)).decode()


def sign(secret, msg_id, timestamp, body):
    key = base64.b64decode(secret[len("whsec_") :])
    return "v1," + base64.b64encode(hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()).decode()


class VerifyWebhookTest(unittest.TestCase):
    def reason(self, *args, **kwargs):
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_webhook(*args, **kwargs)
        return caught.exception.reason

    def test_the_standard_webhooks_example_verifies(self):
        headers = {"webhook-id": EXAMPLE["id"], "webhook-timestamp": EXAMPLE["timestamp"], "webhook-signature": EXAMPLE["signature"]}
        self.assertEqual(verify_webhook(EXAMPLE["secret"], headers, EXAMPLE["body"], now=int(EXAMPLE["timestamp"])), {"test": 2432232314})

    def test_a_delivery_verifies_with_headers_in_any_case_and_the_body_as_text(self):
        secret = new_secret()
        headers = {"Webhook-Id": "evt_1", "WEBHOOK-TIMESTAMP": str(NOW), "webhook-signature": sign(secret, "evt_1", NOW, BODY)}
        self.assertEqual(verify_webhook(secret, headers, BODY, now=NOW)["type"], "user.deleted")
        self.assertEqual(verify_webhook(secret, headers, BODY.decode(), now=NOW)["id"], "evt_1")

    def test_during_a_rotation_either_secret_verifies(self):
        current, previous = new_secret(), new_secret()
        signature = f"{sign(current, 'evt_1', NOW, BODY)} {sign(previous, 'evt_1', NOW, BODY)}"
        for secret in (current, previous):
            self.assertEqual(verify_webhook(secret, {"webhook-id": "evt_1", "webhook-timestamp": str(NOW), "webhook-signature": signature}, BODY, now=NOW)["id"], "evt_1")
        self.assertEqual(self.reason(new_secret(), {"webhook-id": "evt_1", "webhook-timestamp": str(NOW), "webhook-signature": signature}, BODY, now=NOW), "invalid_signature")

    def test_changed_or_missing_parts_are_refused(self):
        secret = new_secret()
        good = {"webhook-id": "evt_1", "webhook-timestamp": str(NOW), "webhook-signature": sign(secret, "evt_1", NOW, BODY)}
        self.assertEqual(self.reason(secret, good, BODY.replace(b"user.deleted", b"approval.granted"), now=NOW), "invalid_signature")
        self.assertEqual(self.reason(secret, {**good, "webhook-id": "evt_2"}, BODY, now=NOW), "invalid_signature")
        self.assertEqual(self.reason(secret, {**good, "webhook-signature": good["webhook-signature"].replace("v1,", "v2,")}, BODY, now=NOW), "invalid_signature")
        self.assertEqual(self.reason(secret, {**good, "webhook-signature": "v1,not base64!"}, BODY, now=NOW), "invalid_signature")
        for name in ("webhook-id", "webhook-timestamp", "webhook-signature"):
            headers = {k: v for k, v in good.items() if k != name}
            self.assertEqual(self.reason(secret, headers, BODY, now=NOW), "missing_headers")

    def test_a_timestamp_too_far_either_way_is_refused(self):
        secret = new_secret()
        for skew, ok in ((WEBHOOK_TOLERANCE_SECONDS, True), (-WEBHOOK_TOLERANCE_SECONDS, True), (WEBHOOK_TOLERANCE_SECONDS + 1, False), (-WEBHOOK_TOLERANCE_SECONDS - 1, False)):
            ts = str(NOW + skew)
            headers = {"webhook-id": "evt_1", "webhook-timestamp": ts, "webhook-signature": sign(secret, "evt_1", ts, BODY)}
            if ok:
                self.assertEqual(verify_webhook(secret, headers, BODY, now=NOW)["id"], "evt_1")
            else:
                self.assertEqual(self.reason(secret, headers, BODY, now=NOW), "timestamp_out_of_range")
        self.assertEqual(self.reason(secret, {"webhook-id": "e", "webhook-timestamp": "1e9", "webhook-signature": "v1,x"}, BODY, now=NOW), "timestamp_out_of_range")

    def test_a_bad_secret_or_a_body_that_is_not_json_is_refused(self):
        self.assertEqual(self.reason("whsec_***", {"webhook-id": "e", "webhook-timestamp": str(NOW), "webhook-signature": "v1,x"}, BODY, now=NOW), "invalid_secret")
        secret = new_secret()
        self.assertEqual(self.reason(secret, {"webhook-id": "e", "webhook-timestamp": str(NOW), "webhook-signature": sign(secret, "e", NOW, b"not json")}, b"not json", now=NOW), "invalid_body")
        self.assertIsInstance(WebhookVerificationError("invalid_body", "x"), ValueError)


if __name__ == "__main__":
    unittest.main()
