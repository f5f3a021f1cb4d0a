"""`files` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import File

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
file: File = sdk.files.show({"fileAttachmentId": ID}).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "includes" for TypedDict "FilesShowParams"
# [pyright] "includes" is an undefined item in type "FilesShowParams"
sdk.files.show({"fileAttachmentId": ID, "includes": []})
# [mypy] TypedDict item "fileAttachmentId" has type "UUID | str")
# [pyright] Type "None" is not assignable to type "Id"
sdk.files.show({"fileAttachmentId": None})
# [mypy] Missing key "fileAttachmentId" for TypedDict "FilesShowParams"
# [pyright] "fileAttachmentId" is required in "FilesShowParams"
sdk.files.show({"fields.file": ["name"]})
