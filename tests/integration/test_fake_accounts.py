"""Account flows in the fake: the tokens of password resets and email verifications come
to an outbox a test reads; email and password changes, deletion, sign-up with an identity
provider, and the operator's permissions and verification."""

from __future__ import annotations

import pytest

from flexclient import (
    AuthError,
    ConflictError,
    ForbiddenError,
    IntegrationClient,
    MarketplaceClient,
)
from flexclient.testing import FakeMarketplace

EMAIL, PASSWORD = "owner@example.com", "owner-password"


@pytest.fixture
def sdk(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient
) -> MarketplaceClient:
    fake_marketplace.add_user(EMAIL, PASSWORD)
    marketplace_client.login(username=EMAIL, password=PASSWORD)
    return marketplace_client


def test_a_forgotten_password(fake_marketplace: FakeMarketplace, sdk: MarketplaceClient) -> None:
    sdk.logout()
    with pytest.raises(ConflictError) as unknown:
        sdk.password_reset.request({"email": "nobody@example.com"})
    assert unknown.value.codes == ["email-not-found"]
    sdk.password_reset.request({"email": EMAIL})
    mail = fake_marketplace.outbox[-1]
    assert (mail.to, mail.kind) == (EMAIL, "password-reset")
    with pytest.raises(ForbiddenError):
        sdk.password_reset.reset(
            {"email": EMAIL, "passwordResetToken": "guess", "newPassword": "new-password-1"}
        )
    sdk.password_reset.reset(
        {"email": EMAIL, "passwordResetToken": mail.token, "newPassword": "new-password-1"}
    )
    with pytest.raises(AuthError):
        sdk.login(username=EMAIL, password=PASSWORD)
    sdk.login(username=EMAIL, password="new-password-1")
    with pytest.raises(ForbiddenError):  # a token is used once
        sdk.password_reset.reset(
            {"email": EMAIL, "passwordResetToken": mail.token, "newPassword": "new-password-2"}
        )


def test_changing_and_verifying_an_email(
    fake_marketplace: FakeMarketplace, sdk: MarketplaceClient
) -> None:
    fake_marketplace.add_user("taken@example.com", "taken-password")
    with pytest.raises(ForbiddenError):
        sdk.current_user.change_email({"currentPassword": "wrong", "email": "new@example.com"})
    with pytest.raises(ConflictError) as taken:
        sdk.current_user.change_email({"currentPassword": PASSWORD, "email": "taken@example.com"})
    assert taken.value.codes == ["email-taken"]
    me = sdk.current_user.change_email(
        {"currentPassword": PASSWORD, "email": "new@example.com"}, {"expand": True}
    ).data.data
    assert (me.attributes.email, me.attributes.pending_email) == (EMAIL, "new@example.com")
    token = fake_marketplace.outbox[-1].token
    verified = sdk.current_user.verify_email({"verificationToken": token}, {"expand": True})
    a = verified.data.data.attributes
    assert (a.email, a.pending_email, a.email_verified) == ("new@example.com", None, True)
    with pytest.raises(ConflictError) as already:
        sdk.current_user.send_verification_email()
    assert already.value.codes == ["email-already-verified"]


def test_deleting_an_account(
    fake_marketplace: FakeMarketplace,
    sdk: MarketplaceClient,
    integration_client: IntegrationClient,
) -> None:
    me = sdk.current_user.show().data.data
    with pytest.raises(ForbiddenError):
        sdk.current_user.delete({"currentPassword": "wrong"})
    sdk.current_user.delete({"currentPassword": PASSWORD})
    with pytest.raises(AuthError):
        sdk.login(username=EMAIL, password=PASSWORD)
    events = integration_client.events.query({"eventTypes": ["user/deleted"]}).data.data
    assert [e.attributes.resource_id for e in events] == [me.id]


def test_sign_up_with_an_identity_provider(
    fake_marketplace: FakeMarketplace, marketplace_client: MarketplaceClient
) -> None:
    fake_marketplace.add_idp_identity(
        "google", "g-token", email="idp@example.com", first_name="Ida", last_name="Pe"
    )
    made = marketplace_client.current_user.create_with_idp(
        {"idpId": "google", "idpClientId": "g-app", "idpToken": "g-token"}, {"expand": True}
    ).data.data
    assert made.attributes.email == "idp@example.com" and made.attributes.email_verified
    assert made.attributes.profile.display_name == "Ida P"
    assert made.attributes.identity_providers[0]["idpId"] == "google"
    marketplace_client.login_with_idp(idp_id="google", idp_client_id="g-app", idp_token="g-token")
    assert marketplace_client.current_user.show().data.data.id == made.id
    with pytest.raises(ConflictError):
        marketplace_client.current_user.create_with_idp(
            {"idpId": "google", "idpClientId": "g-app", "idpToken": "g-token"}
        )


def test_the_operator_sets_permissions_and_verifies(
    fake_marketplace: FakeMarketplace, integration_client: IntegrationClient
) -> None:
    user = fake_marketplace.add_user("member@example.com", "member-password")
    changed = integration_client.users.update_permissions(
        {"id": user, "postListings": "permission/deny"},
        {"expand": True, "include": ["effectivePermissionSet"]},
    ).data.data
    assert changed.attributes.permissions["postListings"] == "permission/deny"
    assert changed.effective_permission_set.attributes.post_listings == "permission/deny"
    verified = integration_client.users.verify_email({"id": user}, {"expand": True})
    assert verified.data.data.attributes.email_verified is True
    member = MarketplaceClient(fake_marketplace.client_id, base_url=fake_marketplace.url)
    member.login(username="member@example.com", password="member-password")
    with pytest.raises(ForbiddenError) as denied:
        member.own_listings.create({"title": "Not allowed"})
    assert denied.value.codes == ["permission-denied-post-listings"]


def test_a_display_name_set_to_null_is_the_default_one_again(sdk: MarketplaceClient) -> None:
    # The web template's profile settings send `displayName: null` when the field is empty.
    named = sdk.current_user.update_profile({"displayName": "Sauna Co"}, {"expand": True})
    assert named.data.data.attributes.profile.display_name == "Sauna Co"
    cleared = sdk.current_user.update_profile(
        {"displayName": None, "firstName": "Anne", "lastName": "Berg"}, {"expand": True}
    )
    profile = cleared.data.data.attributes.profile
    assert (profile.display_name, profile.abbreviated_name) == ("Anne B", "AB")
