"""Errors: per status, the parsed error envelope, and hostile bodies that keep their raw text."""

from __future__ import annotations

import uuid

import pytest
import requests_mock

from flexclient import (
    ApiError,
    BadRequestError,
    ClientError,
    ConflictError,
    MarketplaceClient,
    NotFoundError,
    RateLimitError,
    ServerError,
    TransportError,
    UnexpectedResponseError,
)
from flexclient.models import ErrorEnvelope
from tests.helpers import MP, TRANSIT_CT, transit_body

SHOW = f"{MP}/v1/api/listings/show"


def errors_body(status: int, code: str, title: str) -> dict[str, object]:
    return {
        "errors": [
            {
                "id": uuid.UUID("9e0b60fe-d9a2-11e6-bf26-cec0c932ce01"),
                "status": status,
                "code": code,
                "title": title,
                "details": {"anything": "goes"},
                "source": {"path": ["query", "id"], "type": "query"},
            }
        ]
    }


@pytest.mark.parametrize(
    "status,cls",
    [
        (400, BadRequestError),
        (404, NotFoundError),
        (409, ConflictError),
        (429, RateLimitError),
        (418, ClientError),
        (500, ServerError),
        (503, ServerError),
    ],
)
def test_error_class_by_status(
    mock: requests_mock.Mocker, sdk: MarketplaceClient, status: int, cls: type[ApiError]
) -> None:
    mock.get(
        SHOW,
        status_code=status,
        content=transit_body(errors_body(status, "some-code", "Some title")),
        headers={"Content-Type": TRANSIT_CT},
    )
    with pytest.raises(cls) as info:
        sdk.listings.show({"id": uuid.uuid4()})
    e = info.value
    assert type(e) is cls and isinstance(e, ApiError)
    assert e.status == status
    assert e.data.errors[0].code == "some-code" and e.data.errors[0].title == "Some title"
    assert e.data.errors[0].source is not None and e.data.errors[0].source.path == ["query", "id"]
    assert e.data.errors[0].details == {"anything": "goes"}
    assert "some-code" in str(e) and "GET /v1/api/listings/show" in str(e)


def test_several_errors_at_once(mock: requests_mock.Mocker, sdk: MarketplaceClient) -> None:
    body = {
        "errors": [
            {"status": 400, "code": "validation-missing-key", "title": "Missing id"},
            {"status": 400, "code": "validation-invalid-value", "title": "Bad perPage"},
        ]
    }
    mock.get(SHOW, status_code=400, json=body, headers={"Content-Type": "application/json"})
    with pytest.raises(BadRequestError) as info:
        sdk.listings.show({"id": uuid.uuid4()})
    assert info.value.codes == ["validation-missing-key", "validation-invalid-value"]


@pytest.mark.parametrize(
    "status,content_type,body",
    [
        (500, "text/plain", b"Internal Server Error"),
        (502, "text/html", b"<html><body><h1>502 Bad Gateway</h1></body></html>"),
        (500, "application/transit+json", b'["^ ","~:errors",[["^ ","~:status",500'),
        (404, "application/json", b'{"not": "the error shape"}'),
    ],
)
def test_bodies_that_are_not_the_error_shape_keep_their_raw_text(
    mock: requests_mock.Mocker, sdk: MarketplaceClient, status: int, content_type: str, body: bytes
) -> None:
    mock.get(SHOW, status_code=status, content=body, headers={"Content-Type": content_type})
    with pytest.raises(ApiError) as info:
        sdk.listings.show({"id": uuid.uuid4()})
    e = info.value
    assert e.status == status and e.data.errors == [] and e.body == body.decode()
    assert body.decode()[:20] in str(e)


def test_an_errors_envelope_is_made_when_asked_for_and_can_be_replaced() -> None:
    error = ApiError(500, "Internal Server Error", body="busy")
    assert error.data.errors == [] and error.codes == []
    body = ErrorEnvelope.model_validate({"errors": [{"status": 500, "code": "busy"}]})
    error.data = body  # as code that wraps or rebuilds errors may do
    assert error.data is body and error.codes == ["busy"]


@pytest.mark.parametrize(
    "content_type,body,words",
    [
        ("text/html", b"<html>proxy login</html>", "text/html"),
        ("application/transit+json", b'["^ ","~:data",["^ "', "invalid transit"),
        ("application/json", b"[1, 2, 3]", "not an API envelope"),
        (
            "application/json",
            b'{"data": [{"id": "not-a-uuid", "type": "listing"}]}',
            "not a valid 'listing'",
        ),
        ("application/json", b'{"data": [], "included": {"x": 1}}', "included"),
        ("application/json", b'{"data": [{"id": 1, "type": ["listing"]}]}', r"not a valid \['"),
        ("application/json", b'{"data": [], "included": [{"id": 1}]}', r"included\[0\]"),
        (
            "application/transit+json",
            b'["^ ","~:data",["^ ","~:id","~u1","~:type","listing"]]',
            "invalid transit",
        ),
        ("application/transit+json", b'["^ ","~:data"]', "invalid transit"),
    ],
)
def test_success_status_with_an_unreadable_body(
    mock: requests_mock.Mocker, sdk: MarketplaceClient, content_type: str, body: bytes, words: str
) -> None:
    mock.get(
        f"{MP}/v1/api/listings/query",
        status_code=200,
        content=body,
        headers={"Content-Type": content_type},
    )
    with pytest.raises(UnexpectedResponseError, match=words) as info:
        sdk.listings.query()
    assert info.value.status == 200 and info.value.body == body.decode()


def test_connection_refused_is_a_transport_error() -> None:
    sdk = MarketplaceClient("c", base_url="http://127.0.0.1:9", max_retries=0)
    with pytest.raises(TransportError) as info:
        sdk.listings.query()
    assert isinstance(info.value, OSError)


def test_errors_hierarchy_is_drawn_in_the_module_docstring() -> None:
    import flexclient._errors as errors

    doc = errors.__doc__ or ""
    for name in dir(errors):
        obj = getattr(errors, name)
        if isinstance(obj, type) and issubclass(obj, errors.FlexError):
            assert name in doc, name
