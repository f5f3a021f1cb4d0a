"""Requests to hosts other than the API's: the asset CDN, and the storage that files are
uploaded to and downloaded from.

These hosts get no credential of the API. Their requests go through a `requests` session of
their own (`Offsite`), never the client's: a `session=` of the caller's may carry default
headers, cookies or an `auth` that belong to the API. Nothing here adds an Authorization
header, and `.netrc` is not consulted (`Transport` applies no `auth`). URLs must be HTTPS
(plain http only to a loopback address, for local tests) and carry no user name or password.

Each origin gets a `Transport` over that one session, so timeouts, the call's total deadline,
retries (only what cannot repeat an effect: GETs, and uploads that never reached the host),
bounded answers and the errors are the API's. Redirects are followed only for GETs (the asset
CDN's, as the official SDK follows them, and downloads, as a browser follows a link), a
bounded number of hops, each to an allowed URL; never for an upload.
"""

from __future__ import annotations

import io
import mimetypes
import os
import re
import tempfile
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel

from flexclient._charging import TransferBill
from flexclient._errors import ParameterError, RedirectError
from flexclient._http.multipart import (
    FileInput,
    MultipartBody,
    ProgressCallback,
    Source,
    UploadProgress,
)
from flexclient._http.transport import (
    Body,
    Metering,
    RawResponse,
    Timeout,
    Transport,
    TransportSettings,
    check_origin,
    new_session,
)
from flexclient._support.narrow import is_mapping, is_str
from flexclient.models import FileUpload, OwnFile
from flexclient.params import OwnFilesCreateParams

MAX_REDIRECTS = 5
"""Redirects followed at most by a GET (the asset CDN may redirect an alias to its version)."""

_MAX_ORIGINS = 16


@dataclass(frozen=True)
class OffsiteUrl:
    """An absolute URL, checked and split as `Transport` takes it."""

    origin: str
    path: str
    query: str

    @property
    def url(self) -> str:
        return self.origin + self.path + (f"?{self.query}" if self.query else "")


def offsite_url(url: object, param: str) -> OffsiteUrl:
    """`url` checked: an absolute HTTPS URL (plain http only to a loopback address), with no
    user name or password in it. A `ParameterError` naming `param` if not."""
    if not isinstance(url, str) or not url:
        raise ParameterError(param, "must be an absolute URL")
    if any(c in url for c in "\r\n\t\x00 "):
        raise ParameterError(param, "a URL cannot hold spaces or control characters")
    check_origin(url, param)
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    return OffsiteUrl(origin, parts.path or "/", parts.query)


def following(
    url: OffsiteUrl, send: Callable[[OffsiteUrl], RawResponse], max_redirects: int
) -> tuple[RawResponse, OffsiteUrl]:
    """`send(url)`, and again to where each redirect points, up to `max_redirects` hops, each
    to an allowed URL (see `offsite_url`); the answer and the URL that gave it. A redirect
    past the limit, to another scheme than http(s), or to plain http elsewhere than loopback
    is the `RedirectError` itself."""
    hops = 0
    while True:
        try:
            return send(url), url
        except RedirectError as exc:
            if exc.location is None or hops >= max_redirects:
                raise
            try:
                url = offsite_url(exc.location, "location")
            except ParameterError:
                raise exc from None
            hops += 1


class Offsite:
    """Sends requests to other hosts than the API, without its credentials (see the module
    docstring). One per client; `close()` closes its connections."""

    def __init__(self, settings: TransportSettings) -> None:
        """`settings`: the client's options (timeouts, retries, the bound on answers); the
        API's deadline, rate limits and connection bound are not the other hosts'."""
        self.settings = settings
        self.session = new_session()
        self._transports: dict[str, Transport] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return "Offsite()"

    def transport(self, origin: str) -> Transport:
        """The transport for one origin (`https://host:port`), over this session."""
        with self._lock:
            made = self._transports.get(origin)
            if made is None:
                if len(self._transports) >= _MAX_ORIGINS:
                    self._transports.clear()
                made = Transport(origin, self.settings, session=self.session)
                self._transports[origin] = made
            return made

    def send(
        self,
        method: str,
        url: OffsiteUrl,
        *,
        headers: Mapping[str, str] | None = None,
        body: Body | Callable[[], Body] = None,
        timeout: Timeout | None = None,
        metering: Metering | None = None,
    ) -> RawResponse:
        """One request (retried as the transport retries), following no redirect; `body`
        may be a factory, called afresh for every attempt."""
        return self.transport(url.origin).send(
            method,
            url.path,
            query=url.query,
            headers=headers,
            body=body,
            timeout=timeout,
            metering=metering,
        )

    def get(
        self,
        url: OffsiteUrl,
        *,
        headers: Mapping[str, str] | None = None,
        timeout: Timeout | None = None,
        max_redirects: int = MAX_REDIRECTS,
        metering: Metering | None = None,
    ) -> tuple[RawResponse, OffsiteUrl]:
        """A GET that follows up to `max_redirects` redirects, each to an allowed URL (see
        `offsite_url`); the answer and the URL that gave it. A redirect past the limit, to
        another scheme than http(s), or to plain http elsewhere than loopback is a
        `RedirectError`."""

        def get(at: OffsiteUrl) -> RawResponse:
            return self.send("GET", at, headers=headers, timeout=timeout, metering=metering)

        return following(url, get, max_redirects)

    def close(self) -> None:
        self.session.close()


# --- files: the direct upload to storage, and downloads ------------------------------------

_UPLOAD_METHODS = frozenset({"PUT", "POST", "PATCH"})
_HEADER_VALUE = re.compile(r"[^\r\n\x00]*")
_HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


@dataclass(frozen=True)
class FileMetadata:
    """What `own_files.create` needs to know of a file: `name`, `mime_type`, `size` (bytes).

    >>> file_metadata(b"%PDF-1.7 ...", name="terms.pdf")
    FileMetadata(name='terms.pdf', mime_type='application/pdf', size=12)
    """

    name: str
    mime_type: str
    size: int

    def params(self) -> OwnFilesCreateParams:
        """The body parameters of `own_files.create` (and of the Integration API's
        `files.create`): `name`, `mimeType`, `size`."""
        return {"name": self.name, "mimeType": self.mime_type, "size": self.size}


def _source(file: object, name: str | None, *, named: bool = True) -> Source:
    """The file to read, with its name (`name`, else its own); a `ParameterError` if it
    has none and `named`."""
    source = Source(file, "file")
    if name is not None:
        if not is_str(name) or not name.strip() or "/" in name or "\x00" in name:
            raise ParameterError("name", "must be a file name (no folders)")
        source.filename = name
    elif named and (source.data is not None or source.filename == "file"):
        raise ParameterError("name", "give the file's name: bytes and nameless streams have none")
    return source


def _mime_type(source: Source, mime_type: str | None) -> str:
    if mime_type is None:
        # As the official SDK's file.metadata: the file's type, else a generic one.
        return mimetypes.guess_type(source.filename)[0] or "application/octet-stream"
    if not is_str(mime_type) or not re.fullmatch(r"[\w.+-]+/[\w.+-]+", mime_type):
        raise ParameterError("mime_type", f"not a MIME type: {mime_type!r}")
    return mime_type


def file_metadata(
    file: FileInput, *, name: str | None = None, mime_type: str | None = None
) -> FileMetadata:
    """The name, MIME type (guessed from the name, else `application/octet-stream`, as the
    official SDK's `file.metadata`) and size of a file: a path, a `pathlib.Path`, a binary
    file object, or bytes (with `name=`). Nothing is read but its size."""
    source = _source(file, name)
    return FileMetadata(source.filename, _mime_type(source, mime_type), source.size)


@dataclass(frozen=True)
class UploadTarget:
    """Where a file's bytes go: `method` (PUT by default) to `url`, with `headers`; the
    attributes of a `fileUpload` (`file_uploads.create`)."""

    url: str
    method: str = "PUT"
    headers: Mapping[str, str] = field(default_factory=dict[str, str])

    def __repr__(self) -> str:
        # The URL is presigned: a credential for this upload, so only its host is shown.
        return f"UploadTarget({self.method} {urlsplit(self.url).hostname or '?'})"

    @classmethod
    def of(cls, target: object) -> UploadTarget:
        """From a `fileUpload` resource, a response of `file_uploads.create`, its
        attributes, or a mapping with `url`, `method` and `headers`."""
        data = getattr(target, "data", None)
        if data is not None and hasattr(data, "data"):  # a Response: its envelope's resource
            target = data.data
        attributes: object = getattr(target, "attributes", target)
        values: Mapping[str, object]
        if is_mapping(attributes):
            values = attributes
        elif isinstance(attributes, BaseModel):
            values = {**(attributes.model_extra or {}), **attributes.model_dump()}
        else:
            raise ParameterError("target", "give a fileUpload resource or its url, method, headers")
        url = values.get("url")
        method = values.get("method") or "PUT"
        headers = values.get("headers")
        if not isinstance(url, str):
            raise ParameterError("url", "the upload target has no URL")
        if not isinstance(method, str) or method.upper() not in _UPLOAD_METHODS:
            raise ParameterError("method", f"uploads are PUT, POST or PATCH, not {method!r}")
        return cls(url, method.upper(), _upload_headers(headers))


def _upload_headers(headers: object) -> dict[str, str]:
    """An upload target's `headers` (none if empty or missing), each a valid header."""
    if not headers:
        return {}
    if not is_mapping(headers):
        raise ParameterError("headers", _BAD_HEADERS)
    checked: dict[str, str] = {}
    for k, v in headers.items():
        if not (
            isinstance(k, str)
            and isinstance(v, str)
            and _HEADER_NAME.fullmatch(k)
            and _HEADER_VALUE.fullmatch(v)
        ):
            raise ParameterError("headers", _BAD_HEADERS)
        checked[k] = v
    return checked


_BAD_HEADERS = "the upload headers must be valid header names and values"


@dataclass(frozen=True)
class FileTransfer:
    """The storage's answer to an upload or a download: `status`, `headers` (an `ETag`,
    say), `size` (bytes sent or written) and, for a download, the `path` written."""

    status: int
    headers: Mapping[str, str]
    size: int
    path: Path | None = None


class _FileBody(MultipartBody):
    """A file's bytes alone, read in chunks with progress reports: the reading of
    `MultipartBody` (`flexclient._http.multipart`) with one part and no multipart framing."""

    def __init__(self, source: Source, on_progress: ProgressCallback | None) -> None:
        io.RawIOBase.__init__(self)
        self._source = source
        self._parts = [source.open()]
        self._owned = source.path is not None
        self.total = source.size
        self.loaded = 0
        self._on_progress = on_progress
        self._part = 0
        self._offset = 0
        self._rewound = False

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        """Only back to the start: `requests` rewinds a body when it prepares the request
        a redirect would make (never sent: redirects are not followed), and a 307 must be a
        `RedirectError`, not a failure to rewind. The file is opened again on the next read."""
        if offset != 0 or whence != io.SEEK_SET:
            raise io.UnsupportedOperation("a file's body only goes back to its start")
        if self.loaded:
            part = self._parts[0]
            if self._owned and not isinstance(part, bytes):
                part.close()
            self.loaded, self._part, self._offset, self._rewound = 0, 0, 0, True
        return 0

    def read(self, size: int | None = -1) -> bytes:
        if self._rewound:
            try:
                self._parts = [self._source.open()]
            except ParameterError as exc:  # a stream that cannot be read again
                raise io.UnsupportedOperation(exc.problem) from None
            self._rewound = False
        return super().read(size)


def send_file(
    offsite: Offsite,
    target: UploadTarget,
    file: FileInput,
    *,
    name: str | None = None,
    mime_type: str | None = None,
    on_upload_progress: ProgressCallback | None = None,
    timeout: Timeout | None = None,
    bill: TransferBill | None = None,
) -> FileTransfer:
    """Upload a file's bytes to its storage target, streamed, with progress reports.

    The target's headers are sent as given, and `Content-Type` (the file's type) when they
    have none, as a browser sends a file; nothing else of the API (no Authorization). A
    redirect is not followed (`RedirectError`); an error status raises its `ApiError` with
    the storage's body. The transfer is checked against a budget and recorded in `bill`."""
    from flexclient._base_client import api_error

    url = offsite_url(target.url, "url")
    source = _source(file, name, named=False)
    headers = dict(target.headers)
    if not any(k.lower() == "content-type" for k in headers):
        headers["Content-Type"] = _mime_type(source, mime_type)

    def body() -> Body:
        if source.size == 0:
            # `requests` sends an empty stream chunked, which storage services refuse.
            return b""
        return _FileBody(source, on_upload_progress)

    if bill is not None:
        bill.check(source.size)
    raw = offsite.send(target.method, url, headers=headers, body=body, timeout=timeout)
    if not 200 <= raw.status < 300:
        raise api_error(raw)
    if bill is not None:
        bill.record(source.size)
    if source.size == 0 and on_upload_progress is not None:
        on_upload_progress(UploadProgress(loaded=0, total=0))
    return FileTransfer(raw.status, raw.headers, source.size)


def save_file(
    offsite: Offsite,
    url: str,
    to: str | os.PathLike[str],
    *,
    timeout: Timeout | None = None,
    bill: TransferBill | None = None,
) -> FileTransfer:
    """Stream a download URL to the file `to`: written to a temporary file beside it (mode
    0600) and renamed over it when complete, so that `to` never holds half a file. The bytes
    received are recorded in `bill`."""
    from flexclient._base_client import api_error

    checked = offsite_url(url, "url")
    path = Path(to).expanduser()
    if path.is_dir():
        raise ParameterError("to", f"{str(path)!r} is a folder; give the file's path")
    if not path.parent.is_dir():
        raise ParameterError("to", f"no such folder: {str(path.parent)!r}")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w+b") as sink:

            def download(at: OffsiteUrl) -> RawResponse:
                return offsite.transport(at.origin).stream_to(
                    sink,
                    "GET",
                    at.path,
                    query=at.query,
                    # The bytes as stored: no compression for the transfer to undo.
                    headers={"Accept-Encoding": "identity"},
                    timeout=timeout,
                )

            # Redirects followed as a browser follows a download link (the official SDK
            # leaves downloads to the browser).
            raw, _ = following(checked, download, MAX_REDIRECTS)
            if not 200 <= raw.status < 300:
                raise api_error(raw)
            if bill is not None:
                bill.record(raw.streamed)
            os.fsync(sink.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return FileTransfer(raw.status, raw.headers, raw.streamed, path)


def attribute(resource: object, name: str) -> Any:
    """An attribute of a resource by its wire name (`url`, `fileId`), whether its model
    declares it or keeps it among the extra attributes."""
    attributes = getattr(resource, "attributes", None)
    if attributes is None:
        return None
    snake = re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)
    value = getattr(attributes, snake, None)
    if value is None and isinstance(attributes, BaseModel):
        value = (attributes.model_extra or {}).get(name)
    return value


@dataclass(frozen=True)
class UploadedFile:
    """A file uploaded by `MarketplaceClient.upload_file`: the `file` (the `ownFile` as
    created, before storage has verified the bytes), the `upload` target it went to, and
    the storage's answer (`transfer`). `id` is the file's ID, to attach it elsewhere."""

    file: OwnFile
    upload: FileUpload
    transfer: FileTransfer

    @property
    def id(self) -> uuid.UUID:
        return self.file.id

    def __repr__(self) -> str:
        return f"UploadedFile(id={self.id!s}, size={self.transfer.size})"
