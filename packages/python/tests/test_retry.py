"""Retries: a retryable answer is tried again after exactly its Retry-After (or with backoff), what cannot
pass is sent once, and a Retry-After longer than the client waits for is raised at once. Local servers
answer in the service's wire format."""

from __future__ import annotations

import time
import unittest

from _service import Answer, free_port, stand_in

from profile_service import ProfileClient, RetryInfo, RetryOptions, ServiceError

RATE_LIMITED = {"error": {"code": "rate_limited", "message": "slow down"}, "request_id": "req_x"}
PROFILE = {"linked": True, "summary": "", "livemode": False}


def client(url: str, delays: list[float], **retry: float) -> ProfileClient:
    def on_retry(info: RetryInfo) -> None:
        delays.append(info.delay)

    return ProfileClient(base_url=url, api_key="sk_x", agent="a", retry=RetryOptions(**retry), on_retry=on_retry)  # type: ignore[arg-type]


class Retries(unittest.TestCase):
    def test_a_rate_limit_then_a_503_are_retried_after_their_retry_after(self) -> None:
        script = [Answer(429, RATE_LIMITED, {"Retry-After": "1"}), Answer(503, "upstream", {"Retry-After": "0"}), Answer(200, PROFILE)]
        delays: list[float] = []
        with stand_in(script) as server:
            started = time.monotonic()
            profile = client(server.url, delays, retries=2).read(user_id="u", sections="summary")
            elapsed = time.monotonic() - started
            self.assertEqual(len(server.requests), 3)
            self.assertGreaterEqual(server.times[1] - server.times[0], 0.95)
            for method, path, headers, _ in server.requests:
                self.assertEqual((method, path), ("GET", "/v1/profile?sections=summary"))
                self.assertEqual((headers["x-api-key"], headers["x-agent"], headers["x-user-id"]), ("sk_x", "a", "u"))
        self.assertEqual(profile["linked"], True)
        self.assertEqual(delays, [1.0, 0.0])
        self.assertGreaterEqual(elapsed, 0.95)

    def test_the_retry_after_of_the_error_body(self) -> None:
        body = {"error": {"code": "rate_limited", "message": "slow down", "retry_after": 0.2}}
        delays: list[float] = []
        with stand_in([Answer(429, body), Answer(200, PROFILE)]) as server:
            client(server.url, delays).read(user_id="u")
        self.assertEqual(delays, [0.2])

    def test_a_retry_after_past_the_longest_wait_is_raised_at_once(self) -> None:
        delays: list[float] = []
        with stand_in([Answer(429, RATE_LIMITED, {"Retry-After": "120"})]) as server:
            with self.assertRaises(ServiceError) as caught:
                client(server.url, delays, retries=3).read(user_id="u")
            self.assertEqual(len(server.requests), 1)
        self.assertEqual((caught.exception.code, caught.exception.retry_after, caught.exception.request_id), ("RATE_LIMITED", 120, "req_x"))
        self.assertEqual(delays, [])

    def test_what_cannot_pass_is_sent_once(self) -> None:
        body = {"error": {"code": "invalid_request", "message": "Invalid body: text."}}
        with stand_in([Answer(400, body)]) as server:
            with self.assertRaises(ServiceError) as caught:
                client(server.url, [], retries=3, base_delay=0.01).remember(user_id="u", text="")
            self.assertEqual(len(server.requests), 1)
            self.assertEqual(server.requests[0][3], {"text": ""})
        self.assertEqual(caught.exception.code, "INVALID_INPUT")

    def test_network_failures_back_off_and_give_up(self) -> None:
        delays: list[float] = []
        refused = f"http://127.0.0.1:{free_port()}"
        with self.assertRaises(ServiceError) as caught:
            client(refused, delays, retries=2, base_delay=0.02).read(user_id="u")
        self.assertEqual((caught.exception.code, caught.exception.status, caught.exception.type), ("NETWORK_ERROR", 0, "network_error"))
        self.assertEqual(len(delays), 2)
        self.assertTrue(all(0.01 <= d <= 0.04 for d in delays), delays)

    def test_a_try_past_its_time_limit_is_a_timeout(self) -> None:
        with stand_in([Answer(200, PROFILE, delay=2)]) as server:
            c = ProfileClient(base_url=server.url, api_key="sk_x", agent="a", timeout=0.3, retry=RetryOptions(retries=0))
            started = time.monotonic()
            with self.assertRaises(ServiceError) as caught:
                c.read(user_id="u")
            self.assertLess(time.monotonic() - started, 1.5)
        self.assertEqual((caught.exception.code, caught.exception.type, caught.exception.retryable), ("TIMEOUT", "timeout", True))


if __name__ == "__main__":
    unittest.main()
