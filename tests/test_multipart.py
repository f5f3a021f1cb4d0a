"""Multipart upload headers: names and filenames cannot break out of their quoted strings."""

from __future__ import annotations

import email.parser
import email.policy
from email.message import EmailMessage
from pathlib import Path

import pytest
import requests_mock
from hypothesis import given
from hypothesis import strategies as st
from urllib3.fields import format_multipart_header_param

from flexclient import MarketplaceClient, RedirectError, Token
from flexclient._http.multipart import multipart_factory, quoted_param
from tests.helpers import MP, NO_WAIT, answer, token_json

PNG = b"\x89PNG\r\n\x1a\n data"


def body_of(params: dict[str, object]) -> tuple[str, bytes]:
    content_type, make, _ = multipart_factory(params, None)
    return content_type, make().read()


def parts(content_type: str, body: bytes) -> list[EmailMessage]:
    """The body as a standard MIME parser reads it: one message per part."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    assert isinstance(message, EmailMessage) and message.is_multipart()
    found: list[EmailMessage] = []
    for part in message.iter_parts():
        assert isinstance(part, EmailMessage)
        found.append(part)
    return found


@pytest.mark.parametrize(
    "name,sent",
    [
        ("photo.png", "photo.png"),
        ('say "cheese".png', "say %22cheese%22.png"),
        ("two\r\nlines.png", "two%0D%0Alines.png"),
        ("lone\rcr\nlf.png", "lone%0Dcr%0Alf.png"),
        ("kuva ä 写真.png", "kuva ä 写真.png"),
        ("100% back\\slash.png", "100% back\\slash.png"),
    ],
)
def test_filename_header_bytes(tmp_path: Path, name: str, sent: str) -> None:
    photo = tmp_path / name
    photo.write_bytes(PNG)
    content_type, body = body_of({"image": photo})
    boundary = content_type.removeprefix("multipart/form-data; boundary=")
    assert (
        body
        == (
            f"--{boundary}\r\n"
            f'Content-Disposition: form-data; name="image"; filename="{sent}"\r\n'
            "Content-Type: image/png\r\n\r\n"
        ).encode()
        + PNG
        + f"\r\n--{boundary}--\r\n".encode()
    )


@given(st.text())
def test_any_name_is_quoted_as_urllib3_quotes_it(name: str) -> None:
    # urllib3 (under requests) follows the HTML standard, as browsers do.
    assert f'filename="{quoted_param(name)}"' == format_multipart_header_param("filename", name)


def test_a_crlf_filename_cannot_add_a_header_line(tmp_path: Path) -> None:
    # A file name cannot hold "/", so no MIME type here; any header line would show as a key.
    evil = 'x"\r\nX-Injected: yes\r\nContent-Length: 0\r\n\r\nnot the file\r\n".png'
    photo = tmp_path / evil
    photo.write_bytes(PNG)
    content_type, body = body_of({"image": photo, "note": "hello"})
    note, image = parts(content_type, body)
    assert image.keys() == ["Content-Disposition", "Content-Type"]
    assert image.get_content_type() == "image/png"
    assert image.get_param("filename", header="content-disposition") == quoted_param(evil)
    assert image.get_payload(decode=True) == PNG
    assert note.get_param("name", header="content-disposition") == "note"
    assert note.get_payload() == "hello"


def test_field_names_are_encoded_the_same_way() -> None:
    content_type, body = body_of({"image": PNG, 'a"b\r\nX-Injected: 1': "v"})
    field, image = parts(content_type, body)
    assert field.keys() == ["Content-Disposition"]
    assert b'Content-Disposition: form-data; name="a%22b%0D%0AX-Injected: 1"\r\n\r\nv\r\n' in body
    assert image.get_param("filename", header="content-disposition") == "image"


def test_a_stream_name_is_encoded_as_sent_by_the_client() -> None:
    class Named:
        """A binary stream with a name, as an opened file has."""

        def __init__(self) -> None:
            self.name = '/tmp/odd"\nname.png'
            self._data = PNG

        def read(self, size: int = -1) -> bytes:
            out, self._data = self._data, b""
            return out

        def seek(self, offset: int, whence: int = 0) -> int:
            return len(PNG) if whence == 2 else 0

        def tell(self) -> int:
            return 0

    sdk = MarketplaceClient("client-id", base_url=MP, retry_policy=NO_WAIT)
    with requests_mock.Mocker() as m:
        m.post(f"{MP}/v1/auth/token", json=token_json())
        answer(m, "POST", f"{MP}/v1/api/images/upload")
        sdk.images.upload({"image": Named()})
        sent = m.request_history[-1]
        body = sent.body.read()
    assert b'name="image"; filename="odd%22%0Aname.png"\r\nContent-Type: image/png\r\n' in body
    (image,) = parts(sent.headers["Content-Type"], body)
    assert image.keys() == ["Content-Disposition", "Content-Type"]


def test_an_upload_answered_with_a_redirect_is_a_redirect_error(tmp_path: Path) -> None:
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG data")
    sdk = MarketplaceClient("client-id", base_url=MP, max_retries=0)
    sdk.token_store.set(Token(access_token="t", scope="user"))
    with requests_mock.Mocker() as m:
        m.post(
            f"{MP}/v1/api/images/upload",
            status_code=307,
            headers={"Location": "https://elsewhere.test/upload"},
        )
        with pytest.raises(RedirectError) as info:
            sdk.images.upload({"image": photo})
    assert info.value.location == "https://elsewhere.test/upload"
    assert [r.url for r in m.request_history] == [f"{MP}/v1/api/images/upload"]
