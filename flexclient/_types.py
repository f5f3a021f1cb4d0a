"""The API's value types: money and geographic coordinates.

They are written to and read from both wire formats (see `flexclient._values`) and may be
used anywhere in parameters and extended data.
"""

from __future__ import annotations

import decimal
from typing import Any

from pydantic import StrictInt, StrictStr
from pydantic.dataclasses import dataclass

# ISO 4217 minor-unit exponents that are not 2.
_EXPONENTS = {
    **dict.fromkeys(
        [
            "BIF",
            "CLP",
            "DJF",
            "GNF",
            "ISK",
            "JPY",
            "KMF",
            "KRW",
            "PYG",
            "RWF",
            "UGX",
            "UYI",
            "VND",
            "VUV",
            "XAF",
            "XOF",
            "XPF",
        ],
        0,
    ),
    **dict.fromkeys(["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"], 3),
    "CLF": 4,
    "UYW": 4,
}


@dataclass(frozen=True)
class Money:
    """An amount of money in the currency's minor unit (cents for USD, yen for JPY).

    >>> Money(5000, "USD")
    Money(amount=5000, currency='USD')
    >>> str(Money(5000, "USD")), str(Money(5000, "JPY")), Money(1234, "KWD").decimal
    ('50.00 USD', '5000 JPY', Decimal('1.234'))
    """

    amount: StrictInt
    currency: StrictStr

    @property
    def exponent(self) -> int:
        """Digits after the decimal point in this currency (ISO 4217): 2 for most."""
        return _EXPONENTS.get(self.currency.upper(), 2)

    @property
    def decimal(self) -> decimal.Decimal:
        """The amount in major units, exactly: `Decimal('50.00')` for 5000 USD cents."""
        return decimal.Decimal(self.amount).scaleb(-self.exponent)

    def __str__(self) -> str:
        return f"{self.decimal:.{self.exponent}f} {self.currency}"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))

    def _repr_html_(self) -> str:
        return f"<span>{self}</span>"


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
