"""Files: registered (`own_files.create`, Integration `files.create`), uploaded straight to
storage at the URL `file_uploads.create` gives, read through short-lived download URLs, and
attached to messages.

The storage is the fake itself: `PUT {url}/storage/upload/<token>` with the headers the upload
target names, and `GET {url}/storage/download/<token>`. As with presigned URLs, those
requests carry no Authorization header: the token in the URL is the permission.
"""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from collections.abc import Iterable
from typing import Any

from flexclient._endpoints.table import IntegrationEndpoints as Integ
from flexclient._endpoints.table import MarketplaceEndpoints as Market
from flexclient._support.narrow import is_mapping
from flexclient.testing import _state as s
from flexclient.testing._call import ApiFailure, Call, invalid, not_found
from flexclient.testing._handlers._lookup import ids
from flexclient.testing._handlers._sorting import created_within
from flexclient.testing._routes import handles

URL_LIFETIME = dt.timedelta(minutes=15)
MAX_SIZE = 100 * 1024 * 1024
PENDING, AVAILABLE = "pendingUpload", "available"


def _file(c: Call, fid: uuid.UUID) -> s.Record[Any]:
    found = c.state.table("file").get(fid)
    if found is None or found.attributes.deleted:
        raise not_found("File")
    return found


def _own_file(c: Call, fid: uuid.UUID) -> s.Record[Any]:
    found = _file(c, fid)
    if c.api == "marketplace" and found.one("owner") != c.user().id:
        raise not_found("File")
    return found


def _register(c: Call, owner: uuid.UUID | None) -> s.Record[Any]:
    name = c.body_value("name", str, required=True) or ""
    mime = c.body_value("mimeType", str, required=True) or ""
    size = c.body_value("size", int, required=True) or 0
    if not name.strip():
        raise invalid("body", "name", "must not be empty")
    if not 0 < size <= MAX_SIZE:
        raise ApiFailure(
            413 if size > MAX_SIZE else 400,
            "request-upload-over-limit" if size > MAX_SIZE else "validation-invalid-value",
            f"size must be 1 to {MAX_SIZE} bytes",
        )
    at = c.state.time()
    values = {
        "name": name,
        "mimeType": mime,
        "size": size,
        "state": PENDING,
        "createdAt": at,
        "stateUpdatedAt": at,
    }
    made = s.add(c.state, "file", values)
    made.link("owner", "user", owner)
    made.link("marketplace", "marketplace", s.MARKETPLACE_ID)
    return made


@handles(Market.own_files.cls.create)
def own_files_create(c: Call) -> dict[str, Any]:
    return c.one(_register(c, c.user().id))


@handles(Integ.files.cls.create)
def files_create(c: Call) -> dict[str, Any]:
    owner = c.body.get("ownerId")
    if owner is not None:
        owner = c.body_id("ownerId")
        if owner not in c.state.users:
            raise not_found("User")
    return c.one(_register(c, owner))


@handles(Market.own_files.cls.show)
def own_files_show(c: Call) -> dict[str, Any]:
    return c.one(_own_file(c, c.query_id()))


def _linked(record: s.Record[Any], relationship: str, wanted: uuid.UUID | None) -> bool:
    return wanted is None or record.one(relationship) == wanted


@handles(Integ.files.cls.query)
def files_query(c: Call) -> dict[str, Any]:
    owner = c.query_value("ownerId", uuid.UUID)
    wanted = c.query_value("ids", ids)
    message = c.query_value("messageId", uuid.UUID)
    # The files of a message: those its attachments name.
    of_message = {
        a.one("file")
        for a in c.state.table("fileAttachment").values()
        if message is not None and a.one("message") == message
    }
    found = [
        f
        for f in c.state.table("file").values()
        if not f.attributes.deleted
        and _linked(f, "owner", owner)
        and (wanted is None or f.id in wanted)
        and (message is None or f.id in of_message)
    ]
    found = created_within(c, found)
    found.sort(key=lambda f: f.attributes.created_at, reverse=True)
    return c.page(found)


def _token(c: Call, kind: str, fid: uuid.UUID) -> tuple[str, dt.datetime]:
    token = secrets.token_urlsafe(24)
    expires = c.state.time() + URL_LIFETIME
    c.state.storage_tokens[token] = s.StorageToken(kind, fid, expires, c.url_path)
    return token, expires


@handles(Market.file_uploads.cls.create, Integ.file_uploads.cls.create)
def uploads_create(c: Call) -> dict[str, Any]:
    target = _own_file(c, c.body_id("fileId"))
    if target.attributes.state != PENDING:
        raise ApiFailure(409, "conflict", "The file has been uploaded already")
    token, expires = _token(c, "upload", target.id)
    values = {
        "fileId": target.id,
        "method": "PUT",
        "url": f"{c.base_url}/storage/upload/{token}",
        "headers": {"Content-Type": target.attributes.mime_type},
        "expiresAt": expires,
    }
    return c.one(s.add(c.state, "fileUpload", values), whole=True)


def _download(c: Call, target: s.Record[Any], stored_type: str) -> dict[str, Any]:
    if target.attributes.state != AVAILABLE:
        raise ApiFailure(409, "conflict", "The file is not available yet")
    token, expires = _token(c, "download", target.id)
    values = {
        "fileId": target.id,
        "url": f"{c.base_url}/storage/download/{token}",
        "expiresAt": expires,
    }
    return c.one(s.add(c.state, stored_type, values), whole=True)


@handles(Market.own_file_downloads.cls.create)
def own_downloads_create(c: Call) -> dict[str, Any]:
    return _download(c, _own_file(c, c.body_id("fileId")), "fileDownload")


def _attachment(c: Call, aid: uuid.UUID) -> s.Record[Any]:
    """An attachment the caller may see: of a message in a transaction of theirs."""
    found = c.state.table("fileAttachment").get(aid)
    if found is None or found.attributes.deleted or not _may_see(c, found):
        raise not_found("File attachment")
    return found


def _may_see(c: Call, attachment: s.Record[Any]) -> bool:
    if c.api == "integration":
        return True
    message = c.state.table("message").get(attachment.one("message") or uuid.UUID(int=0))
    tx = (
        c.state.transactions.get(message.one("transaction") or uuid.UUID(int=0))
        if message
        else None
    )
    me = c.grant.user_id
    return tx is not None and me is not None and me in (tx.one("customer"), tx.one("provider"))


@handles(Market.file_downloads.cls.create, Integ.file_downloads.cls.create)
def downloads_create(c: Call) -> dict[str, Any]:
    if c.body.get("fileAttachmentId") is not None:
        target = _file(
            c, _attachment(c, c.body_id("fileAttachmentId")).one("file") or uuid.UUID(int=0)
        )
    else:
        fid = c.body_id("fileId")
        seen = [
            a
            for a in c.state.table("fileAttachment").values()
            if a.one("file") == fid and _may_see(c, a)
        ]
        target = _file(c, fid)
        mine = c.api == "marketplace" and target.one("owner") == c.grant.user_id
        if not seen and not mine and c.api == "marketplace":
            raise not_found("File")
    return _download(c, target, "fileDownload")


@handles(Market.files.cls.show)
def files_show(c: Call) -> dict[str, Any]:
    attachment = _attachment(
        c, c.query_value("fileAttachmentId", uuid.UUID, required=True) or uuid.UUID(int=0)
    )
    return c.one(_file(c, attachment.one("file") or uuid.UUID(int=0)))


@handles(Integ.file_attachments.cls.query)
def attachments_query(c: Call) -> dict[str, Any]:
    # Attachments of the fake are of messages only: a listing or transaction finds none.
    by = {
        name: c.query_value(f"{name}Id", uuid.UUID)
        for name in ("message", "listing", "transaction")
    }
    files = c.query_value("fileIds", ids)
    found = [
        a
        for a in c.state.table("fileAttachment").values()
        if not a.attributes.deleted
        and all(_linked(a, name, wanted) for name, wanted in by.items())
        and (files is None or a.one("file") in files)
    ]
    return c.page(found)


def attach_to_message(c: Call, message: s.Record[Any]) -> None:
    """Attach the files of `publicFileAttachments` (`[{"fileId": id}]` or bare IDs) to a
    message: files of the sender's, uploaded."""
    given: Iterable[object] = c.body.get("publicFileAttachments") or []
    made: list[uuid.UUID] = []
    for i, item in enumerate(given):
        raw = item.get("fileId") if is_mapping(item) else item
        try:
            fid = raw if isinstance(raw, uuid.UUID) else uuid.UUID(str(raw))
        except ValueError as exc:
            raise invalid("body", f"publicFileAttachments.{i}", "not a file ID") from exc
        target = _own_file(c, fid)
        if target.attributes.state != AVAILABLE:
            raise invalid("body", f"publicFileAttachments.{i}", "the file is not uploaded")
        attachment = s.add(c.state, "fileAttachment", {"scope": "public", "deleted": False})
        attachment.link("file", "file", target.id)
        attachment.link("message", "message", message.id)
        made.append(attachment.id)
    message.link_many("publicFileAttachments", "fileAttachment", made)


def receive_upload(state: s.State, token: str, content_type: str, content: bytes) -> int:
    """The storage's answer to an upload to `token`: the HTTP status."""
    grant = state.storage_tokens.get(token)
    if grant is None or grant.kind != "upload" or grant.expires_at < state.time():
        return 403
    target = state.table("file").get(grant.file_id)
    if target is None or target.attributes.state != PENDING:
        return 403
    if content_type.split(";")[0].strip() != target.attributes.mime_type:
        return 403  # a presigned URL binds the headers it was made with
    if len(content) != target.attributes.size:
        return 400
    state.blobs[target.id] = s.Blob(content, content_type)
    target.set(state=AVAILABLE, state_updated_at=state.time())
    del state.storage_tokens[token]
    return 200


def serve_download(state: s.State, token: str) -> s.Blob | None:
    grant = state.storage_tokens.get(token)
    if grant is None or grant.kind != "download" or grant.expires_at < state.time():
        return None
    return state.blobs.get(grant.file_id)
