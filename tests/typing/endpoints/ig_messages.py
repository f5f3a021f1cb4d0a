"""`messages` endpoints of the Integration API: typed parameters and answers."""

import uuid

from flexclient import IntegrationClient
from flexclient.models import Message

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
messages: list[Message] = integ.messages.query({"transactionId": ID}).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "transaction" for TypedDict "MessagesQueryParams"
# [pyright] "transaction" is an undefined item in type "MessagesQueryParams"
integ.messages.query({"transaction": ID})
# [mypy] TypedDict item "ids" has type "Sequence[UUID | str] | UUID | str")
# [pyright] Type "Literal[5]" is not assignable to type "Ids"
integ.messages.query({"ids": 5})
