"""The library's version: the same as the TypeScript client's (packages/client/package.json)."""

__version__ = "0.2.0"
