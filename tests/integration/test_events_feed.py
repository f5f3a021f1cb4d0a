"""Following the event feed: order, polling, filters, and resuming with nothing lost or repeated."""

from __future__ import annotations

import datetime as dt
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests_mock

from flexclient import (
    FilePositionStore,
    IntegrationClient,
    MemoryPositionStore,
    ParameterError,
    PositionStoreError,
    UnexpectedResponseError,
)
from flexclient.models import Event
from flexclient.testing import FakeMarketplace
from tests.helpers import IG, NO_WAIT


@pytest.fixture
def author(fake_marketplace: FakeMarketplace) -> uuid.UUID:
    return fake_marketplace.add_user("author@example.com", "author-pass")


def make_listings(
    integ: IntegrationClient, author: uuid.UUID, count: int, prefix: str = "L"
) -> None:
    for n in range(count):
        integ.listings.create({"title": f"{prefix}{n}", "authorId": author})


def events_queries(fake: FakeMarketplace) -> int:
    return sum(1 for _, path in fake.requests if path == "/v1/integration_api/events/query")


def test_all_events_in_order_full_pages_fetched_at_once(
    fake_marketplace: FakeMarketplace, integration_client: IntegrationClient, author: uuid.UUID
) -> None:
    make_listings(integration_client, author, 7)
    sleeps: list[float] = []
    feed = integration_client.events_feed(per_page=3, stop_when_caught_up=True, sleep=sleeps.append)
    seen = [e.attributes.sequence_id for e in feed]
    assert seen == [1, 2, 3, 4, 5, 6, 7]
    assert (
        sleeps == [] and events_queries(fake_marketplace) == 3
    )  # 3 + 3 + 1: no wait after a full page


def test_a_restart_loses_nothing_and_repeats_nothing(
    integration_client: IntegrationClient, author: uuid.UUID, tmp_path: Path
) -> None:
    store = FilePositionStore(tmp_path / "feed.position")
    make_listings(integration_client, author, 5)
    handled: list[int] = []
    with integration_client.events_feed(position=store, per_page=2, sleep=NO_WAIT.sleep) as feed:
        for event in feed:
            handled.append(event.attributes.sequence_id or 0)
            if len(handled) == 3:
                break  # the script is stopped here, event 3 handled
    assert store.get() == 3
    make_listings(integration_client, author, 2, prefix="M")  # while it was stopped
    again = integration_client.events_feed(
        position=FilePositionStore(tmp_path / "feed.position"), stop_when_caught_up=True
    )
    with again as feed:
        handled += [e.attributes.sequence_id or 0 for e in feed]
    assert handled == [1, 2, 3, 4, 5, 6, 7] and store.get() == 7


def test_an_error_while_handling_keeps_that_event(
    integration_client: IntegrationClient, author: uuid.UUID
) -> None:
    store = MemoryPositionStore()
    make_listings(integration_client, author, 3)
    with (
        pytest.raises(RuntimeError),
        integration_client.events_feed(position=store, stop_when_caught_up=True) as feed,
    ):
        for event in feed:
            if event.attributes.sequence_id == 2:
                raise RuntimeError("handler failed")
    assert store.get() == 1  # event 2 comes again next time
    with integration_client.events_feed(position=store, stop_when_caught_up=True) as feed:
        assert [e.attributes.sequence_id for e in feed] == [2, 3]


def test_polls_with_backoff_while_idle(
    fake_marketplace: FakeMarketplace, integration_client: IntegrationClient, author: uuid.UUID
) -> None:
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        if len(sleeps) == 5:
            make_listings(integration_client, author, 1)

    feed = integration_client.events_feed(
        poll_interval=1, max_poll_interval=10, allow_fast_polling=True, sleep=sleep
    )
    event = next(feed)
    assert event.attributes.event_type == "listing/created"
    assert sleeps == [1, 2, 4, 8, 10]


def test_filters_and_starting_points(
    integration_client: IntegrationClient, author: uuid.UUID
) -> None:
    make_listings(integration_client, author, 2)
    integration_client.users.update_profile({"id": author, "bio": "hi"})
    first = next(integration_client.events_feed(stop_when_caught_up=True))
    kinds = [
        e.attributes.event_type
        for e in integration_client.events_feed(
            event_types=["user/updated"], stop_when_caught_up=True
        )
    ]
    assert kinds == ["user/updated"]
    by_resource = list(integration_client.events_feed(resource_id=author, stop_when_caught_up=True))
    assert [e.attributes.resource_id for e in by_resource] == [author]
    after = [
        e.attributes.sequence_id
        for e in integration_client.events_feed(start_after_sequence_id=1, stop_when_caught_up=True)
    ]
    assert after == [2, 3]
    assert first.attributes.created_at is not None
    since = list(
        integration_client.events_feed(
            created_at_start=first.attributes.created_at, stop_when_caught_up=True
        )
    )
    assert len(since) == 3


def test_unknown_event_types_pass_through(mock: requests_mock.Mocker) -> None:
    integ = IntegrationClient("client-id", "client-secret", base_url=IG, retry_policy=NO_WAIT)
    body = {
        "data": [
            {
                "id": str(uuid.uuid4()),
                "type": "event",
                "attributes": {
                    "sequenceId": 9,
                    "eventType": "hologram/projected",
                    "resourceType": "hologram",
                    "resource": {
                        "id": str(uuid.uuid4()),
                        "type": "hologram",
                        "attributes": {"beams": 3},
                    },
                },
            }
        ]
    }
    mock.get(
        f"{IG}/v1/integration_api/events/query",
        json=body,
        headers={"Content-Type": "application/json"},
    )
    event = next(integ.events_feed(stop_when_caught_up=True))
    assert event.attributes.event_type == "hologram/projected"
    assert (
        event.attributes.resource is not None
        and event.attributes.resource.attributes.model_extra == {"beams": 3}
    )


def test_bad_feed_options_and_positions(
    integration_client: IntegrationClient, tmp_path: Path
) -> None:
    import datetime as dt

    with pytest.raises(ParameterError, match="not both"):
        integration_client.events_feed(
            start_after_sequence_id=1, created_at_start=dt.datetime.now(dt.UTC)
        )
    with pytest.raises(ParameterError, match="per_page"):
        integration_client.events_feed(per_page=500)
    broken = tmp_path / "broken.position"
    broken.write_text("not a number")
    with pytest.raises(PositionStoreError, match="does not hold a sequence ID"):
        integration_client.events_feed(position=FilePositionStore(broken))


# --- a page that fails its checks moves nothing -------------------------------------------------

EVENTS = f"{IG}/v1/integration_api/events/query"


@pytest.fixture
def mocked() -> IntegrationClient:
    """An Integration client whose answers come from requests-mock (`mock`)."""
    return IntegrationClient("client-id", "client-secret", base_url=IG, retry_policy=NO_WAIT)


def events_page(*sequence_ids: int) -> dict[str, Any]:
    return {
        "json": {
            "data": [
                {
                    "id": str(uuid.UUID(int=seq)),
                    "type": "event",
                    "attributes": {"sequenceId": seq, "eventType": "listing/updated"},
                }
                for seq in sequence_ids
            ]
        },
        "headers": {"Content-Type": "application/json"},
    }


def asked_after(mock: requests_mock.Mocker) -> list[str | None]:
    asked = [
        r.qs.get("startaftersequenceid")
        for r in mock.request_history
        if r.path.endswith("/events/query")
    ]
    return [after[0] if after else None for after in asked]


def handed_out(feed: Iterator[Event], count: int) -> list[int | None]:
    return [next(feed).attributes.sequence_id for _ in range(count)]


@pytest.mark.parametrize(
    ("bad_page", "why"),
    [((4, 6, 5), "out of order"), ((4, 4, 5), "repeated"), ((2, 4, 5), "at or before the start")],
)
def test_a_page_that_fails_its_checks_moves_nothing(
    mock: requests_mock.Mocker, mocked: IntegrationClient, bad_page: tuple[int, ...], why: str
) -> None:
    position = MemoryPositionStore(3)
    mock.get(EVENTS, [events_page(*bad_page), events_page(4, 5, 6), events_page()])
    feed = mocked.events_feed(position=position, per_page=3, sleep=lambda _: None)
    with pytest.raises(UnexpectedResponseError, match="must increase past 3"):
        next(feed)
    # A loop that catches the error and carries on asks for the same range again.
    assert handed_out(feed, 3) == [4, 5, 6]
    assert asked_after(mock) == ["3", "3"]


def test_a_page_repeating_the_last_page_fails_and_moves_nothing(
    mock: requests_mock.Mocker, mocked: IntegrationClient
) -> None:
    mock.get(EVENTS, [events_page(1, 2), events_page(2, 3), events_page(3), events_page()])
    feed = mocked.events_feed(per_page=2, stop_when_caught_up=True)
    assert handed_out(feed, 2) == [1, 2]
    with pytest.raises(UnexpectedResponseError, match=r"past 2, in order; the page has \[2, 3\]"):
        next(feed)
    assert [e.attributes.sequence_id for e in feed] == [3]
    assert asked_after(mock) == [None, "2", "2"]


def test_an_event_whose_handling_failed_is_handed_out_again_by_the_same_feed(
    mock: requests_mock.Mocker, mocked: IntegrationClient
) -> None:
    position = MemoryPositionStore()
    mock.get(EVENTS, [events_page(1, 2, 3), events_page()])
    feed = mocked.events_feed(position=position, stop_when_caught_up=True)
    handled: list[int | None] = []
    for attempt in range(2):
        try:
            with feed:
                for event in feed:
                    if event.attributes.sequence_id == 2 and attempt == 0:
                        raise RuntimeError("the handler failed")
                    handled.append(event.attributes.sequence_id)
        except RuntimeError:
            assert position.get() == 1  # 2 is not marked
    assert handled == [1, 2, 3] and position.get() == 3


# --- polling that respects the bill -------------------------------------------------------------


def test_caught_up_the_feed_polls_every_30_s_backing_off_to_5_minutes(
    mock: requests_mock.Mocker, mocked: IntegrationClient
) -> None:
    sleeps: list[float] = []
    mock.get(EVENTS, [events_page(1), *[events_page()] * 6, events_page(2), events_page(3)])
    feed = mocked.events_feed(sleep=sleeps.append)
    assert handed_out(feed, 3) == [1, 2, 3]
    # New events (2) reset the backoff: the next poll comes 30 s later again.
    assert sleeps == [30, 60, 120, 240, 300, 300, 300, 30]
    # 86,400 s a day / 30 s, 5 credits a poll; idle, a poll every 5 minutes.
    assert (feed.credits_per_day, feed.idle_credits_per_day) == (14_400, 1_440)


def test_polling_faster_than_every_10_s_needs_saying_so(mocked: IntegrationClient) -> None:
    with pytest.raises(ParameterError, match="allow_fast_polling") as info:
        mocked.events_feed(poll_interval=1)
    assert "432,000 credits a day" in str(info.value)
    fast = mocked.events_feed(poll_interval=1, allow_fast_polling=True)
    assert fast.credits_per_day == 432_000 and fast.idle_credits_per_day == 1_440
    with pytest.raises(ParameterError, match="max_poll_interval"):
        mocked.events_feed(poll_interval=60, max_poll_interval=30)
    for bad in (0, float("inf"), "30"):
        with pytest.raises(ParameterError, match="poll_interval"):
            mocked.events_feed(poll_interval=bad)  # type: ignore[arg-type]
    assert mocked.events_feed(poll_interval=600).idle_credits_per_day == 720


def test_a_position_that_could_not_be_saved_repeats_no_event(
    mock: requests_mock.Mocker, mocked: IntegrationClient
) -> None:
    class Flaky(MemoryPositionStore):
        fail = True

        def set(self, sequence_id: int) -> None:
            if self.fail:
                self.fail = False
                raise OSError("disk full")
            super().set(sequence_id)

    position = Flaky()
    mock.get(EVENTS, [events_page(1, 2), events_page()])
    feed = mocked.events_feed(position=position, stop_when_caught_up=True)
    handled: list[int | None] = []
    for _ in range(2):
        try:
            with feed:
                for event in feed:
                    handled.append(event.attributes.sequence_id)
        except OSError:
            pass
    assert handled == [1, 2] and position.get() == 2


def test_a_position_file_longer_than_a_position_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "long.position"
    path.write_text("9" * 69)
    with pytest.raises(PositionStoreError, match="does not hold a sequence ID"):
        FilePositionStore(path).get()


def test_the_feed_counts_its_events_on_a_progress_bar(
    integration_client: IntegrationClient,
    author: uuid.UUID,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)  # not a notebook
    make_listings(integration_client, author, 4)
    feed = integration_client.events_feed(per_page=3, stop_when_caught_up=True, progress=True)
    assert len(list(feed)) == 4
    # Not a terminal: one line when the feed ends.
    err = capsys.readouterr().err
    assert err.startswith("events: 4 events") and err.count("\n") == 1 and "\r" not in err


def test_every_filter_and_starting_point_goes_by_its_wire_name(
    mock: requests_mock.Mocker, mocked: IntegrationClient
) -> None:
    import datetime as dt

    mock.get(EVENTS, [events_page()])
    resource, related = uuid.UUID(int=7), uuid.UUID(int=8)
    since = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
    feed = mocked.events_feed(
        created_at_start=since,
        event_types=["listing/created", "user/updated"],
        resource_id=resource,
        related_resource_id=related,
        per_page=1,
        stop_when_caught_up=True,
    )
    assert list(feed) == []
    sent = mock.request_history[-1].qs
    assert sent == {
        "createdatstart": ["2026-01-02t03:04:05.000z"],
        "eventtypes": ["listing/created,user/updated"],
        "resourceid": [str(resource)],
        "relatedresourceid": [str(related)],
        "perpage": ["1"],
    }


def test_a_feed_caught_up_waits_its_poll_interval_then_doubles_it(
    mock: requests_mock.Mocker, mocked: IntegrationClient
) -> None:
    sleeps: list[float] = []
    mock.get(EVENTS, [events_page(1), events_page(), events_page(), events_page(2)])
    feed = mocked.events_feed(poll_interval=45, sleep=sleeps.append)
    assert handed_out(feed, 2) == [1, 2] and sleeps == [45, 90, 180]


@pytest.mark.parametrize(
    ("per_page", "allowed"), [(0, False), (1, True), (100, True), (101, False)]
)
def test_per_page_is_1_to_100(mocked: IntegrationClient, per_page: int, allowed: bool) -> None:
    if allowed:
        mocked.events_feed(per_page=per_page)
        return
    with pytest.raises(ParameterError) as info:
        mocked.events_feed(per_page=per_page)
    assert info.value.param == "per_page"


@pytest.mark.parametrize("options", [{"poll_interval": 0}, {"poll_interval": 5}])
def test_a_bad_poll_interval_is_named(mocked: IntegrationClient, options: dict[str, Any]) -> None:
    with pytest.raises(ParameterError) as info:
        mocked.events_feed(**options)
    assert info.value.param == "poll_interval"
    with pytest.raises(ParameterError) as info:
        mocked.events_feed(max_poll_interval=-1)
    assert info.value.param == "max_poll_interval"


def test_polling_every_10_s_is_allowed_and_faster_is_not(mocked: IntegrationClient) -> None:
    assert mocked.events_feed(poll_interval=10).credits_per_day == 43_200
    with pytest.raises(ParameterError) as info:
        mocked.events_feed(poll_interval=9.5)
    assert info.value.param == "poll_interval"


def test_a_position_file_holds_at_most_64_bytes(tmp_path: Path) -> None:
    path = tmp_path / "feed.position"
    path.write_text("1" * 63 + "\n")
    assert FilePositionStore(path).get() == int("1" * 63)
    path.write_text("1" * 64 + "\n")
    with pytest.raises(PositionStoreError, match="does not hold a sequence ID"):
        FilePositionStore(path).get()


def test_a_position_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "feed.position"
    path.write_bytes(b"\xff\xfe12")
    with pytest.raises(PositionStoreError, match="does not hold a sequence ID"):
        FilePositionStore(path).get()


def test_an_idle_feed_logs_when_it_polls_next(
    mock: requests_mock.Mocker, mocked: IntegrationClient, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    caplog.set_level(logging.DEBUG, logger="flexclient")
    mock.get(EVENTS, [events_page(), events_page(1)])
    assert handed_out(mocked.events_feed(sleep=lambda _: None), 1) == [1]
    said = [r.getMessage() for r in caplog.records if r.name == "flexclient"]
    assert "event feed: nothing new, polling again in 30.0s" in said


def test_position_stores_and_feeds_show_where_they_are(
    mocked: IntegrationClient, tmp_path: Path
) -> None:
    assert repr(MemoryPositionStore(41)) == "MemoryPositionStore(41)"
    path = tmp_path / "feed.position"
    assert repr(FilePositionStore(path)) == f"FilePositionStore({str(path)!r})"
    feed = mocked.events_feed(start_after_sequence_id=7)
    assert repr(feed) == "<EventFeed after sequence 7, 0 buffered>"


def test_a_position_path_that_cannot_serve_is_a_position_store_error(tmp_path: Path) -> None:
    (tmp_path / "folder.position").mkdir()
    with pytest.raises(PositionStoreError, match=r"folder\.position"):
        FilePositionStore(tmp_path / "folder.position").get()
    (tmp_path / "a-file").write_text("1\n")
    inside = FilePositionStore(tmp_path / "a-file" / "feed.position")
    with pytest.raises(PositionStoreError, match="cannot be read"):
        inside.get()
    with pytest.raises(PositionStoreError, match="cannot be written"):
        inside.set(5)


def test_an_event_handed_out_again_is_not_marked_processed_until_it_is(
    mock: requests_mock.Mocker, mocked: IntegrationClient
) -> None:
    position = MemoryPositionStore()
    mock.get(EVENTS, [events_page(1, 2, 3), events_page()])
    feed = mocked.events_feed(position=position, stop_when_caught_up=True)
    with pytest.raises(RuntimeError), feed:
        for event in feed:
            if event.attributes.sequence_id == 2:
                raise RuntimeError("the handler failed")
    again = next(feed)
    # Event 2 is being handled again: only 1 is processed so far.
    assert again.attributes.sequence_id == 2 and position.get() == 1
    assert next(feed).attributes.sequence_id == 3 and position.get() == 2


def test_a_feed_tells_the_apis_time_at_its_last_answer(
    mock: requests_mock.Mocker, mocked: IntegrationClient
) -> None:
    first = events_page(1)
    first["headers"] = {**first["headers"], "Date": "Thu, 26 Nov 2026 10:00:00 GMT"}
    mock.get(EVENTS, [first, events_page()])  # the second without a Date
    feed = mocked.events_feed(per_page=1, stop_when_caught_up=True)
    assert feed.server_time is None  # nothing asked yet
    assert next(feed).attributes.sequence_id == 1
    assert feed.server_time == dt.datetime(2026, 11, 26, 10, 0, tzinfo=dt.UTC)
    assert list(feed) == []  # a full page: asked again
    assert feed.server_time is None
