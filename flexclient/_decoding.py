"""Reading a response body into models, and the three tricks that make it fast.

Each trick was measured (benchmarks/decode.py, docs/performance.md) and each has a plain
fallback, so that correctness never depends on it:

1. **The collector paused** (`flexclient._json.gc_paused`) while a body becomes models.
   Building thousands of objects at once otherwise triggers repeated full collections that
   make decoding grow faster than the page: 283 against 111 us a listing at 1,000 listings.
   Nothing decoded is garbage, so nothing is missed; the collector's state is restored when
   the last overlapping decode ends, also when the body is refused (tests/test_envelope.py).
2. **UUIDs built without `uuid.UUID(text)`'s keyword handling** (`fast_uuid`): the API writes
   only the canonical 36-character form, which is checked as strictly as the standard library
   does and built directly: 0.6 against 1.2 us an id (measured 2026-11-23, 1,000 random ids);
   the transit walk reads every id through it. Any other form goes to `uuid.UUID`.
3. **Money and LatLng built without revalidation** (`money_from`, `latlng_from`) when the
   wire already gave exact `int`/`str` or `float`s: 0.64 against 0.91 us a Money (same day);
   anything else goes through pydantic's validation of the dataclass, which says what is
   wrong.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import TypeAdapter

from flexclient._json import gc_paused
from flexclient._types import LatLng, Money
from flexclient.models._envelope import build_envelope, envelope_from_json

if TYPE_CHECKING:
    from flexclient._wire import WireFormat
    from flexclient.models import Envelope

_T = TypeVar("_T")


def read_envelope(fmt: WireFormat, content: bytes) -> Envelope[Any]:
    """A successful response's body as an `Envelope`; raises `WireDecodeError`, `EnvelopeError`."""
    with gc_paused():
        # JSON goes from bytes straight into models; Transit is read into plain values first
        # (and so is JSON that only json.loads reads).
        envelope = envelope_from_json(content) if fmt.name == "json" else None
        return envelope if envelope is not None else build_envelope(fmt.decode(content))


_UNKNOWN_SAFETY = uuid.SafeUUID.unknown
_new = object.__new__
_set_int = uuid.UUID.__dict__["int"].__set__
_set_safety = uuid.UUID.__dict__["is_safe"].__set__
_from_hex = bytes.fromhex
_from_bytes = int.from_bytes


def fast_uuid(text: str) -> uuid.UUID:
    # uuid.UUID(text) spends most of its time on forms the API never writes (braces, urn:);
    # this is its own check (32 digits once the dashes are gone, of which bytes.fromhex
    # makes 16 bytes: it takes no sign, "_" or other scripts' digits, as int() would) and
    # object, built without its keyword handling; other forms go to uuid.UUID.
    digits = text.replace("-", "")
    if len(digits) != 32:
        return uuid.UUID(text)
    raw = _from_hex(digits)
    if len(raw) != 16:  # spaces between the digits
        raise ValueError(f"not a UUID: {text[:40]!r}")
    made = _new(uuid.UUID)
    _set_int(made, _from_bytes(raw))
    _set_safety(made, _UNKNOWN_SAFETY)
    return made


def _built(cls: type[_T], **fields: object) -> _T:
    # The dataclass without its validation: for values already checked to have exact types.
    made = object.__new__(cls)
    made.__dict__.update(fields)  # where a (frozen) dataclass keeps its fields
    return made


# Made when first needed: well-formed values never need one, and import time counts.
_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def _validated(cls: type[_T], fields: dict[str, object]) -> _T:
    # pydantic's validation says what is wrong (the constructors' own checks are advice for
    # code that writes a value, not for what a server sent).
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    made: _T = adapter.validate_python(fields)
    return made


def money_from(amount: object, currency: object) -> Money:
    """`Money` read from the wire; validated only when the types are not already exact."""
    if type(amount) is int and type(currency) is str:
        return _built(Money, amount=amount, currency=currency)
    return _validated(Money, {"amount": amount, "currency": currency})


def latlng_from(lat: object, lng: object) -> LatLng:
    """`LatLng` read from the wire; validated only when the types are not already exact."""
    if type(lat) is float and type(lng) is float:
        return _built(LatLng, lat=lat, lng=lng)
    return _validated(LatLng, {"lat": lat, "lng": lng})
