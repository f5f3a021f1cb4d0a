"""`file_downloads` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import FileDownload

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
download: FileDownload = sdk.file_downloads.create(
    {"fileAttachmentId": ID}, {"expand": True}
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "attachmentId" for TypedDict "FileDownloadsCreateParams"
# [pyright] "attachmentId" is an undefined item in type "FileDownloadsCreateParams"
sdk.file_downloads.create({"attachmentId": ID})
# [mypy] TypedDict item "fileAttachmentId" has type "UUID | str")
# [pyright] Type "Literal[5]" is not assignable to type "Id"
sdk.file_downloads.create({"fileAttachmentId": 5})
