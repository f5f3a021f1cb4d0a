"""When a listing can be booked: its availability plan, overridden by availability exceptions,
less the seats that bookings hold, as the API's availability reference describes them.

A day-based plan (`availability-plan/day`) works in whole UTC days: an exception or a booking
that touches a day covers all of it, and several exceptions on one day leave the fewest
seats. A time-based plan (`availability-plan/time`) gives each day of the week time ranges in
the plan's time zone, and exceptions and bookings count exactly as long as they last. A
listing without a plan is available every day with one seat.
"""

from __future__ import annotations

import datetime as dt
import itertools
import uuid
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flexclient.models import ListingAttributes
from flexclient.testing import _state as s

DAY = dt.timedelta(days=1)
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DAY_PLAN = "availability-plan/day"
TIME_PLAN = "availability-plan/time"
DEFAULT_PLAN: dict[str, Any] = {
    "type": DAY_PLAN,
    "entries": [{"dayOfWeek": d, "seats": 1} for d in WEEKDAYS],
}
# Bookings in these states hold their seats.
HOLDING = ("pending", "accepted")


@dataclass(frozen=True)
class Span:
    """Seats free from `start` until `end`."""

    start: dt.datetime
    end: dt.datetime
    seats: int


def plan_of(listing: s.Record[ListingAttributes]) -> dict[str, Any]:
    plan = listing.attributes.availability_plan
    return plan if plan is not None and plan.get("type") else DEFAULT_PLAN


def is_day_plan(listing: s.Record[Any]) -> bool:
    return plan_of(listing).get("type") != TIME_PLAN


def _utc_midnight(t: dt.datetime) -> dt.datetime:
    u = t.astimezone(dt.UTC)
    return dt.datetime(u.year, u.month, u.day, tzinfo=dt.UTC)


def whole_days(start: dt.datetime, end: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    """The UTC days a period touches, from the first's midnight to the midnight after the last."""
    first = _utc_midnight(start)
    last = _utc_midnight(end)
    return first, last if last == end.astimezone(dt.UTC) else last + DAY


def _exceptions(
    state: s.State, listing_id: uuid.UUID
) -> list[tuple[dt.datetime, dt.datetime, int]]:
    return [
        (e.attributes.start, e.attributes.end, e.attributes.seats or 0)
        for e in state.exceptions.values()
        if e.one("listing") == listing_id and e.attributes.start and e.attributes.end
    ]


def bookings_of(state: s.State, listing_id: uuid.UUID) -> list[s.Record[Any]]:
    """The listing's bookings (found through their transactions)."""
    found: list[s.Record[Any]] = []
    for booking in state.table("booking").values():
        tx = state.transactions.get(booking.one("transaction") or uuid.UUID(int=0))
        if tx is not None and tx.one("listing") == listing_id:
            found.append(booking)
    return found


def _holding(state: s.State, listing_id: uuid.UUID, skip: uuid.UUID | None) -> list[Span]:
    return [
        Span(b.attributes.start, b.attributes.end, b.attributes.seats or 1)
        for b in bookings_of(state, listing_id)
        if b.attributes.state in HOLDING and b.id != skip
    ]


def free(
    state: s.State,
    listing: s.Record[Any],
    start: dt.datetime,
    end: dt.datetime,
    *,
    ignore_booking: uuid.UUID | None = None,
) -> list[Span]:
    """The free seats of a listing from `start` to `end`, as spans of equal seats (spans with
    no free seat left out), adjacent equal spans joined."""
    plan = plan_of(listing)
    exceptions = _exceptions(state, listing.id)
    bookings = _holding(state, listing.id, ignore_booking)
    if plan.get("type") == TIME_PLAN:
        spans = _time_based(plan, exceptions, bookings, start, end)
    else:
        spans = _day_based(plan, exceptions, bookings, start, end)
    return _joined(sp for sp in spans if sp.seats > 0)


def _day_based(
    plan: dict[str, Any],
    exceptions: list[tuple[dt.datetime, dt.datetime, int]],
    bookings: list[Span],
    start: dt.datetime,
    end: dt.datetime,
) -> list[Span]:
    seats_on = {e.get("dayOfWeek"): int(e.get("seats", 0)) for e in plan.get("entries", [])}
    day, last = whole_days(start, end)
    spans: list[Span] = []
    while day < last:
        after = day + DAY
        seats = seats_on.get(WEEKDAYS[day.weekday()], 0)
        covering = [n for (a, b, n) in exceptions if a < after and b > day]
        if covering:
            seats = min(covering)
        seats -= sum(b.seats for b in bookings if b.start < after and b.end > day)
        spans.append(Span(max(day, start), min(after, end), seats))
        day = after
    return spans


def _plan_ranges(plan: dict[str, Any], start: dt.datetime, end: dt.datetime) -> list[Span]:
    """The plan's time ranges that fall between `start` and `end`, in UTC."""
    zone = zoneinfo.ZoneInfo(plan.get("timezone") or "Etc/UTC")
    ranges: list[Span] = []
    day = start.astimezone(zone).date() - dt.timedelta(days=1)
    while dt.datetime.combine(day, dt.time(), zone) < end:
        for entry in plan.get("entries", []):
            if entry.get("dayOfWeek") != WEEKDAYS[day.weekday()]:
                continue
            begins = _at(day, entry.get("startTime", "00:00"), zone)
            ends = _at(day, entry.get("endTime", "00:00"), zone)
            if ends <= begins:  # "00:00" at the end is the midnight that ends the day
                ends = _at(day + dt.timedelta(days=1), entry.get("endTime", "00:00"), zone)
            ranges.append(Span(begins, ends, int(entry.get("seats", 0))))
        day += dt.timedelta(days=1)
    return ranges


def _at(day: dt.date, hhmm: str, zone: zoneinfo.ZoneInfo) -> dt.datetime:
    hours, _, minutes = hhmm.partition(":")
    local = dt.datetime.combine(day, dt.time(int(hours) % 24, int(minutes or 0)), zone)
    return local.astimezone(dt.UTC)


def _time_based(
    plan: dict[str, Any],
    exceptions: list[tuple[dt.datetime, dt.datetime, int]],
    bookings: list[Span],
    start: dt.datetime,
    end: dt.datetime,
) -> list[Span]:
    ranges = _plan_ranges(plan, start, end)
    cuts = {start, end}
    for item in (*ranges, *bookings, *(Span(a, b, n) for (a, b, n) in exceptions)):
        cuts.update(t for t in (item.start, item.end) if start < t < end)
    points = sorted(cuts)
    spans: list[Span] = []
    for a, b in itertools.pairwise(points):
        planned = [r.seats for r in ranges if r.start <= a < r.end]
        seats = max(planned, default=0)
        covering = [n for (x, y, n) in exceptions if x <= a < y]
        if covering:
            seats = min(covering)
        seats -= sum(bk.seats for bk in bookings if bk.start <= a < bk.end)
        spans.append(Span(a, b, seats))
    return spans


def _joined(spans: Iterable[Span]) -> list[Span]:
    out: list[Span] = []
    for span in spans:
        if out and out[-1].end == span.start and out[-1].seats == span.seats:
            out[-1] = Span(out[-1].start, span.end, span.seats)
        else:
            out.append(span)
    return out


def has_room(
    state: s.State,
    listing: s.Record[Any],
    start: dt.datetime,
    end: dt.datetime,
    seats: int,
    *,
    ignore_booking: uuid.UUID | None = None,
) -> bool:
    """Whether `seats` are free for the whole period."""
    covered = start
    for span in free(state, listing, start, end, ignore_booking=ignore_booking):
        if span.start > covered or span.seats < seats:
            return False
        covered = span.end
    return covered >= end
