"""Files in the fake: the three-step upload to the fake's own storage (with the method and
headers the upload target names, and no Authorization header), downloads, and files
attached to messages for the other party of a transaction."""

from __future__ import annotations

import datetime as dt

import pytest
import requests

from flexclient import IntegrationClient, MarketplaceClient, NotFoundError
from flexclient.params import MessagesSendParams
from flexclient.testing import FakeMarketplace
from tests.integration.conftest import login

CONTENT = b"%PDF-1.4 a small contract\n" * 40


def upload(sdk: MarketplaceClient, content: bytes = CONTENT) -> tuple[str, dict[str, object]]:
    """Register a file and get its upload target, as the guide's first two steps do."""
    own = sdk.own_files.create(
        {"name": "contract.pdf", "mimeType": "application/pdf", "size": len(content)}
    ).data.data
    target = sdk.file_uploads.create({"fileId": own.id}).data.data.attributes
    return str(own.id), {"method": target.method, "url": target.url, "headers": target.headers}


def put(target: dict[str, object], content: bytes = CONTENT, content_type: str = "") -> int:
    """The guide's third step: the bytes straight to storage, as the target says."""
    sent = {str(k): str(v) for k, v in dict(target["headers"]).items()}  # type: ignore[call-overload]
    if content_type:
        sent["Content-Type"] = content_type
    res = requests.request(
        str(target["method"]), str(target["url"]), data=content, headers=sent, timeout=10
    )
    return res.status_code


def test_upload_download_and_attach(
    fake_marketplace: FakeMarketplace, integration_client: IntegrationClient
) -> None:
    seller = login(fake_marketplace, "seller@example.com")
    listing = seller.own_listings.create({"title": "Consulting"}).data.data
    buyer = login(fake_marketplace, "buyer@example.com")
    tx = buyer.transactions.initiate(
        {
            "processAlias": "default-inquiry/release-1",
            "transition": "transition/inquire-without-payment",
            "params": {"listingId": listing.id},
        }
    ).data.data

    file_id, target = upload(buyer)
    assert target["method"] == "PUT"
    assert target["headers"] == {"Content-Type": "application/pdf"}
    assert str(target["url"]).startswith(f"{fake_marketplace.url}/storage/")
    assert buyer.own_files.show({"id": file_id}).data.data.attributes.state == "pendingUpload"
    assert put(target, content=b"short") == 400  # not the size registered
    assert put(target, content_type="text/plain") == 403  # not the headers signed
    assert put(target) == 200
    shown = buyer.own_files.show({"id": file_id}).data.data
    assert shown.type == "ownFile" and shown.attributes.state == "available"
    assert shown.attributes.size == len(CONTENT)
    assert put(target) == 403  # a target is used once

    link = buyer.own_file_downloads.create({"fileId": file_id}).data.data.attributes
    assert requests.get(str(link.url), timeout=10).content == CONTENT

    sent: MessagesSendParams = {
        "transactionId": tx.id,
        "content": "Here",
        "publicFileAttachments": [{"fileId": file_id}],
    }
    message = buyer.messages.send(
        sent, {"expand": True, "include": ["publicFileAttachments"]}
    ).data.data
    attachment = message.related("publicFileAttachments")
    assert isinstance(attachment, list) and len(attachment) == 1
    attachment_id = attachment[0].id
    seen = seller.files.show({"fileAttachmentId": attachment_id}).data.data
    assert seen.type == "file" and seen.attributes.name == "contract.pdf"
    url = seller.file_downloads.create({"fileAttachmentId": attachment_id}).data.data.attributes.url
    assert requests.get(str(url), timeout=10).content == CONTENT
    outsider = login(fake_marketplace, "outsider@example.com")
    with pytest.raises(NotFoundError):
        outsider.files.show({"fileAttachmentId": attachment_id})

    files = integration_client.files.query().data.data
    assert [f.id for f in files] == [shown.id]
    attached = integration_client.file_attachments.query({"messageId": message.id}).data.data
    assert [a.id for a in attached] == [attachment_id]

    # The filters of the Integration API's file queries.
    integ = integration_client
    assert [f.id for f in integ.files.query({"messageId": message.id}).data.data] == [shown.id]
    assert [f.id for f in integ.files.query({"ids": [shown.id]}).data.data] == [shown.id]
    assert integ.files.query({"ownerId": seller.current_user.show().data.data.id}).data.data == []
    later = fake_marketplace.now + dt.timedelta(minutes=1)
    assert integ.files.query({"createdAtStart": later}).data.data == []
    assert [f.id for f in integ.files.query({"createdAtEnd": later}).data.data] == [shown.id]
    by_file = integ.file_attachments.query({"fileIds": [shown.id]}).data.data
    assert [a.id for a in by_file] == [attachment_id]
    assert integ.file_attachments.query({"listingId": listing.id}).data.data == []
    assert integ.file_attachments.query({"transactionId": tx.id}).data.data == []


def test_storage_urls_expire(fake_marketplace: FakeMarketplace) -> None:
    sdk = login(fake_marketplace, "late@example.com")
    _file_id, target = upload(sdk)
    fake_marketplace.advance(dt.timedelta(hours=1))
    assert put(target) == 403


def test_the_operator_registers_and_uploads_a_file(
    fake_marketplace: FakeMarketplace, integration_client: IntegrationClient
) -> None:
    made = integration_client.files.create(
        {"name": "terms.pdf", "mimeType": "application/pdf", "size": len(CONTENT)},
        {"expand": True},
    ).data.data
    owner = login(fake_marketplace, "owner@example.com").current_user.show().data.data.id
    owned = integration_client.files.create(
        {"name": "a.pdf", "mimeType": "application/pdf", "size": 3, "ownerId": owner}
    ).data.data
    mine = integration_client.files.query({"ownerId": owner}).data.data
    assert [f.id for f in mine] == [owned.id]
    target = integration_client.file_uploads.create({"fileId": made.id}).data.data.attributes
    headers = dict(target.headers)
    res = requests.put(str(target.url), data=CONTENT, headers=headers, timeout=10)
    assert res.status_code == 200
    url = integration_client.file_downloads.create({"fileId": made.id}).data.data.attributes.url
    assert requests.get(str(url), timeout=10).content == CONTENT
