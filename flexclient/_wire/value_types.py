"""The API's value types: money and geographic coordinates.

They are written to and read from both wire formats (see `flexclient._wire.values`) and may be
used anywhere in parameters and extended data.

Public as `flexclient.Money`, `flexclient.LatLng` and `flexclient.LatLngBounds`, each reports
`flexclient` as its module: their reprs, pickles and docs name the package, as every other
public class does. Pickles written when they named this module still load: the classes are
still here. So that pydantic and `typing.get_type_hints` never look a field's type up by name
in the module `__module__` names (the package holds no `StrictInt`), this module's annotations
are evaluated as the classes are defined: no `from __future__ import annotations` here, and a
forward reference is quoted.
"""

import decimal
import numbers
from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict, StrictInt, StrictStr

from flexclient._errors import ParameterError
from flexclient._support.frozen import Frozen

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


def _is_currency_code(text: object) -> bool:
    return (
        isinstance(text, str)
        and len(text) == 3
        and text.isascii()
        and text.isalpha()
        and text.isupper()
    )


def _check_money(amount: object, currency: object) -> None:
    """What a person may get wrong when writing a Money, said as what to do instead."""
    if type(amount) is not int:
        hint = ""
        if isinstance(amount, float | decimal.Decimal | str):
            hint = f"; for {amount} in major units write Money.of({str(amount)!r}, {currency!r})"
        raise ParameterError(
            "amount",
            f"a whole number of the currency's minor unit (cents for EUR, yen for JPY), "
            f"not {amount!r}{hint}",
        )
    if not _is_currency_code(currency):
        raise ParameterError(
            "currency", f"an ISO 4217 code of three capital letters, e.g. 'EUR', not {currency!r}"
        )


def _degrees(name: str, value: object) -> float:
    # bool is an int to Python, and no coordinate; a Decimal (from a database) is one.
    if type(value) is not bool and isinstance(value, numbers.Real | decimal.Decimal):
        try:
            return float(value)
        except (OverflowError, ValueError):  # 10**400, Decimal("sNaN")
            pass
    raise ParameterError(name, f"a number of degrees, not {value!r}")


def _corner(name: str, value: object) -> "LatLng":
    if isinstance(value, LatLng):
        return value
    raise ParameterError(name, f"a LatLng, not {value!r}")


# Standard library dataclasses, which pydantic validates where models hold them (pydantic's
# own dataclasses would add their module and a wrapper a class to every import). Each has its
# own __init__ (init=False: the decorator would compile one only to drop it), which checks
# what code passes; pydantic, reading the wire, sets the fields without calling it. Frozen:
# the fields are set past the dataclass's __setattr__. `__pydantic_config__`: their own
# settings (unknown keys ignored), not those of the model that holds them (which keeps
# unknown keys, or may lower strings).
_OWN_SETTINGS = ConfigDict()


@dataclass(frozen=True, init=False, eq=False, repr=False)
class Money(Frozen):
    """An amount of money in the currency's minor unit (cents for USD, yen for JPY).

    >>> Money(5000, "USD")
    Money(amount=5000, currency='USD')
    >>> str(Money(5000, "USD")), str(Money(5000, "JPY")), Money(1234, "KWD").decimal
    ('50.00 USD', '5000 JPY', Decimal('1.234'))
    >>> Money.of("49.90", "EUR")
    Money(amount=4990, currency='EUR')
    """

    __pydantic_config__ = _OWN_SETTINGS

    amount: StrictInt
    currency: StrictStr

    def __init__(self, amount: int, currency: str) -> None:
        _check_money(amount, currency)  # says what to write instead
        self.__dict__.update(amount=amount, currency=currency)

    @classmethod
    def of(cls, amount: str | decimal.Decimal | int | float, currency: str) -> "Money":
        """Money from an amount in major units: `Money.of("49.90", "EUR")` is 4990 cents.
        The amount must fit the currency's minor unit exactly (no rounding).

        >>> Money.of(500, "JPY"), Money.of("1.234", "KWD").amount
        (Money(amount=500, currency='JPY'), 1234)
        """
        _check_money(0, currency)
        try:
            major = decimal.Decimal(repr(amount) if isinstance(amount, float) else amount)
        except (decimal.InvalidOperation, TypeError, ValueError):
            raise ParameterError("amount", f"not a number: {amount!r}") from None
        if not major.is_finite():
            raise ParameterError("amount", f"not a finite number: {amount!r}")
        minor = major.scaleb(_EXPONENTS.get(currency, 2))
        if minor != minor.to_integral_value():
            digits = _EXPONENTS.get(currency, 2)
            raise ParameterError(
                "amount", f"{amount!r} has more decimals than {currency}'s {digits}"
            )
        return cls(int(minor), currency)

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


@dataclass(frozen=True, init=False, eq=False, repr=False)
class LatLng(Frozen):
    """A geographic point in degrees.

    >>> LatLng(60.16, 24.93).lat
    60.16
    """

    __pydantic_config__ = _OWN_SETTINGS

    lat: float
    lng: float

    def __init__(self, lat: float, lng: float) -> None:
        self.__dict__.update(lat=_degrees("lat", lat), lng=_degrees("lng", lng))


@dataclass(frozen=True, init=False, eq=False, repr=False)
class LatLngBounds(Frozen):
    """A rectangle given by its north-east and south-west corners; used in queries.

    >>> LatLngBounds(ne=LatLng(40.5, -73.9), sw=LatLng(40.4, -74.1)).ne.lat
    40.5
    """

    __pydantic_config__ = _OWN_SETTINGS

    ne: LatLng
    sw: LatLng

    def __init__(self, ne: LatLng, sw: LatLng) -> None:
        self.__dict__.update(ne=_corner("ne", ne), sw=_corner("sw", sw))


for _public in (Money, LatLng, LatLngBounds):
    _public.__module__ = "flexclient"
