"""`users` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import User

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
u: User = sdk.users.show({"id": ID, "include": ["profileImage"]}).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "includes" for TypedDict "UsersShowParams"
# [pyright] "includes" is an undefined item in type "UsersShowParams"
sdk.users.show({"id": ID, "includes": ["profileImage"]})
# [mypy] TypedDict item "id" has type "UUID | str")
# [pyright] Type "Literal[5]" is not assignable to type "Id"
sdk.users.show({"id": 5})
# [mypy] Missing key "id" for TypedDict "UsersShowParams"
# [pyright] "id" is required in "UsersShowParams"
sdk.users.show({"include": ["profileImage"]})
