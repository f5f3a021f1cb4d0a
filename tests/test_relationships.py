"""Relationships resolve against `included` when a response is read; clear errors if missing."""

from __future__ import annotations

import copy
import pickle
import uuid
from typing import Any

import pytest

from flexclient import RelationshipNotIncludedError, RelationshipTypeError
from flexclient.models import Image, Listing, Ref, User
from flexclient.models._envelope import build_envelope
from tests import sample


def listings(body: dict[str, Any] | None = None) -> list[Listing]:
    data = build_envelope(body or sample.page()).data
    assert isinstance(data, list)
    return data


def test_to_one_to_many_and_nested() -> None:
    first = listings()[0]
    assert isinstance(first.author, User) and first.author.id == sample.USER
    assert [i.id for i in first.images] == [sample.IMAGE, sample.IMAGE2]
    avatar = first.author.profile_image
    assert isinstance(avatar, Image) and avatar.id == sample.AVATAR


def test_raw_references_are_kept_as_sent() -> None:
    first = listings()[0]
    assert first.relationships["author"].data == Ref(id=sample.USER, type="user")
    assert first.relationships["images"].data == [
        Ref(id=sample.IMAGE, type="image"),
        Ref(id=sample.IMAGE2, type="image"),
    ]


def test_related_by_wire_name() -> None:
    first = listings()[0]
    author = first.related("author")
    assert isinstance(author, User)
    assert first.related("currentStock") is None


def test_included_but_empty_is_none_or_empty_list() -> None:
    first, second = listings()
    assert first.current_stock is None
    assert second.images == []


def test_missing_include_names_the_include_path() -> None:
    body = sample.page()
    del body["data"][0]["relationships"]["author"]
    with pytest.raises(RelationshipNotIncludedError, match="'author'") as info:
        _ = listings(body)[0].author
    assert info.value.include_path == "author"


def test_missing_nested_include_names_the_full_path() -> None:
    body = sample.page()
    body["included"][0]["relationships"] = {}
    author = listings(body)[0].author
    with pytest.raises(RelationshipNotIncludedError) as info:
        _ = author.profile_image
    assert info.value.include_path == "author.profileImage"
    assert isinstance(info.value, LookupError)


def test_reference_to_a_resource_not_in_included() -> None:
    body = sample.page()
    body["data"][0]["relationships"]["author"]["data"]["id"] = uuid.uuid4()
    with pytest.raises(RelationshipNotIncludedError, match="not in `included`"):
        _ = listings(body)[0].author


def test_cycles_resolve_without_recursion() -> None:
    body = sample.page()
    # user -> listings -> author -> listings ... as the API can send with include=author.listings
    body["included"][0]["relationships"]["listings"] = {
        "data": [sample.ref(sample.LISTING, "listing")]
    }
    first = listings(body)[0]
    again = first.author.related("listings")
    assert isinstance(again, list) and again[0].id == sample.LISTING
    assert isinstance(again[0], Listing) and again[0].author.id == sample.USER
    assert again[0] is first  # the same resource, reached through the cycle
    with pytest.raises(RelationshipNotIncludedError) as info:
        again[0].related("nothing")
    assert info.value.include_path == "nothing"  # the shortest include path to it


def test_resolution_is_shared_and_cached() -> None:
    first, second = listings()
    assert first.author is first.author
    assert first.author is second.author  # one included resource behind both


def test_typed_accessor_on_a_relationship_of_another_type() -> None:
    body = sample.page()
    body["data"][0]["relationships"]["author"]["data"] = sample.ref(sample.IMAGE, "image")
    first = listings(body)[0]
    with pytest.raises(RelationshipTypeError, match="related"):
        _ = first.author
    assert isinstance(first.related("author"), Image)


def test_copies_and_pickles_keep_relationships() -> None:
    body = sample.page()
    body["included"][0]["relationships"]["listings"] = {
        "data": [sample.ref(sample.LISTING, "listing")]
    }
    first = listings(body)[0]
    shallow = copy.copy(first)
    assert shallow.author is first.author
    for clone in (copy.deepcopy(first), pickle.loads(pickle.dumps(first))):
        assert clone is not first and clone == first
        assert clone.author.id == sample.USER and clone.author is not first.author
        assert clone.author.related("listings") == [clone]  # the cycle comes back to the clone
        with pytest.raises(RelationshipNotIncludedError) as info:
            _ = clone.author.profile_image.related("nothing")  # type: ignore[union-attr]
        assert info.value.include_path == "author.profileImage.nothing"


def test_a_resource_built_by_hand_has_no_relationships_resolved() -> None:
    listing = Listing.model_validate(
        {"id": sample.LISTING, "type": "listing", "attributes": {"title": "By hand"}}
    )
    with pytest.raises(RelationshipNotIncludedError) as info:
        _ = listing.author
    assert info.value.include_path == "author"
