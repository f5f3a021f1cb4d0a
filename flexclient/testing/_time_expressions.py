"""Time expressions: when a delayed transition (or notification) of a process is due.

A process writes them as EDN maps of one function, `{:fn/plus [a b]}`, nesting freely. The
six functions and eight timepoints are Sharetribe's (its time expressions reference):

- `{:fn/timepoint [tp & args]}`: a moment of the transaction; `tp` is `:time/tx-initiated`,
  `:time/first-entered-state` or `:time/last-entered-state` (with a state),
  `:time/first-transitioned` (with a transition), `:time/booking-start`,
  `:time/booking-end`, `:time/booking-display-start` or `:time/booking-display-end`;
- `{:fn/period ["P1D"]}`: an ISO 8601 duration (weeks, days, hours, minutes, seconds);
- `{:fn/plus [t span & spans]}` and `{:fn/minus [t span & spans]}`;
- `{:fn/min [t t & ts]}`: the earliest;
- `{:fn/ignore-if-past [t]}`: `t`, or nothing when it is already past.

An expression may come to nothing (a timepoint the transaction has not reached, such as a
booking's start without a booking): then nothing is scheduled. Expressions are parsed when
the process is loaded, so that a mistake is found then, and evaluated when the transaction
enters the state the transition leaves from.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from flexclient._support.narrow import is_dict, is_tuple
from flexclient.testing._edn import Keyword

TIMEPOINTS: dict[str, Literal["state", "transition"] | None] = {
    # timepoint: what it takes, if anything
    "time/tx-initiated": None,
    "time/first-entered-state": "state",
    "time/last-entered-state": "state",
    "time/first-transitioned": "transition",
    "time/booking-start": None,
    "time/booking-end": None,
    "time/booking-display-start": None,
    "time/booking-display-end": None,
}
FUNCTIONS = ("fn/timepoint", "fn/period", "fn/plus", "fn/minus", "fn/min", "fn/ignore-if-past")


class TimeExpressionError(ValueError):
    """An expression that is not one of the forms above; the message says what is wrong."""


# --- the parsed forms ----------------------------------------------------------------------


@dataclass(frozen=True)
class Timepoint:
    name: str  # "time/booking-end"
    arg: str | None = None  # the state or transition of the timepoints that take one


@dataclass(frozen=True)
class Period:
    span: dt.timedelta


@dataclass(frozen=True)
class Shift:
    """`plus` (sign 1) or `minus` (sign -1): a moment moved by spans."""

    base: Moment
    spans: tuple[Period, ...]
    sign: int = 1


@dataclass(frozen=True)
class Earliest:
    options: tuple[Moment, ...]


@dataclass(frozen=True)
class IgnoreIfPast:
    moment: Moment


Moment = Timepoint | Shift | Earliest | IgnoreIfPast


@dataclass
class Clock:
    """What a transaction's timepoints are so far, and the time it is now."""

    now: dt.datetime
    initiated: dt.datetime | None = None
    first_entered: Mapping[str, dt.datetime] = field(default_factory=lambda: {})
    last_entered: Mapping[str, dt.datetime] = field(default_factory=lambda: {})
    first_transitioned: Mapping[str, dt.datetime] = field(default_factory=lambda: {})
    booking: Mapping[str, dt.datetime] = field(default_factory=lambda: {})  # "booking-start", ...


# --- parsing -------------------------------------------------------------------------------


def parse(raw: object) -> Moment:
    """A moment from the EDN value of an `:at`; TimeExpressionError if it is not one."""
    fn, args = _call(raw)
    if fn == "fn/timepoint":
        return _timepoint(args)
    if fn in ("fn/plus", "fn/minus"):
        if len(args) < 2:
            raise TimeExpressionError(f":{fn} takes a moment and one or more periods")
        spans = tuple(_period(a) for a in args[1:])
        return Shift(parse(args[0]), spans, 1 if fn == "fn/plus" else -1)
    if fn == "fn/min":
        if len(args) < 2:
            raise TimeExpressionError(":fn/min takes two or more moments")
        return Earliest(tuple(parse(a) for a in args))
    if fn == "fn/ignore-if-past":
        if len(args) != 1:
            raise TimeExpressionError(":fn/ignore-if-past takes one moment")
        return IgnoreIfPast(parse(args[0]))
    raise TimeExpressionError(":fn/period is a span of time, not a moment: use it in plus or minus")


def _call(raw: object) -> tuple[str, tuple[object, ...]]:
    if not is_dict(raw) or len(raw) != 1:
        raise TimeExpressionError(f"a time expression is a map of one function, not {raw!r}")
    ((fn, args),) = raw.items()
    if not isinstance(fn, Keyword) or fn not in FUNCTIONS:
        known = ", ".join(f":{f}" for f in FUNCTIONS)
        raise TimeExpressionError(f"unknown function {_show(fn)} (known: {known})")
    if is_tuple(args):
        return str(fn), args
    return str(fn), (args,)  # `{:fn/period "P1D"}`, as the reference also writes it


def _timepoint(args: tuple[object, ...]) -> Timepoint:
    name = args[0] if args else None
    if not isinstance(name, Keyword) or name not in TIMEPOINTS:
        known = ", ".join(f":{t}" for t in TIMEPOINTS)
        raise TimeExpressionError(f"unknown timepoint {_show(name)} (known: {known})")
    takes = TIMEPOINTS[name]
    if takes is None:
        if len(args) != 1:
            raise TimeExpressionError(f":{name} takes nothing more")
        return Timepoint(str(name))
    if len(args) != 2 or not isinstance(args[1], Keyword) or args[1].namespace != takes:
        raise TimeExpressionError(f":{name} takes a {takes}, such as :{takes}/name")
    return Timepoint(str(name), str(args[1]))


def _period(raw: object) -> Period:
    fn, args = _call(raw)
    if fn != "fn/period":
        raise TimeExpressionError(f"plus and minus add periods ({{:fn/period [...]}}), not :{fn}")
    if len(args) != 1 or not isinstance(args[0], str) or isinstance(args[0], Keyword):
        raise TimeExpressionError(':fn/period takes an ISO 8601 duration such as ["P1D"]')
    return Period(duration(args[0]))


_DURATION = re.compile(
    r"P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?", re.IGNORECASE
)


def duration(text: str) -> dt.timedelta:
    """An ISO 8601 duration of weeks, days, hours, minutes and seconds (`PT15M`, `P6D`)."""
    match = _DURATION.fullmatch(text)
    if match is None or text.upper() in ("P", "PT") or text.upper().endswith("T"):
        raise TimeExpressionError(
            f"{text!r} is not a duration the fake knows: weeks, days, hours, minutes and "
            "seconds (P1W, P6D, PT15M, PT1H30M); years and months are not fixed spans"
        )
    weeks, days, hours, minutes = (int(g or 0) for g in match.groups()[:4])
    seconds = float(match.group(5) or 0)
    return dt.timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes, seconds=seconds)


def _show(value: object) -> str:
    return f":{value}" if isinstance(value, Keyword) else repr(value)


# --- evaluating ----------------------------------------------------------------------------


def when(moment: Moment, clock: Clock) -> dt.datetime | None:
    """The time `moment` falls at, or None when it comes to nothing."""
    if isinstance(moment, Timepoint):
        return _timepoint_value(moment, clock)
    if isinstance(moment, Shift):
        base = when(moment.base, clock)
        if base is None:
            return None
        return base + moment.sign * sum((p.span for p in moment.spans), dt.timedelta())
    if isinstance(moment, Earliest):
        found = [t for t in (when(m, clock) for m in moment.options) if t is not None]
        return min(found) if found else None
    found_at = when(moment.moment, clock)
    return None if found_at is None or found_at < clock.now else found_at


def _timepoint_value(tp: Timepoint, clock: Clock) -> dt.datetime | None:
    if tp.name == "time/tx-initiated":
        return clock.initiated
    if tp.name == "time/first-entered-state":
        return clock.first_entered.get(tp.arg or "")
    if tp.name == "time/last-entered-state":
        return clock.last_entered.get(tp.arg or "")
    if tp.name == "time/first-transitioned":
        return clock.first_transitioned.get(tp.arg or "")
    return clock.booking.get(tp.name.removeprefix("time/"))


def references(moment: Moment) -> list[Timepoint]:
    """The timepoints an expression reads (to check that their states and transitions
    exist)."""
    if isinstance(moment, Timepoint):
        return [moment]
    if isinstance(moment, Shift):
        return references(moment.base)
    if isinstance(moment, Earliest):
        return [t for m in moment.options for t in references(m)]
    return references(moment.moment)
