"""Relationships resolve against `included` when a response is read; clear errors if missing."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import uuid
from collections.abc import Callable
from typing import Any, ClassVar

import pytest

from flexclient import ParameterError, RelationshipNotIncludedError, RelationshipTypeError
from flexclient.models import (
    CurrentUser,
    Image,
    Listing,
    Message,
    OwnListing,
    Ref,
    Resource,
    ToMany,
    ToOne,
    ToOneOrNone,
    Transaction,
    User,
)
from flexclient.models._envelope import build_envelope
from flexclient.models._resource import register_model, registered_models
from tests import sample


def listings(body: dict[str, Any] | None = None) -> list[Listing]:
    data: list[Listing] = build_envelope(body or sample.page()).data
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
        again[0].related("marketplace")
    assert info.value.include_path == "marketplace"  # the shortest include path to it


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
            _ = clone.author.marketplace
        assert info.value.include_path == "author.marketplace"


def test_a_resource_built_by_hand_has_no_relationships_resolved() -> None:
    listing = Listing.model_validate(
        {"id": sample.LISTING, "type": "listing", "attributes": {"title": "By hand"}}
    )
    with pytest.raises(RelationshipNotIncludedError) as info:
        _ = listing.author
    assert info.value.include_path == "author"


def test_a_name_the_model_does_not_have_is_a_parameter_error_listing_its_names() -> None:
    first = listings()[0]
    reads: list[Callable[[], object]] = [
        lambda: first.related("auhtor"),
        lambda: first._required("auhtor", User),
    ]
    for read in reads:
        with pytest.raises(ParameterError) as info:
            read()
        assert info.value.param == "name"
        message = str(info.value)
        assert "'auhtor'" in message and "'listing'" in message
        assert "author, currentStock, images, marketplace" in message
        assert "include" not in message  # not the advice for a relationship left out


def test_a_model_without_relationships_says_it_has_none() -> None:
    image = listings()[0].images[0]
    with pytest.raises(ParameterError, match=r"'variants'.*it has none"):
        image.related("variants")


def test_a_relationship_sent_but_not_declared_resolves_and_is_listed() -> None:
    body = sample.page()
    body["data"][0]["relationships"]["futureThing"] = {"data": None}
    first = listings(body)[0]
    assert first.related("futureThing") is None
    with pytest.raises(ParameterError, match="currentStock, futureThing, images"):
        first.related("nope")


def test_a_type_without_a_model_keeps_the_include_advice() -> None:
    body: dict[str, object] = {
        "data": {"id": str(sample.LISTING), "type": "brandNewType", "relationships": {}}
    }
    thing = build_envelope(body).data
    assert type(thing) is Resource
    with pytest.raises(RelationshipNotIncludedError) as info:
        thing.related("anything")
    assert info.value.include_path == "anything"


def test_declared_relationships_are_the_models_data() -> None:
    assert Listing.relationship_names == frozenset(
        {"author", "images", "currentStock", "marketplace"}
    )
    assert Listing.relationship_names is not None
    assert OwnListing.relationship_names == Listing.relationship_names | {
        "protectedFileAttachments"
    }
    assert Image.relationship_names == frozenset()
    assert Resource.relationship_names is None
    assert isinstance(Listing.author, ToOne) and Listing.author.model() is User
    assert isinstance(Transaction.booking, ToOneOrNone)
    assert isinstance(Transaction.messages, ToMany) and Transaction.messages.model() is Message
    # Every model's declared relationships name a model that exists (forward references too).
    for cls in registered_models():
        for klass in cls.__mro__:
            for relation in vars(klass).values():
                if isinstance(relation, ToOne | ToOneOrNone | ToMany):
                    assert issubclass(relation.model(), Resource), relation


def ref(id_: uuid.UUID, type_: str) -> dict[str, Any]:
    return {"data": {"id": str(id_), "type": type_}}


def test_relationships_of_the_newer_models_resolve() -> None:
    me, customer, method, account, perms, attachment, file = (uuid.UUID(int=n) for n in range(1, 8))
    body: dict[str, Any] = {
        "data": {
            "id": str(me),
            "type": "currentUser",
            "attributes": {"email": "a@b.test"},
            "relationships": {
                "stripeCustomer": ref(customer, "stripeCustomer"),
                "stripeAccount": ref(account, "stripeAccount"),
                "effectivePermissionSet": ref(perms, "permissionSet"),
                "privateFileAttachments": {"data": [ref(attachment, "fileAttachment")["data"]]},
            },
        },
        "included": [
            {
                "id": str(customer),
                "type": "stripeCustomer",
                "attributes": {"stripeCustomerId": "cus_1"},
                "relationships": {"defaultPaymentMethod": ref(method, "stripePaymentMethod")},
            },
            {
                "id": str(method),
                "type": "stripePaymentMethod",
                "attributes": {
                    "type": "stripe-payment-method/card",
                    "stripePaymentMethodId": "pm_1",
                    "card": {
                        "brand": "visa",
                        "last4Digits": "4242",
                        "expirationMonth": 7,
                        "expirationYear": 2030,
                    },
                },
            },
            {"id": str(account), "type": "stripeAccount", "attributes": {"stripeAccountId": "a"}},
            {"id": str(perms), "type": "permissionSet", "attributes": {"read": "permission/allow"}},
            {
                "id": str(attachment),
                "type": "fileAttachment",
                "attributes": {"scope": "private", "deleted": False},
                "relationships": {"file": ref(file, "file"), "message": {"data": None}},
            },
            {"id": str(file), "type": "file", "attributes": {"name": "a.pdf", "size": 3}},
        ],
    }
    user = build_envelope(body).data
    assert isinstance(user, CurrentUser)
    assert user.stripe_customer is not None
    card = user.stripe_customer.default_payment_method
    assert card is not None and card.attributes.card is not None
    assert card.attributes.card.last4_digits == "4242" and card.attributes.card.brand == "visa"
    assert user.stripe_account is not None and user.stripe_account.attributes.stripe_account_id
    assert user.effective_permission_set.attributes.read == "permission/allow"
    [attached] = user.private_file_attachments
    assert attached.attributes.scope == "private" and attached.message is None
    assert attached.file.attributes.name == "a.pdf" and attached.file.id == file


def test_resources_without_relationships_keep_their_include_path_when_it_can_matter() -> None:
    # A type without a model may have relationships a later include brings: its path is kept.
    # An image declares none and the API sent none: asking for one can only be a mistake.
    body = sample.page()
    other = uuid.uuid4()
    body["data"][0]["relationships"]["gadget"] = {"data": {"id": str(other), "type": "gadget"}}
    body["included"].append({"id": str(other), "type": "gadget", "attributes": {}})
    first = listings(body)[0]
    gadget = first.related("gadget")
    assert isinstance(gadget, Resource) and type(gadget) is Resource
    with pytest.raises(RelationshipNotIncludedError) as info:
        gadget.related("parts")
    assert info.value.include_path == "gadget.parts"
    image = first.images[0]
    with pytest.raises(ParameterError, match="it has none"):
        image.related("parts")


def test_a_reference_made_in_code_takes_a_uuid_or_its_text() -> None:
    assert Ref(id=str(sample.USER), type="user") == Ref(id=sample.USER, type="user")
    bad_ids: list[Any] = ["not-a-uuid", 5]
    for bad in bad_ids:
        with pytest.raises(ParameterError) as info:
            Ref(id=bad, type="user")
        assert info.value.param == "id"
    with pytest.raises(ParameterError) as info:
        Ref(id=sample.USER, type=None)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert info.value.param == "type"


def test_dumps_filter_relationship_members_as_they_filter_fields() -> None:
    listing = Listing.model_validate(
        {
            "id": sample.LISTING,
            "type": "listing",
            "relationships": {
                "author": {"data": {"id": sample.USER, "type": "user", "hint": 1}, "links": 2},
                "currentStock": {"data": None},
            },
        }
    )
    dumped = listing.model_dump(exclude_none=True)["relationships"]
    assert dumped["currentStock"] == {}
    assert dumped["author"] == {"data": {"id": sample.USER, "type": "user", "hint": 1}, "links": 2}
    left_out: dict[str, Any] = {
        "relationships": {"author": {"links": True, "data": {"type", "hint"}}}
    }
    assert listing.model_dump(exclude=left_out)["relationships"]["author"] == {
        "data": {"id": sample.USER}
    }
    kept = {"relationships": {"author": {"data": {"id"}}}}
    assert listing.model_dump(include=kept)["relationships"] == {
        "author": {"data": {"id": sample.USER}}
    }


IMAGE3 = uuid.UUID("33333333-3333-4333-8333-555555555555")


def image(id: uuid.UUID) -> dict[str, Any]:
    return {"id": id, "type": "image", "attributes": {"variants": {}}}


def test_resources_shared_by_to_many_relationships_resolve_for_each() -> None:
    body = sample.page()
    body["data"][1]["relationships"]["images"]["data"] = [
        sample.ref(sample.IMAGE, "image"),
        sample.ref(IMAGE3, "image"),
    ]
    body["included"].append(image(IMAGE3))
    first, second = listings(body)
    assert [i.id for i in first.images] == [sample.IMAGE, sample.IMAGE2]
    assert [i.id for i in second.images] == [sample.IMAGE, IMAGE3]
    assert first.images[0] is second.images[0]


def test_a_resource_twice_in_included_resolves_to_the_last_and_both_resolve() -> None:
    body = sample.page()
    again = copy.deepcopy(body["included"][0])
    again["attributes"]["profile"]["displayName"] = "Jane Again"
    again["relationships"] = {"profileImage": {"data": None}}
    body["included"].append(again)
    envelope = build_envelope(body)
    first = envelope.data[0]
    assert (
        isinstance(first, Listing) and first.author.attributes.profile.display_name == "Jane Again"
    )
    assert first.author.profile_image is None
    # The shadowed copy's own relationships are resolved too.
    shadowed = [r for r in envelope.included if r.id == sample.USER and r is not first.author]
    assert len(shadowed) == 1 and isinstance(shadowed[0], User)
    assert isinstance(shadowed[0].profile_image, Image)


def test_a_reference_to_a_resource_of_the_data_resolves_to_it() -> None:
    body = sample.page()
    body["data"][0]["relationships"]["images"]["data"] = [sample.ref(sample.LISTING2, "listing")]
    first, second = listings(body)
    assert first.related("images") == [second]


def test_to_many_accessors_on_a_null_or_single_relationship() -> None:
    body = sample.page()
    body["data"][0]["relationships"]["images"] = {"data": None}
    body["data"][1]["relationships"]["images"] = {"data": sample.ref(sample.IMAGE, "image")}
    first, second = listings(body)
    assert first.images == [] and first.related("images") is None
    assert [i.id for i in second.images] == [sample.IMAGE]


def test_a_to_many_relationship_holding_another_type_says_so() -> None:
    body = sample.page()
    body["data"][0]["relationships"]["images"]["data"].append(sample.ref(sample.USER, "user"))
    first = listings(body)[0]
    with pytest.raises(RelationshipTypeError, match="'user', not a 'image'"):
        _ = first.images
    assert [r.type for r in first.related("images") or []] == ["image", "image", "user"]  # type: ignore[union-attr]


class Gizmo(Resource):
    """A model of a user's own, declaring its relationships every way the docs allow."""

    resource_type: ClassVar[str | None] = "flexclientTestGizmo"
    owner: ClassVar[ToOne[User]] = ToOne[User]("owner")  # in the constructor's subscript too
    parts: ClassVar[ToMany[Image]] = ToMany("parts")  # a name (the annotation is text)


def test_a_relationship_finds_its_model_however_it_is_declared() -> None:
    assert Gizmo.owner.model() is User and repr(Gizmo.owner) == "<ToOne 'owner': User>"
    assert Gizmo.parts.model() is Image and repr(Gizmo.parts) == "<ToMany 'parts': Image>"
    assert Gizmo.relationship_names == frozenset({"owner", "parts"})
    loose = ToOneOrNone[Resource]("loose")
    delattr(loose, "__orig_class__")  # declared with no model at all: any resource
    assert loose.target is None and loose.model() is Resource


def test_a_relationship_naming_no_model_says_so() -> None:
    missing, not_a_model = ToOne[Resource]("missing"), ToOne[Resource]("notAModel")
    missing.target, not_a_model.target = "NoSuchModel", "register_model"
    for relation in (missing, not_a_model):  # as if declared by name alone
        delattr(relation, "__orig_class__")
    with pytest.raises(TypeError, match="no resource model named 'NoSuchModel'"):
        missing.model()
    with pytest.raises(TypeError, match=r"relationship 'notAModel': .* is not a resource model"):
        not_a_model.model()


def test_included_resources_nothing_refers_to_have_their_own_include_paths() -> None:
    # A listing and its author, both included though the data refers to neither: each is
    # reached at the top, so a missing relationship of the author names only its own.
    listing2 = "00000000-0000-4000-8000-0000000000a2"
    user2 = "00000000-0000-4000-8000-0000000000b2"
    missing = "00000000-0000-4000-8000-0000000000c2"
    env = build_envelope(
        {
            "data": [],
            "included": [
                {
                    "id": listing2,
                    "type": "listing",
                    "relationships": {"author": {"data": {"id": user2, "type": "user"}}},
                },
                {
                    "id": user2,
                    "type": "user",
                    "relationships": {"profileImage": {"data": {"id": missing, "type": "image"}}},
                },
            ],
        }
    )
    listing, user = env.included
    assert isinstance(listing, Listing) and isinstance(user, User)
    assert listing.author is user
    with pytest.raises(RelationshipNotIncludedError) as info:
        user.related("profileImage")
    assert info.value.include_path == "profileImage"


def test_a_model_without_a_resource_type_is_refused() -> None:
    class Nameless(Listing):
        resource_type: ClassVar[str | None] = ""

    with pytest.raises(ParameterError) as info:
        register_model(Nameless)
    assert info.value.param == "model" and "no resource_type" in str(info.value)
    assert Nameless not in registered_models()


def test_a_resource_without_relationships_does_not_stop_the_rest_resolving() -> None:
    second = "00000000-0000-4000-8000-0000000000a3"
    env = build_envelope(
        {
            "data": [
                {"id": sample.LISTING, "type": "listing"},  # no relationships sent
                {
                    "id": second,
                    "type": "listing",
                    "relationships": {"author": {"data": {"id": sample.USER, "type": "user"}}},
                },
            ],
            "included": [{"id": sample.USER, "type": "user"}],
        }
    )
    assert env.data[1].author is env.included[0]


def test_a_repeated_included_resource_leaves_the_others_include_paths_alone() -> None:
    missing = "00000000-0000-4000-8000-0000000000c3"
    image = {"id": sample.IMAGE, "type": "image"}
    env = build_envelope(
        {
            "data": {
                "id": sample.LISTING,
                "type": "listing",
                "relationships": {"author": {"data": {"id": sample.USER, "type": "user"}}},
            },
            "included": [
                image,
                {
                    "id": sample.USER,
                    "type": "user",
                    "relationships": {"profileImage": {"data": {"id": missing, "type": "image"}}},
                },
                image,  # the same image twice
            ],
        }
    )
    with pytest.raises(RelationshipNotIncludedError) as info:
        env.data.author.related("profileImage")
    assert info.value.include_path == "author.profileImage"


def test_a_to_many_relationship_with_missing_items_names_the_first() -> None:
    first = "00000000-0000-4000-8000-0000000000d1"
    second = "00000000-0000-4000-8000-0000000000d2"
    env = build_envelope(
        {
            "data": {
                "id": sample.LISTING,
                "type": "listing",
                "relationships": {
                    "images": {
                        "data": [
                            {"id": sample.IMAGE, "type": "image"},
                            {"id": first, "type": "image"},
                            {"id": second, "type": "image"},
                        ]
                    }
                },
            },
            "included": [{"id": sample.IMAGE, "type": "image"}],
        }
    )
    with pytest.raises(RelationshipNotIncludedError, match=f"image {first} is not in"):
        env.data.related("images")


def test_a_resource_gives_its_reference_and_pretty_prints_as_its_repr() -> None:
    listing = listings()[0]
    assert listing.ref == Ref(id=sample.LISTING, type="listing")

    class Printer:
        out = ""

        def text(self, s: str) -> None:
            self.out += s

    printer = Printer()
    listing._repr_pretty_(printer, False)
    assert printer.out == repr(listing)


def test_references_and_relationships_cannot_be_changed() -> None:
    ref = Ref(id=sample.USER, type="user")
    relationship = listings()[0].relationships["author"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ref.type = "listing"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    with pytest.raises(dataclasses.FrozenInstanceError):
        relationship.data = None  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
    assert ref.type == "user" and relationship.data is not None
