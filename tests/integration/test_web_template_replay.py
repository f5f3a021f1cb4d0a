"""Every Marketplace API and Authentication API call of the Sharetribe Web Template, replayed
against the fake marketplace over HTTP, as a port to flexclient makes it.

Each call of `tests/data/web_template_calls.json` is made with values of the kinds the
template gives (`tests/test_web_template_calls.py` says how a port writes them), by the user
the template makes it as (anonymous, the provider, the customer, or the customer's trusted
client on the template's server), with the state it needs: a published listing, a
transaction, a file, a message. The fake must answer as the real API does: a success with
the resource type the endpoint answers, never a 400 for a key the real API accepts.
"""

from __future__ import annotations

import datetime as dt
import functools
import uuid
import warnings
from typing import Any

import pytest

from flexclient import LatLng, LatLngBounds, MarketplaceClient, Money
from flexclient._endpoints.checks import camel_case, is_custom_key
from flexclient._endpoints.kinds import Bound
from flexclient.models import Image, Resource
from flexclient.params import (
    AvailabilityExceptionsCreateParams,
    AvailabilityPlan,
    CommandQueryParams,
    DayOfWeek,
    MessagesSendParams,
    OwnFilesCreateParams,
    OwnListingsCreateParams,
    TransactionsInitiateParams,
)
from flexclient.testing import FakeMarketplace
from flexclient.testing._seed import png
from tests.helpers import NO_WAIT
from tests.integration.conftest import ROOM_PRICE, connect_stripe, login, midnight, paid_booking
from tests.shapes import is_list
from tests.test_web_template_calls import AUTH, CALLS, call_id, method_of

CONTENT = b"%PDF-1.4 the house rules\n" * 20
PASSWORD = "customer@example.com-pass"  # what `login` of conftest gives the customer

# Who makes each call in the template: a visitor, the listing's author, or the customer (the
# rest). The template's server makes the `trusted` ones with the customer's trusted token.
ANONYMOUS = {
    "listings.show",
    "listings.query",
    "users.show",
    "reviews.query",
    "timeslots.query",
    "marketplace.show",
    "sitemapData.queryListings",
    "sitemapData.queryAssets",
    "passwordReset.request",
    "passwordReset.reset",
    "currentUser.create",
    "currentUser.createWithIdp",
    "login",
    "loginWithIdp",
    "loginAs",
}
PROVIDER_GROUPS = {
    "ownListings",
    "stock",
    "availabilityExceptions",
    "images",
    "stripeAccount",
    "stripeAccountLinks",
    "ownFiles",
    "fileUploads",
    "ownFileDownloads",
    "fileDownloads",
}

# The type of the resource (or resources) each endpoint answers.
ANSWERS = {
    "marketplace": "marketplace",
    "users": "user",
    "currentUser": "currentUser",
    "passwordReset": "passwordReset",
    "listings": "listing",
    "ownListings": "ownListing",
    "availabilityExceptions": "availabilityException",
    "images": "image",
    "transactions": "transaction",
    "processTransitions": "processTransition",
    "messages": "message",
    "reviews": "review",
    "timeslots": "timeSlot",
    "stripeAccount": "stripeAccount",
    "stripeAccountLinks": "stripeAccountLink",
    "stripeSetupIntents": "stripeSetupIntent",
    "stripeCustomer": "stripeCustomer",
    "stock": "stock",
    # A sitemap's data is of other types: the listings' references and the content pages.
    "sitemapData.queryListings": "listing",
    "sitemapData.queryAssets": "asset",
    "ownFiles": "ownFile",
    "fileUploads": "fileUpload",
    "ownFileDownloads": "ownFileDownload",
    "fileDownloads": "fileDownload",
}
# Commands whose answer the template reads the attributes of without `expand` (an upload's
# or a download's URL, a Stripe link, a setup intent's secret): the API answers them whole.
WHOLE = {
    "fileUploads",
    "ownFileDownloads",
    "fileDownloads",
    "stripeAccountLinks",
    "stripeSetupIntents",
}


class Template:
    """What the template's calls need, made when first asked for on a fresh fake."""

    def __init__(self, fake: FakeMarketplace) -> None:
        self.fake = fake

    def client(self, *, secret: bool = False) -> MarketplaceClient:
        return MarketplaceClient(
            self.fake.client_id,
            client_secret=self.fake.client_secret if secret else None,
            base_url=self.fake.url,
            retry_policy=NO_WAIT,
        )

    @functools.cached_property
    def provider(self) -> MarketplaceClient:
        return login(self.fake, "provider@example.com")

    @functools.cached_property
    def paid_provider(self) -> MarketplaceClient:
        """The provider, with a Stripe account to be paid to."""
        connect_stripe(self.provider)
        return self.provider

    @functools.cached_property
    def paying_customer(self) -> MarketplaceClient:
        """The customer, as a Stripe customer with a card saved."""
        self.customer.stripe_customer.create({"stripePaymentMethodId": "pm_card_visa"})
        return self.customer

    @functools.cached_property
    def customer(self) -> MarketplaceClient:
        return login(self.fake, "customer@example.com")

    @functools.cached_property
    def customer_email(self) -> str:
        """The customer's email, the customer made first."""
        email = self.customer.current_user.show().data.data.attributes.email
        assert email is not None
        return email

    @functools.cached_property
    def provider_id(self) -> uuid.UUID:
        return self.provider.current_user.show().data.data.id

    @functools.cached_property
    def customer_id(self) -> uuid.UUID:
        return self.customer.current_user.show().data.data.id

    @functools.cached_property
    def listing(self) -> uuid.UUID:
        days: list[DayOfWeek] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        plan: AvailabilityPlan = {
            "type": "availability-plan/day",
            "entries": [{"dayOfWeek": day, "seats": 1} for day in days],
        }
        body: OwnListingsCreateParams = {
            "title": "Sauna by the lake",
            "description": "Wood-heated",
            "price": ROOM_PRICE,
            "geolocation": LatLng(60.17, 24.94),
            "availabilityPlan": plan,
        }
        return self.provider.own_listings.create(body).data.data.id

    @functools.cached_property
    def draft(self) -> uuid.UUID:
        return self.provider.own_listings.create_draft({"title": "Cabin"}).data.data.id

    @functools.cached_property
    def closed(self) -> uuid.UUID:
        made = self.provider.own_listings.create({"title": "Old boat"}).data.data.id
        self.provider.own_listings.close({"id": made})
        return made

    @functools.cached_property
    def inquiry(self) -> uuid.UUID:
        body: TransactionsInitiateParams = {
            "processAlias": "default-booking/release-1",
            "transition": "transition/inquire",
            "params": {"listingId": self.listing},
        }
        return self.customer.transactions.initiate(body).data.data.id

    @functools.cached_property
    def delivered(self) -> uuid.UUID:
        """A booking the provider accepted and the system completed: it awaits reviews."""
        start = midnight(self.fake, 3)
        self.paid_provider  # noqa: B018  # to be paid, the provider needs a Stripe account
        tx = paid_booking(
            self.fake, self.customer, self.listing, start, dt.timedelta(days=1), ROOM_PRICE
        )
        self.provider.transactions.transition({"id": tx.id, "transition": "transition/accept"})
        self.fake.transition(tx.id, "transition/complete", by="system")
        return tx.id

    def own_file(self, client: MarketplaceClient) -> uuid.UUID:
        return client.upload_file(CONTENT, name="rules.pdf").id

    @functools.cached_property
    def registered_file(self) -> uuid.UUID:
        """A file the provider registered and has not uploaded yet."""
        body: OwnFilesCreateParams = {
            "name": "rules.pdf",
            "mimeType": "application/pdf",
            "size": len(CONTENT),
        }
        return self.provider.own_files.create(body).data.data.id

    @functools.cached_property
    def message(self) -> tuple[uuid.UUID, uuid.UUID]:
        """A message of the customer's in the inquiry, with a file: its ID and the
        attachment's."""
        body: MessagesSendParams = {
            "transactionId": self.inquiry,
            "content": "The rules",
            "publicFileAttachments": [{"fileId": self.own_file(self.customer)}],
        }
        query: CommandQueryParams = {"expand": True, "include": ["publicFileAttachments"]}
        sent = self.customer.messages.send(body, query)
        (attachment,) = sent.data.data.public_file_attachments
        return sent.data.data.id, attachment.id

    def image(self, client: MarketplaceClient) -> uuid.UUID:
        return client.images.upload({"image": png(4, 4, (200, 100, 50))}).data.data.id

    @functools.cached_property
    def exception(self) -> uuid.UUID:
        body: AvailabilityExceptionsCreateParams = {
            "listingId": self.listing,
            "start": midnight(self.fake, 20),
            "end": midnight(self.fake, 21),
            "seats": 0,
        }
        return self.provider.availability_exceptions.create(body).data.data.id

    def emailed(self, kind: str) -> str:
        (mail,) = [m for m in self.fake.outbox if m.kind == kind]
        return mail.token


def caller(template: Template, call: dict[str, Any]) -> MarketplaceClient:
    name = call["call"]
    if call.get("trusted"):
        return template.customer.trusted_client()
    if name in ANONYMOUS:
        # The template's server holds the client secret, which these logins need.
        return template.client(secret=name in {"loginWithIdp", "currentUser.createWithIdp"})
    group = name.split(".")[0]
    if group in ("stripeAccount", "stripeAccountLinks") and name != "stripeAccount.create":
        return template.paid_provider
    if group in PROVIDER_GROUPS:
        return template.provider
    if name in ("stripeCustomer.addPaymentMethod", "stripeCustomer.deletePaymentMethod"):
        return template.paying_customer
    return template.customer


def value(template: Template, call: dict[str, Any], key: str, kind: str) -> Any:
    """A value of `kind` for `key` of the call, the template's own where it fixes one, made
    to fit the marketplace (IDs of what exists, tokens it emailed)."""
    name, fixed = call["call"], call.get("values", {})
    group = name.split(".")[0]
    t = template
    if key == "id":
        return {
            "listings": lambda: t.listing,
            "users": lambda: t.provider_id,
            "ownFiles": lambda: t.own_file(t.provider),
            "availabilityExceptions": lambda: t.exception,
        }.get(
            group, lambda: _own_listing_id(t, name) if group == "ownListings" else _tx_id(t, name)
        )()
    if key in ("listingId", "listing_id"):
        return t.listing
    if key in ("transactionId", "transaction_id"):
        return t.inquiry
    if key in ("author_id", "subject_id"):
        return t.provider_id
    if key in fixed:
        return fixed[key]
    made: dict[str, Any] = {
        "fileId": lambda: t.registered_file if group == "fileUploads" else t.own_file(t.provider),
        "fileAttachmentId": lambda: t.message[1],
        "ids": lambda: [t.message[0]],
        "images": lambda: [t.image(t.provider)],
        "profileImageId": lambda: t.image(t.customer),
        "protectedFileAttachments": lambda: [{"fileId": t.own_file(t.provider)}],
        "publicFileAttachments": lambda: [{"fileId": t.own_file(t.customer)}],
        "image": lambda: png(4, 4, (10, 20, 30)),
        "processAlias": lambda: "default-booking/release-1",
        "transition": lambda: (
            "transition/inquire" if "initiate" in name else "transition/review-1-by-customer"
        ),
        "params": lambda: (
            {"listingId": t.listing}
            if "initiate" in name
            else {"reviewRating": 5, "reviewContent": "A fine sauna"}
        ),
        "email": lambda: (
            {
                "currentUser.create": "new@example.com",
                "currentUser.createWithIdp": "idp@example.com",
                "currentUser.changeEmail": "changed@example.com",
            }.get(name)
            or t.customer_email
        ),
        "password": lambda: PASSWORD if name == "login" else "a-new-password",
        "username": lambda: t.customer_email,
        "currentPassword": lambda: PASSWORD,
        "newPassword": lambda: "a-newer-password",
        "passwordResetToken": lambda: _reset_token(t),
        "verificationToken": lambda: _verification_token(t),
        "idpId": lambda: "facebook",
        "idpClientId": lambda: "fb-client",
        "idpToken": lambda: _idp_token(t, name),
        "code": lambda: t.fake.login_as_code(t.customer_id),
        "redirect_uri": lambda: "https://marketplace.example/api/login-as",
        "code_verifier": lambda: "a-verifier",
        "name": lambda: "rules.pdf",
        "mimeType": lambda: "application/pdf",
        "size": lambda: len(CONTENT),
        "country": lambda: "FI",
        "accountToken": lambda: "ct_test",
        "businessProfileMCC": lambda: "7011",
        "businessProfileURL": lambda: "https://sauna.example",
        "stripePaymentMethodId": lambda: "pm_card_visa",
        "failureURL": lambda: "https://marketplace.example/account/payments/failure",
        "successURL": lambda: "https://marketplace.example/account/payments/success",
        "type": lambda: "account_onboarding",
        "only": lambda: "order",
        "processNames": lambda: "default-booking" if kind == "string" else ["default-booking"],
        "states": lambda: "state/inquiry,state/preauthorized",
        "sort": lambda: "createdAt",
        "keywords": lambda: "sauna",
        "price": lambda: "1000,9000" if kind == "comma-text" else KINDS[kind],
        "pub_listingType": lambda: "rooms",
        "start": lambda: midnight(t.fake, 1 if group != "availabilityExceptions" else 10),
        "end": lambda: midnight(t.fake, 5 if group != "availabilityExceptions" else 11),
        "intervalDuration": lambda: "P1D",
        "minDurationStartingInInterval": lambda: 60,
        "minDuration": lambda: 60,
        "newTotal": lambda: "3",
        "availabilityPlan": lambda: PLAN,
    }
    if key in made:
        return made[key]()
    if key == "fields.image":
        # The built-in avatars, and the variants the call defines (`imageVariant.<name>`).
        keys = [*call["params"], *call.get("query", {})]
        defined = [k.removeprefix("imageVariant.") for k in keys if k.startswith("imageVariant.")]
        return [f"variants.{v}" for v in ["square-small", "square-small2x", *defined]]
    if key.startswith("fields."):
        return FIELDS.get(key, ["title"])
    return KINDS[kind]


# The template's default availability plan (EditListingAvailabilityPanel.js), with a day.
PLAN = {
    "type": "availability-plan/time",
    "timezone": "Europe/Helsinki",
    "entries": [{"dayOfWeek": "mon", "startTime": "09:00", "endTime": "17:00", "seats": 1}],
}
# Keys the API takes one at a time (`keywords` not with `origin`: the API reference): a call
# that has both is made once with each.
ALTERNATIVES = [("keywords", "origin")]
FIELDS = {
    "fields.user": ["profile.displayName", "profile.abbreviatedName"],
    "fields.transaction": ["processName", "lastTransition", "lastTransitionedAt"],
    "fields.listing": ["title", "price", "publicData.listingType"],
}
KINDS: dict[str, Any] = {
    "string": "text",
    "integer": 1,
    "boolean": True,
    "integer-or-null": None,
    "string-or-null": None,
    "object": {"note": "from the template"},
    "variant": "w:400;h:400;fit:crop",
    "latlng": LatLng(60.17, 24.94),
    "bounds": LatLngBounds(ne=LatLng(60.3, 25.1), sw=LatLng(60.0, 24.8)),
    "money": Money(6000, "EUR"),
    "comma-text": "state/inquiry,state/preauthorized",
}


def _own_listing_id(t: Template, name: str) -> uuid.UUID:
    action = name.split(".")[1]
    return {"open": t.closed, "publishDraft": t.draft, "discardDraft": t.draft}.get(
        action, t.listing
    )


def _tx_id(t: Template, name: str) -> uuid.UUID:
    return t.delivered if "transition" in name else t.inquiry


def _reset_token(t: Template) -> str:
    t.client().password_reset.request({"email": t.customer_email})
    return t.emailed("password-reset")


def _verification_token(t: Template) -> str:
    t.customer.current_user.send_verification_email()
    return t.emailed("email-verification")


def _idp_token(t: Template, name: str) -> str:
    if name == "currentUser.createWithIdp":
        t.fake.add_idp_identity("facebook", "new-person", email="idp@example.com")
        return "new-person"
    t.fake.add_idp_token("facebook", "known-person", t.customer_id)
    return "known-person"


def arguments(template: Template, call: dict[str, Any], keys: dict[str, str]) -> dict[str, Any]:
    return {key: value(template, call, key, kind) for key, kind in keys.items()}


@pytest.mark.parametrize("call", CALLS, ids=call_id)
def test_the_call_is_answered_as_the_real_api_answers_it(
    fake_marketplace: FakeMarketplace, call: dict[str, Any]
) -> None:
    template = Template(fake_marketplace)
    client = caller(template, call)
    params = arguments(template, call, call["params"])
    name = call["call"]
    method = method_of(client, name)
    if name in AUTH:
        answer = method(**{_keyword(k): v for k, v in params.items()})
        if name == "authInfo":
            assert answer.is_anonymous is False  # the customer is logged in
        elif name != "logout":
            assert answer.access_token  # a token, stored (login) or given (exchangeToken)
        return
    query = arguments(template, call, call["query"]) if "query" in call else None
    # A snake_case key is warned of (tests/test_web_template_calls.py), and sent all the same.
    snake = [k for k in params if camel_case(k) != k and not is_custom_key(k)]
    for one in alternatives(params):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore" if snake else "error")
            res = method(one) if query is None else method(one, query)
        assert 200 <= res.status < 300
        data: object = res.data.data
        expected = ANSWERS.get(name) or ANSWERS[name.split(".")[0]]
        found = data if is_list(data) else [data]
        assert all(isinstance(r, Resource) and r.type == expected for r in found), found
        # What the template includes comes included (empty, or None, where there is none).
        include = [*params.get("include", []), *(query or {}).get("include", [])]
        # The image variants asked for come with each image (`fields.image`, with the
        # template's own variants defined by `imageVariant.*`).
        variants = {
            v.removeprefix("variants.")
            for v in [*params.get("fields.image", []), *(query or {}).get("fields.image", [])]
        }
        for resource in found:
            assert isinstance(resource, Resource)
            if not resource.has_attributes:
                continue
            reached = [resource, *(r for path in include for r in walk(resource, path))]
            for image in reached:
                if isinstance(image, Image):
                    assert variants <= set(image.attributes.variants), (image.id, variants)
        if not is_list(data) and res_kind(method) != "query":
            # A command answers the whole resource with `expand`, its id and type without,
            # but for those answered whole always.
            assert isinstance(data, Resource)
            whole = bool(query and query.get("expand")) or name.split(".")[0] in WHOLE
            assert data.has_attributes is whole, data


def walk(resource: Resource, path: str) -> list[Resource]:
    """Read the relationships of an include path (`listing.author.profileImage`) from
    `resource` down: each step resolves (RelationshipNotIncludedError if it was left out).
    Returns the resources reached."""
    reached: list[Resource] = [resource]
    for name in path.split("."):
        step: list[Resource] = []
        for one in reached:
            related: object = one.related(name)
            if isinstance(related, Resource):
                step.append(related)
            elif is_list(related):
                step += [r for r in related if isinstance(r, Resource)]
        reached = step
    return reached


def res_kind(method: object) -> str:
    """The kind of an endpoint method: query, command or upload."""
    assert isinstance(method, Bound)
    return method.endpoint.kind


def alternatives(params: dict[str, Any]) -> list[dict[str, Any]]:
    """`params` as the calls that send them: one for each of keys the API takes one at a time."""
    made = [params]
    for keys in ALTERNATIVES:
        if all(k in params for k in keys):
            made = [
                {k: v for k, v in p.items() if k not in keys or k == kept}
                for p in made
                for kept in keys
            ]
    return made


def _keyword(key: str) -> str:
    """The keyword of a login's key: `idpClientId` -> `idp_client_id`."""
    return "".join(f"_{ch.lower()}" if ch.isupper() else ch for ch in key)
