"""transit-js as a reference for the Transit reader and writer: one node process a session.

`tests/js/transit_oracle.js` answers requests a line at a time; values travel as JSON with
markers (`{"$uuid": ...}`, `{"$map": [[k, v], ...]}`, ...), which `marked` and `plain` turn
into and out of Python values. `comparable` puts what either side read into one form, so
that equal values compare equal whoever read them.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import json
import math
import subprocess
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from transit.transit_types import Keyword, TaggedValue

from flexclient import LatLng, Money
from flexclient._wire.values import money_from
from tests.js_sdks import node_env
from tests.shapes import as_list, as_str, is_dict, is_list, is_sequence

SCRIPT = Path(__file__).parent / "js" / "transit_oracle.js"
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
SAFE = 2**53 - 1


class Oracle:
    """The node process running transit-js and the official SDK's reader."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ["node", str(SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=node_env(),
        )

    def ask(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "the transit-js oracle stopped; see its stderr above"
        answers: list[dict[str, Any]] = json.loads(line)
        return answers

    def read(self, texts: list[str]) -> list[dict[str, Any]]:
        """Each text as the official SDK reads it: {"ok": marked value} or {"error": ...}."""
        return self.ask({"op": "read", "texts": texts})

    def write(self, values: list[Any], verbose: bool = False) -> list[dict[str, Any]]:
        """Each marked value as transit-js writes it: {"ok": text, "sdk": text or None}."""
        return self.ask({"op": "write", "values": values, "verbose": verbose})

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


# --- Python values <-> marked JSON -----------------------------------------------------------


def marked(value: object) -> object:
    """A Python value (what the writer takes) as marked JSON, for the oracle to write."""
    if is_dict(value):
        return {"$map": [[k, marked(v)] for k, v in value.items()]}
    if is_sequence(value):
        return [marked(v) for v in value]
    if isinstance(value, Keyword):
        return {"$kw": value.str}
    if isinstance(value, uuid.UUID):
        return {"$uuid": str(value)}
    if isinstance(value, Money):
        return {"$money": [marked(value.amount), value.currency]}
    if isinstance(value, LatLng):
        return {"$latlng": [value.lat, value.lng]}
    if isinstance(value, decimal.Decimal):
        return {"$decimal": str(value)}
    if isinstance(value, dt.datetime):
        return {"$date": (value - EPOCH) // dt.timedelta(milliseconds=1)}
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > SAFE:
        return {"$int": str(value)}
    return value


def plain(value: object) -> object:
    """Marked JSON (the oracle's form) as the Python value it stands for."""
    if is_list(value):
        return [plain(v) for v in value]
    if not (is_dict(value) and len(value) == 1):
        return value
    ((mark, x),) = value.items()
    # The oracle's markers carry these shapes (tests/js/transit_oracle.js).
    readers: dict[object, Callable[[], object]] = {
        "$map": lambda: {plain(k): plain(v) for k, v in cast("list[list[object]]", x)},
        "$kw": lambda: Keyword(as_str(x)),
        "$uuid": lambda: uuid.UUID(as_str(x)),
        "$money": lambda: money_from(plain(as_list(x)[0]), as_list(x)[1]),
        "$latlng": lambda: LatLng(*cast("list[float]", x)),
        "$decimal": lambda: decimal.Decimal(as_str(x)),
        "$date": lambda: EPOCH + dt.timedelta(milliseconds=cast(int, x)),
        "$int": lambda: int(as_str(x)),
    }
    return readers[mark]()


# --- one form for comparing --------------------------------------------------------------------


def comparable(value: object) -> object:
    """What flexclient's reader made (or what the writer took) in a form that compares
    equal to `from_js` of what the SDK read for the same value: keywords as their names,
    maps as sorted pairs, numbers as JavaScript holds them, bools apart from numbers."""
    if is_dict(value):
        return _map([(comparable(k), comparable(v)) for k, v in value.items()])
    if is_sequence(value):
        return [comparable(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return {"$bool": value} if isinstance(value, bool) else value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, Keyword):
        return value.str
    if isinstance(value, uuid.UUID):
        return {"$uuid": str(value)}
    if isinstance(value, Money):
        return {"$money": [comparable(value.amount), value.currency]}
    if isinstance(value, LatLng):
        return {"$latlng": [_float(value.lat), _float(value.lng)]}
    if isinstance(value, decimal.Decimal):
        return {"$decimal": str(value)}
    if isinstance(value, dt.datetime):
        return {"$date": (value - EPOCH) // dt.timedelta(milliseconds=1)}
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode()}
    if isinstance(value, TaggedValue):
        return {"$tag": [value.tag, comparable(value.rep)]}
    raise TypeError(f"no comparable form for {type(value).__name__}")


def from_js(value: object) -> object:
    """The oracle's reading of a value, in `comparable`'s form."""
    if is_list(value):
        return [from_js(v) for v in value]
    if isinstance(value, bool):
        return {"$bool": value}
    if isinstance(value, float):
        return _float(value)
    if not (is_dict(value) and len(value) == 1):
        return value
    ((mark, x),) = value.items()
    if mark == "$map":
        return _map([(from_js(k), from_js(v)) for k, v in cast("list[list[object]]", x)])
    if mark == "$int":
        return int(as_str(x))
    if mark == "$uuid":
        return {"$uuid": as_str(x).lower()}
    if mark == "$decimal":
        try:
            return {"$decimal": str(decimal.Decimal(as_str(x)))}
        except decimal.InvalidOperation:
            return value
    if mark == "$float":
        return {"$float": x}
    if mark in ("$money", "$latlng", "$tag"):
        pair = as_list(x)
        return {mark: [pair[0] if mark == "$tag" else from_js(pair[0]), from_js(pair[1])]}
    return value


def _float(value: float) -> object:
    if math.isnan(value):
        return {"$float": "NaN"}
    if math.isinf(value):
        return {"$float": "INF" if value > 0 else "-INF"}
    # JavaScript has one kind of number: 2.0 is read as 2.
    return int(value) if value.is_integer() and abs(value) <= SAFE else value


def _map(pairs: list[tuple[object, object]]) -> dict[str, object]:
    return {"$map": sorted(([k, v] for k, v in pairs), key=lambda p: json.dumps(p[0]))}
