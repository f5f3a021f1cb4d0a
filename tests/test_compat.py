"""The reach-ins of `flexclient._support.compat`: each check finds its reach-in sound here, says
no where the thing it relies on changed, and each fallback gives the same results."""

from __future__ import annotations

import http.server
import socket
import sys
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import urllib3
from hypothesis import given
from hypothesis import strategies as st
from requests.adapters import HTTPAdapter

from flexclient import MarketplaceClient
from flexclient._http import deadline
from flexclient._http.deadline import DeadlineAdapter, deadline_scope, install
from flexclient._support import compat
from flexclient._wire import values
from flexclient.testing import FakeMarketplace

# --- uuid.UUID's slots ----------------------------------------------------------------------


def test_the_uuid_setters_are_sound_here() -> None:
    assert compat.uuid_slot_setters() is not None


def test_a_uuid_class_with_other_slots_is_built_the_plain_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Cached(uuid.UUID):  # as a Python that caches something in a slot of its own
        __slots__ = ("cached",)

    fake = type(sys)("uuid")
    fake.UUID = Cached  # type: ignore[attr-defined]
    fake.SafeUUID = uuid.SafeUUID  # type: ignore[attr-defined]
    monkeypatch.setattr(compat, "uuid", fake)
    assert compat.uuid_slot_setters.__wrapped__() is None


def test_without_the_setters_ids_are_built_by_uuid_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[bytes] = []
    real = uuid.UUID

    class Recorded(uuid.UUID):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            built.append(kwargs["bytes"])
            super().__init__(*args, **kwargs)

    read = values._uuid_reader(None)
    monkeypatch.setattr(uuid, "UUID", Recorded)
    made = read("c6ff7190-bdf7-47a0-8a2b-e3136e74334f")
    monkeypatch.setattr(uuid, "UUID", real)
    assert made == uuid.UUID("c6ff7190-bdf7-47a0-8a2b-e3136e74334f") and len(built) == 1


PLAIN = values._uuid_reader(None)


def _either(read: Any, text: str) -> tuple[str, object]:
    try:
        made = read(text)
    except ValueError:
        return ("ValueError", None)
    assert type(made) is uuid.UUID
    return ("ok", (made, made.int, made.is_safe, str(made), hash(made), made.__getstate__()))


TEXTS = [
    "c6ff7190-bdf7-47a0-8a2b-e3136e74334f",
    "C6FF7190-BDF7-47A0-8A2B-E3136E74334F",
    "c6ff7190bdf747a08a2be3136e74334f",
    "{c6ff7190-bdf7-47a0-8a2b-e3136e74334f}",
    "urn:uuid:c6ff7190-bdf7-47a0-8a2b-e3136e74334f",
    "c6ff7190-bdf7-47a0-8a2b-e3136e74334",
    "c6ff7190-bdf7-47a0-8a2b-e3136e74334g",
    "c6ff7190 bdf7 47a0 8a2b e3136e74334f",
    "+6ff7190-bdf7-47a0-8a2b-e3136e74334f",
    "c6ff7190-bdf7-47a0-8a2b-e3136e74334f\n",
    "",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_fallback_reads_ids_as_the_fast_path_does(text: str) -> None:
    assert _either(values.fast_uuid, text) == _either(PLAIN, text)


@given(st.uuids(), st.sampled_from(["{}", "{{{}}}", "urn:uuid:{}"]), st.booleans(), st.booleans())
def test_any_id_in_any_form_reads_the_same_both_ways(
    value: uuid.UUID, form: str, upper: bool, dashes: bool
) -> None:
    digits = str(value) if dashes else value.hex
    text = form.format(digits.upper() if upper else digits)
    assert _either(values.fast_uuid, text) == _either(PLAIN, text)
    assert values.fast_uuid(text) == value == uuid.UUID(text)


@given(st.text(alphabet="0123456789abcdefABCDEF-+_ {}:urnid\u0663", max_size=40))
def test_any_text_at_all_reads_the_same_both_ways(text: str) -> None:
    assert _either(values.fast_uuid, text) == _either(PLAIN, text)


def refused(*args: object) -> bool:
    """A check that finds its reach-in unsound."""
    return False


# --- a socket's files ---------------------------------------------------------------------------


class _Answer(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the pool keeps the connection

    def do_GET(self) -> None:
        body = b'{"data": ' + b"[1, 2, 3]" * 5000 + b"}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Answer)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def bounded_reads(url: str, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, int]:
    """The body of two GETs through a DeadlineAdapter, and how many socket operations were
    bounded by the deadline."""
    bounded = 0
    real = deadline._DeadlineSocket._bound

    def counting(self: Any) -> None:
        nonlocal bounded
        bounded += 1
        real(self)

    monkeypatch.setattr(deadline._DeadlineSocket, "_bound", counting)
    with requests.Session() as session:
        session.mount("http://", DeadlineAdapter())
        with deadline_scope(10):
            first = session.get(url, timeout=5).content
            second = session.get(url, timeout=5).content  # the same connection, from the pool
    assert first == second
    return first, bounded


def test_the_socket_file_count_is_sound_here() -> None:
    assert compat.socket_files_counted()


def test_reads_are_bounded_through_the_count_and_read_alike_without_it(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    body, bounded = bounded_reads(server, monkeypatch)
    monkeypatch.setattr(compat, "socket_files_counted", lambda: False)
    plain_body, plain_bounded = bounded_reads(server, monkeypatch)
    assert plain_body == body and len(body) > 40_000
    # Each read of the body went through the deadline's check; without the count, only the
    # sends did (the socket's own file reads directly).
    assert plain_bounded == 2 and bounded > plain_bounded


def test_a_socket_without_the_count_is_left_to_its_own_file() -> None:
    class Bare:
        pass

    assert compat.hold_socket_file(Bare()) is False
    a, b = socket.socketpair()
    try:
        assert compat.hold_socket_file(a) is True
        a.close()
        assert a.fileno() != -1  # held open for its file
        compat.release_socket_file(a)
        assert a.fileno() == -1
    finally:
        a.close()
        b.close()


def test_a_socket_io_that_no_longer_releases_through_the_socket_fails_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Leaky(socket.SocketIO):
        def close(self) -> None:  # never tells the socket its file is closed
            self._sock = None  # pyright: ignore[reportAttributeAccessIssue]
            super(socket.SocketIO, self).close()

    monkeypatch.setattr(socket, "SocketIO", Leaky)
    assert compat.socket_files_counted.__wrapped__() is False


# --- urllib3's pool classes ---------------------------------------------------------------------


def test_the_pool_classes_are_honoured_here() -> None:
    adapter = DeadlineAdapter()
    assert adapter.poolmanager.pool_classes_by_scheme == {
        "http": deadline._HTTPPool,
        "https": deadline._HTTPSPool,
    }


def test_pools_of_a_urllib3_that_makes_connections_otherwise_are_plain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from urllib3.connectionpool import HTTPConnectionPool

    monkeypatch.setattr(HTTPConnectionPool, "ConnectionCls", object)
    assert compat._pool_classes_checked(deadline._HTTPPool, deadline._HTTPSPool) is False


def test_without_pool_classes_an_adapter_is_plain_and_answers_the_same(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    body, _ = bounded_reads(server, monkeypatch)
    monkeypatch.setattr(compat, "_pool_classes_honoured", refused)
    adapter = DeadlineAdapter()
    assert (
        adapter.poolmanager.pool_classes_by_scheme == urllib3.PoolManager().pool_classes_by_scheme
    )
    plain_body, bounded = bounded_reads(server, monkeypatch)
    assert plain_body == body and bounded == 0


# --- requests' pool settings ----------------------------------------------------------------


def test_an_adapters_pool_settings_are_read_and_kept() -> None:
    assert compat.pool_settings(HTTPAdapter(4, 6, pool_block=True)) == (4, 6, True)
    session = requests.Session()
    session.mount("https://", HTTPAdapter(3, 7, pool_block=True))
    install(session, "https://api.test")
    made = session.get_adapter("https://api.test/v1")
    assert type(made) is DeadlineAdapter and compat.pool_settings(made) == (3, 7, True)


def test_without_the_private_settings_requests_defaults_stand_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Odd(HTTPAdapter):
        def __init__(self) -> None:  # keeps none of the settings
            pass

    assert compat.pool_settings(Odd()) == (10, 10, False)
    monkeypatch.setattr(compat, "_adapter_keeps_pool_settings", lambda: False)
    assert compat.pool_settings(HTTPAdapter(4, 6, pool_block=True)) == (10, 10, False)


# --- the stack's depth ----------------------------------------------------------------------


def test_the_stack_depth_counts_frames() -> None:
    def one_down() -> int:
        return compat.stack_depth()

    here = compat.stack_depth()
    assert one_down() == here + 1
    assert 0 < here < sys.getrecursionlimit()


def test_the_stack_depth_outside_a_module_leaves_its_frames_out() -> None:
    def one_down() -> tuple[int, int]:
        return compat.stack_depth(), compat.stack_depth(outside=__name__)

    every, outside = one_down()
    assert every - outside == 2  # this module's frames: this test's and one_down's
    assert outside > 0  # pytest's own


def test_without_frames_to_walk_the_depth_is_a_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compat, "_frames_walkable", lambda: False)
    assert compat.stack_depth() == compat.STACK_DEPTH_GUESS


# --- all of them at once, end to end ------------------------------------------------------------


def _page(fake: FakeMarketplace) -> list[dict[str, Any]]:
    dumped: list[dict[str, Any]] = []
    for wire_format in ("transit", "json"):
        with MarketplaceClient(fake.client_id, base_url=fake.url, wire_format=wire_format) as sdk:
            page = sdk.listings.query({"include": ["author", "images"], "perPage": 5}).data
            for listing in page.data:
                dumped.append(
                    {
                        "listing": listing.model_dump(),
                        "author": listing.author.model_dump(),
                        "images": [i.model_dump() for i in listing.images],
                    }
                )
    return dumped


def test_every_fallback_at_once_gives_the_same_answers(
    demo_marketplace: FakeMarketplace, monkeypatch: pytest.MonkeyPatch
) -> None:
    usual = _page(demo_marketplace)
    assert usual
    import flexclient._wire.transit_reader as transit_reader

    assert transit_reader._SCALARS["u"] is values.fast_uuid  # where the walk reads ids
    monkeypatch.setitem(transit_reader._SCALARS, "u", PLAIN)
    monkeypatch.setattr(compat, "socket_files_counted", lambda: False)
    monkeypatch.setattr(compat, "_pool_classes_honoured", refused)
    monkeypatch.setattr(compat, "_adapter_keeps_pool_settings", lambda: False)
    monkeypatch.setattr(compat, "_frames_walkable", lambda: False)
    assert _page(demo_marketplace) == usual
