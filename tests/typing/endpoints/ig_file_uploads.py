"""`file_uploads` endpoints of the Integration API: typed parameters and answers."""

import uuid

from flexclient import IntegrationClient
from flexclient.models import FileUpload

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
target: FileUpload = integ.file_uploads.create({"fileId": ID}).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "fileid" for TypedDict "FileUploadsCreateParams"
# [pyright] "fileid" is an undefined item in type "FileUploadsCreateParams"
integ.file_uploads.create({"fileid": ID})
# [mypy] TypedDict item "fileId" has type "UUID | str")
# [pyright] Type "Literal[1]" is not assignable to type "Id"
integ.file_uploads.create({"fileId": 1})
