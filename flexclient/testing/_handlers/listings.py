"""`listings` and `own_listings`: search, show, create, update, and the listing's states."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from flexclient._endpoints.table import IntegrationEndpoints as Integ
from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient.models import ListingAttributes
from flexclient.testing import _availability
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, Call, invalid, not_found
from flexclient.testing._handlers._lookup import (
    filter_extended,
    floats,
    ids,
    listing,
    price_range,
    time,
    user,
    words,
)
from flexclient.testing._handlers._sorting import (
    SortKey,
    created_at,
    created_window,
    has_window,
    ordered,
)
from flexclient.testing._routes import Handler, handles

Listing = s.Record[ListingAttributes]
SORT_KEYS: dict[str, SortKey] = {
    "createdAt": created_at,
    "price": lambda lst: lst.attributes.price.amount if lst.attributes.price else None,
}


def _query(c: Call, listings: list[Listing], *, own: bool) -> dict[str, Any]:
    """`listings` (in the window of `createdAtStart` and `createdAtEnd`, when the call gives
    one) as the query's filters and order leave them."""
    if "keywords" in c.params and "origin" in c.params:
        raise ApiFailure(
            400,
            "validation-invalid-params",
            "keywords and origin cannot be combined",
            ["query", "keywords"],
        )
    wanted = c.query_value("ids", ids)
    author = c.query_value("authorId", uuid.UUID)
    states = c.query_value("states", words)
    low, high = c.query_value("price", price_range) or (None, None)
    bounds = c.query_value("bounds", floats(4))
    c.query_value("origin", floats(2))
    min_stock = c.query_value("minStock", int)
    keywords = [w.lower() for w in c.params.get("keywords", "").split()]
    result = [lst for lst in listings if not lst.attributes.deleted]
    if not own and c.api == "marketplace":
        result = [lst for lst in result if lst.attributes.state == "published"]
    if wanted is not None:
        result = [lst for lst in result if lst.id in wanted]
    if author is not None:
        result = [lst for lst in result if lst.one("author") == author]
    if states is not None:
        result = [lst for lst in result if lst.attributes.state in states]
    if low is not None or high is not None:
        result = [lst for lst in result if _priced_within(lst, low, high)]
    if bounds is not None:
        ne_lat, ne_lng, sw_lat, sw_lng = bounds
        result = [
            lst
            for lst in result
            if (point := lst.attributes.geolocation) is not None
            and sw_lat <= point.lat <= ne_lat
            and sw_lng <= point.lng <= ne_lng
        ]
    if min_stock is not None:
        # `stockMode=match-undefined` lets listings that keep no stock (bookings) match too,
        # as the web template's search asks for them beside the stocked ones.
        loose = c.params.get("stockMode") == "match-undefined"
        result = [
            lst
            for lst in result
            if _stock(c, lst) >= min_stock or (loose and s.stock_id(lst.id) not in c.state.stocks)
        ]
    if keywords:
        result = [lst for lst in result if all(w in _text(lst) for w in keywords)]
    result = _available(c, result)
    result = filter_extended(c, result)
    result = ordered(c, result, SORT_KEYS, extended_data=True, oldest_first=has_window(c))
    return c.page(result, limited=not own)


def _available(c: Call, listings: list[Listing]) -> list[Listing]:
    """The listings free between `start` and `end`: for the whole time (`day-full`,
    `time-full`, the default) or for some of it (`day-partial`, `time-partial`), with at
    least `seats` seats and, for partial availability, `minDuration` minutes in one stretch."""
    start, end = c.query_value("start", time), c.query_value("end", time)
    if start is None and end is None:
        return listings
    if start is None or end is None or end <= start:
        raise invalid("query", "end" if start else "start", "start and end go together")
    mode = c.params.get("availability", "day-full")
    seats = c.query_value("seats", int) or 1
    shortest = dt.timedelta(minutes=c.query_value("minDuration", int) or 0)
    kept: list[Listing] = []
    for lst in listings:
        if mode.endswith("-full"):
            ok = _availability.has_room(c.state, lst, start, end, seats)
        else:
            ok = any(
                span.seats >= seats and span.end - span.start >= shortest
                for span in _availability.free(c.state, lst, start, end)
            )
        if ok:
            kept.append(lst)
    return kept


def _priced_within(lst: Listing, low: int | None, high: int | None) -> bool:
    price = lst.attributes.price
    return (
        price is not None
        and (low is None or price.amount >= low)
        and (high is None or price.amount < high)
    )


def _stock(c: Call, lst: Listing) -> int:
    stock = c.state.stocks.get(s.stock_id(lst.id))
    return (stock.attributes.quantity or 0) if stock is not None else 0


def _text(lst: Listing) -> str:
    return f"{lst.attributes.title} {lst.attributes.description}".lower()


@handles(
    Market.listings.cls.query,
    Market.listings.cls.search,
    Integ.listings.cls.query,
    extended_data_filters=True,
)
def query(c: Call) -> dict[str, Any]:
    return _query(c, created_window(c, "listings", c.state.listings), own=False)


@handles(Market.listings.cls.show, Integ.listings.cls.show)
def show(c: Call) -> dict[str, Any]:
    found = listing(c, c.query_id())
    published = found.attributes.state == "published"
    if c.api == "marketplace" and not published and found.one("author") != c.grant.user_id:
        raise not_found("Listing")
    return c.one(found)


@handles(Market.own_listings.cls.query, extended_data_filters=True)
def own_query(c: Call) -> dict[str, Any]:
    me = c.user().id
    window = created_window(c, "listings", c.state.listings)
    mine = [lst for lst in window if lst.one("author") == me]
    return _query(c, mine, own=True)


@handles(Market.own_listings.cls.show)
def own_show(c: Call) -> dict[str, Any]:
    return c.one(listing(c, c.query_id(), own=True))


def _write(c: Call, target: Listing) -> None:
    """The body's listing fields (by the listing model) and images, written to `target`."""
    if "title" in c.body and not (c.body_value("title", str) or "").strip():
        raise invalid("body", "title", "must not be empty")
    target.attributes = c.write(target.attributes, only=_writable(c))
    if "images" in c.body:
        images = c.body_value("images", list) or []
        try:
            image_ids = [uuid.UUID(str(i)) for i in images]
        except ValueError as exc:
            raise invalid("body", "images", "not image ids") from exc
        if any(i not in c.state.images for i in image_ids):
            raise invalid("body", "images", "no such image")
        target.link_many("images", "image", image_ids)


def _writable(c: Call) -> set[str]:
    # The listing's state changes only through its own endpoints (publish, close, ...).
    return set(c.body) - {"state"}


def _create(c: Call, author: s.Record[Any], state: str) -> dict[str, Any]:
    made = s.new("listing", ListingAttributes, {"state": state, "created_at": c.state.time()})
    made.link("marketplace", "marketplace", s.MARKETPLACE_ID)
    made.link("author", "user", author.id)
    c.body_value("title", str, required=True)
    _write(c, made)
    c.state.listings[made.id] = made
    c.emit("listing/created", made, None)
    return c.one(made)


def _poster(c: Call) -> s.Record[Any]:
    """The logged-in user, if the operator lets them post listings."""
    me = c.user()
    if me.attributes.permissions.get("postListings") == "permission/deny":
        raise ApiFailure(403, "permission-denied-post-listings", "The user may not post listings")
    return me


@handles(Market.own_listings.cls.create)
def own_create(c: Call) -> dict[str, Any]:
    return _create(c, _poster(c), "published")


@handles(Market.own_listings.cls.create_draft)
def own_create_draft(c: Call) -> dict[str, Any]:
    return _create(c, _poster(c), "draft")


def _update(c: Call, target: Listing) -> dict[str, Any]:
    before = c.snapshot(target)
    _write(c, target)
    c.emit("listing/updated", target, before)
    return c.one(target)


@handles(Market.own_listings.cls.update)
def own_update(c: Call) -> dict[str, Any]:
    return _update(c, listing(c, c.body_id(), own=True))


@handles(Market.own_listings.cls.add_image)
def own_add_image(c: Call) -> dict[str, Any]:
    target = listing(c, c.body_id(), own=True)
    image_id = c.body_id("imageId")
    if image_id not in c.state.images:
        raise invalid("body", "imageId", "no such image")
    before = c.snapshot(target)
    target.link_many("images", "image", [*target.many("images"), image_id])
    c.emit("listing/updated", target, before)
    return c.one(target)


def _state_change(from_states: tuple[str, ...], to: str, *, own: bool) -> Handler:
    """A handler that moves a listing from one of `from_states` to `to`."""

    def handler(c: Call) -> dict[str, Any]:
        target = listing(c, c.body_id(), own=own)
        if target.attributes.state not in from_states:
            raise ApiFailure(
                409,
                "listing-invalid-state",
                f"A {target.attributes.state} listing cannot become {to}",
            )
        before = c.snapshot(target)
        target.set(state=to)
        c.emit("listing/updated", target, before)
        return c.one(target)

    return handler


@handles(Market.own_listings.cls.discard_draft)
def own_discard_draft(c: Call) -> dict[str, Any]:
    target = listing(c, c.body_id(), own=True)
    if target.attributes.state != "draft":
        raise ApiFailure(409, "listing-invalid-state", "Only a draft can be discarded")
    answer = c.one(target)
    target.set(deleted=True)
    c.emit_deleted("listing/deleted", target)
    return answer


# The listing's state machine: which endpoint moves it from which states to which.
handles(Market.own_listings.cls.publish_draft)(_state_change(("draft",), "published", own=True))
handles(Market.own_listings.cls.open)(_state_change(("closed",), "published", own=True))
handles(Market.own_listings.cls.close)(_state_change(("published",), "closed", own=True))
handles(Integ.listings.cls.approve)(_state_change(("pendingApproval",), "published", own=False))
handles(Integ.listings.cls.open)(_state_change(("closed",), "published", own=False))
handles(Integ.listings.cls.close)(_state_change(("published",), "closed", own=False))


@handles(Integ.listings.cls.create)
def integ_create(c: Call) -> dict[str, Any]:
    author = user(c, c.body_id("authorId"))
    state = c.body_value("state", str) or "published"
    if state not in ("published", "pendingApproval"):
        raise invalid("body", "state", "published or pendingApproval")
    return _create(c, author, state)


@handles(Integ.listings.cls.update)
def integ_update(c: Call) -> dict[str, Any]:
    return _update(c, listing(c, c.body_id()))
