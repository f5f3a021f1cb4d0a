"""`messages` endpoints of the Marketplace API: typed parameters and answers."""

import uuid

from flexclient import MarketplaceClient
from flexclient.models import Message

sdk = MarketplaceClient("id")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
messages: list[Message] = sdk.messages.query({"transactionId": ID, "include": ["sender"]}).data.data
sdk.messages.query({"ids": [ID]})
sent: Message = sdk.messages.send(
    {"transactionId": ID, "content": "Hi", "publicFileAttachments": [{"fileId": ID}]},
    {"expand": True},
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "attachments" for TypedDict "MessagesSendParams"
# [pyright] "attachments" is an undefined item in type "MessagesSendParams"
sdk.messages.send({"transactionId": ID, "content": "Hi", "attachments": []})
# [mypy] TypedDict item "content" has type "str")
# [pyright] "Literal[5]" is not assignable to "str"
sdk.messages.send({"transactionId": ID, "content": 5})
# [mypy] Missing key "transactionId" for TypedDict "MessagesSendParams"
# [pyright] "transactionId" is required in "MessagesSendParams"
sdk.messages.send({"content": "Hi"})
