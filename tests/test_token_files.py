"""Tokens as the Authentication API sends them, and as a token file keeps them."""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from flexclient import FileTokenStore, MemoryTokenStore, Token, TokenStoreError
from flexclient._http.deadline import deadline_scope


def test_a_login_as_token_stays_one_in_a_token_file(tmp_path: Path) -> None:
    store = FileTokenStore(tmp_path / "token.json")
    store.set(Token(access_token="a", scope="user", refresh_token="r", is_logged_in_as=True))
    assert json.loads(store.path.read_text())["is_logged_in_as"] is True
    read = store.get()
    assert read is not None and read.is_logged_in_as and read.extra == {}
    store.set(Token(access_token="b", scope="user", refresh_token="r"))
    assert "is_logged_in_as" not in json.loads(store.path.read_text())
    read = store.get()
    assert read is not None and not read.is_logged_in_as


def test_only_a_true_is_logged_in_as_marks_a_login_as_token() -> None:
    for value in ("true", 1, None):
        token = Token.from_wire({"access_token": "a", "is_logged_in_as": value})
        assert not token.is_logged_in_as and "is_logged_in_as" not in token.extra
    assert Token.from_wire({"access_token": "a", "is_logged_in_as": True}).is_logged_in_as


@pytest.mark.parametrize(
    ("scope", "refresh", "anonymous"),
    [
        ("public-read", None, True),
        ("public-read", "r", True),
        ("user", None, False),
        ("", None, True),  # no scope: anonymous when it cannot be refreshed
        ("", "r", False),
    ],
)
def test_without_a_scope_a_token_is_anonymous_when_it_cannot_be_refreshed(
    scope: str, refresh: str | None, anonymous: bool
) -> None:
    assert Token(access_token="a", scope=scope, refresh_token=refresh).is_anonymous is anonymous


def test_token_type_and_the_other_fields_come_and_go_as_sent(tmp_path: Path) -> None:
    plain = Token.from_wire({"access_token": "a"})
    assert (plain.token_type, plain.scope, plain.expires_in, plain.refresh_token) == (
        "bearer",
        "",
        None,
        None,
    )
    assert plain.to_wire() == {"access_token": "a", "token_type": "bearer", "scope": ""}
    sent: dict[str, Any] = {
        "access_token": "a",
        "token_type": "mac",
        "expires_in": 60,
        "scope": "user trusted:user",
        "refresh_token": "r",
        "client_data": {"x": 1},
    }
    token = Token.from_wire(sent)
    assert token.token_type == "mac" and token.scopes == ["user", "trusted:user"]
    assert token.extra == {"client_data": {"x": 1}} and token.to_wire() == sent
    assert Token.from_wire({"access_token": "a", "expires_in": "60"}).expires_in is None
    store = FileTokenStore(tmp_path / "token.json")
    store.set(token)
    read = store.get()
    assert read is not None and read.to_wire() == sent


@pytest.mark.parametrize(
    "answer",
    [
        {},
        {"access_token": ""},
        {"access_token": 12},
        {"access_token": "a", "refresh_token": 12},
        {"access_token": "a b"},
        {"access_token": "a\r\nX-Evil: 1"},
        {"access_token": "ä"},
        {"access_token": "a", "refresh_token": ""},
        {"access_token": "a", "refresh_token": "r\n"},
    ],
)
def test_a_token_answer_that_cannot_be_used_is_refused(answer: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as info:
        Token.from_wire(answer)
    assert "access_token" in str(info.value) or "refresh_token" in str(info.value)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b'{"access_token": ""}', "no access_token"),
        (b"[1, 2]", "not a JSON object"),
        (b"\xff\xfe{}", "not UTF-8 text"),
        (b'{"access_token": "a",', "not JSON"),
        (b"   \n", "ignoring empty token file"),
    ],
)
def test_a_token_file_without_a_usable_token_holds_none(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, content: bytes, said: str
) -> None:
    path = tmp_path / "token.json"
    path.write_bytes(content)
    path.chmod(0o600)
    assert FileTokenStore(path).get() is None
    assert said in caplog.text and {r.name for r in caplog.records} == {"flexclient"}


def test_a_token_file_too_large_to_be_one_holds_none(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "token.json"
    padding = " " * (64 * 1024)
    path.write_text('{"access_token": "a"' + padding + "}")
    path.chmod(0o600)
    assert FileTokenStore(path).get() is None
    assert "larger than" in caplog.text
    path.write_text('{"access_token": "a"' + padding[:-100] + "}")
    read = FileTokenStore(path).get()
    assert read is not None and read.access_token == "a"


def test_removing_a_token_file_that_is_not_there_is_no_error(tmp_path: Path) -> None:
    store = FileTokenStore(tmp_path / "token.json")
    store.remove()
    store.set(Token(access_token="a"))
    store.remove()
    assert not store.path.exists() and store.get() is None


@pytest.mark.parametrize(("shared", "mode"), [(False, 0o600), (True, 0o660)])
def test_the_lock_makes_its_folder_and_a_lock_file_only_the_owners_may_open(
    tmp_path: Path, shared: bool, mode: int
) -> None:
    path = tmp_path / "not" / "yet" / "token.json"
    store = FileTokenStore(path, shared=shared)
    old = os.umask(0o022)
    try:
        with store.lock():
            lock = path.with_name("token.json.lock")
            assert path.parent.is_dir() and lock.is_file()
            assert stat.S_IMODE(lock.stat().st_mode) == mode
            store.set(Token(access_token="a"))
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == mode
    read = store.get()
    assert read is not None and read.access_token == "a"


def test_a_token_made_in_code_has_the_defaults_of_an_answer_and_is_frozen() -> None:
    token = Token(access_token="a")
    assert (token.token_type, token.scope, token.expires_in, token.refresh_token) == (
        "bearer",
        "",
        None,
        None,
    )
    assert not token.is_logged_in_as and token.extra == {} and token.is_anonymous
    assert token == Token.from_wire({"access_token": "a"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        token.access_token = "b"  # type: ignore[misc]


def test_a_memory_store_shows_only_whether_it_holds_a_token() -> None:
    store = MemoryTokenStore()
    assert repr(store) == "MemoryTokenStore(has_token=False)"
    store.set(Token(access_token="secret-a"))
    assert repr(store) == "MemoryTokenStore(has_token=True)"


def test_a_token_file_of_exactly_the_largest_size_is_read(tmp_path: Path) -> None:
    path = tmp_path / "token.json"
    head = '{"access_token": "a"'
    path.write_text(head + " " * (64 * 1024 - len(head) - 1) + "}")
    path.chmod(0o600)
    assert path.stat().st_size == 64 * 1024
    read = FileTokenStore(path).get()
    assert read is not None and read.access_token == "a"


def test_the_lock_is_released_when_left(tmp_path: Path) -> None:
    store = FileTokenStore(tmp_path / "token.json")
    with store.lock():
        pass
    # Another open file of the lock (as another process would have) takes it at once.
    with open(tmp_path / "token.json.lock") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_outside_a_call_the_lock_waits_for_another_process_to_let_go(tmp_path: Path) -> None:
    store = FileTokenStore(tmp_path / "token.json")
    with store.lock():
        pass
    other = open(tmp_path / "token.json.lock")  # noqa: SIM115 - closed by the thread below
    fcntl.flock(other, fcntl.LOCK_EX)
    letting_go = threading.Timer(0.1, other.close)
    letting_go.start()
    with store.lock():  # no deadline: waits as long as the other holds it
        assert other.closed
    letting_go.join()


def test_the_other_fields_of_a_token_answer_stay_out_of_its_repr() -> None:
    # An answer's other fields may carry secrets of their own (an OpenID id_token).
    token = Token.from_wire({"access_token": "a", "id_token": "secret-id"})
    assert token.extra == {"id_token": "secret-id"}
    assert "secret-id" not in repr(token) and "id_token" not in repr(token)


def test_a_token_file_path_that_cannot_be_looked_into_says_why_when_used(tmp_path: Path) -> None:
    path = tmp_path / ("x" * 300)  # longer than a file name may be
    store = FileTokenStore(path)  # not taken for a folder: nothing is known of it yet
    with pytest.raises(TokenStoreError) as read:
        store.get()
    assert str(read.value) == f"cannot read the token file {str(path)!r}: File name too long"
    with pytest.raises(TokenStoreError) as written:
        store.set(Token(access_token="a"))
    assert str(written.value) == f"cannot write the token file {str(path)!r}: File name too long"


def test_a_direct_set_after_the_lock_is_left_spares_another_writers_temporary_file(
    tmp_path: Path,
) -> None:
    # A temporary file half a minute old: under the lock no other write can be under way, so
    # it is a killed process's; outside it, it may be a slow write of another process's.
    store = FileTokenStore(tmp_path / "token.json")
    leftover = tmp_path / ".token.json-abcd1234"

    def plant() -> None:
        leftover.write_text("{}")
        old = leftover.stat().st_mtime - 30
        os.utime(leftover, (old, old))

    plant()
    with store.lock():
        pass
    store.set(Token(access_token="a"))
    assert leftover.exists()
    with store.lock():
        store.set(Token(access_token="b"))
    assert not leftover.exists()
    plant()
    store.set(Token(access_token="c"))
    assert leftover.exists()


def test_a_lock_let_go_while_the_call_waits_with_under_a_second_left_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = FileTokenStore(tmp_path / "token.json")
    with store.lock():
        pass
    other = open(tmp_path / "token.json.lock")  # noqa: SIM115 - closed by the first wait
    fcntl.flock(other, fcntl.LOCK_EX)
    waits: list[float] = []

    def wait(seconds: float) -> None:  # the other process lets go while the lock is waited for
        waits.append(seconds)
        other.close()

    monkeypatch.setattr(time, "sleep", wait)
    with deadline_scope(0.9), store.lock():
        assert other.closed
    assert len(waits) == 1
