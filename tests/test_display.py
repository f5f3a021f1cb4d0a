"""For people: money as text, short reprs, HTML tables, flat records and DataFrames."""

from __future__ import annotations

import decimal
import re
from typing import Any

import pytest

from flexclient import Money
from flexclient.models import Listing, Meta
from flexclient.models._display import html_table
from flexclient.models._envelope import Envelope, build_envelope
from tests import sample


class Printer:
    def __init__(self) -> None:
        self.out = ""

    def text(self, s: str) -> None:
        self.out += s


def page() -> Envelope[Any]:
    body = sample.page()
    body["data"][0]["attributes"]["title"] = "<b>Road</b> bike"
    return build_envelope(body)


@pytest.mark.parametrize(
    "money,text,major",
    [
        (Money(5000, "USD"), "50.00 USD", "50.00"),
        (Money(5000, "JPY"), "5000 JPY", "5000"),
        (Money(1234, "KWD"), "1.234 KWD", "1.234"),
        (Money(-5, "EUR"), "-0.05 EUR", "-0.05"),
        (Money(12345, "XYZ"), "123.45 XYZ", "123.45"),
    ],
)
def test_money_in_major_units(money: Money, text: str, major: str) -> None:
    assert str(money) == text and money.decimal == decimal.Decimal(major)
    printer = Printer()
    money._repr_pretty_(printer, False)
    assert printer.out == text and text in money._repr_html_()


def test_short_reprs() -> None:
    env = page()
    listing = env.data[0]
    assert repr(listing) == f"<Listing listing {sample.LISTING}, '<b>Road</b> bike'>"
    assert repr(listing.author) == f"<User user {sample.USER}, 'Jane D'>"
    assert repr(env) == "<Envelope: 2 Listing of 2, page 1/1, 5 included>"
    printer = Printer()
    env._repr_pretty_(printer, False)
    assert printer.out == repr(env)
    assert str(listing) == repr(listing)  # print() is as short
    assert str(env) == repr(env)  # so is an envelope's: one line, not every field


def test_empty_envelopes_read_naturally() -> None:
    empty: Envelope[list[Listing]] = Envelope(
        data=[], meta=Meta(total_items=0, total_pages=0, page=1, per_page=10)
    )
    assert repr(empty) == "<Envelope: no resources>"
    past_the_end: Envelope[list[Listing]] = Envelope(
        data=[], meta=Meta(total_items=12, total_pages=2, page=3, per_page=10)
    )
    assert repr(past_the_end) == "<Envelope: no resources here, 12 in all, page 3/2>"
    assert repr(Envelope(data=None, meta=Meta())) == "<Envelope: no resources>"


def test_html_is_escaped_and_complete() -> None:
    env = page()
    table = env._repr_html_()
    assert "&lt;b&gt;Road&lt;/b&gt; bike" in table and "<b>Road" not in table
    listings = table.split("<table><caption>")[1]  # the first table, to the next
    # The header and two listings (the author's fields fold into a cell of each).
    assert re.sub(r"<details>.*?</details>", "", listings).count("<tr>") == 3
    # Money once, in major units with its currency: no minor-unit numbers for people.
    assert "<th>price</th>" in table and "<td>50.00 USD</td>" in table
    assert "price.amount" not in table and "5000" not in table
    one = env.data[0]._repr_html_()
    assert "<caption>" in one and "public_data.category" in one
    assert "<th>price</th><td>50.00 USD</td>" in one and "price.currency" not in one


def test_the_table_shows_what_was_included_as_the_summary_counts_it() -> None:
    env = page()
    html = env._repr_html_()
    captions = re.findall(r"<caption>([^<]*)</caption>", html)
    assert captions == [
        "2 Listing of 2, page 1/1, 5 included",
        "included: 1 user",
        "included: 3 image",
        "included: 1 someNewType",
    ]
    listings = html.split("<table><caption>")[1]  # the first table, to the next
    # Each listing's author, by name, its fields on demand; its images counted.
    assert "<th>author</th>" in listings and "<th>images.count</th>" in listings
    assert listings.count("<summary>Jane D · 6 fields</summary>") == 2
    # The second listing has no location: a blank under `geolocation.lat`, no column of its own.
    head = re.findall(r"<th>([^<]*)</th>", listings.split("</thead>")[0])
    assert "geolocation.lat" in head and "geolocation" not in head
    assert "<th>profile.display_name</th><td>Jane D</td>" in listings


def test_a_nested_value_of_many_fields_is_one_cell_that_opens_to_them() -> None:
    fields = {f"resource.attributes.f{i}": i for i in range(20)}
    rows = [
        {"id": 1, "event_type": "listing/updated", **fields, "resource.attributes.title": "Bike"},
        {"id": 2, "event_type": "user/deleted", "resource": None, "audit.user_id": "u"},
    ]
    html = html_table(rows)
    head = re.findall(r"<th>([^<]*)</th>", html.split("</thead>")[0])
    assert head == ["id", "event_type", "resource", "audit.user_id"]
    assert "<summary>Bike · 21 fields</summary>" in html
    assert "<th>attributes.f19</th><td>19</td>" in html
    assert "<td></td>" in html  # the event without a resource: nothing to open


def test_line_items_read_as_a_price_breakdown() -> None:
    raw = {
        "id": sample.LISTING,
        "type": "transaction",
        "attributes": {
            "payinTotal": {"amount": 14700, "currency": "EUR"},
            "lineItems": [
                {
                    "code": "line-item/day",
                    "unitPrice": {"amount": 4900, "currency": "EUR"},
                    "quantity": "3",
                    "lineTotal": {"amount": 14700, "currency": "EUR"},
                    "reversal": False,
                    "includeFor": ["customer", "provider"],
                },
                {
                    "code": "line-item/provider-commission",
                    "unitPrice": {"amount": 14700, "currency": "EUR"},
                    "percentage": "-10",
                    "lineTotal": {"amount": -1470, "currency": "EUR"},
                    "reversal": False,
                    "includeFor": ["provider"],
                },
            ],
            "transitions": [{"transition": "transition/accept", "by": "provider"}],
        },
    }
    env = build_envelope({"data": [raw]})
    day, commission = env.data[0].attributes.line_items
    assert str(day) == "line-item/day 3 x 49.00 EUR = 147.00 EUR for customer/provider"
    assert str(commission) == (
        "line-item/provider-commission -10% of 147.00 EUR = -14.70 EUR for provider"
    )
    table = env._repr_html_()
    assert f"<td>{day}, {commission}</td>" in table and "<td>147.00 EUR</td>" in table
    assert "Money(" not in table and "unit_price=" not in table
    # Other nested values as their fields too, not pydantic's reprs.
    assert "<td>transition: transition/accept, by: provider</td>" in table


def test_records_with_relationships() -> None:
    env = page()
    rows = env.to_records(["author", "images"])
    first = rows[0]
    assert first["id"] == sample.LISTING and first["title"] == "<b>Road</b> bike"
    assert (first["price.amount"], first["price.currency"]) == (5000, "USD")
    assert first["price"] == Money(5000, "USD")  # shown `50.00 USD` in tables
    assert (first["geolocation.lat"], first["geolocation.lng"]) == (60.16, 24.93)
    assert first["public_data.category"] == "road" and first["someFutureAttribute.x"] == 1
    assert first["author.profile.display_name"] == "Jane D" and first["author.id"] == sample.USER
    assert first["images.count"] == 2 and first["images.ids"] == [sample.IMAGE, sample.IMAGE2]
    assert rows[1]["images.count"] == 0
    assert env.data[0].to_record(["currentStock"])["currentStock.id"] is None


def test_dataframe() -> None:
    frame = page().to_dataframe(["author"])
    assert list(frame["title"]) == ["<b>Road</b> bike", "Old bike"]
    assert list(frame["author.profile.display_name"]) == ["Jane D", "Jane D"]
    assert frame["price.amount"].iloc[0] == 5000


def test_show_envelopes_are_one_row() -> None:
    env = build_envelope({"data": sample.page()["data"][0], "included": sample.page()["included"]})
    assert isinstance(env.data, Listing) and len(env.to_records()) == 1
