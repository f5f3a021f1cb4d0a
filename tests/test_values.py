"""One conversion for each value type: query strings, bodies, forms, the command line and
displays agree."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from flexclient import LatLng, LatLngBounds, Money, ParameterError
from flexclient._cli import UsageError, envelope_json, parse_value, table
from flexclient._demo import _money
from flexclient._http.multipart import _text
from flexclient._wire.formats import JSON
from flexclient._wire.query import write_query
from flexclient._wire.values import (
    Unwritable,
    as_text,
    display,
    fast_uuid,
    iso_millis,
    jsonable,
    money_from,
    parse,
    uuid_value,
)
from flexclient.models import Envelope, Meta
from flexclient.models._display import html_fields

times = st.datetimes(
    min_value=dt.datetime(1970, 1, 2),
    max_value=dt.datetime(9999, 1, 1),
    timezones=st.just(dt.UTC),
)


@given(times)
def test_a_time_is_the_same_text_in_a_query_a_json_body_and_the_command_line(
    when: dt.datetime,
) -> None:
    text = iso_millis(when)
    assert write_query({"start": when}) == "start=" + text.replace(":", "%3A")
    assert json.loads(JSON.encode({"start": when})) == {"start": text}
    body = json.loads(envelope_json(_envelope_with({"when": when})))  # the command line
    assert body["data"]["attributes"]["when"] == text
    assert display(when) == text


def _envelope_with(attributes: dict[str, object]) -> Envelope[object]:
    from flexclient.models import Resource

    resource = Resource.model_validate(
        {"id": uuid.UUID(int=1), "type": "thing", "attributes": attributes}
    )
    return Envelope(data=resource, meta=Meta())


def test_money_is_shown_in_major_units_by_its_currency_everywhere() -> None:
    for money, shown in [
        (Money(5000, "EUR"), "50.00 EUR"),
        (Money(5000, "JPY"), "5000 JPY"),
        (Money(1234, "KWD"), "1.234 KWD"),
    ]:
        assert _money(money) == display(money) == str(money) == shown
        assert shown in html_fields({"price": money}, "listing")
    assert "50.00 EUR" in table([{"price": Money(5000, "EUR")}], ["price"])


def test_lists_and_points_show_as_their_values() -> None:
    assert display(["road", "city"]) == "road, city"
    assert "road, city" in html_fields({"tags": ["road", "city"]}, "listing")
    assert display(LatLng(60.16, 24.93)) == "60.16, 24.93"


def test_forms_write_numbers_as_the_official_sdk_does() -> None:
    assert _text(5.0, "n") == "5" == write_query({"n": 5.0}).removeprefix("n=")
    assert _text(decimal.Decimal("2.50"), "d") == "2.50"
    when = dt.datetime(2024, 5, 1, 12, tzinfo=dt.UTC)
    assert _text(when, "at") == iso_millis(when)


def test_the_command_line_reads_what_the_conversions_write() -> None:
    assert parse_value("money:5000:USD") == Money(5000, "USD")
    assert parse_value("date:2024-05-01T12:00:00.000Z") == dt.datetime(
        2024, 5, 1, 12, tzinfo=dt.UTC
    )
    assert parse_value("decimal:2.50") == decimal.Decimal("2.50")


def test_a_money_written_wrong_says_what_to_write() -> None:
    with pytest.raises(ParameterError, match=r"minor unit.*Money\.of\('50\.0', 'EUR'\)") as info:
        Money(50.0, "EUR")  # type: ignore[arg-type]
    assert info.value.param == "amount"
    for currency in ["eur", "EURO", "", 978]:
        with pytest.raises(ParameterError, match="three capital letters") as bad:
            Money(5000, currency)  # type: ignore[arg-type]
        assert bad.value.param == "currency"


def test_a_point_or_bounds_written_wrong_names_the_field() -> None:
    assert LatLng(60, 24) == LatLng(60.0, 24.0) and type(LatLng(60, 24).lat) is float
    assert LatLng(decimal.Decimal("60.5"), 24) == LatLng(60.5, 24.0)  # type: ignore[arg-type]
    wrong = [("60.1", 24.0, "lat"), (60.1, None, "lng"), (True, 24.0, "lat"), (10**400, 0, "lat")]
    for lat, lng, param in [*wrong, (0, decimal.Decimal("sNaN"), "lng")]:
        with pytest.raises(ParameterError, match="a number of degrees") as info:
            LatLng(lat, lng)  # type: ignore[arg-type]
        assert info.value.param == param
    with pytest.raises(ParameterError, match="a LatLng, not") as bad:
        LatLngBounds(ne=LatLng(1, 2), sw=(0, 0))  # type: ignore[arg-type]
    assert bad.value.param == "sw"


def test_money_from_major_units_is_exact() -> None:
    assert Money.of("49.90", "EUR") == Money(4990, "EUR")
    assert Money.of(500, "JPY") == Money(500, "JPY")
    assert Money.of(19.99, "USD") == Money(1999, "USD")
    assert Money.of(decimal.Decimal("1.234"), "KWD") == Money(1234, "KWD")
    for amount in ["49.999", "abc", "NaN"]:
        with pytest.raises(ParameterError) as info:
            Money.of(amount, "EUR")
        assert info.value.param == "amount"


def test_money_the_server_sends_is_read_whatever_its_currency() -> None:
    body = JSON.decode(b'{"price": {"amount": 5, "currency": "eur"}}')
    assert body == {"price": {"amount": 5, "currency": "eur"}}
    from flexclient._wire.transit_reader import loads

    assert loads('["~#mn",[5,"eur"]]').currency == "eur"


def test_times_show_in_utc_as_the_api_writes_them_and_naive_ones_as_they_are() -> None:
    helsinki = dt.timezone(dt.timedelta(hours=2))
    assert display(dt.datetime(2024, 1, 2, 3, 4, 5, 678900, tzinfo=helsinki)) == (
        "2024-01-02T01:04:05.678Z"
    )
    assert display(dt.datetime(2024, 1, 2, 3, 4, 5)) == "2024-01-02T03:04:05"


def test_other_values_show_as_people_read_them() -> None:
    bounds = LatLngBounds(ne=LatLng(60.5, 25.0), sw=LatLng(60.0, 24.5))
    assert display(bounds) == "60.5, 25 to 60, 24.5"
    assert display(None) == "" and display(2.50) == "2.5" and display(float("inf")) == "inf"
    assert display({"a": [1, "b"]}) == '{"a": [1, "b"]}' and display(7) == "7"


def test_the_command_line_reads_bounds_dates_and_the_other_kinds() -> None:
    assert parse_value("bounds:60.5,25,60,24.5") == LatLngBounds(
        ne=LatLng(60.5, 25.0), sw=LatLng(60.0, 24.5)
    )
    assert parse_value("latlng:60.16,24.93") == LatLng(60.16, 24.93)
    helsinki = dt.timezone(dt.timedelta(hours=2))
    assert parse_value("date:2024-05-01T14:00:00+02:00") == dt.datetime(
        2024, 5, 1, 14, tzinfo=helsinki
    )
    some = uuid.uuid4()
    assert parse_value(f"uuid:{some}") == some
    for wrong in [
        "date:2024-05-01T12:00:00",  # no timezone
        "bounds:60.5,25,60",
        "latlng:60.16",
        "decimal:lots",
        "money:fifty:EUR",
    ]:
        with pytest.raises(UsageError, match=f"as {wrong.partition(':')[0]}"):
            parse_value(wrong)
    with pytest.raises(ValueError, match="one of uuid, money, latlng, bounds, date, decimal"):
        parse("colour", "red")


def test_an_infinite_coordinate_is_not_written() -> None:
    for point in [LatLng(60.0, float("inf")), LatLng(float("-inf"), 24.0)]:
        with pytest.raises(ParameterError) as info:
            write_query({"origin": point})
        assert info.value.param == "origin"
        with pytest.raises(ParameterError):
            write_query({"bounds": LatLngBounds(ne=LatLng(61, 25), sw=point)})


class NoOffset(dt.tzinfo):
    """A timezone that does not say its offset: as good as none."""

    def utcoffset(self, when: dt.datetime | None) -> dt.timedelta | None:
        return None

    def dst(self, when: dt.datetime | None) -> dt.timedelta | None:
        return None

    def tzname(self, when: dt.datetime | None) -> str | None:
        return None


def test_a_time_whose_timezone_gives_no_offset_is_naive() -> None:
    with pytest.raises(ParameterError, match="naive datetime") as info:
        write_query({"start": dt.datetime(2024, 1, 1, tzinfo=NoOffset())})
    assert info.value.param == "start"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (LatLng(60.0, float("inf")), "not a finite number"),
        (LatLng(float("nan"), 24.0), "not a finite number"),
        (dt.date(2024, 1, 1), "a date is not accepted"),
        (LatLngBounds(ne=LatLng(1, 2), sw=LatLng(0, 0)), "only be used in query parameters"),
    ],
)
def test_a_body_value_that_cannot_be_sent_is_named_before_sending(value: object, said: str) -> None:
    with pytest.raises(ParameterError, match=said) as info:
        JSON.encode({"publicData": {"spot": value}})
    assert "spot" in info.value.param


def test_a_list_of_values_with_commas_of_their_own_is_shown_split_by_semicolons() -> None:
    assert display([LatLng(60.5, 25.0), LatLng(60.0, 24.5)]) == "60.5, 25; 60, 24.5"
    assert display(["a", LatLng(1.0, 2.0)]) == "a; 1, 2"
    assert display(["a", "b"]) == "a, b"


def test_a_map_is_shown_as_json_with_its_letters_as_they_are() -> None:
    assert display({"city": "Hämeenlinna", "when": dt.datetime(2024, 1, 2, tzinfo=dt.UTC)}) == (
        '{"city": "Hämeenlinna", "when": "2024-01-02T00:00:00.000Z"}'
    )


def test_what_json_has_no_form_for_is_printed_as_its_text() -> None:
    # The command line prints bodies as JSON: a value no JSON body could carry is its text.
    assert jsonable({"day": dt.date(2024, 1, 2), "ids": [uuid.UUID(int=1)]}) == {
        "day": "2024-01-02",
        "ids": ["00000000-0000-0000-0000-000000000001"],
    }


def test_a_decimal_from_the_command_line_must_be_a_number() -> None:
    assert parse("decimal", "1.50") == decimal.Decimal("1.50")
    with pytest.raises(ValueError, match="not a decimal number: 'abc'"):
        parse("decimal", "abc")


def test_text_that_has_no_query_form_is_refused() -> None:
    with pytest.raises(Unwritable, match="UTF-8"):
        as_text("caf\ud800")
    with pytest.raises(Unwritable, match="Money has no text form"):
        as_text(Money(5000, "EUR"))


def test_an_id_given_in_code_is_a_uuid_or_its_text() -> None:
    known = uuid.UUID("c6ff7190-bdf7-47a0-8a2b-e3136e74334f")
    assert uuid_value("file_id", known) is known
    assert uuid_value("file_id", str(known).upper()) == known
    with pytest.raises(ParameterError, match="not a UUID") as info:
        uuid_value("file_id", "c6ff7190")
    assert info.value.param == "file_id"
    with pytest.raises(ParameterError, match="not int") as info:
        uuid_value("file_id", 7)
    assert info.value.param == "file_id"


def test_an_id_with_spaces_among_its_digits_is_no_uuid() -> None:
    # 32 characters once the dashes are gone, two of them spaces: 15 bytes, not an id.
    with pytest.raises(ValueError, match="not a UUID"):
        fast_uuid("c6ff7190-bdf7-47a0-8a2b-e3136e7433  ")


def test_money_the_wire_gives_wrong_is_refused_naming_the_wrong_part() -> None:
    with pytest.raises(ValidationError) as info:
        money_from(1000.5, "EUR")
    assert [e["loc"] for e in info.value.errors()] == [("amount",)]
    with pytest.raises(ValidationError) as info:
        money_from(1000, 978)
    assert [e["loc"] for e in info.value.errors()] == [("currency",)]
