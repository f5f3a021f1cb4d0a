"""`own_files` endpoints of the Marketplace API: typed parameters and answers."""

from flexclient import MarketplaceClient
from flexclient.models import OwnFile

sdk = MarketplaceClient("id")

# Calls that pass, with the group's TypedDicts.
own: OwnFile = sdk.own_files.create(
    {"name": "a.pdf", "mimeType": "application/pdf", "size": 10697}, {"expand": True}
).data.data
sdk.own_files.show({"id": own.id})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "mimeType" for TypedDict "OwnFilesCreateParams"
# [mypy] Extra key "mime_type" for TypedDict "OwnFilesCreateParams"
# [pyright] "mime_type" is an undefined item in type "OwnFilesCreateParams"
sdk.own_files.create({"name": "a.pdf", "mime_type": "application/pdf", "size": 1})
# [mypy] TypedDict item "size" has type "int")
# [pyright] "Literal['1 kB']" is not assignable to "int"
sdk.own_files.create({"name": "a.pdf", "mimeType": "application/pdf", "size": "1 kB"})
# [mypy] Missing key "mimeType" for TypedDict "OwnFilesCreateParams"
# [pyright] "mimeType" is required in "OwnFilesCreateParams"
sdk.own_files.create({"name": "a.pdf", "size": 1})
