"""`file_uploads` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import FileUpload

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
target: FileUpload = sdk.file_uploads.create({"fileId": ID}, {"expand": True}).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "file_id" for TypedDict "FileUploadsCreateParams"
# [pyright] "file_id" is an undefined item in type "FileUploadsCreateParams"
sdk.file_uploads.create({"file_id": ID})
# [mypy] TypedDict item "fileId" has type "UUID | str")
# [pyright] Type "Literal[5]" is not assignable to type "Id"
sdk.file_uploads.create({"fileId": 5})
