"""The fake's Authentication API: `auth/token` with every grant, `auth/revoke`,
`auth/auth_with_idp`, and the multitenant ones (`auth/multitenant/token`, `client_data`,
`auth_with_idp`). Form-encoded in, JSON out, OAuth2-style error bodies."""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flexclient._support.narrow import is_json_object
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
    """The one application the fake knows: its client ID and secret, and token lifetime; and
    the hostname and secret a multitenant client names its marketplace with."""

    client_id: str
    client_secret: str
    token_ttl: float
    hostname: str = "marketplace.example.com"
    multitenant_client_secret: str = "fake-multitenant-secret"

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


# --- the multitenant endpoints: a JWT of the hostname, signed with the multitenant secret ----


def _unpadded(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def check_tenant(clients: Clients, assertion: str) -> None:
    """Accept a JWT (HS256) naming the fake's hostname, signed with its multitenant secret and
    not expired (by the wall clock, which signed it); 401 otherwise, 404 for another
    hostname."""
    bad = AuthFailure(401, "invalid_client", "Invalid multitenant client secret token")
    try:
        header_part, claims_part, signature = assertion.split(".")
        header: object = json.loads(_unpadded(header_part))
        claims: object = json.loads(_unpadded(claims_part))
        mac = _unpadded(signature)
    except (ValueError, binascii.Error):
        raise bad from None
    secret = clients.multitenant_client_secret.encode()
    signed = f"{header_part}.{claims_part}".encode()
    if not (is_json_object(header) and is_json_object(claims)) or header.get("alg") != "HS256":
        raise bad
    if not hmac.compare_digest(mac, hmac.new(secret, signed, hashlib.sha256).digest()):
        raise bad
    expires = claims.get("exp")
    if not isinstance(expires, int) or expires < time.time():
        raise bad
    if claims.get("hostname") != clients.hostname:
        raise AuthFailure(404, "not_found", "No marketplace has that hostname")


def client_data(clients: Clients) -> dict[str, Any]:
    return {"client_id": clients.client_id}


def multitenant_token(state: s.State, clients: Clients, form: Mapping[str, str]) -> dict[str, Any]:
    check_tenant(clients, form.get("client_secret", ""))
    grant_type = form.get("grant_type", "")
    if grant_type == "multitenant_client_credentials":
        answer = state.issue(clients.grant("public-read"), refreshable=False)
    elif grant_type == "multitenant_token_exchange":
        if form.get("scope") != "trusted:user":
            raise AuthFailure(400, "invalid_scope", f"Unknown scope {form.get('scope')!r}")
        subject = state.access_tokens.get(form.get("subject_token", ""))
        if subject is None or subject.user_id is None or subject.expires_at < s.now():
            raise AuthFailure(401, "invalid_grant", "Invalid subject token")
        answer = state.issue(clients.grant("trusted:user", subject.user_id), refreshable=False)
    else:
        raise AuthFailure(400, "unsupported_grant_type", f"Unsupported grant type {grant_type!r}")
    return {**answer, "client_data": client_data(clients)}


def multitenant_auth_with_idp(
    state: s.State, clients: Clients, form: Mapping[str, str]
) -> dict[str, Any]:
    check_tenant(clients, form.get("client_secret", ""))
    user_id = state.idp_tokens.get((form.get("idp_id", ""), form.get("idp_token", "")))
    if user_id is None:
        raise AuthFailure(401, "invalid_grant", "The identity provider token is not valid")
    return state.issue(clients.grant("user", user_id), refreshable=True)
