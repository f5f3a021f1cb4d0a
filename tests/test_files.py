"""Files: the three-step upload (own_files.create, file_uploads.create, the bytes sent to
storage), downloads streamed to a path, and the official SDK's file.upload sending the same
request to storage. The API is requests-mock; storage is a loopback server of this module."""

from __future__ import annotations

import hashlib
import io
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import requests
import requests_mock
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server
from werkzeug.wrappers import Request, Response

from flexclient import (
    CreditBudgetExceededError,
    FileMetadata,
    ForbiddenError,
    IntegrationClient,
    MarketplaceClient,
    NotFoundError,
    ParameterError,
    RedirectError,
    Token,
    UnexpectedResponseError,
    UploadProgress,
    file_metadata,
)
from flexclient._wire.formats import TRANSIT
from tests.helpers import MP, NO_WAIT, TRANSIT_CT, transit_body
from tests.js_sdks import ROOT, run_js

SCRIPT = ROOT / "tests" / "js_sdk_features" / "file_upload.js"
FILE_ID = uuid.UUID("69fd8859-8380-49c0-ab7e-0ee502e40811")


# --- a loopback storage ------------------------------------------------------------------------


@dataclass
class Received:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes


class _Quiet(WSGIRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


@dataclass
class Storage:
    """Keeps what is PUT (or POSTed) to it by path and serves it back on GET; `answers`
    are given, in order, before the usual ones."""

    received: list[Received] = field(default_factory=list[Received])
    files: dict[str, bytes] = field(default_factory=dict[str, bytes])
    answers: list[Response] = field(default_factory=list[Response])
    sinks: list[tuple[int, str]] = field(default_factory=list[tuple[int, str]])
    server: BaseWSGIServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_port}"

    def app(self, environ: dict[str, Any], start_response: Any) -> Any:
        request = Request(environ)
        if request.path.startswith("/sink/"):
            # Counted and dropped, so that the test's memory is the client's alone.
            digest, size = hashlib.sha256(), 0
            while chunk := request.stream.read(64 * 1024):
                digest.update(chunk)
                size += len(chunk)
            self.received.append(Received(request.method, request.path, dict(request.headers), b""))
            self.sinks.append((size, digest.hexdigest()))
            return Response(b"", 200)(environ, start_response)
        body = request.get_data()
        target = str(environ.get("RAW_URI") or environ.get("REQUEST_URI"))
        self.received.append(Received(request.method, target, dict(request.headers), body))
        if self.answers:
            return self.answers.pop(0)(environ, start_response)
        if request.method in ("PUT", "POST", "PATCH"):
            self.files[request.path] = body
            response = Response(b"", 200, headers={"ETag": '"etag-1"'})
        elif request.path in self.files:
            response = Response(self.files[request.path], 200, content_type="application/pdf")
        else:
            response = Response(
                b"<Error><Code>NoSuchKey</Code></Error>", 404, content_type="application/xml"
            )
        return response(environ, start_response)


@pytest.fixture
def storage() -> Iterator[Storage]:
    store = Storage()
    store.server = make_server("127.0.0.1", 0, store.app, threaded=True, request_handler=_Quiet)
    server = store.server
    thread = threading.Thread(target=lambda: server.serve_forever(poll_interval=0.02), daemon=True)
    thread.start()
    yield store
    server.shutdown()
    server.server_close()


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    path = tmp_path / "terms of use.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 4000)
    return path


@pytest.fixture
def sdk() -> MarketplaceClient:
    client = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    client.token_store.set(Token(access_token="user-token", scope="user", refresh_token="r"))
    return client


def presigned(storage: Storage, key: str = "uploads/abc") -> str:
    return f"{storage.url}/{key}?X-Amz-Signature=ab%2Fcd%3D&X-Amz-Expires=300&x-id=PutObject"


def resource(kind: str, attributes: dict[str, Any], rid: uuid.UUID | None = None) -> bytes:
    return transit_body(
        {"data": {"id": rid or uuid.uuid4(), "type": kind, "attributes": attributes}}
    )


def api(m: requests_mock.Mocker, path: str, body: bytes) -> None:
    m.post(f"{MP}/v1/api/{path}", content=body, headers={"Content-Type": TRANSIT_CT})


# --- metadata ----------------------------------------------------------------------------------


def test_metadata_of_paths_file_objects_and_bytes(pdf: Path) -> None:
    size = pdf.stat().st_size
    assert file_metadata(pdf) == FileMetadata("terms of use.pdf", "application/pdf", size)
    assert file_metadata(str(pdf), name="t.txt").mime_type == "text/plain"
    with pdf.open("rb") as f:
        assert file_metadata(f) == FileMetadata("terms of use.pdf", "application/pdf", size)
    assert file_metadata(b"abc", name="notes.unknownext") == FileMetadata(
        "notes.unknownext", "application/octet-stream", 3
    )
    assert file_metadata(io.BytesIO(b"abcd"), name="a.json", mime_type="application/json").size == 4
    assert FileMetadata("a", "b/c", 1).params() == {"name": "a", "mimeType": "b/c", "size": 1}


BAD_FILES: list[tuple[Callable[[Path], object], str]] = [
    (lambda p: file_metadata(b"abc"), "name"),
    (lambda p: file_metadata(io.BytesIO(b"abc")), "name"),
    (lambda p: file_metadata(p, name="a/b.pdf"), "name"),
    (lambda p: file_metadata(p, name=" "), "name"),
    (lambda p: file_metadata(p, mime_type="pdf"), "mime_type"),
    (lambda p: file_metadata(p.parent / "missing.pdf"), "file"),
    (lambda p: file_metadata(42), "file"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("call", "param"), BAD_FILES)
def test_bad_files_fail_naming_the_parameter(
    pdf: Path, call: Callable[[Path], object], param: str
) -> None:
    with pytest.raises(ParameterError) as err:
        call(pdf)
    assert err.value.param == param


# --- the direct upload ---------------------------------------------------------------------------


def test_the_bytes_go_to_storage_streamed_without_the_apis_credentials(
    storage: Storage, pdf: Path
) -> None:
    session = requests.Session()
    session.headers["Authorization"] = "Bearer session-secret"
    sdk = MarketplaceClient("client-id", base_url=MP, session=session)
    sdk.token_store.set(Token(access_token="user-token", scope="user", refresh_token="r"))
    seen: list[UploadProgress] = []
    target = {
        "url": presigned(storage),
        "method": "PUT",
        "headers": {"Content-Type": "application/pdf", "x-amz-meta-a": "1"},
    }
    done = sdk.send_file(target, pdf, on_upload_progress=seen.append)
    (got,) = storage.received
    assert (got.method, got.target) == (
        "PUT",
        "/uploads/abc?X-Amz-Signature=ab%2Fcd%3D&X-Amz-Expires=300&x-id=PutObject",
    )
    assert got.body == pdf.read_bytes()
    assert got.headers["Content-Length"] == str(pdf.stat().st_size)
    assert got.headers["Content-Type"] == "application/pdf" and got.headers["X-Amz-Meta-A"] == "1"
    assert "Authorization" not in got.headers and "Cookie" not in got.headers
    assert "Transfer-Encoding" not in got.headers
    assert (
        done.status == 200
        and done.size == pdf.stat().st_size
        and done.headers["ETag"] == '"etag-1"'
    )
    # Streamed in chunks, the progress growing to the file's size.
    loaded = [p.loaded for p in seen]
    assert len(seen) > 2 and loaded == sorted(loaded) and loaded[-1] == seen[-1].total == done.size


def test_a_large_file_is_streamed_not_read_whole(
    storage: Storage, sdk: MarketplaceClient, tmp_path: Path
) -> None:
    size = 20 * 1024 * 1024
    big = tmp_path / "big.bin"
    digest = hashlib.sha256()
    with big.open("wb") as f:
        for _ in range(20):
            chunk = os.urandom(1024 * 1024)
            digest.update(chunk)
            f.write(chunk)
    seen: list[int] = []
    sdk.send_file(
        {"url": f"{storage.url}/sink/big"}, big, on_upload_progress=lambda p: seen.append(p.loaded)
    )
    assert storage.sinks == [(size, digest.hexdigest())]
    # Read and sent in small blocks as the socket takes them, never the whole file at once.
    steps = [b - a for a, b in zip([0, *seen], seen, strict=False)]
    assert seen[-1] == size and len(steps) > 100 and max(steps) <= 1024 * 1024


def test_the_files_type_is_sent_when_the_target_names_none(
    storage: Storage, sdk: MarketplaceClient
) -> None:
    sdk.send_file({"url": presigned(storage)}, b"{}", mime_type="application/json")
    sdk.send_file({"url": presigned(storage), "method": "post"}, io.BytesIO(b"x"))
    sdk.send_file({"url": presigned(storage)}, b"")  # empty: a Content-Length of 0, not chunked
    first, second, empty = storage.received
    assert (first.method, first.headers["Content-Type"]) == ("PUT", "application/json")
    assert (second.method, second.headers["Content-Type"]) == ("POST", "application/octet-stream")
    assert empty.headers.get("Content-Length") == "0" and empty.body == b""


def test_a_refused_upload_is_retried_from_the_start_only_when_safe(
    storage: Storage, sdk: MarketplaceClient, pdf: Path
) -> None:
    storage.answers.append(Response(b"slow down", 429, headers={"Retry-After": "0"}))
    sdk.send_file({"url": presigned(storage)}, pdf)
    assert [r.body == pdf.read_bytes() for r in storage.received] == [True, True]
    storage.received.clear()
    storage.answers.append(Response(b"oops", 503))
    with pytest.raises(Exception) as err:  # a PUT that reached the storage is not repeated
        sdk.send_file({"url": presigned(storage)}, pdf)
    assert getattr(err.value, "status", None) == 503 and len(storage.received) == 1


def test_storage_errors_and_redirects(storage: Storage, sdk: MarketplaceClient) -> None:
    denied = b"<Error><Code>SignatureDoesNotMatch</Code></Error>"
    storage.answers.append(Response(denied, 403, content_type="application/xml"))
    with pytest.raises(ForbiddenError) as err:
        sdk.send_file({"url": presigned(storage)}, b"x")
    assert "SignatureDoesNotMatch" in err.value.body
    storage.answers.append(Response(b"", 307, headers={"Location": "https://elsewhere.test/"}))
    with pytest.raises(RedirectError):
        sdk.send_file({"url": presigned(storage)}, b"x")
    assert len(storage.received) == 2


@pytest.mark.parametrize(
    ("target", "param"),
    [
        ({"url": "http://storage.example.com/x"}, "url"),
        ({"url": "https://user:pw@storage.test/x"}, "url"),
        ({"url": "ftp://storage.test/x"}, "url"),
        ({"url": "/relative"}, "url"),
        ({}, "url"),
        ({"url": "https://storage.test/x", "method": "GET"}, "method"),
        ({"url": "https://storage.test/x", "headers": {"X": "a\r\nB: c"}}, "headers"),
        ({"url": "https://storage.test/x", "headers": {"Bad Name": "a"}}, "headers"),
        ("https://storage.test/x", "target"),
    ],
)
def test_bad_targets_fail_before_sending(sdk: MarketplaceClient, target: Any, param: str) -> None:
    with requests_mock.Mocker() as m:
        with pytest.raises(ParameterError) as err:
            sdk.send_file(target, b"x")
        assert m.request_history == []
    assert err.value.param == param


# --- the whole upload ---------------------------------------------------------------------------


def test_upload_file_does_the_three_steps(
    storage: Storage, sdk: MarketplaceClient, pdf: Path
) -> None:
    size = pdf.stat().st_size
    upload_id = uuid.uuid4()
    with requests_mock.Mocker(real_http=True) as m:
        api(
            m,
            "own_files/create",
            resource(
                "ownFile",
                {
                    "name": pdf.name,
                    "mimeType": "application/pdf",
                    "size": size,
                    "state": "pendingUpload",
                },
                FILE_ID,
            ),
        )
        target = {
            "fileId": FILE_ID,
            "url": presigned(storage),
            "method": "PUT",
            "headers": {"Content-Type": "application/pdf"},
        }
        api(m, "file_uploads/create", resource("fileUpload", target, upload_id))
        seen: list[UploadProgress] = []
        uploaded = sdk.upload_file(pdf, on_upload_progress=seen.append)
        create, upload = [r for r in m.request_history if r.hostname == "mp.test"]
    assert TRANSIT.decode(create.body) == {
        "name": pdf.name,
        "mimeType": "application/pdf",
        "size": size,
    }
    assert (
        create.qs == {"expand": ["true"]} and create.headers["Authorization"] == "Bearer user-token"
    )
    assert TRANSIT.decode(upload.body) == {"fileId": FILE_ID}
    (put,) = storage.received
    assert put.body == pdf.read_bytes() and "Authorization" not in put.headers
    assert uploaded.id == FILE_ID and uploaded.upload.id == upload_id
    assert uploaded.transfer.size == size and seen[-1].loaded == size
    assert "presigned" not in repr(uploaded) and str(FILE_ID) in repr(uploaded)


def test_upload_file_checks_the_file_before_any_call(sdk: MarketplaceClient) -> None:
    with requests_mock.Mocker() as m:
        with pytest.raises(ParameterError) as err:
            sdk.upload_file(b"no name")
        assert m.request_history == []
    assert err.value.param == "name"


def test_an_answer_without_a_target_is_an_unexpected_response(sdk: MarketplaceClient) -> None:
    with requests_mock.Mocker() as m:
        api(m, "own_files/create", resource("ownFile", {}, FILE_ID))
        api(m, "file_uploads/create", resource("fileUpload", {"method": "PUT"}))
        with pytest.raises(UnexpectedResponseError, match="no usable upload target"):
            sdk.upload_file(b"abc", name="a.txt")


# --- downloads ----------------------------------------------------------------------------------


def test_download_file_streams_to_the_path(
    storage: Storage, sdk: MarketplaceClient, tmp_path: Path
) -> None:
    content = bytes(range(256)) * 3000
    storage.files["/files/abc"] = content
    url = f"{storage.url}/files/abc?sig=x%2By"
    to = tmp_path / "out.pdf"
    with requests_mock.Mocker(real_http=True) as m:
        api(m, "file_downloads/create", resource("fileDownload", {"url": url, "fileId": FILE_ID}))
        api(m, "own_file_downloads/create", resource("ownFileDownload", {"url": url}))
        done = sdk.download_file(FILE_ID, to)
        assert to.read_bytes() == content and done.path == to and done.size == len(content)
        sdk.download_file(str(FILE_ID), to, own=True)
        sdk.download_file(FILE_ID, to, attachment=True)
        bodies = [TRANSIT.decode(r.body) for r in m.request_history if r.hostname == "mp.test"]
        paths = [r.path for r in m.request_history if r.hostname == "mp.test"]
    assert bodies == [{"fileId": FILE_ID}, {"fileId": FILE_ID}, {"fileAttachmentId": FILE_ID}]
    assert paths == [
        "/v1/api/file_downloads/create",
        "/v1/api/own_file_downloads/create",
        "/v1/api/file_downloads/create",
    ]
    gets = [r for r in storage.received if r.method == "GET"]
    assert [g.target for g in gets] == ["/files/abc?sig=x%2By"] * 3
    assert all(
        "Authorization" not in g.headers and g.headers["Accept-Encoding"] == "identity"
        for g in gets
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pdf"]


def test_a_failed_download_leaves_the_path_as_it_was(
    storage: Storage, sdk: MarketplaceClient, tmp_path: Path
) -> None:
    to = tmp_path / "keep.pdf"
    to.write_bytes(b"old")
    with pytest.raises(NotFoundError) as err:
        sdk.save_file(f"{storage.url}/files/missing", to)
    assert "NoSuchKey" in err.value.body
    storage.files["/files/x"] = b"new"
    storage.answers.append(Response(b"busy", 503))
    assert sdk.save_file(f"{storage.url}/files/x", to).size == 3  # a GET is retried
    assert to.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.pdf"]
    # Redirects are followed as a browser follows a download link: a few hops, HTTPS only.
    storage.answers.append(Response(b"", 302, headers={"Location": "/files/x"}))
    assert sdk.save_file(f"{storage.url}/files/moved", to).size == 3
    assert [r.target for r in storage.received[-2:]] == ["/files/moved", "/files/x"]
    storage.answers.append(Response(b"", 302, headers={"Location": "http://evil.example/x"}))
    with pytest.raises(RedirectError) as moved:
        sdk.save_file(f"{storage.url}/files/moved", to)
    assert moved.value.location == "http://evil.example/x"
    storage.answers.extend(
        Response(b"", 307, headers={"Location": "/files/loop"}) for _ in range(6)
    )
    with pytest.raises(RedirectError):
        sdk.save_file(f"{storage.url}/files/loop", to)
    assert to.read_bytes() == b"new"
    with pytest.raises(ParameterError) as bad:
        sdk.save_file(f"{storage.url}/files/x", tmp_path)
    assert bad.value.param == "to"
    with pytest.raises(ParameterError):
        sdk.save_file("http://storage.example.com/x", to)


def test_a_download_answer_without_a_url(sdk: MarketplaceClient, tmp_path: Path) -> None:
    with requests_mock.Mocker() as m:
        api(m, "file_downloads/create", resource("fileDownload", {}))
        with pytest.raises(UnexpectedResponseError, match="no download URL"):
            sdk.download_file(FILE_ID, tmp_path / "x")
    for bad, param in (("not-a-uuid", "file_id"), (5, "file_id")):
        with pytest.raises(ParameterError) as err:
            sdk.download_file(bad, tmp_path / "x")  # type: ignore[arg-type]
        assert err.value.param == param


# --- the official SDK's file.upload -------------------------------------------------------------


def test_the_official_sdk_sends_the_same_upload(
    storage: Storage, sdk: MarketplaceClient, pdf: Path
) -> None:
    targets = [
        {
            "method": "PUT",
            "url": presigned(storage, "a"),
            "headers": {"Content-Type": "application/pdf"},
        },
        {
            "method": "PUT",
            "url": presigned(storage, "b"),
            "headers": {"Content-Type": "application/pdf", "x-amz-tagging": "k=v"},
        },
    ]
    js: list[dict[str, Any]] = run_js(SCRIPT, given=[{**t, "path": str(pdf)} for t in targets])
    theirs = list(storage.received)
    storage.received.clear()
    for t in targets:
        sdk.send_file(t, pdf)
    ours = storage.received
    assert [r["status"] for r in js] == [200, 200]
    size = str(pdf.stat().st_size)
    for mine, their in zip(ours, theirs, strict=True):
        assert (mine.method, mine.target, mine.body) == (their.method, their.target, their.body)
        for name in ("Content-Type", "Content-Length", "X-Amz-Tagging"):
            assert mine.headers.get(name) == their.headers.get(name), name
        assert mine.headers["Content-Length"] == size
        assert "Authorization" not in mine.headers and "Authorization" not in their.headers


def test_the_integration_client_sends_files_too(storage: Storage, pdf: Path) -> None:
    integ = IntegrationClient(
        "client-id", "secret", base_url="https://ig.test", retry_policy=NO_WAIT
    )
    integ.token_store.set(Token(access_token="integ-token", scope="integ", refresh_token="r"))
    metadata = file_metadata(pdf)
    target = {"url": presigned(storage), "headers": {"Content-Type": metadata.mime_type}}
    assert integ.send_file(target, pdf).size == metadata.size
    (put,) = storage.received
    assert put.body == pdf.read_bytes() and "Authorization" not in put.headers
    storage.files["/files/x"] = b"data"
    assert integ.save_file(f"{storage.url}/files/x", pdf.parent / "x.bin").size == 4


def test_netrc_credentials_are_not_sent_to_storage(
    storage: Storage, sdk: MarketplaceClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login someone password netrc-secret\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    assert requests.utils.get_netrc_auth(storage.url) == ("someone", "netrc-secret")
    sdk.send_file({"url": presigned(storage)}, b"x")
    storage.files["/files/x"] = b"x"
    sdk.save_file(f"{storage.url}/files/x", tmp_path / "x")
    assert all("Authorization" not in r.headers for r in storage.received)


def test_a_download_saves_the_bytes_as_stored_even_when_storage_says_gzip(
    storage: Storage, sdk: MarketplaceClient, tmp_path: Path
) -> None:
    # S3 and GCS answer `Content-Encoding: gzip` for an object stored with that metadata, even
    # to a client that asked for `identity`: the file saved is the object, not its contents.
    import gzip

    stored = gzip.compress(b"a line of the log\n" * 700)
    storage.answers.append(Response(stored, 200, headers={"Content-Encoding": "gzip"}))
    to = tmp_path / "log.gz"
    done = sdk.save_file(f"{storage.url}/files/log.gz", to)
    assert to.read_bytes() == stored
    assert done.size == len(stored) < 12_600
    assert gzip.decompress(to.read_bytes()) == b"a line of the log\n" * 700


def mock_upload_steps(m: requests_mock.Mocker, storage: Storage, size: int) -> None:
    attributes = {"name": "f.pdf", "mimeType": "application/pdf", "size": size}
    api(
        m,
        "own_files/create",
        resource("ownFile", {**attributes, "state": "pendingUpload"}, FILE_ID),
    )
    target: dict[str, Any] = {"fileId": FILE_ID, "url": presigned(storage), "method": "PUT"}
    api(m, "file_uploads/create", resource("fileUpload", target))


def test_an_uploads_bytes_are_metered_and_checked_against_the_budget(
    storage: Storage, pdf: Path
) -> None:
    size = pdf.stat().st_size
    token = Token(access_token="user-token", scope="user", refresh_token="r")
    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    sdk.token_store.set(token)
    with requests_mock.Mocker(real_http=True) as m:
        mock_upload_steps(m, storage, size)
        sdk.upload_file(pdf)
    # The bytes are billed to the call that gave their URL, at 255,000 credits a GB.
    billed = sdk.usage.by_endpoint["/v1/api/file_uploads/create"]
    assert billed.transfer_bytes == size
    assert billed.transfer_credits == Decimal(size) * 255_000 / 10**9
    assert billed.credits == 70 + billed.transfer_credits
    # A budget with room for the two calls (5 + 70) but not for the bytes: none is sent.
    tight = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT, credit_budget=100)
    tight.token_store.set(token)
    storage.received.clear()
    with requests_mock.Mocker(real_http=True) as m:
        mock_upload_steps(m, storage, size)
        with pytest.raises(CreditBudgetExceededError):
            tight.upload_file(pdf)
    assert storage.received == [] and tight.usage.credits == 75
