"""`files` endpoints of the Integration API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import IntegrationClient
from flexclient.models import File

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
file: File = integ.files.create(
    {"name": "a.pdf", "mimeType": "application/pdf", "size": 3}, {"expand": True}
).data.data
files: list[File] = integ.files.query({"ownerId": ID, "include": ["owner"]}).data.data
integ.files.create({"name": "a.pdf", "mimeType": "application/pdf", "size": 3, "ownerId": ID})
integ.files.query({"messageId": ID, "ids": [ID], "createdAtStart": dt.datetime.now(dt.UTC)})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "owner" for TypedDict "FilesQueryParams"
# [pyright] "owner" is an undefined item in type "FilesQueryParams"
integ.files.query({"owner": ID})
# [mypy] TypedDict item "size" has type "int")
# [pyright] "float" is not assignable to "int"
integ.files.create({"name": "a.pdf", "mimeType": "application/pdf", "size": 3.5})
# [mypy] Missing key "size" for TypedDict "FilesCreateParams"
# [pyright] "size" is required in "FilesCreateParams"
integ.files.create({"name": "a.pdf", "mimeType": "application/pdf"})
