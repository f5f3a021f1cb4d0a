"""`file_downloads` endpoints of the Integration API: typed parameters and answers."""

import uuid

from flexclient import IntegrationClient
from flexclient.models import FileDownload

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
download: FileDownload = integ.file_downloads.create({"fileId": ID}).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "file" for TypedDict "FileDownloadsCreateParams"
# [pyright] "file" is an undefined item in type "FileDownloadsCreateParams"
integ.file_downloads.create({"file": ID})
# [mypy] TypedDict item "fileId" has type "UUID | str")
# [pyright] Type "Literal[1]" is not assignable to type "Id"
integ.file_downloads.create({"fileId": 1})
