"""Service URLs as they may be shown: never with credentials.

A token can hide in a URL (``https://user:token@host`` or ``?access_token=...``, which the
service accepts); everything that displays or records a URL goes through :func:`public_url`.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

__all__ = ["public_url", "split_credentials"]


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


def split_credentials(url: str) -> tuple[str, str | None, list[tuple[str, str]]]:
    """``url`` without user, password, query or fragment; the token it held (the password,
    else the user name, else ``access_token``); and its other query parameters.

    >>> split_credentials("https://:secret@example.org/api?lang=de")
    ('https://example.org/api', 'secret', [('lang', 'de')])
    """
    parts = urlsplit(url)
    userinfo, _, netloc = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    token = unquote(password or user) or None
    params = []
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key == "access_token":
            token = token or value or None
        else:
            params.append((key, value))
    return urlunsplit((parts.scheme, netloc, parts.path, "", "")), token, params
