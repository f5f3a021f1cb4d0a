"""Actions that price a transaction: line items given by the caller, the deprecated actions
that compute them from the listing's price and the booking, commissions, a negotiated total,
and the full refund.

Every line has a total computed as the API computes it (unit price times `quantity`, times
`percentage` / 100, or times `seats` and `units`); `payinTotal` is the sum of the lines
included for the customer and `payoutTotal` of those for the provider. One currency per
transaction.
"""

from __future__ import annotations

import decimal
from collections.abc import Mapping, Sequence
from typing import Any

from flexclient._support.narrow import is_array, is_mapping
from flexclient._wire.value_types import Money
from flexclient.testing._call import ApiFailure
from flexclient.testing._params import Invalid, from_body
from flexclient.testing._schema import wire
from flexclient.testing._step import PARTIES, Step, conflict

D = decimal.Decimal
COMMISSION_CODES = (
    "line-item/customer-commission",
    "line-item/provider-commission",
    "line-item/customer-fixed-commission",
    "line-item/provider-fixed-commission",
)


def _bad(title: str, where: list[str]) -> ApiFailure:
    return ApiFailure(400, "validation-invalid-value", title, where)


def _number(value: Any, where: list[str]) -> D:
    if isinstance(value, bool) or not isinstance(value, int | float | D | str):
        raise _bad("expected a number", where)
    try:
        return D(str(value))
    except decimal.InvalidOperation as exc:
        raise _bad("expected a number", where) from exc


def minor_units(amount: D) -> int:
    return int(amount.quantize(D(1), rounding=decimal.ROUND_HALF_UP))


def _money_or_none(value: Any) -> Money | None:
    try:
        found: Money = from_body(value, Money)
        return found
    except Invalid:
        return None


def line_items(raw: object, *, privileged: bool = True) -> list[dict[str, Any]]:
    """Line items as the caller gave them, with each line total computed. A line total given
    must match. One currency throughout. The deprecated `set-line-items-and-total` (not
    `privileged`) takes neither `includeFor` nor `lineTotal`."""
    if not is_array(raw) or len(raw) > 50:
        raise _bad("lineItems: a list of at most 50", ["body", "params", "lineItems"])
    items: list[dict[str, Any]] = []
    for i, item in enumerate(raw):
        where = ["body", "params", "lineItems", str(i)]
        if not is_mapping(item):
            raise _bad("a line item is a map", where)
        code = item.get("code")
        if not isinstance(code, str) or not code or (privileged and len(code) > 64):
            raise _bad("code: text of 1 to 64 characters", [*where, "code"])
        unit = _money_or_none(item.get("unitPrice"))
        if unit is None:
            raise _bad("unitPrice: money", [*where, "unitPrice"])
        out: dict[str, Any] = {"code": code, "unitPrice": unit}
        if item.get("seats") is not None and item.get("units") is not None:
            seats = _number(item["seats"], [*where, "seats"])
            units = _number(item["units"], [*where, "units"])
            out.update(seats=int(seats), units=units, quantity=seats * units)
            factor = seats * units
        elif item.get("quantity") is not None:
            factor = out["quantity"] = _number(item["quantity"], [*where, "quantity"])
        elif item.get("percentage") is not None:
            out["percentage"] = _number(item["percentage"], [*where, "percentage"])
            factor = out["percentage"] / 100
        else:
            raise _bad("a line item needs quantity, percentage, or seats and units", where)
        total = Money(minor_units(unit.amount * factor), unit.currency)
        given = item.get("lineTotal") if privileged else None
        if given is not None and _money_or_none(given) != total:
            raise _bad(f"lineTotal should be {total}", [*where, "lineTotal"])
        include_for = item.get("includeFor", list(PARTIES)) if privileged else list(PARTIES)
        if not is_array(include_for) or not set(include_for) <= set(PARTIES):
            raise _bad("includeFor: customer and/or provider", [*where, "includeFor"])
        out.update(lineTotal=total, reversal=False, includeFor=list(include_for))
        items.append(out)
    if len({i["unitPrice"].currency for i in items}) > 1:
        raise _bad("one currency for all line items", ["body", "params", "lineItems"])
    return items


def totals(items: Sequence[Mapping[str, Any]], currency: str) -> dict[str, Money]:
    """What the customer pays in and the provider gets out: the line totals of the items
    included for each."""
    payin = sum(i["lineTotal"].amount for i in items if "customer" in i["includeFor"])
    payout = sum(i["lineTotal"].amount for i in items if "provider" in i["includeFor"])
    return {"payin_total": Money(payin, currency), "payout_total": Money(payout, currency)}


def _current(step: Step) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = wire(step.tx.attributes.line_items)
    return found


def _save(step: Step, items: list[dict[str, Any]]) -> None:
    """Store the line items and their totals; neither total may be negative, nor two
    currencies meet."""
    if not items:
        step.tx.set(line_items=[])
        return
    currencies = {i["lineTotal"].currency for i in items}
    if len(currencies) > 1:
        raise _bad("one currency in a transaction", ["body", "params", "lineItems"])
    currency = next(iter(currencies))
    sums = totals(items, currency)
    if sums["payin_total"].amount < 0 or sums["payout_total"].amount < 0:
        raise _bad("payin and payout cannot be negative", ["body", "params", "lineItems"])
    step.tx.set(line_items=items, **sums)


def _line(
    code: str,
    unit: Money,
    include_for: Sequence[str] = PARTIES,
    *,
    quantity: D | None = None,
    percentage: D | None = None,
) -> dict[str, Any]:
    """A line as the API computes it: the unit price times `quantity`, or times
    `percentage` / 100."""
    factor = quantity if quantity is not None else (percentage or D(0)) / 100
    line: dict[str, Any] = {"code": code, "unitPrice": unit}
    if quantity is not None:
        line["quantity"] = quantity
    else:
        line["percentage"] = percentage
    total = Money(minor_units(unit.amount * factor), unit.currency)
    return {**line, "lineTotal": total, "reversal": False, "includeFor": list(include_for)}


# --- line items from the caller ----------------------------------------------------------------


def set_line_items(step: Step, config: Mapping[str, Any]) -> None:
    """`privileged-set-line-items`: every line replaced by the given ones."""
    _save(step, line_items(step.required("lineItems", Any)))


def set_line_items_and_total(step: Step, config: Mapping[str, Any]) -> None:
    """`set-line-items-and-total` (deprecated): the same, from any context."""
    _save(step, line_items(step.required("lineItems", Any), privileged=False))


def set_negotiated_total(step: Step, config: Mapping[str, Any]) -> None:
    """`set-negotiated-total-price`: a line that makes the customer's total the offer; run
    again, the same line changes."""
    offer: Money = step.required("negotiatedTotal", Money)
    code = "line-item/negotiated-total-price"
    others = [i for i in _current(step) if i["code"] != code]
    paid = sum(i["lineTotal"].amount for i in others if "customer" in i["includeFor"])
    line = _line(code, Money(offer.amount - paid, offer.currency), quantity=D(1))
    _save(step, [*others, line])


# --- the deprecated pricing from the listing ------------------------------------------------


def _price(step: Step) -> Money:
    price = step.listing.attributes.price
    if price is None:
        raise conflict("The listing has no price", "transaction-missing-listing-price")
    found: Money = price
    return found


def _booked_days(step: Step) -> int:
    booking = step.other("booking", step.tx.one("booking"))
    if booking is None:
        raise conflict("The transaction has no booking")
    a = booking.attributes
    days: int = (a.end - a.start).days
    return max(0, days)


def _add_lines(step: Step, *lines: dict[str, Any]) -> None:
    _save(step, [*_current(step), *lines])


def _with_provider_commission(step: Step, config: Mapping[str, Any], line: dict[str, Any]) -> None:
    lines = [line]
    commission = config.get("commission")
    if commission is not None:
        base = line["lineTotal"]
        negated = Money(-base.amount, base.currency)
        lines.append(
            _line(
                "line-item/provider-commission", negated, ["provider"], percentage=commission * 100
            )
        )
    _add_lines(step, *lines)


def daily_total_price(step: Step, config: Mapping[str, Any]) -> None:
    """`calculate-tx-daily-total-price`: the listing's price for each booked day."""
    _add_lines(step, _line("line-item/day", _price(step), quantity=D(_booked_days(step))))


def nightly_total_price(step: Step, config: Mapping[str, Any]) -> None:
    """`calculate-tx-nightly-total-price`: the listing's price for each booked night."""
    _add_lines(step, _line("line-item/night", _price(step), quantity=D(_booked_days(step))))


def daily_total_exclude_start(step: Step, config: Mapping[str, Any]) -> None:
    """`calculate-tx-total-daily-booking-exclude-start`: the days between the first and the
    last; the booking must be at least three days."""
    days = _booked_days(step)
    if days < 3:
        raise conflict("The booking must be at least 3 days")
    _add_lines(step, _line("line-item/day", _price(step), quantity=D(days - 2)))


def daily_total(step: Step, config: Mapping[str, Any]) -> None:
    """`calculate-tx-daily-total`: the days' price, less the provider's commission."""
    line = _line("line-item/day", _price(step), quantity=D(_booked_days(step)))
    _with_provider_commission(step, config, line)


def nightly_total(step: Step, config: Mapping[str, Any]) -> None:
    """`calculate-tx-nightly-total` (and `calculate-tx-total`): the nights' price, less the
    provider's commission."""
    line = _line("line-item/night", _price(step), quantity=D(_booked_days(step)))
    _with_provider_commission(step, config, line)


def unit_total_price(step: Step, config: Mapping[str, Any]) -> None:
    """`calculate-tx-unit-total-price`: `quantity` times the listing's price."""
    quantity: int = step.required("quantity", int)
    if quantity < 1:
        raise _bad("quantity: 1 or more", ["body", "params", "quantity"])
    _add_lines(step, _line("line-item/units", _price(step), quantity=D(quantity)))


def two_units_total_price(step: Step, config: Mapping[str, Any]) -> None:
    """`calculate-tx-two-units-total-price`: two quantities, each at the listing's price times
    its multiplier."""
    price = _price(step)
    lines: list[dict[str, Any]] = []
    for n in (1, 2):
        quantity: int = step.required(f"quantity{n}", int)
        if quantity < 0:
            raise _bad(f"quantity{n}: 0 or more", ["body", "params", f"quantity{n}"])
        multiplier: D = config.get(f"quantity{n}-price-multiplier", D(1))
        unit = Money(minor_units(price.amount * multiplier), price.currency)
        lines.append(_line(f"line-item/units{n}", unit, quantity=D(quantity)))
    _add_lines(step, *lines)


# --- commissions -------------------------------------------------------------------------------


def _base(step: Step) -> Money:
    """The transaction's total price: its lines for the customer, commissions and reversals
    left out."""
    lines = [
        i
        for i in _current(step)
        if "customer" in i["includeFor"] and not i["reversal"] and i["code"] not in COMMISSION_CODES
    ]
    if not lines:
        raise conflict("The transaction has no total price to take a commission of")
    currency = lines[0]["lineTotal"].currency
    return Money(sum(i["lineTotal"].amount for i in lines), currency)


def _bounded(amount: int, config: Mapping[str, Any], currency: str) -> int:
    low: Money | None = config.get("min")
    high: Money | None = config.get("max")
    for bound in (low, high):
        if bound is not None and bound.currency != currency:
            raise conflict("The commission's currency is not the transaction's")
    if low is not None and high is not None and low.amount >= high.amount:
        raise conflict("The commission's min must be less than its max")
    if low is not None:
        amount = max(amount, low.amount)
    if high is not None:
        amount = min(amount, high.amount)
    return amount


def customer_commission(step: Step, config: Mapping[str, Any]) -> None:
    """`calculate-tx-customer-commission` (deprecated): the customer pays a share more."""
    base = _base(step)
    share: D = config["commission"]
    line = _line("line-item/customer-commission", base, ["customer"], percentage=share * 100)
    bounded = _bounded(line["lineTotal"].amount, config, base.currency)
    line["lineTotal"] = Money(bounded, base.currency)
    _add_lines(step, line)


def provider_commission(step: Step, config: Mapping[str, Any]) -> None:
    """`calculate-tx-provider-commission` (deprecated): the provider gets a share less."""
    base = _base(step)
    low: Money | None = config.get("min")
    payin = step.tx.attributes.payin_total
    if low is not None and payin is not None and low.amount > payin.amount:
        # The API's own words, which the web template looks for.
        raise _bad(
            "Minimum commission amount is greater than the amount of money paid in",
            ["body", "params"],
        )
    negated = Money(-base.amount, base.currency)
    share: D = config["commission"]
    line = _line("line-item/provider-commission", negated, ["provider"], percentage=share * 100)
    bounded = _bounded(-line["lineTotal"].amount, config, base.currency)
    line["lineTotal"] = Money(-bounded, base.currency)
    _add_lines(step, line)


def customer_fixed_commission(step: Step, config: Mapping[str, Any]) -> None:
    fee: Money = config["commission"]
    _add_lines(step, _line("line-item/customer-fixed-commission", fee, ["customer"], quantity=D(1)))


def provider_fixed_commission(step: Step, config: Mapping[str, Any]) -> None:
    fee: Money = config["commission"]
    negated = Money(-fee.amount, fee.currency)
    line = _line("line-item/provider-fixed-commission", negated, ["provider"], quantity=D(1))
    _add_lines(step, line)


# --- refunds -----------------------------------------------------------------------------------


def full_refund(step: Step, config: Mapping[str, Any]) -> None:
    """`calculate-full-refund`: every line reversed, so payin and payout become zero; once."""
    items = _current(step)
    if any(i.get("reversal") for i in items):
        raise conflict("The transaction has been refunded already")
    reversals: list[dict[str, Any]] = []
    for item in items:
        total = item["lineTotal"]
        back: dict[str, Any] = {
            **item,
            "reversal": True,
            "lineTotal": Money(-total.amount, total.currency),
        }
        for key in ("quantity", "percentage"):
            if back.get(key) is not None:
                back[key] = -back[key]
        reversals.append(back)
    _save(step, [*items, *reversals])
