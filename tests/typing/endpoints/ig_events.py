"""`events` endpoints of the Integration API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import IntegrationClient
from flexclient.models import Event

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
events: list[Event] = integ.events.query(
    {"startAfterSequenceId": 3, "eventTypes": ["listing/created"]}
).data.data
integ.events.query({"createdAtStart": NOW, "resourceId": ID})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "startAfterSequence" for TypedDict "EventsQueryParams"
# [pyright] "startAfterSequence" is an undefined item in type "EventsQueryParams"
integ.events.query({"startAfterSequence": 3})
# [mypy] TypedDict item "startAfterSequenceId" has type "int")
# [pyright] "Literal['12']" is not assignable to "int"
integ.events.query({"startAfterSequenceId": "12"})
