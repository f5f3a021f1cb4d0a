"""`stock_reservations` endpoints of the Integration API: typed parameters and answers."""

import uuid

from flexclient import IntegrationClient
from flexclient.models import StockReservation

integ = IntegrationClient("id", "secret")
ID = uuid.uuid4()

# Calls that pass, with the group's TypedDicts.
reservation: StockReservation = integ.stock_reservations.show(
    {"id": ID, "include": ["transaction"]}
).data.data

# A misspelled key, a value of the wrong type, a missing required key.
# [mypy] Extra key "expand" for TypedDict "StockReservationsShowParams"
# [pyright] "expand" is an undefined item in type "StockReservationsShowParams"
integ.stock_reservations.show({"id": ID, "include": ["x"], "expand": True})
# [mypy] TypedDict item "include" has type "Sequence[str] | str")
# [pyright] Type "Literal[1]" is not assignable to type "Include"
integ.stock_reservations.show({"id": ID, "include": 1})
# [mypy] Missing key "id" for TypedDict "StockReservationsShowParams"
# [pyright] "id" is required in "StockReservationsShowParams"
integ.stock_reservations.show({"include": ["transaction"]})
