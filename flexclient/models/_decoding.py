"""Reading a response body into models, and the three tricks that make it fast.

Each trick is measured by benchmarks/decode.py (docs/performance.md) and each has a plain
fallback, so that correctness never depends on it:

1. **The collector paused, when the program asks** (`pause_collector_while_decoding(True)`,
   off by default) while a body becomes models. Building thousands of objects at once
   otherwise sets off the collector's older passes, full ones among them, again and again,
   each over every object of the process. But the collector is one for the whole process,
   so a pause stops it for every thread; a program that decodes in one thread at a time may
   want it, a threaded server not (docs/performance.md). Off, nothing here touches the
   collector, and JSON too deeply nested to read is refused before it is parsed
   (`_support.json_reading.check_nesting`) instead.
2. **UUIDs built without `uuid.UUID(text)`'s keyword handling** (`fast_uuid`): the API writes
   only the canonical 36-character form, which is checked as strictly as the standard library
   does and built directly, with none of `uuid.UUID.__init__`'s handling of its other
   forms; the transit walk reads every id through it. Any other form goes to `uuid.UUID`. Where
   `flexclient._support.compat` finds `uuid.UUID` built otherwise (another Python), the same
   check is made and the id built by `uuid.UUID(bytes=...)` (`_wire.values._uuid_reader`).
3. **Money and LatLng built without revalidation** (`money_from`, `latlng_from`) when the
   wire already gave exact `int`/`str` or `float`s, which a page holds by the hundred;
   anything else goes through pydantic's validation of the dataclass, which says what is
   wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from flexclient._support.json_reading import NestingError, check_nesting, gc_paused
from flexclient._wire.formats import WireDecodeError
from flexclient.models._envelope import build_envelope, envelope_from_json

if TYPE_CHECKING:
    from flexclient._wire.formats import WireFormat
    from flexclient.models import Envelope

_T = TypeVar("_T")


class _Settings:
    pause_collector = False


def pause_collector_while_decoding(pause: bool) -> bool:
    """Pause the cyclic garbage collector while a response body becomes models (True), or
    leave it alone (False, the default); returns the setting it replaces.

    The collector is one for the whole process: while any thread decodes, it is off for
    every thread, and a busy threaded server may then run without it most of the time. A
    program that decodes in one thread at a time (a script, a sync job, the command line)
    gains: in a row, a page of 100 listings decodes in 0.55 to 0.65 of the time, as its
    objects are not swept into the collector's older passes, full ones among them
    (docs/performance.md has the numbers).

    >>> from flexclient.models import pause_collector_while_decoding
    >>> pause_collector_while_decoding(True)  # doctest: +SKIP
    False
    """
    previous = _Settings.pause_collector
    _Settings.pause_collector = bool(pause)
    return previous


def read_envelope(fmt: WireFormat, content: bytes) -> Envelope[Any]:
    """A successful response's body as an `Envelope`; raises `WireDecodeError`, `EnvelopeError`."""
    if _Settings.pause_collector:
        with gc_paused():
            return _read(fmt, content)
    return _read(fmt, content)


def _read(fmt: WireFormat, content: bytes) -> Envelope[Any]:
    # JSON goes from bytes straight into models; Transit is read into plain values first
    # (and so is JSON that only json.loads reads, once it is known to fit the stack: a
    # collection in the middle of json.loads's recursion runs finalizers near the limit).
    if fmt.name == "json":
        envelope = envelope_from_json(content)
        if envelope is not None:
            return envelope
        try:
            check_nesting(content)
        except NestingError as exc:
            raise WireDecodeError(f"invalid json body: {exc}") from None
    return build_envelope(fmt.decode(content))
