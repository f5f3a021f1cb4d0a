"""Reading a response body into models, and the three tricks that make it fast.

Each trick is measured by benchmarks/decode.py (docs/performance.md) and each has a plain
fallback, so that correctness never depends on it:

1. **The collector paused while a body becomes models, in a program of one thread** (the
   default, `"auto"`; `True` always, `False` never: `pause_collector_while_decoding`).
   Building thousands of objects at once otherwise sets off the collector's older passes,
   full ones among them, again and again, each over every object of the process. But the
   collector is one for the whole process, so a pause stops it for every thread: by
   default it is paused only when the decoding thread is the only one, where no other
   thread can notice (docs/performance.md). Not paused, nothing here touches the collector.
   Paused or not, JSON too deeply nested for the stack is refused before it is parsed
   (`_support.json_reading.check_nesting`).
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

from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar

from flexclient._errors import ParameterError
from flexclient._support.json_reading import (
    NestingError,
    check_nesting,
    gc_paused,
    program_threads,
)
from flexclient._wire.formats import WireDecodeError
from flexclient.models._envelope import build_envelope, envelope_from_json

if TYPE_CHECKING:
    from flexclient._wire.formats import WireFormat
    from flexclient.models import Envelope

_T = TypeVar("_T")


CollectorPause: TypeAlias = bool | Literal["auto"]
"""When decoding pauses the collector: `"auto"` (in a program of one thread), always, never."""


class _Settings:
    pause_collector: CollectorPause = "auto"


def pause_collector_while_decoding(pause: CollectorPause) -> CollectorPause:
    """When to pause the cyclic garbage collector while a response body becomes models:
    `"auto"`, the default, when the decoding thread is the program's only thread (of those
    `threading` knows: a thread a C extension starts on its own is not counted until it
    calls into `threading`; nor are flexclient's own helpers, such as the thread on which the
    mirror reads its next page while it writes one, whose caller waits for them inside
    flexclient); `True` always; `False` never. Returns the setting it replaces.

    Building a page's thousands of objects at once otherwise sets off the collector's older
    passes, full ones among them, each over every object of the process: paused, a page of
    100 listings decodes in 0.55 to 0.65 of the time, read page after page
    (docs/performance.md has the numbers). But the collector is one for the whole process:
    while any thread decodes, it is off for every thread. In a program of one thread nobody
    else can notice, hence the default; `True` also pauses it in a threaded program, where a
    busy server may then run without it much of the time; `False` leaves the collector alone.

    >>> from flexclient.models import pause_collector_while_decoding
    >>> pause_collector_while_decoding(False)  # doctest: +SKIP
    'auto'
    """
    if not (pause is True or pause is False or pause == "auto"):
        raise ParameterError("pause", f'True, False or "auto", not {pause!r}')
    previous = _Settings.pause_collector
    _Settings.pause_collector = pause
    return previous


def read_envelope(fmt: WireFormat, content: bytes) -> Envelope[Any]:
    """A successful response's body as an `Envelope`; raises `WireDecodeError`, `EnvelopeError`."""
    pause = _Settings.pause_collector
    # The threads started through `threading` (and those that have called into it), less
    # flexclient's helpers: one means no thread of the program's own can see the pause.
    if pause is True or (pause == "auto" and program_threads() == 1):
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
