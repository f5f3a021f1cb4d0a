"""Reading answers changes nothing outside the answer: the collector runs in every thread as
the program set it (paused during a decode only where no other thread can notice, or where
the program asked), and a model is used in place of the library's only when registered."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import model_validator

import flexclient
from flexclient._errors import ParameterError
from flexclient._support.compat import stack_depth
from flexclient._support.json_reading import NestingError, read_json
from flexclient._wire.formats import JSON, TRANSIT, WireDecodeError, WireFormat
from flexclient.models import Listing, Resource, User, resource_from
from flexclient.models._decoding import (
    CollectorPause,
    pause_collector_while_decoding,
    read_envelope,
)
from flexclient.models._envelope import EnvelopeError
from flexclient.models._resource import model_for, register_model, registered, registered_models
from tests import sample

FORMATS = pytest.mark.parametrize("fmt", [JSON, TRANSIT], ids=["json", "transit"])
PROBE = "flexclientTestProbe"
PROBE_ID = "c6ff7190-bdf7-47a0-8a2b-e3136e74334f"


@pytest.fixture
def pausing() -> Iterator[Callable[[CollectorPause], None]]:
    """Sets the collector option for one test (never to begin with), and puts it back after."""

    def choose(pause: CollectorPause) -> None:
        pause_collector_while_decoding(pause)

    previous = pause_collector_while_decoding(False)
    yield choose
    pause_collector_while_decoding(previous)


# --- the collector ----------------------------------------------------------------------------


class _Meeting:
    """The decoding thread stops inside a decode until the other thread has looked."""

    def __init__(self) -> None:
        self.inside = threading.Event()
        self.looked = threading.Event()


_meeting: _Meeting | None = None


class Probe(Resource):
    """A model whose validation, inside a decode, waits for the other thread to look."""

    resource_type: ClassVar[str | None] = PROBE

    @model_validator(mode="after")
    def _meet(self) -> Probe:
        meeting = _meeting
        if meeting is not None:
            meeting.inside.set()
            assert meeting.looked.wait(10), "the other thread never looked"
        return self


def collector_seen_from_another_thread(fmt: WireFormat) -> bool:
    """`gc.isenabled()` as this thread sees it while another thread is in the middle of a
    decode (stopped inside a model's validation)."""
    global _meeting
    meeting = _meeting = _Meeting()
    body = fmt.encode({"data": {"id": uuid.UUID(PROBE_ID), "type": PROBE}})
    errors: list[BaseException] = []

    def decode() -> None:
        try:
            read_envelope(fmt, body)
        except BaseException as exc:  # reported by the test, not lost in the thread
            errors.append(exc)
            meeting.inside.set()

    thread = threading.Thread(target=decode)
    try:
        with registered(Probe):
            thread.start()
            assert meeting.inside.wait(10), "the decode never reached the model"
            seen = gc.isenabled()
            meeting.looked.set()
            thread.join(10)
    finally:
        _meeting = None
        meeting.looked.set()
    assert not errors, errors
    return seen


@FORMATS
def test_a_decode_never_turns_the_collector_off_for_another_thread(
    fmt: WireFormat, pausing: Callable[[bool], None]
) -> None:
    assert gc.isenabled()
    assert collector_seen_from_another_thread(fmt) is True
    assert gc.isenabled()


@FORMATS
def test_only_the_option_pauses_the_collector_and_then_for_every_thread(
    fmt: WireFormat, pausing: Callable[[bool], None]
) -> None:
    pausing(True)
    assert collector_seen_from_another_thread(fmt) is False  # what the option is: documented
    assert gc.isenabled()  # and back once the decode ends


@FORMATS
def test_auto_leaves_the_collector_alone_while_another_thread_of_the_program_runs(
    fmt: WireFormat, pausing: Callable[[CollectorPause], None]
) -> None:
    pausing("auto")
    assert collector_seen_from_another_thread(fmt) is True


# In a program of its own: this one may have other threads running (a fake marketplace the
# session shares).
_HELPER_DECODES = """
import gc, sys, threading
from flexclient._support.json_reading import helper_thread
from flexclient._wire.formats import JSON, TRANSIT
from flexclient.models import _decoding

seen = []
read = _decoding._read
_decoding._read = lambda fmt, content: seen.append(gc.isenabled()) or read(fmt, content)
fmt = {"json": JSON, "transit": TRANSIT}[sys.argv[1]]

def decode(helper):
    if helper:
        helper_thread()
    _decoding.read_envelope(fmt, fmt.encode({"data": []}))

for helper in (False, True):
    thread = threading.Thread(target=decode, args=(helper,))
    thread.start()
    thread.join()
print(seen, gc.isenabled(), threading.active_count())
"""


@FORMATS
def test_auto_pauses_it_on_a_helper_thread_of_flexclients_whose_caller_waits_for_it(
    fmt: WireFormat,
) -> None:
    # The mirror reads its next page on a thread of its own while the thread that called
    # sync() writes the one before: no code of the program's runs meanwhile, and the decode
    # pauses the collector as in a program of one thread. A thread of the program's does not.
    out = subprocess.run(
        [sys.executable, "-c", _HELPER_DECODES, fmt.name],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["[True,", "False]", "True", "1"]


def test_the_option_says_what_it_replaces(pausing: Callable[[bool], None]) -> None:
    assert pause_collector_while_decoding(True) is False
    assert pause_collector_while_decoding(False) is True


def test_a_bad_collector_setting_is_refused_naming_it(pausing: Callable[[bool], None]) -> None:
    for bad in ("yes", 1, None):
        with pytest.raises(ParameterError, match="pause"):
            pause_collector_while_decoding(bad)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert pause_collector_while_decoding(False) is False  # the setting is as it was


# What a program of one thread sees: the collector as a model's validation finds it, in the
# middle of a decode, first with the program's one thread, then with a second one waiting.
ONE_THREAD = """
import gc, threading, uuid
from typing import ClassVar
from pydantic import model_validator
from flexclient._wire.formats import JSON
from flexclient.models import Resource, pause_collector_while_decoding, registered
from flexclient.models._decoding import read_envelope

seen = []

class Probe(Resource):
    resource_type: ClassVar[str | None] = "flexclientTestProbe"

    @model_validator(mode="after")
    def _look(self) -> "Probe":
        seen.append(gc.isenabled())
        return self

body = JSON.encode({"data": {"id": uuid.UUID(int=1), "type": "flexclientTestProbe"}})
with registered(Probe):
    read_envelope(JSON, body)
    after = gc.isenabled()
    stop = threading.Event()
    waiting = threading.Thread(target=stop.wait)
    waiting.start()
    read_envelope(JSON, body)
    stop.set()
    waiting.join()
print(pause_collector_while_decoding(False), seen, after)
"""


def test_by_default_only_a_program_of_one_thread_has_the_collector_paused(
    tmp_path: Path,
) -> None:
    # A process of its own: this one may have threads of other tests' servers. It imports the
    # flexclient under test (a checkout's, or an installed build's), from a folder of its own.
    where = str(Path(flexclient.__file__).parents[1])
    done = subprocess.run(
        [sys.executable, "-c", ONE_THREAD],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": where},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    # The default; paused with one thread, not with two; and on again after the decode.
    assert done.stdout.split(maxsplit=1) == ["auto", "[False, True] True\n"]


def test_decoding_threads_at_once_leave_the_collector_on_throughout() -> None:
    raw = {fmt.name: fmt.encode(sample.page()) for fmt in (JSON, TRANSIT)}
    stop = threading.Event()
    off: list[bool] = []

    def decode(fmt: WireFormat) -> None:
        while not stop.is_set():
            read_envelope(fmt, raw[fmt.name])

    threads = [threading.Thread(target=decode, args=(f,)) for f in (JSON, TRANSIT, JSON)]
    for t in threads:
        t.start()
    try:
        for _ in range(2000):
            off.append(not gc.isenabled())
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    assert not any(off)


@pytest.fixture
def collector_untouched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every call that changes the collector's state, recorded instead of made."""
    calls: list[str] = []

    def recorder(name: str) -> Callable[..., None]:
        def record(*args: object, **kwargs: object) -> None:
            calls.append(name)

        return record

    for name in ("disable", "enable", "freeze", "unfreeze", "set_threshold", "collect"):
        monkeypatch.setattr(gc, name, recorder(name))
    return calls


DEEP = 300  # deeper than pydantic's parser reads: json.loads reads these


def deep_listing(fmt: WireFormat) -> bytes:
    """A listing whose public data nests DEEP levels, as the API would write it."""
    nested = "[" * DEEP + "]" * DEEP
    if fmt is JSON:
        head = f'{{"data": {{"id": "{sample.LISTING}", "type": "listing", "attributes": '
        text = head + '{"publicData": {"d": ' + nested + "}}}}"
    else:
        head = f'["^ ","~:data",["^ ","~:id","~u{sample.LISTING}","~:type","~:listing",'
        text = head + '"~:attributes",["^ ","~:publicData",["^ ","d",' + nested + "]]]]"
    return text.encode()


@FORMATS
def test_nothing_a_decode_does_touches_the_collector(
    fmt: WireFormat, collector_untouched: list[str], pausing: Callable[[bool], None]
) -> None:
    read_envelope(fmt, fmt.encode(sample.page()))
    listing = read_envelope(fmt, deep_listing(fmt)).data
    assert isinstance(listing, Listing) and listing.attributes.public_data is not None
    with pytest.raises(EnvelopeError):
        read_envelope(fmt, fmt.encode({"included": []}))
    with pytest.raises(WireDecodeError, match="deep"):
        read_envelope(fmt, b"[" * 100_000)
    if fmt is JSON:  # a lone surrogate: only json.loads reads it
        body = b'{"data": {"id": "%s", "type": "listing", "attributes": {"title": "\\ud800"}}}'
        read_envelope(fmt, body % str(sample.LISTING).encode())
    assert collector_untouched == []


def test_reading_json_touches_no_collector(collector_untouched: list[str]) -> None:
    assert read_json('{"a": [1]}') == {"a": [1]}
    assert read_json(b"[" * DEEP + b"]" * DEEP) is not None
    with pytest.raises(NestingError):
        read_json("[" * 100_000)
    assert collector_untouched == []


def test_json_too_deep_for_the_stack_is_refused_before_it_is_read() -> None:
    # Refused when the stack has no room for it, with frames to spare (json.loads alone would
    # read it, and a collection in the middle would run finalizers a few frames from the
    # limit); read with room to spare.
    from flexclient._support import json_reading

    depth = 150
    text = "[" * depth + "]" * depth
    assert read_json(text) is not None

    def at_depth(levels: int) -> object:
        return read_json(text) if levels == 0 else at_depth(levels - 1)

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(stack_depth() + depth + json_reading.SPARE_FRAMES + 20)
    try:
        assert at_depth(0) is not None
        with pytest.raises(NestingError):
            at_depth(40)
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize(
    "text",
    [
        "1",
        "[]",
        '{"a": [[1], "]]]"]}',
        '["\\"[[[[", {"k\\\\": [{"x": "}}"}]}]',
        '{"a": "[[[[[\\u005b"}',
    ],
)
def test_the_depth_of_json_is_its_brackets_outside_strings(text: str) -> None:
    from flexclient._support.json_reading import deepest

    def depth(value: object) -> int:
        if isinstance(value, list):
            return 1 + max((depth(v) for v in value), default=0)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        if isinstance(value, dict):
            return 1 + max((depth(v) for v in value.values()), default=0)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        return 0

    expected = depth(json.loads(text))
    assert deepest(text) == expected
    assert deepest(text.encode()) == expected


# --- models chosen by the program --------------------------------------------------------------


class MyListing(Listing):
    """A program's own listing model; defining it must change nothing."""

    @property
    def category(self) -> str | None:
        category = (self.attributes.public_data or {}).get("category")
        return category if isinstance(category, str) else None


class MyUser(User):
    resource_type: ClassVar[str | None] = "user"  # said again: still no replacement


def listing_body(fmt: WireFormat) -> bytes:
    return fmt.encode(sample.page())


@FORMATS
def test_defining_a_subclass_replaces_no_model(fmt: WireFormat) -> None:
    assert model_for("listing") is Listing and model_for("user") is User
    assert MyListing not in registered_models() and MyUser not in registered_models()
    page = read_envelope(fmt, listing_body(fmt))
    assert type(page.data[0]) is Listing and type(page.data[0].author) is User


@FORMATS
def test_a_registered_model_is_used_in_the_block_only(fmt: WireFormat) -> None:
    with registered(MyListing, MyUser):
        assert model_for("listing") is MyListing
        page = read_envelope(fmt, listing_body(fmt))
        first = page.data[0]
        assert type(first) is MyListing and first.category == "road"
        assert type(first.author) is MyUser  # relationships resolve to the registered models
        raw = {"id": str(sample.LISTING), "type": "listing"}
        assert type(resource_from(raw)) is MyListing
    assert model_for("listing") is Listing and model_for("user") is User
    page = read_envelope(fmt, listing_body(fmt))
    assert type(page.data[0]) is Listing and type(page.data[0].author) is User


def test_registered_undoes_what_was_registered_inside_it_and_keeps_what_was_before() -> None:
    class Outer(Listing):
        pass

    class Inner(Listing):
        pass

    with registered(Outer):
        with registered():
            register_model(Inner)
            assert model_for("listing") is Inner
        assert model_for("listing") is Outer
    assert model_for("listing") is Listing


def test_register_model_gives_the_model_back_as_a_decorator_would() -> None:
    class Gadget(Resource):
        resource_type: ClassVar[str | None] = "flexclientTestGadget2"

    with registered():
        assert register_model(Gadget) is Gadget
        assert model_for("flexclientTestGadget2") is Gadget
    assert model_for("flexclientTestGadget2") is Resource


def test_a_model_registered_in_one_thread_is_read_by_a_decode_in_another() -> None:
    # The registry is the process's, as the docs say: every client, every thread.
    seen: list[type[object]] = []

    def decode() -> None:
        first: object = read_envelope(JSON, listing_body(JSON)).data[0]
        seen.append(type(first))

    with registered(MyListing):
        t = threading.Thread(target=decode)
        t.start()
        t.join(10)
    assert seen == [MyListing]


@pytest.mark.parametrize(
    ("model", "words"),
    [(Resource, "subclass of Resource"), (int, "subclass of Resource"), (dict, "subclass")],
)
def test_only_resource_models_are_registered(model: Any, words: str) -> None:
    with registered(), pytest.raises(ParameterError, match=words):
        register_model(model)


def test_a_model_without_a_resource_type_is_refused() -> None:
    class Untyped(Resource):
        pass

    with registered(), pytest.raises(ParameterError, match="resource_type"):
        register_model(Untyped)
    assert Untyped not in registered_models()
