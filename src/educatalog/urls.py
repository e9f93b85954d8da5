"""Service URLs as they may be shown: never with credentials.

A token can hide in a URL (``https://user:token@host`` or ``?access_token=...``, which the
service accepts); everything that displays or records a URL goes through :func:`public_url`.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

__all__ = ["public_url"]


def public_url(url: str | None) -> str | None:
    """``url`` without user, password, query or fragment.

    >>> public_url("https://me:secret@example.org/api?access_token=x")
    'https://example.org/api'
    """
    if not url:
        return url
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
