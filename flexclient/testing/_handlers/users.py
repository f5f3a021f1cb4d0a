"""`users` and `current_user`: profiles, sign-up, passwords, approval."""

from __future__ import annotations

import uuid
from typing import Any

from flexclient._endpoints import IntegrationEndpoints as Integ
from flexclient._endpoints import MarketplaceEndpoints as Market
from flexclient.models import CurrentUserAttributes
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, Call, invalid
from flexclient.testing._handlers._lookup import filter_extended, time, user
from flexclient.testing._routes import handles

MIN_PASSWORD = 8


@handles(Market.users.cls.show, Integ.users.cls.show)
def show(c: Call) -> dict[str, Any]:
    return c.one(user(c, c.q_id()))


@handles(Integ.users.cls.query, extended_data_filters=True)
def query(c: Call) -> dict[str, Any]:
    start, end = c.q("createdAtStart", time), c.q("createdAtEnd", time)
    found = [u for u in c.state.users.values() if not u.attributes.deleted]
    found = [
        u
        for u in found
        if (start is None or _created(u) >= start) and (end is None or _created(u) < end)
    ]
    found = filter_extended(c, found)
    newest_first = c.params.get("sort", "-createdAt").startswith("-")
    found.sort(key=_created, reverse=newest_first)
    return c.page(found)


def _created(u: s.Record[CurrentUserAttributes]) -> Any:
    return u.attributes.created_at


def update_profile(c: Call, target: s.Record[CurrentUserAttributes]) -> None:
    """Write the body's profile fields (and profile image) to a user, with its event."""
    before = c.snapshot(target)
    profile = c.write(target.attributes.profile)
    profile = profile.model_copy(
        update={"abbreviated_name": s.abbreviation(profile.first_name, profile.last_name)}
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
    email = (c.b("email", str, required=True) or "").lower()
    password = c.b("password", str, required=True) or ""
    if "@" not in email:
        raise invalid("body", "email", "not an email address")
    if len(password) < MIN_PASSWORD:
        raise invalid("body", "password", f"at least {MIN_PASSWORD} characters")
    if c.state.user_by_email(email) is not None:
        raise ApiFailure(409, "email-taken", "The email address is already taken")
    first = c.b("firstName", str, required=True) or ""
    last = c.b("lastName", str, required=True) or ""
    made = s.new_user(email, first, last, c.b("displayName", str))
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
    if c.b("currentPassword", str, required=True) != c.state.passwords.get(me.id):
        raise ApiFailure(403, "forbidden", "The current password is wrong")
    new = c.b("newPassword", str, required=True) or ""
    if len(new) < MIN_PASSWORD:
        raise invalid("body", "newPassword", f"at least {MIN_PASSWORD} characters")
    c.state.passwords[me.id] = new
    return c.one(me)


@handles(Integ.users.cls.update_profile)
def users_update_profile(c: Call) -> dict[str, Any]:
    target = user(c, c.b_id())
    update_profile(c, target)
    return c.one(target)


@handles(Integ.users.cls.approve)
def users_approve(c: Call) -> dict[str, Any]:
    target = user(c, c.b_id())
    before = c.snapshot(target)
    target.set(state="active")
    c.emit("user/updated", target, before)
    return c.one(target)
