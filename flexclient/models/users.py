"""Users: as others see them (`user`) and as they see themselves (`currentUser`)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from flexclient.models._relations import ToMany, ToOne, ToOneOrNone
from flexclient.models._resource import Attributes, Resource, WireModel, no_items

if TYPE_CHECKING:
    # Models of the relationships, for the checkers: at run time each is looked up by name.
    from flexclient.models.files import FileAttachment
    from flexclient.models.images import Image
    from flexclient.models.marketplace import Marketplace
    from flexclient.models.stripe import StripeAccount, StripeCustomer


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
    identity_providers: list[dict[str, Any]] = Field(default_factory=no_items)
    permissions: dict[str, Any] = Field(default_factory=dict)


class PermissionSetAttributes(Attributes):
    """Each value is `permission/allow` or `permission/deny` (open-ended)."""

    post_listings: str | None = None
    initiate_transactions: str | None = None
    read: str | None = None


class PermissionSet(Resource):
    """What a user may do in the marketplace (`effectivePermissionSet` of a user)."""

    resource_type: ClassVar[str | None] = "permissionSet"
    attributes: PermissionSetAttributes = Field(default_factory=PermissionSetAttributes)


class User(Resource):
    """A user (`users.show`; the author of a listing); include `profileImage` (or
    `author.profileImage` from a listing) to read `profile_image`."""

    resource_type: ClassVar[str | None] = "user"
    attributes: UserAttributes = Field(default_factory=UserAttributes)

    profile_image: ClassVar[ToOneOrNone[Image]] = ToOneOrNone("profileImage")
    marketplace: ClassVar[ToOne[Marketplace]] = ToOne("marketplace")
    stripe_account: ClassVar[ToOneOrNone[StripeAccount]] = ToOneOrNone("stripeAccount")
    effective_permission_set: ClassVar[ToOne[PermissionSet]] = ToOne("effectivePermissionSet")


class CurrentUserAttributes(UserAttributes):
    stripe_payouts_enabled: bool | None = None
    stripe_charges_enabled: bool | None = None


class CurrentUser(User):
    """The logged-in user (`current_user.show`), with private attributes, the Stripe
    customer (`stripeCustomer`) and the files attached to the profile
    (`privateFileAttachments`)."""

    resource_type: ClassVar[str | None] = "currentUser"
    attributes: CurrentUserAttributes = Field(default_factory=CurrentUserAttributes)

    stripe_customer: ClassVar[ToOneOrNone[StripeCustomer]] = ToOneOrNone("stripeCustomer")
    private_file_attachments: ClassVar[ToMany[FileAttachment]] = ToMany("privateFileAttachments")


class PasswordReset(Resource):
    """The answer of `password_reset.request` and `password_reset.reset`. The API documents
    no attributes for it; its type name is the typed community SDK's."""

    resource_type: ClassVar[str | None] = "passwordReset"
