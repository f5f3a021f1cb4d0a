"""`current_user` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import CurrentUser

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
me: CurrentUser = sdk.current_user.show(
    {"include": ["stripeCustomer.defaultPaymentMethod"]}
).data.data
sdk.current_user.create(
    {
        "email": "a@b.test",
        "password": "pw",
        "firstName": "A",
        "lastName": "B",
        "publicData": {"age": 3},
    }
)
sdk.current_user.create_with_idp({"idpId": "facebook", "idpClientId": "c", "idpToken": "t"})
sdk.current_user.update_profile(
    {"displayName": "A B", "bio": None, "profileImageId": ID}, {"expand": True}
)
sdk.current_user.update_profile({"privateFileAttachments": [{"fileId": ID}]})
sdk.current_user.update_profile({"displayName": None})  # the default display name again
sdk.current_user.change_email({"currentPassword": "pw", "email": "c@d.test"})
sdk.current_user.change_password({"currentPassword": "pw", "newPassword": "pw2"})
sdk.current_user.delete({"currentPassword": "pw", "deleteFromStripe": True})
sdk.current_user.verify_email({"verificationToken": "t"})
sdk.current_user.send_verification_email()
sdk.current_user.create_stripe_account({"accountToken": "ct_1", "country": "FI"})
sdk.current_user.update_stripe_account({"requestedCapabilities": ["transfers"]})
sdk.current_user.delete_stripe_account()

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "display_name" for TypedDict "CurrentUserUpdateProfileParams"
# [pyright] "display_name" is an undefined item in type "CurrentUserUpdateProfileParams"
sdk.current_user.update_profile({"display_name": "A"})
# [mypy] TypedDict item "deleteFromStripe" has type "bool")
# [pyright] "Literal['yes']" is not assignable to "bool"
sdk.current_user.delete({"currentPassword": "pw", "deleteFromStripe": "yes"})
# [mypy] Missing key "lastName" for TypedDict "CurrentUserCreateParams"
# [pyright] "lastName" is required in "CurrentUserCreateParams"
sdk.current_user.create({"email": "a@b.test", "password": "pw", "firstName": "A"})
# [mypy] Missing key "currentPassword" for TypedDict "CurrentUserDeleteParams"
# [pyright] "currentPassword" is required in "CurrentUserDeleteParams"
sdk.current_user.delete({"deleteFromStripe": True})
