"""The fake's HTTP protocol: routing, content negotiation, tokens, faults and rate limits.

Routing and multipart parsing are werkzeug's. Every answer has the API's shape: envelopes in
the negotiated format, errors as `{"errors": [...]}`, the Authentication API's as JSON.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from transit.transit_types import Keyword
from werkzeug.wrappers import Request, Response

from flexclient._endpoints.walk import by_path
from flexclient._errors import ParameterError
from flexclient._http.limits import PresetName, RateLimits, TokenBucket
from flexclient._support.narrow import is_json_object, is_list
from flexclient._wire.formats import FORMATS, JSON, TRANSIT, WireDecodeError, WireFormat
from flexclient.credits import bills_transfer, usage_type
from flexclient.testing import _auth_api, _cors, _handlers, _state
from flexclient.testing._asset_trees import AssetTrees
from flexclient.testing._call import ApiFailure, Call
from flexclient.testing._context import TRANSACTION, Context
from flexclient.testing._engine import run_due
from flexclient.testing._handlers import files
from flexclient.testing._metering import Meters, wire_path
from flexclient.testing._render import Api
from flexclient.testing._routes import API_OF_SEGMENT, handler_for
from flexclient.testing._stripe import browser as stripe_browser

assert _handlers  # imported for its handlers, which register themselves


def keyword_types(body: dict[str, Any]) -> dict[str, Any]:
    """`body` with the `type` of each resource and reference as a Transit keyword, which is
    how the API writes them in Transit (`"~:listing"`); JSON writes the same names as strings.
    """

    def ref(value: object) -> object:
        if not is_json_object(value):
            return value
        out = dict(value)  # a copy: the handler's body stays as it was
        rtype = out.get("type")
        if isinstance(rtype, str):
            out["type"] = Keyword(rtype)
        return out

    def resource(value: object) -> object:
        out = ref(value)
        if is_json_object(out):
            relationships = out.get("relationships")
            if is_json_object(relationships):
                out["relationships"] = {
                    name: {**rel, "data": _each(rel["data"], ref)}
                    if is_json_object(rel) and "data" in rel
                    else rel
                    for name, rel in relationships.items()
                }
        return out

    out = dict(body)
    if "data" in body:
        out["data"] = _each(body["data"], resource)
    included = body.get("included")
    if is_list(included):
        out["included"] = [resource(r) for r in included]
    return out


def _each(value: object, change: Callable[[object], object]) -> object:
    return [change(v) for v in value] if is_list(value) else change(value)


_ASSETS_PREFIX = "/v1/assets/pub/"
_API_PATH = re.compile(r"/v1/(api|integration_api)/([a-z_]+/[a-z_]+)")
_IMAGE_PATH = re.compile(r"/images/([0-9a-f-]{36})/([A-Za-z0-9_.-]+)")
_STORAGE_PATH = re.compile(r"/storage/(upload|download)/([A-Za-z0-9_-]+)")


@dataclass
class Fault:
    """An injected answer (or delay) for requests to one path; used `times` times."""

    path: str
    status: int | None
    body: bytes
    content_type: str
    delay: float
    times: int


class ServerLimits:
    """The API's rate limits, as buckets that refuse (429) rather than wait: the buckets of a
    client's `RateLimits`, so that the fake allows what the client's preset of the same name
    sends. `"dev"` is the official Integration SDK's dev preset: queries 100 at once, then one
    a second (up to 200 saved up), commands 50, then one every 2 s (up to 100)."""

    def __init__(self, limits: RateLimits) -> None:
        self.limits: RateLimits = limits
        self.queries: TokenBucket = TokenBucket(limits.queries, limits.clock)
        self.commands: TokenBucket = TokenBucket(limits.commands, limits.clock)

    @classmethod
    def of(cls, limits: PresetName | RateLimits | None) -> ServerLimits | None:
        """The limits a `rate_limits=` option names: a preset's name, the buckets, or none."""
        if limits is None:
            return None
        return cls(RateLimits.preset(limits) if isinstance(limits, str) else limits)


def _is_endpoint(path: str) -> bool:
    """Whether `path` is an endpoint of Sharetribe's (a 404 from one is billed): of either
    API's table, or billed by its path (the Authentication API's, assets)."""
    match = _API_PATH.fullmatch(path)
    known = match is not None and match[2] in by_path(API_OF_SEGMENT[match[1]])
    return known or usage_type(path) is not None


def _image_bytes(request: Request) -> int:
    """The size of the file in an upload's `image` part: the data transfer an image upload
    bills (0 for a request to another path, or with no such part)."""
    if not bills_transfer(request.path) or request.mimetype != "multipart/form-data":
        return 0
    try:
        image = request.files.get("image")
        if image is None:
            return 0
        stream = image.stream  # read by the handler, or not at all (a fault answered)
        stream.seek(0, io.SEEK_END)
        return stream.tell()
    except (ValueError, OSError):  # not a form werkzeug can read: the handler failed too
        return 0


def bearer_token(header: str) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None. The scheme is read
    without regard to case (RFC 9110), as the API's docs write it `bearer` and the SDKs
    `Bearer`."""
    scheme, _, token = header.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _negotiate(accept: str | None) -> WireFormat | None:
    if not accept or "*/*" in accept:
        return JSON
    if "application/transit+json" in accept:
        return TRANSIT
    if "application/json" in accept:
        return JSON
    return None


class FakeApp:
    """The WSGI application behind `FakeMarketplace`."""

    def __init__(
        self, state: _state.State, clients: _auth_api.Clients, limits: ServerLimits | None
    ) -> None:
        self.state = state
        self.clients = clients
        self.limits = limits
        self.base_url = ""
        self.faults: list[Fault] = []
        self.requests: list[tuple[str, str]] = []
        self.meters: Meters = Meters()
        self._faults_lock = threading.Lock()
        # The Asset Delivery API's trees, served on the same port (`FakeMarketplace` sets them).
        self.assets: AssetTrees = AssetTrees(clients.client_id, {})

    def add_fault(self, fault: Fault) -> None:
        """Answer requests to the fault's path with it, from the next one on."""
        with self._faults_lock:
            self.faults.append(fault)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        # Closed when answered: the files of a multipart upload go with it.
        with Request(environ) as request:
            # A preflight is the browser's question, not a call: answered at once, never
            # billed.
            response = _cors.allow(request, _cors.preflight(request) or self.respond(request))
            # "400 Bad Request", as the API writes it (werkzeug would say "400 BAD REQUEST").
            with contextlib.suppress(ValueError):
                phrase = HTTPStatus(response.status_code).phrase
                response.status = f"{response.status_code} {phrase}"
            return response(environ, start_response)

    def respond(self, request: Request) -> Response:
        """The answer to `request`, billed (`meters`) as Sharetribe bills it: the requests to
        the APIs by their status, and the bytes storage moves by the endpoint that gave the
        URL; requests to storage and to the image CDN are not counted."""
        storage = _STORAGE_PATH.fullmatch(request.path)
        if storage is not None:
            issuer = self.issuer(storage[2])  # now: a finished upload uses its token up
            response = self.answer(request)
            if issuer is not None and 200 <= response.status_code < 300:
                body = request.get_data() if storage[1] == "upload" else response.get_data()
                self.meters.record_transfer(issuer, len(body))
            return response
        if _IMAGE_PATH.fullmatch(request.path) is not None:
            return self.answer(request)
        if request.path.startswith("/stripe/"):  # Stripe's API, not Sharetribe's: not billed
            return self.stripe(request)
        if request.path.startswith(_ASSETS_PREFIX):
            target = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI")
            return self.meters.answer(
                wire_path(request.environ, request.path),
                lambda: self.assets.answer(request, str(target or request.full_path)),
                endpoint_exists=_is_endpoint(request.path),
            )
        return self.meters.answer(
            wire_path(request.environ, request.path),
            lambda: self.answer(request),
            endpoint_exists=_is_endpoint(request.path),
            transfer=lambda: _image_bytes(request),
        )

    def issuer(self, token: str) -> str | None:
        """The path of the endpoint that gave the storage URL of `token`, if it is known."""
        with self.state.lock:
            grant = self.state.storage_tokens.get(token)
        return grant.issuer if grant is not None and grant.issuer else None

    def answer(self, request: Request) -> Response:
        with self._faults_lock:
            self.requests.append((request.method, request.path))
            fault = next((f for f in self.faults if f.path == request.path and f.times > 0), None)
            if fault is not None:
                fault.times -= 1
        if fault is not None:
            if fault.delay:
                time.sleep(fault.delay)
            if fault.status is not None:
                return Response(fault.body, fault.status, content_type=fault.content_type)
        if request.path.startswith("/v1/auth/"):
            return self.auth(request)
        image = _IMAGE_PATH.fullmatch(request.path)
        if image is not None:
            return self.image(uuid.UUID(image[1]))
        storage = _STORAGE_PATH.fullmatch(request.path)
        if storage is not None:
            return self.storage(request, storage[1], storage[2])
        match = _API_PATH.fullmatch(request.path)
        fmt = _negotiate(request.headers.get("Accept"))
        if fmt is None:
            failure = ApiFailure(400, "unsupported-content-type", "Accept JSON or Transit")
            return self.encode(JSON, failure.status, failure.body())
        if match is None:
            return self.encode(fmt, 404, ApiFailure(404, "not-found", "No such path").body())
        api = API_OF_SEGMENT[match[1]]
        try:
            return self.encode(fmt, 200, self.api_call(request, api, match[2]))
        except ApiFailure as failure:
            return self.encode(fmt, failure.status, failure.body())

    # --- the Authentication API ----------------------------------------------------------------

    def auth(self, request: Request) -> Response:
        form = {k: request.form[k] for k in request.form}
        action = request.path.removeprefix("/v1/auth/")
        try:
            with self.state.lock:
                if action == "token":
                    body = _auth_api.token(self.state, self.clients, form)
                elif action == "auth_with_idp":
                    body = _auth_api.auth_with_idp(self.state, self.clients, form)
                elif action == "revoke":
                    self.grant(request)
                    body = _auth_api.revoke(self.state, form)
                elif action == "multitenant/token":
                    body = _auth_api.multitenant_token(self.state, self.clients, form)
                elif action == "multitenant/auth_with_idp":
                    body = _auth_api.multitenant_auth_with_idp(self.state, self.clients, form)
                elif action == "multitenant/client_data" and request.method == "GET":
                    bearer = bearer_token(request.headers.get("Authorization", ""))
                    _auth_api.check_tenant(self.clients, bearer or "")
                    body = _auth_api.client_data(self.clients)
                else:
                    raise _auth_api.AuthFailure(404, "not_found", "No such path")
        except _auth_api.AuthFailure as failure:
            return Response(
                json.dumps(failure.body()), failure.status, content_type="application/json"
            )
        except ApiFailure as failure:
            return self.encode(JSON, failure.status, failure.body())
        return Response(json.dumps(body), 200, content_type="application/json")

    def grant(self, request: Request) -> _state.Grant:
        token = bearer_token(request.headers.get("Authorization", ""))
        if token is None:
            raise ApiFailure(401, "auth-missing-access-token", "Missing access token")
        grant = self.state.access_tokens.get(token)
        if grant is None or grant.expires_at < _state.now():
            raise ApiFailure(401, "auth-invalid-access-token", "Invalid or expired access token")
        return grant

    # --- the APIs ------------------------------------------------------------------------------

    def api_call(self, request: Request, api: Api, path: str) -> dict[str, Any]:
        route = by_path(api).get(path)
        kind = route.endpoint.kind if route is not None else None
        if route is None or request.method != ("GET" if kind == "query" else "POST"):
            raise ApiFailure(404, "not-found", f"No endpoint {request.method} {request.path}")
        grant = self.grant(request)
        if (grant.scope == "integ") != (api == "integration"):
            raise ApiFailure(403, "forbidden", f"A {grant.scope} token cannot call the {api} API")
        if self.limits is not None:
            bucket = self.limits.queries if kind == "query" else self.limits.commands
            if not bucket.try_take():
                raise ApiFailure(429, "too-many-requests", "Too many requests")
        call = Call(
            state=self.state,
            api=api,
            endpoint=route.endpoint,
            params={k: request.args[k] for k in request.args},
            body={},
            grant=grant,
            base_url=self.base_url,
            assets=self.assets,
        )
        if kind == "upload":
            call.files = {
                name: (f.filename or name, f.mimetype, f.read())
                for name, f in request.files.items()
            }
            call.body = {k: request.form[k] for k in request.form}
        elif kind == "command":
            call.body = self.decode_body(request)
        registered = handler_for(route.endpoint)
        if registered is None:
            raise ApiFailure(
                501, "not-implemented", f"The fake marketplace does not implement {path}"
            )
        call.check(extended_data_filters=registered.extended_data_filters)
        with self.state.lock:
            # What the marketplace's clock has made due happens before anything else.
            run_due(Context(self.state, self.base_url, TRANSACTION))
            return registered.handler(call)

    def decode_body(self, request: Request) -> dict[str, Any]:
        media = (request.mimetype or "").lower()
        fmt = (
            FORMATS["transit"]
            if media == "application/transit+json"
            else FORMATS["json"]
            if media == "application/json"
            else None
        )
        if fmt is None:
            raise ApiFailure(400, "unsupported-content-type", f"Unsupported content type {media!r}")
        raw = request.get_data()
        try:
            body: object = fmt.decode(raw) if raw else {}
        except WireDecodeError as exc:
            raise ApiFailure(400, "bad-request", f"The body is not valid {fmt.name}") from exc
        if not is_json_object(body):
            raise ApiFailure(400, "bad-request", "The body must be a map")
        return body

    def encode(self, fmt: WireFormat, status: int, body: dict[str, Any]) -> Response:
        try:
            payload = fmt.encode(keyword_types(body) if fmt is TRANSIT else body)
        except ParameterError as exc:  # a bug in a handler, shown as the real API would
            failure = ApiFailure(500, "internal-error", f"Cannot encode the answer: {exc}")
            return self.encode(JSON, failure.status, failure.body())
        content_type = (
            "application/transit+json;charset=UTF-8"
            if fmt is TRANSIT
            else "application/json;charset=UTF-8"
        )
        return Response(payload, status, content_type=content_type)

    def storage(self, request: Request, action: str, token: str) -> Response:
        """The file storage: uploads and downloads by the token in a presigned URL."""
        with self.state.lock:
            if action == "upload" and request.method == "PUT":
                status = files.receive_upload(
                    self.state, token, request.headers.get("Content-Type", ""), request.get_data()
                )
                return Response(b"", status)
            if action == "download" and request.method == "GET":
                blob = files.serve_download(self.state, token)
                if blob is not None:
                    return Response(blob.content, 200, content_type=blob.content_type)
        return Response(b"Access denied", 403, content_type="text/plain")

    def stripe(self, request: Request) -> Response:
        """The calls of Stripe.js a payment makes (`flexclient.testing._stripe.browser`)."""
        with self._faults_lock:
            self.requests.append((request.method, request.path))
        if request.path == stripe_browser.STRIPE_JS_PATH and request.method == "GET":
            script = stripe_browser.stripe_js(request.host_url.rstrip("/"))
            return Response(script, 200, content_type="text/javascript; charset=utf-8")
        form = {k: request.values[k] for k in request.values}
        with self.state.lock:
            status, body = stripe_browser.serve(self.state, request.method, request.path, form)
        return Response(json.dumps(body), status, content_type="application/json")

    def image(self, image_id: uuid.UUID) -> Response:
        blob = self.state.blobs.get(image_id) if image_id in self.state.images else None
        if blob is None:
            return Response(b"not found", 404, content_type="text/plain")
        return Response(blob.content, 200, content_type=blob.content_type)
