"""`password_reset` endpoints of the Marketplace API: typed parameters and answers."""

from flexclient import MarketplaceClient
from flexclient.models import PasswordReset

sdk = MarketplaceClient("id")

# Calls that pass, with the group's TypedDicts.
r: PasswordReset = sdk.password_reset.request({"email": "a@b.test"}).data.data
sdk.password_reset.reset({"email": "a@b.test", "passwordResetToken": "t", "newPassword": "pw"})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "email" for TypedDict "PasswordResetRequestParams"
# [mypy] Extra key "emial" for TypedDict "PasswordResetRequestParams"
# [pyright] "emial" is an undefined item in type "PasswordResetRequestParams"
sdk.password_reset.request({"emial": "a@b.test"})
# [mypy] TypedDict item "email" has type "str")
# [pyright] "Literal[5]" is not assignable to "str"
sdk.password_reset.request({"email": 5})
# [mypy] Missing key "newPassword" for TypedDict "PasswordResetResetParams"
# [pyright] "newPassword" is required in "PasswordResetResetParams"
sdk.password_reset.reset({"email": "a@b.test", "passwordResetToken": "t"})
