"""The fake's Authentication API: `auth/token` with every grant, `auth/revoke`,
`auth/auth_with_idp`. Form-encoded in, JSON out, OAuth2-style error bodies."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flexclient.testing import _state as s


@dataclass
class AuthFailure(Exception):
    status: int
    error: str
    description: str

    def body(self) -> dict[str, str]:
        return {"error": self.error, "error_description": self.description}


@dataclass
class Clients:
    """The one application the fake knows: its client ID and secret, and token lifetime."""

    client_id: str
    client_secret: str
    token_ttl: float

    def grant(self, scope: str, user_id: Any = None, *, logged_in_as: bool = False) -> s.Grant:
        expires = s.now() + dt.timedelta(seconds=self.token_ttl)
        return s.Grant(scope, user_id, expires, self.client_id, logged_in_as)

    def check_client(self, form: Mapping[str, str], *, secret: bool) -> None:
        if form.get("client_id") != self.client_id:
            raise AuthFailure(401, "invalid_client", "Unknown client ID")
        if secret and form.get("client_secret") != self.client_secret:
            raise AuthFailure(401, "invalid_client", "Invalid client secret")


def token(state: s.State, clients: Clients, form: Mapping[str, str]) -> dict[str, Any]:
    grant_type = form.get("grant_type", "")
    if grant_type == "client_credentials":
        scope = form.get("scope", "")
        if scope == "public-read":
            clients.check_client(form, secret=False)
            return state.issue(clients.grant("public-read"), refreshable=False)
        if scope == "integ":
            clients.check_client(form, secret=True)
            return state.issue(clients.grant("integ"), refreshable=True)
        raise AuthFailure(400, "invalid_scope", f"Unknown scope {scope!r}")
    if grant_type == "password":
        clients.check_client(form, secret=False)
        user = state.user_by_email(form.get("username", ""))
        if (
            user is None
            or state.passwords.get(user.id) != form.get("password")
            or user.attributes.deleted
            or user.attributes.banned
        ):
            raise AuthFailure(401, "invalid_grant", "Invalid username or password")
        return state.issue(clients.grant("user", user.id), refreshable=True)
    if grant_type == "refresh_token":
        clients.check_client(form, secret=False)
        old = state.refresh_tokens.pop(form.get("refresh_token", ""), None)
        if old is None:
            raise AuthFailure(401, "invalid_grant", "Invalid or revoked refresh token")
        fresh = clients.grant(old.scope, old.user_id, logged_in_as=old.is_logged_in_as)
        return state.issue(fresh, refreshable=True)
    if grant_type == "authorization_code":
        clients.check_client(form, secret=False)
        user_id = state.login_as_codes.pop(form.get("code", ""), None)
        if user_id is None or not form.get("code_verifier") or not form.get("redirect_uri"):
            raise AuthFailure(401, "invalid_grant", "Invalid authorization code")
        grant = clients.grant("user", user_id, logged_in_as=True)
        return state.issue(grant, refreshable=True)
    if grant_type == "token_exchange":
        clients.check_client(form, secret=True)
        subject = state.access_tokens.get(form.get("subject_token", ""))
        if subject is None or subject.user_id is None or subject.expires_at < s.now():
            raise AuthFailure(401, "invalid_grant", "Invalid subject token")
        return state.issue(clients.grant("trusted:user", subject.user_id), refreshable=False)
    raise AuthFailure(400, "unsupported_grant_type", f"Unsupported grant type {grant_type!r}")


def auth_with_idp(state: s.State, clients: Clients, form: Mapping[str, str]) -> dict[str, Any]:
    clients.check_client(form, secret=True)
    user_id = state.idp_tokens.get((form.get("idp_id", ""), form.get("idp_token", "")))
    if user_id is None:
        raise AuthFailure(401, "invalid_grant", "The identity provider token is not valid")
    return state.issue(clients.grant("user", user_id), refreshable=True)


def revoke(state: s.State, form: Mapping[str, str]) -> dict[str, Any]:
    state.refresh_tokens.pop(form.get("token", ""), None)
    return {"action": "revoked"}
