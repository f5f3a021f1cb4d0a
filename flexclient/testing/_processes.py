"""The transaction processes the fake runs: Sharetribe's default processes, as data.

Each process is its transitions: who may take each (`customer`, `provider`, `operator`; a
transition with `at` is taken by the system when its time comes), the state it starts from
(none for a transition that starts a transaction), the state it leads to, its actions in
order, and whether it must come from a trusted (server) context. The facts are those of the
processes Sharetribe publishes (default-booking, default-purchase, default-inquiry).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# --- time expressions ------------------------------------------------------------------------
# ("entered", state) | ("booking-start",) | ("booking-end",) | ("plus", expr, period)
# | ("min", expr, ...): when a delayed transition is due, as the process states it.
Expr = tuple[Any, ...]
BOOKING_START: Expr = ("booking-start",)
BOOKING_END: Expr = ("booking-end",)


def entered(state: str) -> Expr:
    """When the transaction first entered `state`."""
    return ("entered", f"state/{state}")


def plus(when: Expr, period: str) -> Expr:
    return ("plus", when, period)


def earliest(*options: Expr) -> Expr:
    return ("min", *options)


_PERIOD = re.compile(r"P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?")


def period(text: str) -> dt.timedelta:
    """An ISO 8601 duration of weeks, days, hours, minutes and seconds (`PT15M`, `P6D`)."""
    match = _PERIOD.fullmatch(text)
    if match is None or text in ("P", "PT"):
        raise ValueError(f"not a duration: {text!r}")
    weeks, days, hours, minutes, seconds = (int(g or 0) for g in match.groups())
    return dt.timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes, seconds=seconds)


def due(expr: Expr, timepoints: Mapping[str, dt.datetime]) -> dt.datetime | None:
    """When `expr` falls, given the transaction's timepoints (`booking-start`, `booking-end`,
    and `state/...` for when each state was first entered); None if one is missing."""
    kind = expr[0]
    if kind == "entered":
        return timepoints.get(expr[1])
    if kind in ("booking-start", "booking-end"):
        return timepoints.get(kind)
    if kind == "plus":
        base = due(expr[1], timepoints)
        return base + period(expr[2]) if base is not None else None
    if kind == "min":
        found = [t for t in (due(e, timepoints) for e in expr[1:]) if t is not None]
        return min(found) if found else None
    raise ValueError(f"unknown time expression {expr!r}")


# --- processes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    name: str
    config: Mapping[str, Any] = field(default_factory=lambda: {})


def act(name: str, **config: Any) -> Action:
    return Action(f"action/{name}", config)


@dataclass(frozen=True)
class Transition:
    name: str
    to: str
    start: str | None = None  # the state it is taken from; None: it starts a transaction
    actor: str | None = None  # None: the system takes it, `at` its time
    actions: tuple[Action, ...] = ()
    at: Expr | None = None
    privileged: bool = False


def tr(
    name: str,
    start: str | None,
    to: str,
    actor: str | None,
    *actions: Action,
    at: Expr | None = None,
    privileged: bool = False,
) -> Transition:
    return Transition(
        f"transition/{name}",
        f"state/{to}",
        f"state/{start}" if start else None,
        actor,
        actions,
        at,
        privileged,
    )


@dataclass(frozen=True)
class Process:
    name: str
    version: int
    transitions: tuple[Transition, ...]

    @property
    def alias(self) -> str:
        return f"{self.name}/release-{self.version}"

    def transition(self, name: str) -> Transition | None:
        return next((t for t in self.transitions if t.name == name), None)

    def next_from(self, state: str | None) -> list[Transition]:
        """The transitions that can be taken from `state` (None: the initial ones)."""
        return [t for t in self.transitions if t.start == state]


_REFUND = (act("calculate-full-refund"), act("stripe-refund-payment"))
_PAY = (
    act("update-protected-data"),
    act("privileged-set-line-items"),
    act("stripe-create-payment-intent"),
)
_REVIEWS_AFTER = {  # when the review period of a completed transaction ends
    "default-booking": plus(BOOKING_END, "P7D"),
    "default-purchase": plus(entered("received"), "P7D"),
}


def _reviews(process: str, reviewed_from: str) -> tuple[Transition, ...]:
    """The review transitions both processes share: each party reviews once, in either
    order; the second review or the end of the review period publishes them."""
    period_over = _REVIEWS_AFTER[process]
    post_by = {r: act(f"post-review-by-{r}") for r in ("customer", "provider")}
    publish = act("publish-reviews")
    return (
        tr("review-1-by-provider", reviewed_from, "reviewed-by-provider", "provider",
           post_by["provider"]),
        tr("review-2-by-provider", "reviewed-by-customer", "reviewed", "provider",
           post_by["provider"], publish),
        tr("review-1-by-customer", reviewed_from, "reviewed-by-customer", "customer",
           post_by["customer"]),
        tr("review-2-by-customer", "reviewed-by-provider", "reviewed", "customer",
           post_by["customer"], publish),
        tr("expire-review-period", reviewed_from, "reviewed", None, at=period_over),
        tr("expire-provider-review-period", "reviewed-by-customer", "reviewed", None, publish,
           at=period_over),
        tr("expire-customer-review-period", "reviewed-by-provider", "reviewed", None, publish,
           at=period_over),
    )  # fmt: skip


_BOOK = act("create-pending-booking", type="time")
_DECLINE_BOOKING = (*_REFUND, act("decline-booking"))

DEFAULT_BOOKING = Process(
    "default-booking",
    1,
    (
        tr("inquire", None, "inquiry", "customer", act("update-protected-data")),
        tr("request-payment", None, "pending-payment", "customer",
           _PAY[0], _BOOK, *_PAY[1:], privileged=True),
        tr("request-payment-after-inquiry", "inquiry", "pending-payment", "customer",
           _PAY[0], _BOOK, *_PAY[1:], privileged=True),
        tr("expire-payment", "pending-payment", "payment-expired", None, *_DECLINE_BOOKING,
           at=plus(entered("pending-payment"), "PT15M")),
        tr("confirm-payment", "pending-payment", "preauthorized", "customer",
           act("stripe-confirm-payment-intent")),
        tr("accept", "preauthorized", "accepted", "provider",
           act("accept-booking"), act("stripe-capture-payment-intent")),
        tr("operator-accept", "preauthorized", "accepted", "operator",
           act("accept-booking"), act("stripe-capture-payment-intent")),
        tr("decline", "preauthorized", "declined", "provider", *_DECLINE_BOOKING),
        tr("operator-decline", "preauthorized", "declined", "operator", *_DECLINE_BOOKING),
        tr("expire", "preauthorized", "expired", None, *_DECLINE_BOOKING,
           at=earliest(plus(entered("preauthorized"), "P6D"), plus(BOOKING_START, "P1D"),
                       BOOKING_END)),
        tr("complete", "accepted", "delivered", None, act("stripe-create-payout"),
           at=plus(BOOKING_END, "P2D")),
        tr("operator-complete", "accepted", "delivered", "operator",
           act("stripe-create-payout")),
        tr("cancel", "accepted", "cancelled", "operator", *_REFUND, act("cancel-booking")),
        *_reviews("default-booking", "delivered"),
    ),
)  # fmt: skip

_CANCEL_STOCK = (*_REFUND, act("cancel-stock-reservation"))
_PAYOUT = act("stripe-create-payout")

DEFAULT_PURCHASE = Process(
    "default-purchase",
    1,
    (
        tr("inquire", None, "inquiry", "customer", act("update-protected-data")),
        tr("request-payment", None, "pending-payment", "customer",
           _PAY[0], act("create-pending-stock-reservation"), *_PAY[1:], privileged=True),
        tr("request-payment-after-inquiry", "inquiry", "pending-payment", "customer",
           _PAY[0], act("create-pending-stock-reservation"), *_PAY[1:], privileged=True),
        tr("confirm-payment", "pending-payment", "purchased", "customer",
           act("accept-stock-reservation"), act("stripe-confirm-payment-intent"),
           act("stripe-capture-payment-intent")),
        tr("expire-payment", "pending-payment", "payment-expired", None,
           *_REFUND, act("decline-stock-reservation"),
           at=plus(entered("pending-payment"), "PT15M")),
        tr("mark-received-from-purchased", "purchased", "received", "customer", _PAYOUT),
        tr("mark-delivered", "purchased", "delivered", "provider"),
        tr("operator-mark-delivered", "purchased", "delivered", "operator"),
        tr("mark-received", "delivered", "received", "customer", _PAYOUT),
        tr("auto-mark-received", "delivered", "received", None, _PAYOUT,
           at=plus(entered("delivered"), "P14D")),
        tr("dispute", "delivered", "disputed", "customer", act("update-protected-data")),
        tr("operator-dispute", "delivered", "disputed", "operator"),
        tr("mark-received-from-disputed", "disputed", "received", "operator", _PAYOUT),
        tr("cancel", "purchased", "canceled", "operator", *_CANCEL_STOCK),
        tr("auto-cancel", "purchased", "canceled", None, *_CANCEL_STOCK,
           at=plus(entered("purchased"), "P14D")),
        tr("cancel-from-disputed", "disputed", "canceled", "operator", *_CANCEL_STOCK),
        tr("auto-cancel-from-disputed", "disputed", "canceled", None, *_CANCEL_STOCK,
           at=plus(entered("disputed"), "P60D")),
        tr("auto-complete", "received", "completed", None, at=entered("received")),
        *_reviews("default-purchase", "completed"),
    ),
)  # fmt: skip

DEFAULT_INQUIRY = Process(
    "default-inquiry",
    1,
    (tr("inquire-without-payment", None, "free-inquiry", "customer",
        act("update-protected-data")),),
)  # fmt: skip

DEFAULT_PROCESSES: tuple[Process, ...] = (DEFAULT_BOOKING, DEFAULT_PURCHASE, DEFAULT_INQUIRY)
