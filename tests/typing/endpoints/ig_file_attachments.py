"""`file_attachments` endpoints of the Integration API: typed parameters and answers."""

import uuid

from flexclient import IntegrationClient
from flexclient.models import FileAttachment

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
attached: list[FileAttachment] = integ.file_attachments.query(
    {"messageId": ID, "include": ["file"]}
).data.data
integ.file_attachments.query({"listingId": ID, "transactionId": ID, "fileIds": [ID]})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "message" for TypedDict "FileAttachmentsQueryParams"
# [pyright] "message" is an undefined item in type "FileAttachmentsQueryParams"
integ.file_attachments.query({"message": ID})
# [mypy] TypedDict item "messageId" has type "UUID | str")
# [pyright] Type "Literal[1]" is not assignable to type "Id"
integ.file_attachments.query({"messageId": 1})
