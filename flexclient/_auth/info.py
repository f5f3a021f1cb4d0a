"""`AuthInfo`: what a client's stored token allows, as `auth_info()` tells it.

Imported with the first `auth_info()`: most programs never ask, and never build the class.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flexclient._auth.tokens import Token


@dataclass(frozen=True)
class AuthInfo:
    """What the stored token allows: its scopes, whether it is anonymous (only
    `public-read`), whether it acts as a user, and whether an operator got it by logging in
    as a user.

    `is_user_logged_in` is the check a program wants before acting as a user: a user's token
    is stored (after `login()`, `login_as()`, or from a web app's session; a `trusted:user`
    token too), neither anonymous nor the Integration API's. `is_logged_in_as` is narrower:
    an operator's "login as" a user (Console), and then `is_user_logged_in` is True as well.

    With no token stored (before the first call, after logout) the info is empty: no scopes,
    and neither anonymous nor logged in; `has_token` is False.
    """

    scopes: list[str] = field(default_factory=list[str])
    is_anonymous: bool = False
    is_logged_in_as: bool = False
    has_token: bool = False
    is_user_logged_in: bool = False

    @classmethod
    def of(cls, token: Token | None) -> AuthInfo:
        if token is None:
            return cls()
        return cls(
            scopes=token.scopes,
            is_anonymous=token.is_anonymous,
            is_logged_in_as=token.is_logged_in_as,
            has_token=True,
            is_user_logged_in=not token.is_anonymous and "integ" not in token.scopes,
        )
