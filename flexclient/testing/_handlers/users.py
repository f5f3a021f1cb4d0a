"""`users` and `current_user`: profiles, sign-up, passwords, approval."""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from flexclient._endpoints.table import IntegrationEndpoints as Integ
from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.models import CurrentUserAttributes
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, Call, invalid
from flexclient.testing._handlers._lookup import filter_extended, user
from flexclient.testing._handlers._sorting import created_at, created_within, ordered
from flexclient.testing._routes import handles
from flexclient.testing._schema import attributes_model, stored

MIN_PASSWORD = 8


@handles(Market.users.cls.show, Integ.users.cls.show)
def show(c: Call) -> dict[str, Any]:
    return c.one(user(c, c.query_id()))


@handles(Integ.users.cls.query, extended_data_filters=True)
def query(c: Call) -> dict[str, Any]:
    found = [u for u in c.state.users.values() if not u.attributes.deleted]
    found = created_within(c, found)
    found = filter_extended(c, found)
    return c.page(ordered(c, found, {"createdAt": created_at}))


def update_profile(c: Call, target: s.Record[CurrentUserAttributes]) -> None:
    """Write the body's profile fields (and profile image) to a user, with its event."""
    before = c.snapshot(target)
    profile = c.write(target.attributes.profile)
    first, last = profile.first_name, profile.last_name
    # A display name set to null is the default one again (the web template clears it so).
    shown = profile.display_name or s.default_display_name(first, last)
    profile = profile.model_copy(
        update={"abbreviated_name": s.abbreviation(first, last), "display_name": shown}
    )
    target.set(profile=profile)
    if "profileImageId" in c.body:
        image_id = c.body["profileImageId"]
        if image_id is not None:
            image_id = uuid.UUID(str(image_id))
            if image_id not in c.state.images:
                raise invalid("body", "profileImageId", "no such image")
        target.link("profileImage", "image", image_id)
    c.emit("user/updated", target, before)


@handles(Market.current_user.cls.show)
def current_user_show(c: Call) -> dict[str, Any]:
    return c.one(c.user())


@handles(Market.current_user.cls.create)
def current_user_create(c: Call) -> dict[str, Any]:
    email = (c.body_value("email", str, required=True) or "").lower()
    password = c.body_value("password", str, required=True) or ""
    if "@" not in email:
        raise invalid("body", "email", "not an email address")
    if len(password) < MIN_PASSWORD:
        raise invalid("body", "password", f"at least {MIN_PASSWORD} characters")
    if c.state.user_by_email(email) is not None:
        raise ApiFailure(409, "email-taken", "The email address is already taken")
    first = c.body_value("firstName", str, required=True) or ""
    last = c.body_value("lastName", str, required=True) or ""
    made = s.new_user(
        email, first, last, c.body_value("displayName", str), created_at=c.state.time()
    )
    made.set(profile=c.write(made.attributes.profile))
    c.state.users[made.id] = made
    c.state.passwords[made.id] = password
    c.emit("user/created", made, None)
    return c.one(made)


@handles(Market.current_user.cls.update_profile)
def current_user_update_profile(c: Call) -> dict[str, Any]:
    me = c.user()
    update_profile(c, me)
    return c.one(me)


@handles(Market.current_user.cls.change_password)
def current_user_change_password(c: Call) -> dict[str, Any]:
    me = c.user()
    if c.body_value("currentPassword", str, required=True) != c.state.passwords.get(me.id):
        raise ApiFailure(403, "forbidden", "The current password is wrong")
    new = c.body_value("newPassword", str, required=True) or ""
    if len(new) < MIN_PASSWORD:
        raise invalid("body", "newPassword", f"at least {MIN_PASSWORD} characters")
    c.state.passwords[me.id] = new
    return c.one(me)


@handles(Integ.users.cls.update_profile)
def users_update_profile(c: Call) -> dict[str, Any]:
    target = user(c, c.body_id())
    update_profile(c, target)
    return c.one(target)


@handles(Integ.users.cls.approve)
def users_approve(c: Call) -> dict[str, Any]:
    target = user(c, c.body_id())
    before = c.snapshot(target)
    target.set(state="active")
    c.emit("user/updated", target, before)
    return c.one(target)


# --- account flows: tokens a test reads from `FakeMarketplace.outbox` ------------------------


def _send(c: Call, to: s.Record[CurrentUserAttributes], kind: str, address: str) -> str:
    token = secrets.token_urlsafe(16)
    c.state.outbox.append(s.Email(address, kind, token, to.id))
    return token


def _token_holder(c: Call, kind: str, token: str, user_id: uuid.UUID | None = None) -> s.Email:
    found = next(
        (
            e
            for e in reversed(c.state.outbox)
            if e.kind == kind and e.token == token and (user_id is None or e.user_id == user_id)
        ),
        None,
    )
    if found is None:
        raise ApiFailure(403, "forbidden", "The token is not valid")
    return found


def _check_password(c: Call, user: s.Record[CurrentUserAttributes]) -> None:
    if c.body_value("currentPassword", str, required=True) != c.state.passwords.get(user.id):
        raise ApiFailure(403, "forbidden", "The current password is wrong")


@handles(Market.password_reset.cls.request)
def password_reset_request(c: Call) -> dict[str, Any]:
    email = c.body_value("email", str, required=True) or ""
    user = c.state.user_by_email(email)
    if user is None or user.attributes.deleted:
        raise ApiFailure(409, "email-not-found", "No user has that email address")
    _send(c, user, "password-reset", user.attributes.email or email)
    return c.one(_password_reset(email))


def _password_reset(email: str) -> s.Record[Any]:
    model = attributes_model("passwordReset")
    return s.new("passwordReset", model, rid=uuid.uuid5(uuid.NAMESPACE_URL, email))


@handles(Market.password_reset.cls.reset)
def password_reset_reset(c: Call) -> dict[str, Any]:
    email = c.body_value("email", str, required=True) or ""
    token = c.body_value("passwordResetToken", str, required=True) or ""
    new = c.body_value("newPassword", str, required=True) or ""
    user = c.state.user_by_email(email)
    if user is None:
        raise ApiFailure(403, "forbidden", "The token is not valid")
    used = _token_holder(c, "password-reset", token, user.id)
    if len(new) < MIN_PASSWORD:
        raise invalid("body", "newPassword", f"at least {MIN_PASSWORD} characters")
    c.state.outbox.remove(used)
    c.state.passwords[user.id] = new
    return c.one(_password_reset(email))


@handles(Market.current_user.cls.send_verification_email)
def send_verification_email(c: Call) -> dict[str, Any]:
    me = c.user()
    if me.attributes.email_verified and not me.attributes.pending_email:
        raise ApiFailure(409, "email-already-verified", "The email address is verified")
    _send(c, me, "email-verification", me.attributes.pending_email or me.attributes.email or "")
    return c.one(me)


@handles(Market.current_user.cls.verify_email)
def verify_email(c: Call) -> dict[str, Any]:
    token = c.body_value("verificationToken", str, required=True) or ""
    me = c.user() if c.grant.user_id else None
    used = _token_holder(c, "email-verification", token, me.id if me else None)
    user = c.state.users[used.user_id]
    c.state.outbox.remove(used)
    _verified(c, user)
    return c.one(user)


def _verified(c: Call, user: s.Record[CurrentUserAttributes]) -> None:
    before = c.snapshot(user)
    new_email = user.attributes.pending_email or user.attributes.email
    user.set(email=new_email, pending_email=None, email_verified=True)
    c.emit("user/updated", user, before)


@handles(Market.current_user.cls.change_email)
def change_email(c: Call) -> dict[str, Any]:
    me = c.user()
    _check_password(c, me)
    email = (c.body_value("email", str, required=True) or "").lower()
    if "@" not in email:
        raise invalid("body", "email", "not an email address")
    taken = c.state.user_by_email(email)
    if taken is not None and taken.id != me.id:
        raise ApiFailure(409, "email-taken", "The email address is already taken")
    before = c.snapshot(me)
    # The new address waits for verification; the old one stays until then.
    me.set(pending_email=email)
    _send(c, me, "email-verification", email)
    c.emit("user/updated", me, before)
    return c.one(me)


@handles(Market.current_user.cls.delete)
def delete(c: Call) -> dict[str, Any]:
    me = c.user()
    _check_password(c, me)
    mine = [t.id for t in c.state.transactions.values() if me.id in _parties(t)]
    for tx_id in mine:
        progress = c.state.progress.get(tx_id)
        unsettled = progress is not None and progress.payment in ("created", "confirmed")
        if unsettled or (
            progress is not None and progress.payment == "captured" and not progress.paid_out
        ):
            raise ApiFailure(
                409,
                "conflict",
                "User has transactions on states that include incomplete payment processing",
            )
    answer = c.one(me)
    # What a deleted user keeps of a profile: nothing (a blank one, as the model makes it).
    blank = stored(type(me.attributes.profile))
    me.set(deleted=True, email=None, pending_email=None, profile=blank)
    c.state.passwords.pop(me.id, None)
    for tokens in (c.state.access_tokens, c.state.refresh_tokens):
        for key in [k for k, g in tokens.items() if g.user_id == me.id]:
            del tokens[key]
    c.emit_deleted("user/deleted", me)
    return answer


def _parties(tx: s.Record[Any]) -> tuple[uuid.UUID | None, uuid.UUID | None]:
    return tx.one("customer"), tx.one("provider")


@handles(Market.current_user.cls.create_with_idp)
def create_with_idp(c: Call) -> dict[str, Any]:
    idp_id = c.body_value("idpId", str, required=True) or ""
    c.body_value("idpClientId", str, required=True)
    idp_token = c.body_value("idpToken", str, required=True) or ""
    identity = c.state.idp_identities.get((idp_id, idp_token))
    if identity is None:
        raise ApiFailure(401, "idp-token-invalid", "The identity provider token is not valid")
    email = (c.body_value("email", str) or identity.get("email") or "").lower()
    if "@" not in email:
        raise invalid("body", "email", "not an email address")
    if c.state.user_by_email(email) is not None:
        raise ApiFailure(409, "email-taken", "The email address is already taken")
    first = c.body_value("firstName", str) or identity.get("first_name") or ""
    last = c.body_value("lastName", str) or identity.get("last_name") or ""
    made = s.new_user(
        email,
        first,
        last,
        c.body_value("displayName", str),
        created_at=c.state.time(),
        email_verified=identity.get("email") == email,
        identity_providers=[{"idpId": idp_id, "userId": identity["user_id"]}],
    )
    made.set(profile=c.write(made.attributes.profile))
    c.state.users[made.id] = made
    c.state.idp_tokens[(idp_id, idp_token)] = made.id
    c.emit("user/created", made, None)
    return c.one(made)


@handles(Integ.users.cls.update_permissions)
def users_update_permissions(c: Call) -> dict[str, Any]:
    target = user(c, c.body_id())
    before = c.snapshot(target)
    permissions = dict(target.attributes.permissions)
    for key in ("postListings", "initiateTransactions", "read"):
        value = c.body_value(key, str)
        if value is None:
            continue
        if value not in ("permission/allow", "permission/deny"):
            raise invalid("body", key, "permission/allow or permission/deny")
        permissions[key] = value
    target.set(permissions=permissions)
    c.emit("user/updated", target, before)
    return c.one(target)


@handles(Integ.users.cls.verify_email)
def users_verify_email(c: Call) -> dict[str, Any]:
    target = user(c, c.body_id())
    _verified(c, target)
    return c.one(target)
