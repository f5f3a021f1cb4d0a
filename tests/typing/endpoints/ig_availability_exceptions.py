"""`availability_exceptions` endpoints of the Integration API: typed parameters and answers."""

import datetime as dt
import uuid

from flexclient import IntegrationClient
from flexclient.models import AvailabilityException

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()
NOW = dt.datetime.now(dt.UTC)

# Calls that pass, with the group's TypedDicts.
made: AvailabilityException = integ.availability_exceptions.create(
    {"listingId": ID, "start": NOW, "end": NOW, "seats": 2}
).data.data
integ.availability_exceptions.query({"listingId": ID, "start": NOW, "end": NOW})
integ.availability_exceptions.delete({"id": made.id})

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Missing key "seats" for TypedDict "AvailabilityExceptionsCreateParams"
# [mypy] Extra key "seat" for TypedDict "AvailabilityExceptionsCreateParams"
# [pyright] "seat" is an undefined item in type "AvailabilityExceptionsCreateParams"
integ.availability_exceptions.create({"listingId": ID, "start": NOW, "end": NOW, "seat": 2})
# [mypy] TypedDict item "id" has type "UUID | str")
# [pyright] Type "None" is not assignable to type "Id"
integ.availability_exceptions.delete({"id": None})
# [mypy] Missing key "seats" for TypedDict "AvailabilityExceptionsCreateParams"
# [pyright] "seats" is required in "AvailabilityExceptionsCreateParams"
integ.availability_exceptions.create({"listingId": ID, "start": NOW, "end": NOW})
