"""The generated types: every operation's query, body and answer types resolve at run time, and the
profile routes' fields are those the methods send."""

from __future__ import annotations

import typing
import unittest

import _service  # noqa: F401 - puts the library on the path when it is not installed

from profile_service import api


def typed_dicts(tp: object) -> list[type]:
    """The TypedDict classes a type names, directly or in a union."""
    if typing.is_typeddict(tp):
        return [tp]  # type: ignore[list-item]
    return [t for arg in typing.get_args(tp) for t in typed_dicts(arg)]


class GeneratedTypes(unittest.TestCase):
    def test_every_operation_resolves(self) -> None:
        self.assertGreater(len(api.OPERATIONS), 30)
        for label, parts in api.OPERATIONS.items():
            for part, tp in parts.items():
                classes = typed_dicts(tp)
                self.assertTrue(classes or part == "response", f"{label} {part}")
                for cls in classes:
                    typing.get_type_hints(cls)

    def test_the_profile_routes(self) -> None:
        self.assertEqual(set(typing.get_type_hints(api.PostV1ProfileRememberBody)), {"text", "box", "kind", "reply_to", "resolves"})
        self.assertEqual(api.PostV1ProfileRememberBody.__required_keys__, frozenset({"text"}))
        self.assertIn("from", typing.get_type_hints(api.GetV1ProfileSearchQuery))
        self.assertEqual({c.__name__ for c in typed_dicts(api.GetV1ProfileResponse)}, {"GetV1ProfileResponse1", "GetV1ProfileResponse2"})
        session = typing.get_type_hints(api.PostV1ProfileMcpSessionResponse)
        self.assertEqual(set(session), {"ok", "linked", "continued", "session", "mcp_url", "mcp_servers", "livemode"})


if __name__ == "__main__":
    unittest.main()
