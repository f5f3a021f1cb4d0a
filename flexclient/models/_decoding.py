"""Reading a response body into models, and the three tricks that make it fast.

Each trick was measured (benchmarks/decode.py, docs/performance.md) and each has a plain
fallback, so that correctness never depends on it:

1. **The collector paused** (`flexclient._support.json_reading.gc_paused`) while a body
   becomes models.
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

from typing import TYPE_CHECKING, Any, TypeVar

from flexclient._support.json_reading import gc_paused
from flexclient.models._envelope import build_envelope, envelope_from_json

if TYPE_CHECKING:
    from flexclient._wire.formats import WireFormat
    from flexclient.models import Envelope

_T = TypeVar("_T")


def read_envelope(fmt: WireFormat, content: bytes) -> Envelope[Any]:
    """A successful response's body as an `Envelope`; raises `WireDecodeError`, `EnvelopeError`."""
    with gc_paused():
        # JSON goes from bytes straight into models; Transit is read into plain values first
        # (and so is JSON that only json.loads reads).
        envelope = envelope_from_json(content) if fmt.name == "json" else None
        return envelope if envelope is not None else build_envelope(fmt.decode(content))
