"""The API's value types: money and geographic coordinates.

They are written to and read from both wire formats (see `flexclient._values`) and may be
used anywhere in parameters and extended data.
"""

from __future__ import annotations

import dataclasses
import decimal
import inspect
import re
from typing import Any, TypeVar

from pydantic import ConfigDict, StrictInt, StrictStr
from pydantic.dataclasses import dataclass

from flexclient._errors import ParameterError

_T = TypeVar("_T")

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


_CURRENCY = re.compile(r"[A-Z]{3}")


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
    if not isinstance(currency, str) or not _CURRENCY.fullmatch(currency):
        raise ParameterError(
            "currency", f"an ISO 4217 code of three capital letters, e.g. 'EUR', not {currency!r}"
        )


# pydantic builds a dataclass's validator when the class is made (about 0.5 ms each), and the
# first validator built in a process also has pydantic scan every installed package for
# plugins (4 to 5 ms with the development environment's 72 packages): these build theirs when
# first used instead (the first one written in code, a TypeAdapter of one), and the scan comes
# with the first answer's body validator. Models that hold them build their own validators,
# and values read from the wire need none (`flexclient._decoding.money_from`).
_DEFERRED = ConfigDict(defer_build=True)


class _ClassSignature:
    """`__signature__` on the class only, as pydantic sets it: an instance's signature is its
    `__call__`'s."""

    def __init__(self, signature: inspect.Signature) -> None:
        self.signature = signature

    def __get__(self, instance: object, owner: type[Any]) -> inspect.Signature:
        if instance is not None:
            raise AttributeError(f"'__signature__' attribute of {owner.__name__!r} is class-only")
        return self.signature


def _keep_signature(cls: type[_T]) -> type[_T]:
    """The signature of the dataclass's own `__init__` for a deferred pydantic dataclass,
    before and after pydantic completes it: `(lat: 'float', lng: 'float') -> None`.

    pydantic sets a dataclass's `__signature__` when it builds its validator, from the
    `__init__` the dataclass decorator wrote. Deferred, there is none until then, and
    `inspect.signature` (help(), IDEs, hypothesis' `builds`) finds `(*args, **kwargs)`; and
    when pydantic completes the class later, it reads the signature from the `__init__` it
    had put in place of the dataclass's own, and makes it `(*args, lat: float, lng: float)`,
    keyword-only. So the class gets the right signature now, and that `__init__` too, for
    pydantic to read it from (tests/test_cold_start.py checks both).
    """
    parameters: list[inspect.Parameter] = []
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        if field.kw_only or field.default is not dataclasses.MISSING or not field.init:
            raise TypeError(f"{cls.__name__}.{field.name}: only required fields are written here")
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        parameters.append(inspect.Parameter(field.name, kind, annotation=field.type))
    self = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    made: Any = cls
    made.__init__.__signature__ = inspect.Signature([self, *parameters], return_annotation=None)
    made.__signature__ = _ClassSignature(inspect.Signature(parameters, return_annotation=None))
    return cls


@_keep_signature
@dataclass(frozen=True, config=_DEFERRED)
class Money:
    """An amount of money in the currency's minor unit (cents for USD, yen for JPY).

    >>> Money(5000, "USD")
    Money(amount=5000, currency='USD')
    >>> str(Money(5000, "USD")), str(Money(5000, "JPY")), Money(1234, "KWD").decimal
    ('50.00 USD', '5000 JPY', Decimal('1.234'))
    >>> Money.of("49.90", "EUR")
    Money(amount=4990, currency='EUR')
    """

    amount: StrictInt
    currency: StrictStr

    def __new__(cls, *args: object, **kwargs: object) -> Money:
        # Only a Money written in code comes here with arguments (models build theirs
        # from the wire by other means): check it and say what to write instead.
        if args or kwargs:
            fields = dict(zip(("amount", "currency"), args, strict=False)) | kwargs
            _check_money(fields.get("amount"), fields.get("currency"))
        return object.__new__(cls)

    @classmethod
    def of(cls, amount: str | decimal.Decimal | int | float, currency: str) -> Money:
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


@_keep_signature
@dataclass(frozen=True, config=_DEFERRED)
class LatLng:
    """A geographic point in degrees.

    >>> LatLng(60.16, 24.93).lat
    60.16
    """

    lat: float
    lng: float


@_keep_signature
@dataclass(frozen=True, config=_DEFERRED)
class LatLngBounds:
    """A rectangle given by its north-east and south-west corners; used in queries.

    >>> LatLngBounds(ne=LatLng(40.5, -73.9), sw=LatLng(40.4, -74.1)).ne.lat
    40.5
    """

    ne: LatLng
    sw: LatLng
