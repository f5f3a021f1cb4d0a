"""A JSON body goes from bytes straight into models; the result is what decoding it first gives."""

from __future__ import annotations

import contextlib
import gc
import json
import uuid
import warnings
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import Field

from flexclient._support.json_reading import gc_paused
from flexclient._wire.formats import JSON, TRANSIT, WireFormat
from flexclient.models import Attributes, Listing, Resource, User, _envelope
from flexclient.models._decoding import pause_collector_while_decoding, read_envelope
from flexclient.models._envelope import Envelope, EnvelopeError, build_envelope
from flexclient.models._resource import registered
from tests import sample

LISTING = "c6ff7190-bdf7-47a0-8a2b-e3136e74334f"


def both(raw: bytes) -> tuple[Envelope[Any], Envelope[Any]]:
    """The body read as the client reads it, and read by json.loads first."""
    return read_envelope(JSON, raw), build_envelope(json.loads(raw))


def same(straight: Envelope[Any], decoded: Envelope[Any]) -> None:
    assert straight.model_dump() == decoded.model_dump()
    assert [type(r) for r in straight.resources()] == [type(r) for r in decoded.resources()]
    assert [type(r) for r in straight.included] == [type(r) for r in decoded.included]
    for a, b in zip(straight.resources(), decoded.resources(), strict=True):
        assert a.model_fields_set == b.model_fields_set
        assert a.attributes.model_fields_set == b.attributes.model_fields_set


BODIES: dict[str, object] = {
    "page": sample.page(),
    "show": {"data": sample.page()["data"][0], "included": sample.page()["included"]},
    "null attributes, included and meta": {
        "data": {"id": LISTING, "type": "listing", "attributes": None},
        "included": None,
        "meta": None,
    },
    "no attributes": {"data": {"id": LISTING, "type": "listing"}},
    "extended data empty, null and left out": {
        "data": {
            "id": LISTING,
            "type": "listing",
            "attributes": {"publicData": {}, "metadata": None},
        }
    },
    "type without a model": {
        "data": [{"id": LISTING, "type": "someFutureType", "attributes": {"aB": [1, 2.5]}}]
    },
    "plain values in data": {"data": [1, "two", None, {"no": "id"}, [3]]},
    "plain value as data": {"data": None},
    "empty page": {"data": [], "included": [], "meta": {"totalItems": 0}},
}


@pytest.mark.parametrize("name", BODIES)
def test_json_straight_into_models_is_json_loads_then_models(name: str) -> None:
    straight, decoded = both(JSON.encode(BODIES[name]))  # type: ignore[arg-type]
    same(straight, decoded)


def test_the_page_resolves_as_from_transit() -> None:
    straight = read_envelope(JSON, JSON.encode(sample.page()))
    transit = read_envelope(TRANSIT, TRANSIT.encode(sample.page()))
    assert straight.model_dump() == transit.model_dump()
    listing = straight.data[0]
    assert isinstance(listing, Listing) and isinstance(listing.author, User)
    assert listing.author.model_dump() == transit.data[0].author.model_dump()


# Extended data as users write it: any JSON, including numbers at the edges of floats and
# integers, and text beyond ASCII.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=20,
)


@given(json_values, st.text(max_size=20))
def test_any_extended_data_reads_the_same_both_ways(public: object, title: str) -> None:
    body = {
        "data": {
            "id": LISTING,
            "type": "listing",
            "attributes": {"title": title, "publicData": {"value": public}},
        }
    }
    straight, decoded = both(json.dumps(body).encode())
    same(straight, decoded)
    assert straight.data.attributes.public_data == {"value": public}


def listing_with(attributes: str) -> bytes:
    """A show body for one listing, its attributes written as JSON text."""
    head = '{"data": {"id": "' + LISTING + '", "type": "listing", "attributes": '
    return (head + attributes + "}}").encode()


@pytest.mark.parametrize(
    "attributes",
    [
        # Only json.loads reads these: a lone surrogate escape, and nesting deeper than the
        # 200 levels pydantic's parser takes. The body is read all the same.
        '{"title": "\\ud800"}',
        '{"publicData": {"deep": ' + "[" * 300 + "]" * 300 + "}}",
    ],
)
def test_bodies_only_json_loads_reads_are_still_read(attributes: str) -> None:
    straight, decoded = both(listing_with(attributes))
    same(straight, decoded)


@pytest.mark.parametrize(
    "body,words",
    [
        (b"[1, 2, 3]", "not an API envelope"),
        (b'{"included": []}', "not an API envelope"),
        (b'{"data": [{"id": "not-a-uuid", "type": "listing"}]}', "data[0]: not a valid 'listing'"),
        (b'{"data": [], "included": [{"id": 1}]}', "included[0]: not a resource"),
        (b'{"data": [], "included": {"x": 1}}', "`included` is not a list"),
        (b'{"data": [], "meta": {"totalItems": "many"}}', "`meta` is not valid: meta.totalItems"),
        (listing_with('{"price": {"amount": "x"}}'), "data: not a valid 'listing' resource"),
    ],
)
def test_a_body_that_is_not_an_envelope_says_where_the_same_way(body: bytes, words: str) -> None:
    with pytest.raises(EnvelopeError) as straight:
        read_envelope(JSON, body)
    with pytest.raises(EnvelopeError) as decoded:
        build_envelope(json.loads(body))
    assert words in str(straight.value)
    assert str(straight.value) == str(decoded.value)


@pytest.mark.parametrize(
    "body,message",
    [
        (b'{"meta": {}}', "the body is not an API envelope (no `data`)"),
        (b'{"data": [], "included": "x"}', "`included` is not a list"),
    ],
)
def test_a_body_with_no_data_or_a_bad_included_says_only_that(body: bytes, message: str) -> None:
    # Nothing of pydantic's wording: the whole message is ours.
    with pytest.raises(EnvelopeError) as straight:
        read_envelope(JSON, body)
    assert str(straight.value) == message


def test_a_model_defined_later_is_used_for_its_type_once_registered() -> None:
    body = JSON.encode({"data": {"id": LISTING, "type": "flexclientTestGadget"}})
    assert type(read_envelope(JSON, body).data) is Resource  # before: no model for the type

    class GadgetAttributes(Attributes):
        size: int = 3

    class Gadget(Resource):
        resource_type: ClassVar[str | None] = "flexclientTestGadget"
        # Typed attributes as flexclient's own models declare them (a pydantic field narrowed in
        # the subclass); pyright calls the mutable override unsafe there too.
        attributes: GadgetAttributes = Field(default_factory=GadgetAttributes)  # pyright: ignore[reportIncompatibleVariableOverride]

    def read(fmt: WireFormat) -> object:
        raw = fmt.encode({"data": {"id": uuid.UUID(LISTING), "type": "flexclientTestGadget"}})
        return read_envelope(fmt, raw).data

    for fmt in (JSON, TRANSIT):
        assert type(read(fmt)) is Resource  # defining the class replaced nothing
    with registered(Gadget):
        for fmt in (JSON, TRANSIT):
            got = read(fmt)
            assert type(got) is Gadget and got.attributes.size == 3
    for fmt in (JSON, TRANSIT):
        assert type(read(fmt)) is Resource  # and the block took it back


def _event(resource: object, resource_type: str | None = "listing") -> dict[str, object]:
    attributes = {"sequenceId": 1, "resourceType": resource_type, "resource": resource}
    return {"id": uuid.uuid4(), "type": "event", "attributes": attributes}


@pytest.mark.parametrize("fmt", [JSON, TRANSIT], ids=["json", "transit"])
def test_an_events_resource_is_read_by_the_model_registered_for_its_type(fmt: WireFormat) -> None:
    listing = {"id": uuid.UUID(LISTING), "type": "listing", "attributes": {"title": "New"}}
    untyped = {"id": uuid.UUID(LISTING), "attributes": {"title": "Typed by resourceType"}}
    unknown = {"id": uuid.UUID(LISTING), "type": "flexclientTestThing", "attributes": {"x": 1}}
    raw = fmt.encode({"data": [_event(listing), _event(untyped), _event(unknown), _event(None)]})

    def resources() -> list[object]:
        return [e.attributes.resource for e in read_envelope(fmt, raw).data]

    first, second, third, deleted = resources()
    assert type(first) is Listing and first.attributes.title == "New"
    assert type(second) is Listing and second.attributes.title == "Typed by resourceType"
    assert type(third) is Resource and third.attributes.model_extra == {"x": 1}
    assert deleted is None

    class MyListing(Listing):
        pass

    with registered(MyListing):  # the models of an event's resource follow the registry
        assert [type(r) for r in resources()[:2]] == [MyListing, MyListing]
    assert [type(r) for r in resources()[:2]] == [Listing, Listing]


@pytest.mark.parametrize("fmt", [JSON, TRANSIT], ids=["json", "transit"])
def test_an_events_resource_that_is_no_resource_is_refused_saying_why(fmt: WireFormat) -> None:
    raw = fmt.encode({"data": [_event({"type": "listing", "attributes": {}})]})
    why = r"(?s)data\[0\]: not a valid 'event' resource.*resource.*\bid\s+Field required"
    with pytest.raises(EnvelopeError, match=why):
        read_envelope(fmt, raw)


@pytest.mark.parametrize("pausing", [False, True], ids=["default", "pausing"])
@pytest.mark.parametrize("fmt", [JSON, TRANSIT], ids=["json", "transit"])
@pytest.mark.parametrize(
    "body,refused", [(sample.page(), False), ({"included": []}, True)], ids=["page", "refused"]
)
def test_the_collector_is_back_as_it_was_after_a_decode(
    fmt: WireFormat, body: Mapping[str, object], refused: bool, pausing: bool
) -> None:
    # Decoding pauses the cyclic collector when asked to; a program must never be left
    # without it (nor given it back when it had turned it off itself), whether the body was
    # read or refused.
    raw = fmt.encode(body)
    previous = pause_collector_while_decoding(pausing)
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            try:
                with pytest.raises(EnvelopeError) if refused else contextlib.nullcontext():
                    read_envelope(fmt, raw)
                assert gc.isenabled() is enabled
            finally:
                gc.enable()
    finally:
        pause_collector_while_decoding(previous)


def test_the_collector_stays_paused_until_the_last_of_overlapping_decodes_ends() -> None:
    first, second = gc_paused(), gc_paused()  # as two threads decoding at once would hold it
    first.__enter__()
    second.__enter__()
    try:
        paused_by_both = not gc.isenabled()
        first.__exit__(None, None, None)
        paused_by_second = not gc.isenabled()  # the other decode is still building objects
    finally:
        second.__exit__(None, None, None)
    assert paused_by_both and paused_by_second
    assert gc.isenabled()


def test_deeply_nested_json_leaves_the_programs_finalizers_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A collection in the middle of json.loads's recursion would run other objects'
    # finalizers a few frames from the recursion limit, where they fail ("Exception ignored").
    import sys

    from flexclient._support.json_reading import NestingError, read_json

    ignored: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", ignored.append)
    finalized: list[int] = []

    def nested(levels: int) -> int:
        return 0 if levels == 0 else 1 + nested(levels - 1)

    class Finalized:
        cycle: object = None

        def __del__(self) -> None:
            finalized.append(nested(30))  # needs 30 frames

    def room(levels: int = 0) -> int:  # how many more calls fit under the recursion limit
        try:
            return room(levels + 1)
        except RecursionError:
            return levels

    text, limit, thresholds = "[" * 100_000, sys.getrecursionlimit(), gc.get_threshold()
    refused: list[Exception] = []
    try:
        # The collector would run about 190 levels down, 10 frames from the limit.
        sys.setrecursionlimit(limit - room() + 200)
        gc.collect()
        gc.set_threshold(190)
        garbage = Finalized()
        garbage.cycle = garbage
        del garbage
        try:
            read_json(text)
        except NestingError as exc:
            refused.append(exc)
    finally:
        gc.set_threshold(*thresholds)
        sys.setrecursionlimit(limit)
    gc.collect()
    assert [str(e) for e in refused] == ["the JSON is nested too deeply"]
    assert finalized == [30]
    assert ignored == []


def test_an_envelope_dumps_each_included_resource_as_its_own_model() -> None:
    envelope = build_envelope(sample.page())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pydantic warns when it dumps a User as a Resource
        dumped = envelope.model_dump()
    kinds = {item["type"]: item["attributes"] for item in dumped["included"]}
    assert kinds["user"]["profile"]["display_name"] == "Jane D"
    assert "variants" in kinds["image"]


def test_a_page_of_two_kinds_names_both_in_its_summary() -> None:
    user = "00000000-0000-0000-0000-0000000000b2"
    env = build_envelope(
        {"data": [{"id": user, "type": "user"}, {"id": LISTING, "type": "listing"}]}
    )
    assert repr(env) == "<Envelope: 2 Listing/User>"


def test_a_resource_given_as_any_mapping_is_read_as_a_resource() -> None:
    # A program building a body from its own mappings (a stored event, a fixture) gets models.
    fields: dict[str, object] = {"id": LISTING, "type": "flexclientTestUnknown", "attributes": {}}
    item = MappingProxyType(fields)
    env = build_envelope({"data": [item], "included": []})
    got = env.data[0]
    assert type(got) is Resource and str(got.id) == LISTING


def test_meta_is_read_also_once_a_new_model_is_registered() -> None:
    class Widget(Resource):
        resource_type: ClassVar[str | None] = "flexclientTestWidget"

    body = {
        "data": [{"id": LISTING, "type": "flexclientTestWidget"}],
        "meta": {"totalItems": 7, "page": 2, "totalPages": 4, "perPage": 2},
    }
    with registered(Widget):  # a new set of models: the body's validator is built again
        env = build_envelope(body)
    assert type(env.data[0]) is Widget
    assert (env.meta.total_items, env.meta.page, env.meta.total_pages) == (7, 2, 4)
    assert repr(env) == "<Envelope: 1 Widget of 7, page 2/4>"


def test_every_bad_member_of_meta_is_named() -> None:
    with pytest.raises(EnvelopeError) as caught:
        build_envelope({"data": [], "meta": {"totalItems": "many", "page": "first"}})
    assert str(caught.value).startswith("`meta` is not valid: meta.totalItems: ")
    assert "; meta.page: " in str(caught.value)


def test_a_body_read_before_any_model_is_known_is_typed_all_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As in a new process, before the first resource has imported its model's module: the
    # body's validator has no model to choose by type, and each resource is read on its own.
    monkeypatch.setattr(_envelope, "registered_models", tuple)
    body = {
        "data": [{"id": LISTING, "type": "listing", "attributes": {"title": "Bike"}}, 7],
        "included": [{"id": sample.USER, "type": "user"}],
    }
    read = build_envelope(body)
    listing = read.data[0]
    assert type(listing) is Listing and listing.attributes.title == "Bike"
    assert read.data[1] == 7 and [type(r) for r in read.included] == [User]
    single = build_envelope({"data": {"id": LISTING, "type": "listing"}})
    assert type(single.data) is Listing
