"""Every exception flexclient raises, in one hierarchy, and every warning it gives.

    FlexError                              anything raised by flexclient
    ├── ParameterError (ValueError)        a parameter that cannot be sent; nothing was sent
    ├── AssetReferenceError (LookupError)  asset data refers to an asset the answer lacks
    ├── RelationshipNotIncludedError       a relationship the response did not include
    │     (LookupError)
    ├── RelationshipTypeError (TypeError)  a relationship holds another type than its model says
    ├── MissingExtraError (ImportError)    an optional package is not installed; names the extra
    ├── ProcessFileError (ValueError)      a transaction process (process.edn) the fake
    │                                      marketplace cannot run; names the file and the place
    ├── TokenStoreError (OSError)          a token store that cannot be used (a folder as file,
    │                                      a file another user could have planted)
    ├── PositionStoreError (OSError)       an event position store that cannot be used
    ├── MirrorError                        a mirror's database cannot be used, or the data
    │                                      the API sent cannot be mirrored; names the
    │                                      database (no password) and what to do
    ├── CreditBudgetExceededError          a call would take the credits meter past the budget;
    │                                      nothing was sent
    ├── TransportError (OSError)           no HTTP answer: connection refused or reset, DNS
    │   └── RequestTimeoutError            no answer in time, or the call's deadline passed
    │                                      (also a TimeoutError)
    └── ApiError                           the server answered, and not with a usable success
        ├── ClientError                    4xx
        │   ├── BadRequestError            400
        │   ├── UnauthorizedError          401
        │   ├── PaymentRequiredError       402
        │   ├── ForbiddenError             403
        │   ├── NotFoundError              404
        │   ├── ConflictError              409
        │   ├── PayloadTooLargeError       413
        │   └── RateLimitError             429
        ├── ServerError                    5xx
        ├── RedirectError                  a 3xx: flexclient follows no redirect
        ├── AuthError                      a token request (login, refresh, ...) failed
        └── UnexpectedResponseError        a 2xx whose body is not a readable API envelope
            └── ResponseTooLargeError      a body over the client's `max_response_bytes`

    UserWarning
    ├── UnknownParameterWarning            a parameter key the endpoint does not document
    ├── SessionAuthWarning                 a session's `auth` that flexclient does not apply
    └── PaginationLimitWarning             `.iter()` or `.pages()` stopped at the pagination
                                           limit; more results exist

An `ApiError` always carries the status, the status text, the response headers and the raw
body text, and `data`, the parsed error envelope; `retries` counts the retries made before it
and `retry_after` is the wait the server asked for, if it did (`Retry-After`). When the body is
not in the API's error shape (a plain-text 500, an HTML page from a proxy, truncated
Transit), `data.errors` is empty and the raw body is still there in `body`.

Each class here reports `flexclient` as its module (`flexclient.NotFoundError: 404 ...` in a
traceback), the name programs import it by; errors pickle and copy with their attributes.
"""

from __future__ import annotations

import copyreg
import importlib
import inspect
from collections.abc import Callable, Mapping
from decimal import Decimal
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from flexclient._support.json_reading import read_json
from flexclient._support.narrow import is_json_object

if TYPE_CHECKING:
    from flexclient._errors.body import ErrorEnvelope


# `cls.__new__(cls)`, which pickle writes as its NEWOBJ (typeshed does not declare it).
_NEWOBJ: Callable[..., object] = vars(copyreg)["__newobj__"]


class FlexError(Exception):
    """Base class of every exception raised by flexclient."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt as pickle and copy rebuild an instance of a plain class: made without
        # calling `__init__` (whose arguments are not `args`), then given `args` and the
        # state the builtin base keeps (the attributes; `ImportError.name` too). `args` is
        # state too: `OSError` leaves it to `__init__` when a subclass defines one.
        state: dict[str, Any] = {"args": self.args}
        reduced = super().__reduce__()
        if isinstance(reduced, tuple) and len(reduced) > 2 and reduced[2]:
            state.update(cast("dict[str, Any]", reduced[2]))
        return _NEWOBJ, (type(self),), state


class ParameterError(FlexError, ValueError):
    """A parameter that cannot be written to the wire; raised before any request is sent.

    >>> err = ParameterError("perPage", "cannot write a value of type object")
    >>> err.param
    'perPage'
    """

    def __init__(self, param: str, problem: str) -> None:
        self.param = param
        self.problem = problem
        super().__init__(f"parameter {param!r}: {problem}")


class RelationshipNotIncludedError(FlexError, LookupError):
    """A relationship was read that the response did not include.

    `include_path` is the value to add to the query's `include` parameter, for example
    `"author.profileImage"`.
    """

    def __init__(self, include_path: str, detail: str = "") -> None:
        self.include_path = include_path
        message = (
            f"relationship {include_path!r} is not in this response; "
            f"add {include_path!r} to the query's include parameter"
        )
        super().__init__(f"{message} ({detail})" if detail else message)


class RelationshipTypeError(FlexError, TypeError):
    """A typed relationship accessor found a resource of another type than it declares.

    `related(name)` still gives the resource, whatever its type.
    """


class MissingExtraError(FlexError, ImportError):
    """An optional package a feature needs is not installed; the message says how to install
    it, and names flexclient's extra that includes it.

    The hint installs the package itself, not `flexclient[extra]`: the distribution is
    `sharetribe-flexclient`, installed from its source, and the `flexclient` on PyPI is
    another project.

    >>> print(MissingExtraError("tqdm", "progress", "a progress bar"))
    a progress bar needs tqdm: pip install tqdm (the "progress" extra of sharetribe-flexclient)
    """

    def __init__(self, package: str, extra: str, feature: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{feature} needs {package}: pip install {package}"
            f' (the "{extra}" extra of sharetribe-flexclient)'
        )
        self.name: str | None = package


class ProcessFileError(FlexError, ValueError):
    """A transaction process the fake marketplace cannot run: a process.edn file that is not
    valid EDN, not in Sharetribe's process format, or that uses an action, a time expression
    or a timepoint the fake does not know. `where` names the file, and the message the
    transition or notification at fault.

    >>> print(ProcessFileError("my-process/process.edn", "transition/pay: unknown action"))
    my-process/process.edn: transition/pay: unknown action
    """

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}")


class AssetReferenceError(FlexError, LookupError):
    """Asset data refers to an asset (`{"_ref": {...}}`) that the answer did not include.

    `where` is the place in the data (`logo`, `sections[2].media.image`), `ref_type` and
    `ref_id` the reference, `asset_path` the asset holding it.
    """

    def __init__(self, asset_path: str, where: str, ref_type: str, ref_id: object) -> None:
        self.asset_path = asset_path
        self.where = where
        self.ref_type = ref_type
        self.ref_id = ref_id
        super().__init__(
            f"asset {asset_path!r} refers at {where or '(top)'!r} to {ref_type} {ref_id!r}, "
            f"which the answer does not include"
        )


class UnknownParameterWarning(UserWarning):
    """A parameter key the endpoint does not document (and of no open family such as
    `pub_*`): it is sent all the same, and the warning names the documented keys it resembles.
    Turn it into an error with `warnings.simplefilter("error", UnknownParameterWarning)`."""


class SessionAuthWarning(UserWarning):
    """A `requests.Session` passed to a client has an `auth` that flexclient does not apply:
    it would replace the bearer token (a proxy's credentials go in its URL)."""


class PaginationLimitWarning(UserWarning):
    """The API lets a query read only its first `paginationLimit` pages; more results exist.

    Warned when `.iter()` or `.pages()` stops at that limit. To make it an error:

    >>> import warnings
    >>> warnings.simplefilter("error", PaginationLimitWarning)  # doctest: +SKIP
    """


class TokenStoreError(FlexError, OSError):
    """A token store that cannot be used at all, such as a `FileTokenStore` whose path is a
    folder. (A token file that cannot be read is only warned about, and counts as none.)"""


class PositionStoreError(FlexError, OSError):
    """An event feed's position store that cannot be used: a path that is a folder or not a
    regular file, a file that does not hold a sequence ID. The feed stops rather than start
    again from the wrong place."""


class MirrorError(FlexError):
    """A mirror (`flexclient.mirror.Mirror`) that cannot go on: its database cannot be
    opened, read or written (not a database, someone else's tables, a newer schema, locked,
    full), or what the API answered cannot be mirrored. `database` is the database's URL with
    any password left out; the message says what happened and what to do.

    >>> print(MirrorError("sqlite:///market.db", "locked by another writer for 30 s"))
    sqlite:///market.db: locked by another writer for 30 s
    """

    def __init__(self, database: str, problem: str) -> None:
        self.database = database
        self.problem = problem
        super().__init__(f"{database}: {problem}" if database else problem)


class CreditBudgetExceededError(FlexError):
    """A billable call that could take the client's credits meter past its budget; raised
    before anything is sent. `budget` is the budget in credits, `spent` what the meter held,
    `cost` what the call could cost, `endpoint` its path.

    >>> from decimal import Decimal
    >>> err = CreditBudgetExceededError(
    ...     budget=Decimal(10), spent=Decimal(8), cost=Decimal(5), endpoint="/v1/api/listings/query"
    ... )
    >>> str(err)
    '/v1/api/listings/query costs up to 5 credits; 8 of the budget of 10 are spent'
    """

    def __init__(self, *, budget: Decimal, spent: Decimal, cost: Decimal, endpoint: str) -> None:
        self.budget = budget
        self.spent = spent
        self.cost = cost
        self.endpoint = endpoint
        super().__init__(
            f"{endpoint} costs up to {cost} credits; {spent} of the budget of {budget} are spent"
        )


class TransportError(FlexError, OSError):
    """The request got no (complete) HTTP answer: connection refused or reset, DNS failure,
    a timeout. `never_connected` is True when the request certainly did not reach the server;
    `retries` counts the retries made before giving up."""

    def __init__(self, message: str, *, kind: str = "", never_connected: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        self.never_connected = never_connected
        self.retries = 0

    @classmethod
    def of(cls, request: str, exc: Exception, *, never_connected: bool) -> TransportError:
        """The error for a failure of the HTTP library while sending `request`."""
        kind = type(exc).__name__
        timed_out = "Timeout" in kind or isinstance(exc, TimeoutError)
        made = RequestTimeoutError if timed_out else TransportError
        return made(f"{request}: {kind}: {exc}", kind=kind, never_connected=never_connected)


class RequestTimeoutError(TransportError, TimeoutError):
    """No answer within the timeout (connecting, or reading the answer)."""


_BODY_SNIPPET = 500


class ApiError(FlexError):
    """The API answered with an error status, or with a body that cannot be read.

    >>> try:
    ...     sdk.listings.show({"id": listing_id})  # doctest: +SKIP
    ... except NotFoundError as e:
    ...     e.status, e.data.errors[0].code
    (404, 'not-found')
    """

    def __init__(
        self,
        status: int,
        status_text: str,
        *,
        data: ErrorEnvelope | None = None,
        body: str = "",
        headers: Mapping[str, str] | None = None,
        request: str = "",
        reason: str = "",
    ) -> None:
        self.status = status
        self.status_text = status_text
        self._data = data
        self.body = body
        self.headers: Mapping[str, str] = headers if headers is not None else {}
        self.request = request
        self.retries = 0
        self.retry_after: float | None = None
        self.body_truncated = False
        super().__init__(self._message(reason))

    def _message(self, reason: str) -> str:
        parts = [f"{self.status} {self.status_text}".strip()]
        if self.request:
            parts.append(f"from {self.request}")
        if reason:
            parts.append(f"- {reason}")
        if self._data is not None and self._data.errors:
            described = "; ".join(f"{e.code}: {e.title}" for e in self.data.errors)
            parts.append(f"- {described}")
        elif self.body:
            snippet = self.body[:_BODY_SNIPPET]
            more = "..." if len(self.body) > _BODY_SNIPPET else ""
            parts.append(f"- body: {snippet!r}{more}")
        return " ".join(parts)

    @property
    def data(self) -> ErrorEnvelope:
        """The parsed error envelope; `data.errors` is empty when the body had none."""
        if self._data is None:
            # The body's models are imported with the first error that has one, or asks.
            from flexclient._errors.body import ErrorEnvelope

            self._data = ErrorEnvelope()
        return self._data

    @data.setter
    def data(self, value: ErrorEnvelope) -> None:
        self._data = value

    @property
    def codes(self) -> list[str]:
        """The `code` of every error in the body, in order."""
        return [e.code for e in self.data.errors]


class ClientError(ApiError):
    """A 4xx answer: the request was refused."""


class BadRequestError(ClientError):
    """400: invalid parameters (`validation-*` codes) or an unsupported content type."""


class UnauthorizedError(ClientError):
    """401: missing, expired or invalid access token."""


class PaymentRequiredError(ClientError):
    """402: a payment failed (`transaction-payment-failed`)."""


class ForbiddenError(ClientError):
    """403: the token does not allow this call."""


class NotFoundError(ClientError):
    """404: the resource does not exist (show endpoints; queries answer empty data)."""


class ConflictError(ClientError):
    """409: the request conflicts with the current state (e.g. `email-taken`)."""


class PayloadTooLargeError(ClientError):
    """413: the request or upload is too large."""


class RateLimitError(ClientError):
    """429: too many requests (`too-many-requests`)."""


class ServerError(ApiError):
    """A 5xx answer; its body is often plain text."""


class RedirectError(ApiError):
    """A 3xx answer. flexclient follows no redirect: the APIs do not redirect, and a request
    re-sent elsewhere would carry its credentials there. `location` is the `Location` header.

    >>> RedirectError(307, "Temporary Redirect", location="https://elsewhere.test/").location
    'https://elsewhere.test/'
    """

    def __init__(self, status: int, status_text: str, *, location: str | None, **kw: Any) -> None:
        self.location = location
        super().__init__(status, status_text, reason=f"redirect to {location!r} not followed", **kw)


class AuthError(ApiError):
    """A request to the Authentication API failed: wrong credentials, an unknown client ID,
    a revoked refresh token. `error` and `error_description` are the OAuth error the API
    answered (`"invalid_grant"`, ...), when it did; `status` and `body` tell the rest. Tokens
    are cut out of `body`.

    >>> AuthError(401, "Unauthorized", body='{"error":"invalid_grant","error_description":"Bad"}')
    AuthError('401 Unauthorized - invalid_grant: Bad')
    """

    def __init__(self, status: int, status_text: str, **kw: Any) -> None:
        error, description = _oauth_error(kw.get("body", ""))
        self.error: str | None = error
        self.error_description: str | None = description
        if self.error and not kw.get("reason"):
            described = f": {self.error_description}" if self.error_description else ""
            kw["reason"] = f"{self.error}{described}"
        super().__init__(status, status_text, **kw)

    def _message(self, reason: str) -> str:
        if self.error and (self._data is None or not self._data.errors):
            # The OAuth error says it all; the raw body stays in `body`.
            parts = [f"{self.status} {self.status_text}".strip()]
            if self.request:
                parts.append(f"from {self.request}")
            return " ".join([*parts, f"- {reason}"])
        return super()._message(reason)


def _oauth_error(body: str) -> tuple[str | None, str | None]:
    """`error` and `error_description` of an OAuth error body, if it is one."""
    try:
        data = read_json(body) if body.lstrip().startswith("{") else None
    except ValueError:
        return None, None
    if not is_json_object(data):
        return None, None
    error, description = data.get("error"), data.get("error_description")
    if not isinstance(error, str):
        return None, None
    return error, description if isinstance(description, str) else None


class UnexpectedResponseError(ApiError):
    """A success status whose body is not a readable API envelope."""


class ResponseTooLargeError(UnexpectedResponseError):
    """The body was larger than the client's `max_response_bytes`; it was not read whole."""


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequestError,
    401: UnauthorizedError,
    402: PaymentRequiredError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    429: RateLimitError,
}


def error_class_for(status: int) -> type[ApiError]:
    """The most specific `ApiError` subclass for an HTTP status.

    >>> error_class_for(404).__name__, error_class_for(418).__name__, error_class_for(503).__name__
    ('NotFoundError', 'ClientError', 'ServerError')
    """
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if 400 <= status < 500:
        return ClientError
    if status >= 500:
        return ServerError
    return UnexpectedResponseError


def _report_flexclient(namespace: Mapping[str, object]) -> None:
    # Programs meet these classes as `flexclient.<name>`, and pickle finds them there.
    for value in namespace.values():
        if not isinstance(value, type) or value.__module__ != __name__:
            continue
        if issubclass(value, FlexError | Warning):
            value.__module__ = "flexclient"


_report_flexclient(globals())


# The package's own folder: a frame whose code lives below it is flexclient's, not the user's.
_PACKAGE = str(Path(__file__).parents[1])


def callers_level() -> int:
    """The `stacklevel` of the first frame outside flexclient: the user's call, which a
    warning should name."""
    # From this function's own frame (level 0), which is in the package too.
    frame, level = inspect.currentframe(), 0
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import the optional package `module` for `feature`, or raise `MissingExtraError` naming
    the extra that installs it.

    >>> require("json", "none", "reading JSON").__name__
    'json'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(module.split(".")[0], extra, feature) from exc
