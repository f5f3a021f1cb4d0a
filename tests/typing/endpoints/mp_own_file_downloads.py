"""`own_file_downloads` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import OwnFileDownload

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
download: OwnFileDownload = sdk.own_file_downloads.create(
    {"fileId": ID}, {"expand": True}
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "fileId" for TypedDict "OwnFileDownloadsCreateParams"
# [mypy] Extra key "fileID" for TypedDict "OwnFileDownloadsCreateParams"
# [pyright] "fileID" is an undefined item in type "OwnFileDownloadsCreateParams"
sdk.own_file_downloads.create({"fileID": ID})
# [mypy] TypedDict item "fileId" has type "UUID | str")
# [pyright] Type "list[UUID]" is not assignable to type "Id"
sdk.own_file_downloads.create({"fileId": [ID]})
# [mypy] Missing key "fileId" for TypedDict "OwnFileDownloadsCreateParams"
# [pyright] "fileId" is required in "OwnFileDownloadsCreateParams"
sdk.own_file_downloads.create({})
