"""The API's value types: money and geographic coordinates.

They are written to and read from both wire formats (see `flexclient._codecs`) and may be
used anywhere in parameters and extended data.
"""

from __future__ import annotations

from pydantic import StrictInt, StrictStr
from pydantic.dataclasses import dataclass


@dataclass(frozen=True)
class Money:
    """An amount of money in the currency's minor unit (cents for USD, yen for JPY).

    >>> Money(5000, "USD")
    Money(amount=5000, currency='USD')
    """

    amount: StrictInt
    currency: StrictStr


@dataclass(frozen=True)
class LatLng:
    """A geographic point in degrees.

    >>> LatLng(60.16, 24.93).lat
    60.16
    """

    lat: float
    lng: float


@dataclass(frozen=True)
class LatLngBounds:
    """A rectangle given by its north-east and south-west corners; used in queries.

    >>> LatLngBounds(ne=LatLng(40.5, -73.9), sw=LatLng(40.4, -74.1)).ne.lat
    40.5
    """

    ne: LatLng
    sw: LatLng
