"""What handlers of several groups share: finding records, reading query values, filters."""

from __future__ import annotations

import datetime as dt
import math
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from flexclient._support.narrow import is_json_object, is_list
from flexclient.models import CurrentUserAttributes, ListingAttributes, TransactionAttributes
from flexclient.testing import _state as s
from flexclient.testing._call import Call, invalid, not_found
from flexclient.testing._params import from_text
from flexclient.testing._schema import EXTENDED_DATA, field_names

R = TypeVar("R", bound=s.Record[Any])


def listing(c: Call, lid: uuid.UUID, *, own: bool = False) -> s.Record[ListingAttributes]:
    """A listing that exists; with `own`, one of the caller's (404 otherwise)."""
    found = c.state.listings.get(lid)
    if found is None or found.attributes.deleted:
        raise not_found("Listing")
    if own and found.one("author") != c.user().id:
        raise not_found("Listing")
    return found


def own_or_any_listing(c: Call, lid: uuid.UUID) -> s.Record[ListingAttributes]:
    """The caller's listing through the Marketplace API, any listing for the operator."""
    return listing(c, lid, own=c.api == "marketplace")


def user(c: Call, uid: uuid.UUID) -> s.Record[CurrentUserAttributes]:
    found = c.state.users.get(uid)
    if found is None or found.attributes.deleted:
        raise not_found("User")
    return found


def transaction(c: Call, tid: uuid.UUID) -> s.Record[TransactionAttributes]:
    found = c.state.transactions.get(tid)
    if found is None:
        raise not_found("Transaction")
    return found


# --- query values --------------------------------------------------------------------------


def ids(raw: str) -> list[uuid.UUID]:
    try:
        return [uuid.UUID(part) for part in raw.split(",") if part]
    except ValueError:
        raise ValueError("expected UUIDs separated by commas") from None


def time(raw: str) -> dt.datetime:
    value = from_text(raw, dt.datetime)  # the library's reading of a time, timezone required
    assert isinstance(value, dt.datetime)
    return value


def words(raw: str) -> list[str]:
    return raw.split(",")


def floats(count: int) -> Callable[[str], list[float]]:
    def parse(raw: str) -> list[float]:
        wanted = f"expected {count} comma-separated numbers"
        try:
            parts = [float(p) for p in raw.split(",")]
        except ValueError:
            raise ValueError(wanted) from None
        if len(parts) != count or not all(math.isfinite(p) for p in parts):
            raise ValueError(wanted)
        return parts

    return parse


def price_range(raw: str) -> tuple[int | None, int | None]:
    low, _, high = raw.partition(",")
    try:
        return (int(low) if low else None, int(high) if high else None)
    except ValueError:
        raise ValueError(
            "expected amounts in minor units, min,max (either may be left out)"
        ) from None


# --- extended data -------------------------------------------------------------------------


def extended_data(record: s.Record[Any], wire_name: str) -> dict[str, Any] | None:
    """A record's extended data of that name, where its model keeps it: among the attributes
    (a listing's `publicData`) or in a part of them (a user's `profile.publicData`)."""
    attrs: BaseModel = record.attributes
    names = field_names(type(attrs))
    if wire_name in names:
        value = getattr(attrs, names[wire_name])
        return value if is_json_object(value) else {}
    for name in type(attrs).model_fields:
        part = getattr(attrs, name)
        if isinstance(part, BaseModel):
            inner = field_names(type(part))
            if wire_name in inner:
                value = getattr(part, inner[wire_name])
                return value if is_json_object(value) else {}
    return None


def _matches(value: object, wanted: str) -> bool:
    if wanted.startswith(("has_any:", "has_all:")):
        mode, _, items = wanted.partition(":")
        options = set(items.split(","))
        given: set[object] = (
            set(value) if is_list(value) else {str(value)} if value is not None else set()
        )
        have = {str(v) for v in given}
        return bool(options & have) if mode == "has_any" else options <= have
    if isinstance(value, bool):
        return wanted == ("true" if value else "false")
    return str(value) == wanted


def filter_extended(c: Call, items: list[R]) -> list[R]:
    """Keep the records whose extended data matches every `pub_*`, `meta_*`, ... parameter."""
    for key, wanted in c.params.items():
        for wire_name, prefix in EXTENDED_DATA.items():
            if not key.startswith(prefix):
                continue
            name = key[len(prefix) :]
            kept: list[R] = []
            for item in items:
                data = extended_data(item, wire_name)
                if data is None:
                    raise invalid("query", key, f"these resources have no {wire_name}")
                if _matches(data.get(name), wanted):
                    kept.append(item)
            items = kept
    return items
