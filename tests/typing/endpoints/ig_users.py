"""`users` endpoints of the Integration API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import IntegrationClient
from flexclient.models import User

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
u: User = integ.users.show({"email": "a@b.test"}).data.data
integ.users.show({"id": ID})
users: list[User] = integ.users.query(
    {"createdAtStart": NOW, "sort": "-createdAt"}, custom={"priv_vip": "true"}
).data.data
integ.users.update_profile({"id": ID, "metadata": {"level": 3}}, {"expand": True})
integ.users.approve({"id": ID})
integ.users.update_permissions({"id": ID, "postListings": "permission/deny"})
integ.users.verify_email({"id": ID})
integ.users.verify_email({"id": ID, "email": "a@example.com"})
integ.users.update_profile({"id": ID, "privateFileAttachments": [{"fileId": ID}]})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "postListing" for TypedDict "UsersUpdatePermissionsParams"
# [pyright] "postListing" is an undefined item in type "UsersUpdatePermissionsParams"
integ.users.update_permissions({"id": ID, "postListing": "permission/deny"})
# [mypy] TypedDict item "read" has type "Literal['permission/allow', 'permission/deny']")
# [pyright] Type "Literal['deny']" is not assignable to type "Permission"
integ.users.update_permissions({"id": ID, "read": "deny"})
# [mypy] Missing key "id" for TypedDict "IntegrationUsersUpdateProfileParams"
# [pyright] "id" is required in "IntegrationUsersUpdateProfileParams"
integ.users.update_profile({"firstName": "A"})
