"""Users: as others see them (`user`) and as they see themselves (`currentUser`)."""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from pydantic import Field

from flexclient.models._resource import Attributes, Resource, WireModel
from flexclient.models.images import Image
from flexclient.models.marketplace import Marketplace


class UserProfile(WireModel):
    """A user's profile; names and extended data visible to the caller.

    What the response did not send is None: a key left out by sparse `fields.user`
    (`profile.displayName` sends only that key of the profile), or one the caller may not see
    (`private_data` of another user). Sent but empty extended data is `{}`.
    """

    display_name: str | None = None
    abbreviated_name: str | None = None
    bio: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    public_data: dict[str, Any] | None = None
    protected_data: dict[str, Any] | None = None
    private_data: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None


class UserAttributes(Attributes):
    """`state` is open-ended: known values include `active`, `pendingApproval`, `banned`."""

    banned: bool | None = None
    deleted: bool | None = None
    created_at: dt.datetime | None = None
    profile: UserProfile = Field(default_factory=UserProfile)
    email: str | None = None
    email_verified: bool | None = None
    pending_email: str | None = None
    state: str | None = None
    stripe_connected: bool | None = None
    identity_providers: list[dict[str, Any]] = Field(default_factory=list)
    permissions: dict[str, Any] = Field(default_factory=dict)


class User(Resource):
    """A user (`users.show`; the author of a listing)."""

    resource_type: ClassVar[str | None] = "user"
    attributes: UserAttributes = Field(default_factory=UserAttributes)

    @property
    def profile_image(self) -> Image | None:
        """`profileImage`; include `profileImage` (or `author.profileImage`)."""
        return self._one("profileImage", Image)

    @property
    def marketplace(self) -> Marketplace:
        return self._required("marketplace", Marketplace)


class CurrentUserAttributes(UserAttributes):
    stripe_payouts_enabled: bool | None = None
    stripe_charges_enabled: bool | None = None


class CurrentUser(User):
    """The logged-in user (`current_user.show`), with private attributes."""

    resource_type: ClassVar[str | None] = "currentUser"
    attributes: CurrentUserAttributes = Field(default_factory=CurrentUserAttributes)
