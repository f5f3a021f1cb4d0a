"""Cross-origin requests: what lets a web page's own code (the browser build of the official
SDK, as the web template runs it) call the fake's APIs from another origin.

Every answer to a request with an `Origin` header allows that origin, with credentials, and
a preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered at once, before
tokens or routes are looked at, allowing the method and the headers asked for. The origin is
echoed rather than `*`, since a browser refuses `*` on a request made with credentials.
"""

from __future__ import annotations

from werkzeug.wrappers import Request, Response

METHODS = "GET, POST, PUT, DELETE, OPTIONS"
# Asked for when a preflight names none: what the SDKs send.
HEADERS = "Authorization, Content-Type, Accept, X-Transit-Verbose"
MAX_AGE = "86400"  # a day: the preflight's answer may be reused that long


def preflight(request: Request) -> Response | None:
    """The answer to a CORS preflight request, or None when `request` is not one."""
    if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
        return None
    response = Response(b"", 204)
    response.headers["Access-Control-Allow-Methods"] = METHODS
    response.headers["Access-Control-Allow-Headers"] = request.headers.get(
        "Access-Control-Request-Headers", HEADERS
    )
    response.headers["Access-Control-Max-Age"] = MAX_AGE
    return allow(request, response)


def allow(request: Request, response: Response) -> Response:
    """`response`, allowed to the request's origin (unchanged for a request without one)."""
    origin = request.headers.get("Origin")
    if origin:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Allow-Credentials"] = "true"
        response.vary.add("Origin")
    return response
