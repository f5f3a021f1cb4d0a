"""Parameters of the marketplace, users, current user and password reset endpoints."""

import datetime as dt
from collections.abc import Sequence
from typing import Literal, Required, TypedDict

from flexclient.params._common import (
    ExtendedData,
    FileAttachments,
    Id,
    IdParams,
    PageOptions,
    QueryOptions,
    ShowParams,
)
from flexclient.params._values import Sort, UserSortKey

Permission = Literal["permission/allow", "permission/deny"]


class MarketplaceShowParams(QueryOptions, total=False):
    """`marketplace.show` (both APIs): no parameters of its own."""


class UsersShowParams(ShowParams, total=False):
    """`users.show` of the Marketplace API."""


class IntegrationUsersShowParams(QueryOptions, total=False):
    """Integration `users.show`: by `id` or by `email`. The API needs one of them, which a
    TypedDict cannot say: neither is required here."""

    id: Id
    email: str


class UsersQueryParams(PageOptions, total=False):
    """Integration `users.query`. Filters on extended data (`pub_*`, `meta_*`, `priv_*`,
    `prot_*`) go in `custom=`."""

    createdAtStart: dt.datetime
    createdAtEnd: dt.datetime
    sort: UserSortKey | Sequence[UserSortKey] | Sort


class _Profile(TypedDict, total=False):
    displayName: str | None  # null: the default display name again (first name, last initial)
    bio: str | None
    publicData: ExtendedData
    protectedData: ExtendedData
    privateData: ExtendedData


class CurrentUserShowParams(QueryOptions, total=False):
    """`current_user.show`: no parameters of its own."""


class CurrentUserCreateParams(_Profile, total=False):
    """`current_user.create`: sign up."""

    email: Required[str]
    password: Required[str]
    firstName: Required[str]
    lastName: Required[str]


class CurrentUserCreateWithIdpParams(_Profile, total=False):
    """`current_user.create_with_idp`: sign up with an identity provider's token; the
    provider may give the email and names, so they are not required."""

    idpId: Required[str]
    idpClientId: Required[str]
    idpToken: Required[str]
    email: str
    firstName: str
    lastName: str


class CurrentUserUpdateProfileParams(_Profile, total=False):
    """`current_user.update_profile`."""

    firstName: str
    lastName: str
    profileImageId: Id | None
    privateFileAttachments: FileAttachments


class CurrentUserChangeEmailParams(TypedDict):
    """`current_user.change_email`."""

    currentPassword: str
    email: str


class CurrentUserChangePasswordParams(TypedDict):
    """`current_user.change_password`."""

    currentPassword: str
    newPassword: str


class CurrentUserDeleteParams(TypedDict, total=False):
    """`current_user.delete`: the password again; `deleteFromStripe` also deletes the
    user's Stripe data."""

    currentPassword: Required[str]
    deleteFromStripe: bool


class CurrentUserVerifyEmailParams(TypedDict):
    """`current_user.verify_email`: the token of the verification email."""

    verificationToken: str


class CurrentUserSendVerificationEmailParams(TypedDict, total=False):
    """`current_user.send_verification_email`: no parameters."""


class CurrentUserCreateStripeAccountParams(TypedDict, total=False):
    """`current_user.create_stripe_account`, replaced by `stripe_account.create`. The API
    reference no longer documents it; these are the keys the web template sent, and
    `requestedCapabilities`, which the SDK's typings add."""

    accountToken: str
    bankAccountToken: str
    country: str
    requestedCapabilities: Sequence[str]


class CurrentUserUpdateStripeAccountParams(TypedDict, total=False):
    """`current_user.update_stripe_account`, replaced by `stripe_account.update`. The API
    reference no longer documents it; these are the keys the SDK's typings give it."""

    accountToken: str
    bankAccountToken: str
    requestedCapabilities: Sequence[str]


class CurrentUserDeleteStripeAccountParams(TypedDict, total=False):
    """`current_user.delete_stripe_account`, replaced by `stripe_account.*`. The API
    reference no longer documents it nor its keys."""


class PasswordResetRequestParams(TypedDict):
    """`password_reset.request`: sends a reset email."""

    email: str


class PasswordResetResetParams(TypedDict):
    """`password_reset.reset`: sets a new password with the emailed token."""

    email: str
    passwordResetToken: str
    newPassword: str


class IntegrationUsersUpdateProfileParams(_Profile, total=False):
    """Integration `users.update_profile`."""

    id: Required[Id]
    firstName: str
    lastName: str
    metadata: ExtendedData
    profileImageId: Id | None
    privateFileAttachments: FileAttachments


class UsersApproveParams(IdParams):
    """Integration `users.approve`: a user pending approval."""


class UsersUpdatePermissionsParams(TypedDict, total=False):
    """Integration `users.update_permissions`."""

    id: Required[Id]
    postListings: Permission
    initiateTransactions: Permission
    read: Permission


class UsersVerifyEmailParams(IdParams, total=False):
    """Integration `users.verify_email`: marks the user's email verified; `email`, the
    address verified (not required here: the reference could not be read to say)."""

    email: str


# The name of an earlier version, kept for the code written with it.
UserUpdateProfileParams = IntegrationUsersUpdateProfileParams
