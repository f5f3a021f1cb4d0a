"""The short-lived HS256 JWT a multitenant client proves its secret with.

The official SDK signs `{"hostname": ...}` with the `jsonwebtoken` package, valid for 60
seconds, and makes a new one for each request; this writes the same bytes: compact JSON in
the order `hostname`, `iat`, `exp`, non-ASCII characters as they are, base64url without
padding, an HMAC-SHA256 over the UTF-8 bytes of the secret (RFC 7515, RFC 7519).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Mapping

# As `jsonwebtoken` writes it: the algorithm first, then the type.
_HEADER = {"alg": "HS256", "typ": "JWT"}
LIFETIME = 60
"""Seconds a multitenant JWT is valid: enough for clock skew, as the official SDK says."""


def _segment(value: Mapping[str, object]) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode()).rstrip(b"=").decode("ascii")


def sign_hs256(claims: Mapping[str, object], secret: str) -> str:
    """A compact JWS of `claims`, signed with HMAC-SHA256 by the UTF-8 bytes of `secret`."""
    signing_input = f"{_segment(_HEADER)}.{_segment(claims)}"
    mac = hmac.new(secret.encode(), signing_input.encode("ascii"), hashlib.sha256).digest()
    return f"{signing_input}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode('ascii')}"


def now() -> int:
    """The time in whole seconds, as a JWT's `iat` is written (a test's clock replaces it)."""
    return int(time.time())


def multitenant_assertion(hostname: str, secret: str) -> str:
    """The JWT naming the marketplace `hostname`, issued now and valid for `LIFETIME`."""
    issued = now()
    return sign_hs256({"hostname": hostname, "iat": issued, "exp": issued + LIFETIME}, secret)
