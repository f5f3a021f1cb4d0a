"""Actions on a transaction's booking: made pending (holding its seats) or proposed (not
yet), accepted, declined, cancelled or changed; the listing's availability is checked as
the API checks it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from flexclient.testing import _availability
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, invalid
from flexclient.testing._schema import current
from flexclient.testing._step import Step, conflict

NOT_AVAILABLE = "transaction-booking-time-not-available"


def _times(step: Step, kind: str) -> dict[str, Any]:
    """The booking's times from the parameters; a day booking's are whole UTC days, and its
    display times too unless given."""
    start: dt.datetime = step.required("bookingStart", dt.datetime)
    end: dt.datetime = step.required("bookingEnd", dt.datetime)
    if kind == "day":
        start, end = _availability.whole_days(start, end)
    if end <= start:
        raise invalid("body", "params.bookingEnd", "must be after bookingStart")
    display_start = step.param("bookingDisplayStart", dt.datetime) or start
    display_end = step.param("bookingDisplayEnd", dt.datetime) or end
    return {"start": start, "end": end, "display_start": display_start, "display_end": display_end}


def _not_past(step: Step, start: dt.datetime, kind: str) -> None:
    """A booking cannot start before now (a day booking: before today, in UTC)."""
    now = step.state.time()
    earliest = _availability.whole_days(now, now)[0] if kind == "day" else now
    if start < earliest:
        raise ApiFailure(409, NOT_AVAILABLE, "The booking time is in the past")


def create(step: Step, config: Mapping[str, Any], *, state: str, observe: bool = True) -> None:
    """`create-pending-booking`, `create-proposed-booking` and the deprecated
    `create-booking` (which checks availability only with `observe-availability?`)."""
    if step.tx.one("booking") is not None:
        raise conflict("The transaction already has a booking")
    kind = str(config.get("type", "day"))
    times = _times(step, kind)
    _not_past(step, times["start"], kind)
    seats: int = step.param("seats", int) or 1
    check = observe or bool(config.get("observe-availability?", False))
    if check and not _availability.has_room(
        step.state, step.listing, times["start"], times["end"], seats
    ):
        raise ApiFailure(409, NOT_AVAILABLE, "The booking time is not available")
    booking = step.new("booking", {**times, "seats": seats, "state": state})
    booking.link("transaction", "transaction", step.tx.id)
    step.tx.link("booking", "booking", booking.id)
    step.ctx.emit("booking/created", booking, None)


def _booking(step: Step) -> s.Record[Any]:
    booking = step.other("booking", step.tx.one("booking"))
    if booking is None:
        raise conflict("The transaction has no booking")
    return booking


def move(step: Step, config: Mapping[str, Any], *, allowed: tuple[str, ...], to: str) -> None:
    """`accept-booking`, `decline-booking` and `cancel-booking`."""
    booking = _booking(step)
    was = booking.attributes.state
    if was not in allowed:
        code = f"transaction-booking-state-not-{'accepted' if to == 'cancelled' else 'pending'}"
        raise conflict(f"A {was} booking cannot be {to}", code)
    if was == "proposed" and to == "accepted":
        a = booking.attributes
        if not _availability.has_room(step.state, step.listing, a.start, a.end, a.seats or 1):
            raise ApiFailure(409, NOT_AVAILABLE, "The booking time is no longer available")
    before = step.ctx.snapshot(booking)
    booking.set(state=to)
    step.ctx.emit("booking/updated", booking, before)


def update(step: Step, config: Mapping[str, Any]) -> None:
    """`update-booking`: the given times or seats change, the state stays; a range is given
    whole (start and end), and the display times do not follow the booking's."""
    booking = _booking(step)
    if booking.attributes.state not in ("proposed", "pending", "accepted"):
        raise conflict(f"A {booking.attributes.state} booking cannot be changed")
    before = step.ctx.snapshot(booking)
    values: dict[str, Any] = {}
    for first, second in (
        ("bookingStart", "bookingEnd"),
        ("bookingDisplayStart", "bookingDisplayEnd"),
    ):
        given = [step.params.get(first) is not None, step.params.get(second) is not None]
        if any(given) and not all(given):
            name = second if given[0] else first
            raise invalid("body", f"params.{name}", f"give {first} and {second} together")
    kind = str(config.get("type", "day"))
    if step.params.get("bookingStart") is not None:
        times = _times(step, kind)
        _not_past(step, times["start"], kind)
        values.update(start=times["start"], end=times["end"])
    if step.params.get("bookingDisplayStart") is not None:
        values["display_start"] = step.param("bookingDisplayStart", dt.datetime)
        values["display_end"] = step.param("bookingDisplayEnd", dt.datetime)
    if step.params.get("seats") is not None:
        values["seats"] = step.param("seats", int)
    merged = {**current(booking.attributes), **values}
    if merged["end"] <= merged["start"] or merged["display_end"] < merged["display_start"]:
        raise invalid("body", "params.bookingEnd", "must be after bookingStart")
    if not _availability.has_room(
        step.state,
        step.listing,
        merged["start"],
        merged["end"],
        merged["seats"] or 1,
        ignore_booking=booking.id,
    ):
        raise ApiFailure(409, NOT_AVAILABLE, "The booking time is not available")
    booking.set(**values)
    step.ctx.emit("booking/updated", booking, before)
