"""The kinds of endpoint: queries, list queries, commands and uploads.

An endpoint is declared once, as a class attribute of its group in `flexclient._endpoints.table`:

    query: OptionalListQuery[ListingsQueryParams, Listing] = OptionalListQuery(
        "listings/query", "The marketplace's published listings, ..."
    )

Read from a group of a client, it is a copy of itself bound to that client (made once per
client), which sends the request when called. The type arguments are the parameters the
method takes (a TypedDict of `flexclient.params`) and the model of the `data` it answers,
read from the annotation when first needed (`Endpoint.declared`).

| kind | first argument required | first argument optional (no required keys) |
|---|---|---|
| GET, one resource | `Query` | `OptionalQuery` |
| GET, a list, page by page | `ListQuery` | `OptionalListQuery` |
| POST | `Command` | `OptionalCommand` |
| multipart POST | `Upload` | |

Each optional form is a subclass of its kind that gives the first argument a default: a
subclass may widen what its base accepts, never narrow it. So `isinstance(m, Query)` holds for
every GET endpoint, `ListQuery` for every list and `Command` for every POST.

The first argument is typed as the TypedDict itself (not `P | None`), so that mypy and
pyright name a wrong key, a wrong value or a missing key; a method whose endpoint needs
keys cannot be called without them. Keys of the API's open families (`pub_*`, `meta_*`,
`priv_*`, `prot_*`, `fields.*`, `imageVariant.*`, `limit.*`) go in the keyword `custom=`,
which any method takes: they are checked to be of those families and joined to the query
parameters. At run time any mapping is accepted as the parameters.

`help()` of an endpoint says what it does, its path, its credits and its keys
(`flexclient._endpoints.docs`, imported only then).
"""

from __future__ import annotations

import copy
import functools
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import SimpleNamespace
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Literal,
    Never,
    Self,
    TypedDict,
    TypeVar,
    get_args,
    get_type_hints,
    overload,
)

import flexclient.models
import flexclient.params
from flexclient._endpoints import pages as _pages
from flexclient._endpoints.checks import (
    check_call,
    check_mapping,
    check_parts,
    no_second_argument,
    with_custom,
)
from flexclient._errors import ParameterError
from flexclient._http.multipart import ProgressCallback, UploadProgress
from flexclient._support.frozen import Frozen
from flexclient._support.narrow import is_mapping
from flexclient._support.suggest import no_such
from flexclient.credits import UsageType, credits_for, usage_type
from flexclient.models import Envelope
from flexclient.params import CommandQueryParams

if TYPE_CHECKING:
    from inspect import Signature

    from flexclient._base_client import BaseClient

P = TypeVar("P", bound=Mapping[str, Any])
D = TypeVar("D")
T = TypeVar("T")
R = TypeVar("R")

Kind = Literal["query", "command", "upload"]
Timeout = float | tuple[float, float]
Custom = Mapping[str, object]
"""Keys of the API's open families: `{"pub_category": "road", "imageVariant.x": ...}`."""

# The default of an optional first argument: typed Any so that the argument itself keeps its
# TypedDict type (a `P | None` parameter would hide the TypedDict's own messages).
_OMITTED: Any = None


@dataclass(frozen=True, eq=False, repr=False)
class Response(Frozen, Generic[T]):
    """A successful answer: `status`, `status_text`, `headers`, and `data` (the envelope).

    `headers` is a read-only mapping whose keys ignore case (`res.headers["content-type"]`);
    `retries` counts the times the request was sent again before this answer.

    >>> res = sdk.listings.query({"perPage": 5})  # doctest: +SKIP
    >>> res.status, res.status_text, len(res.data.data)  # doctest: +SKIP
    (200, 'OK', 5)
    """

    status: int
    status_text: str
    # Left out of repr(): a page of headers says little in a notebook or a log line.
    headers: Mapping[str, str] = field(repr=False)
    data: T
    retries: int = 0


class RequestOptions(TypedDict, total=False):
    """Per-call options of commands (the third argument).

    `on_upload_progress` is called with an `UploadProgress` (`.loaded`, `.total`) as an
    upload is sent; `progress_bar=True` shows a tqdm bar for it (the `progress` extra);
    `timeout` overrides the client's timeout for this call, `deadline` its total deadline
    (seconds for the whole call, retries and token requests included), `credit_budget` the
    credits the call may spend (its token requests and retries included): a request that
    could take it past that is not sent (`CreditBudgetExceededError`).
    """

    on_upload_progress: Callable[[UploadProgress], object]
    progress_bar: bool
    timeout: Timeout
    deadline: float
    credit_budget: int | Decimal


Params = Mapping[str, object]
"""Parameters of any endpoint, keys as the API spells them (what the run time accepts)."""


class Group:
    """A group of endpoints (`listings`, `own_listings`, ...) of one client."""

    def __init__(self, client: BaseClient) -> None:
        self._client = client

    def __repr__(self) -> str:
        names = sorted(k for k, v in type(self).__dict__.items() if isinstance(v, Endpoint))
        return f"<{type(self).__name__}: {', '.join(names)}>"

    if not TYPE_CHECKING:  # for type checkers, a misspelled endpoint stays an error

        def __getattr__(self, name: str) -> Any:
            raise no_such(self, name, Endpoint, "endpoint")


def _client_of(group: Group) -> BaseClient:
    """The client of `group`, for the endpoints (descriptors on the group) to bind to."""
    return group._client  # pyright: ignore[reportPrivateUsage]  # Group's own endpoints read it


G = TypeVar("G", bound=Group)


class GroupSlot(Generic[G]):
    """A group as an attribute of a client class; made once per client, on first use."""

    def __init__(self, cls: type[G]) -> None:
        self.cls = cls
        self.name: str = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, client: None, owner: type) -> Self: ...
    @overload
    def __get__(self, client: object, owner: type) -> G: ...
    def __get__(self, client: object | None, owner: type) -> Self | G:
        if client is None:
            return self
        made = self.cls(client)  # type: ignore[arg-type]
        # Stored under the same name, it hides this (non-data) descriptor from now on.
        client.__dict__[self.name] = made
        return made


def group(cls: type[G]) -> GroupSlot[G]:
    """Declare a group of endpoints as a client attribute."""
    return GroupSlot(cls)


class _TableNames(dict[str, object]):
    """The names the table's annotations use and imports for the checkers only: TypedDicts
    of `flexclient.params` and models of `flexclient.models`, which import only the module
    of a name asked for (or, without `models`, take every model as Any, importing none). Any
    other name is the table module's own."""

    def __init__(self, models: bool) -> None:
        super().__init__()
        self.models = models

    def __missing__(self, name: str) -> object:
        # Its `__all__` first: asked for a name it lacks, a package looks for suggestions.
        if name in getattr(flexclient.params, "__all__", ()):
            return getattr(flexclient.params, name)
        if name in getattr(flexclient.models, "__all__", ()):
            return getattr(flexclient.models, name) if self.models else Any
        raise KeyError(name)


class _Doc(str):
    """A kind's docstring which, read from an endpoint, is that endpoint's own: what `help()`
    shows of it (`flexclient._endpoints.docs`)."""

    def __get__(self, endpoint: Endpoint[Any, Any] | None, owner: type) -> str:
        if endpoint is None:
            return self
        from flexclient._endpoints.docs import describe

        return describe(endpoint)


class Endpoint(Generic[P, D]):
    """An endpoint of a group, declared in the table, or bound to a client (see the module
    docstring). What a bound one knows of the declaration it was made from is shared: its
    path, its `summary` (what it does), its types."""

    kind: ClassVar[Kind] = "query"
    params_required: ClassVar[bool] = True
    """True when the method's first argument is required (the endpoint needs keys)."""

    def __init__(self, path: str, summary: str, *, deprecated: str | None = None) -> None:
        self.path = path
        self.summary = summary
        self.deprecated = deprecated
        """Why the endpoint is deprecated (a call warns with a `DeprecationWarning`), or None."""
        self.name: str = ""
        self.endpoint: Endpoint[P, D] = self
        """The declaration in the table; a bound endpoint's is the one it was made from."""
        self._group: type | None = None

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls.__doc__ = _Doc(cls.__doc__ or "")

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self._group = owner

    def __repr__(self) -> str:
        return f"<{self.kind} {self.path}>"

    @property
    def __name__(self) -> str:
        """The method's name (`create`), as `help()` titles it."""
        return self.name

    @property
    def __signature__(self) -> Signature:
        """The method's signature, with the types of this endpoint, as `help()` shows it."""
        from flexclient._endpoints.docs import signature

        return signature(self)

    def _type_args(self, models: bool) -> tuple[Any, ...]:
        # The endpoint's annotation in its group, `query: OptionalListQuery[
        # ListingsQueryParams, Listing] = ...`, names its TypedDict and model; the table
        # imports neither. get_type_hints reads every annotation of a class: it is given this
        # one alone, so that an endpoint imports its own types only, when first needed.
        owner = self._group
        annotation = vars(owner).get("__annotations__", {}).get(self.name) if owner else None
        if owner is None or annotation is None:
            return ()
        one = SimpleNamespace(__annotations__={"hint": annotation})
        names = vars(sys.modules[owner.__module__])
        return get_args(get_type_hints(one, names, _TableNames(models))["hint"])

    @functools.cached_property
    def _declared(self) -> tuple[Any, ...]:
        return self._type_args(models=True)

    @functools.cached_property
    def _params(self) -> Any:
        # A call needs its TypedDict, not its model (the answer's resource types choose the
        # models): read without the model, whose module is not imported for it.
        args = self._type_args(models=False)
        return args[0] if args else Params

    def declared(self) -> tuple[Any, ...]:
        """The type arguments the endpoint is declared with in its group: (the TypedDict of its
        parameters, the model it answers); () for an endpoint declared without them."""
        return self.endpoint._declared

    @property
    def params_type(self) -> Any:
        """The TypedDict of the parameters (query parameters of a query, body of a
        command) the endpoint was declared with."""
        return self.endpoint._params

    @property
    def query_params_type(self) -> Any:
        """The TypedDict of the query parameters: the parameters of a query, and the shared
        `CommandQueryParams` (`expand`, `include`, `fields.*`) of a command."""
        return self.params_type if self.kind == "query" else CommandQueryParams

    @property
    def data_type(self) -> Any:
        """The `data` of the envelope it answers: a model, or `list[...]` of one."""
        declared = self.declared()
        return declared[1] if declared else Any


class Bound:
    """What an endpoint has once bound to a client, whatever its types: its URL path, the
    credits a call costs, and its declaration in the table (`endpoint`). Every kind is one
    (a declaration has no client, and no URL path, yet); not generic, so that
    `isinstance(x, Bound)` is all a checker needs to read these of any endpoint."""

    _client: BaseClient
    path: str
    endpoint: Endpoint[Any, Any]

    @property
    def url_path(self) -> str:
        """The endpoint's URL path, `/v1/api/listings/query`."""
        return self._client.path_for(self.path)

    @property
    def usage_type(self) -> UsageType | None:
        """What the API bills a call as (`"Heavy read"`), None for a call that bills nothing
        (docs/credits.md).

        >>> sdk.listings.query.usage_type  # doctest: +SKIP
        'Heavy read'
        """
        return usage_type(self.url_path)

    @property
    def credits(self) -> Decimal:
        """The credits one billed call costs, data transfer aside (0 for one that bills
        nothing).

        >>> sdk.listings.query.credits  # doctest: +SKIP
        Decimal('5')
        """
        return credits_for(self.url_path)


class _Bindable(Endpoint[P, D], Bound):
    """An endpoint that, read from a group of a client, is a copy of itself bound to the
    client. (`Endpoint` itself is no descriptor: a dataclass field typed `Endpoint` is a
    plain attribute to the checkers.)"""

    def __get__(self, group: Group | None, owner: type) -> Self:
        if group is None:
            return self
        bound = copy.copy(self)
        bound._client = _client_of(group)
        # Stored in the group under the same name, it hides this (non-data) descriptor.
        vars(group)[self.name] = bound
        return bound

    def __repr__(self) -> str:
        if not hasattr(self, "_client"):  # a declaration of the table
            return super().__repr__()
        billed = f"{self.usage_type}, {self.credits} credits" if self.usage_type else "not billed"
        return f"<{self.kind} {self.url_path} ({billed})>"


def _options(
    timeout: Timeout | None, deadline: float | None, credit_budget: int | Decimal | None = None
) -> RequestOptions:
    opts: RequestOptions = {}
    if timeout is not None:
        opts["timeout"] = timeout
    if deadline is not None:
        opts["deadline"] = deadline
    if credit_budget is not None:
        opts["credit_budget"] = credit_budget
    return opts


class Query(_Bindable[P, D]):
    """A GET endpoint that needs parameters: `method(params)`."""

    kind: ClassVar[Kind] = "query"

    def __call__(
        self,
        params: P,
        /,
        *extra: Never,
        custom: Custom | None = None,
        timeout: Timeout | None = None,
        deadline: float | None = None,
        credit_budget: int | Decimal | None = None,
    ) -> Response[Envelope[D]]:
        """Send the query; `params` are the query parameters, keys as the API spells them,
        and `custom` the keys of the open families (`pub_*`, `fields.*`, ...). `timeout`
        overrides the client's for this call (seconds, or (connect, read)), `deadline`
        the seconds the whole call may take, and `credit_budget` the credits it may spend.
        A second argument, which the JS SDK drops silently, is a `ParameterError` (`extra`
        takes it to say so; the checkers refuse it)."""
        no_second_argument(self, extra)
        return self._send(with_custom(params, custom), _options(timeout, deadline, credit_budget))

    def _send(self, query: Params | None, opts: RequestOptions) -> Response[Envelope[D]]:
        check_call(self, query, None)
        return self._client.call(self.endpoint, query=query, opts=opts)


class OptionalQuery(Query[P, D]):
    """A GET endpoint whose parameters may all be left out: `method(params)` or `method()`."""

    params_required: ClassVar[bool] = False

    def __call__(
        self,
        params: P = _OMITTED,
        /,
        *extra: Never,
        custom: Custom | None = None,
        timeout: Timeout | None = None,
        deadline: float | None = None,
        credit_budget: int | Decimal | None = None,
    ) -> Response[Envelope[D]]:
        """Send the query; see `Query.__call__`."""
        no_second_argument(self, extra)
        return self._send(with_custom(params, custom), _options(timeout, deadline, credit_budget))


def _check_pages_params(params: object) -> None:
    """The checks of a call's parameters that must come before the pages copy them (each
    page's is the parameters with its `page`): one mapping, or None."""
    check_parts("query_params", params)
    check_mapping("query_params", params)


class ListQuery(Query[P, list[R]]):
    """A GET endpoint answering a list of resources of type R, page by page, that needs
    parameters: `method(params)`, `method.iter(params)`, `method.pages(params)`.

    >>> for slot in sdk.timeslots.query.iter({"listingId": id, "start": s, "end": e}):
    ...     print(slot.attributes.start)  # doctest: +SKIP
    """

    @property
    def data_type(self) -> Any:
        """`list[...]` of the model of its resources."""
        item = self.declared()[1:] or (Any,)
        return list.__class_getitem__(item[0])

    def pages(
        self,
        params: P,
        /,
        *,
        custom: Custom | None = None,
        max_pages: int | None = None,
        timeout: Timeout | None = None,
    ) -> Iterator[Response[Envelope[list[R]]]]:
        """The responses of successive pages, lazily, from `params["page"]` (or the first)
        to the last page, the query's pagination limit (with a `PaginationLimitWarning`
        when results remain), or `max_pages`. Every other parameter is kept."""
        opts = _options(timeout, None)
        _check_pages_params(params)
        return _pages.pages(lambda p: self._send(p, opts), with_custom(params, custom), max_pages)

    def iter(
        self,
        params: P,
        /,
        *,
        custom: Custom | None = None,
        max_items: int | None = None,
        progress: bool = False,
        timeout: Timeout | None = None,
    ) -> Iterator[R]:
        """Every resource of every page, one by one, lazily, with its relationships
        resolved; at most `max_items`. `progress=True` shows a tqdm progress bar (the
        `progress` extra)."""
        opts = _options(timeout, None)
        _check_pages_params(params)
        query = with_custom(params, custom)
        return _pages.items(lambda p: self._send(p, opts), query, max_items, progress)


class OptionalListQuery(OptionalQuery[P, list[R]], ListQuery[P, R]):
    """A list query whose parameters may all be left out, in `iter` and `pages` too.

    >>> for listing in sdk.listings.query.iter({"perPage": 100}, custom={"pub_category": "road"}):
    ...     print(listing.attributes.title)  # doctest: +SKIP
    """

    def pages(
        self,
        params: P = _OMITTED,
        /,
        *,
        custom: Custom | None = None,
        max_pages: int | None = None,
        timeout: Timeout | None = None,
    ) -> Iterator[Response[Envelope[list[R]]]]:
        """See `ListQuery.pages`."""
        return super().pages(params, custom=custom, max_pages=max_pages, timeout=timeout)

    def iter(
        self,
        params: P = _OMITTED,
        /,
        *,
        custom: Custom | None = None,
        max_items: int | None = None,
        progress: bool = False,
        timeout: Timeout | None = None,
    ) -> Iterator[R]:
        """See `ListQuery.iter`."""
        return super().iter(
            params, custom=custom, max_items=max_items, progress=progress, timeout=timeout
        )


class Command(_Bindable[P, D]):
    """A POST endpoint whose body has required keys: `method(body_params, query_params,
    opts)`, `body_params` required."""

    kind: ClassVar[Kind] = "command"

    def __call__(
        self,
        body_params: P,
        query_params: CommandQueryParams = _OMITTED,
        opts: RequestOptions = _OMITTED,
        /,
        *,
        custom: Custom | None = None,
        timeout: Timeout | None = None,
        deadline: float | None = None,
        credit_budget: int | Decimal | None = None,
    ) -> Response[Envelope[D]]:
        """Send the command. Pass `{"expand": True}` as query params to get the whole
        resource back rather than only its id and type.

        Per-call options go in `opts`, as in the official SDK, or as keywords: `timeout`
        (seconds, or (connect, read)), `deadline` (seconds for the whole call) and
        `credit_budget` (credits the call may spend). `custom` takes query keys of the open
        families (`fields.*`, `imageVariant.*`, `limit.*`)."""
        given = _options(timeout, deadline, credit_budget)
        return self._send(body_params, query_params, opts, custom, given)

    def _send(
        self,
        body: Params | None,
        query: Params | None,
        opts: RequestOptions | None,
        custom: Custom | None,
        keywords: RequestOptions,
    ) -> Response[Envelope[D]]:
        query = with_custom(query, custom, "query_params")
        check_call(self, query, body)
        return self._client.call(
            self.endpoint, body=body, query=query, opts=merged_options(opts, keywords)
        )


class OptionalCommand(Command[P, D]):
    """A POST endpoint whose parameters may all be left out: `method()` too."""

    params_required: ClassVar[bool] = False

    def __call__(
        self,
        body_params: P = _OMITTED,
        query_params: CommandQueryParams = _OMITTED,
        opts: RequestOptions = _OMITTED,
        /,
        *,
        custom: Custom | None = None,
        timeout: Timeout | None = None,
        deadline: float | None = None,
        credit_budget: int | Decimal | None = None,
    ) -> Response[Envelope[D]]:
        """Send the command; see `Command.__call__`."""
        given = _options(timeout, deadline, credit_budget)
        return self._send(body_params, query_params, opts, custom, given)


class Upload(Command[P, D]):
    """A multipart POST endpoint: a command whose body holds a file (`image`), and whose
    per-call options also take the upload's progress.

    >>> sdk.images.upload({"image": "photo.jpg"}, {}, progress_bar=True)  # doctest: +SKIP
    """

    kind: ClassVar[Kind] = "upload"

    def __call__(
        self,
        body_params: P,
        query_params: CommandQueryParams = _OMITTED,
        opts: RequestOptions = _OMITTED,
        /,
        *,
        custom: Custom | None = None,
        timeout: Timeout | None = None,
        deadline: float | None = None,
        credit_budget: int | Decimal | None = None,
        on_upload_progress: Callable[[UploadProgress], object] | None = None,
        progress_bar: bool | None = None,
    ) -> Response[Envelope[D]]:
        """Upload. `on_upload_progress` is called with an `UploadProgress` (`.loaded`,
        `.total`) as the file is sent; `progress_bar=True` shows a tqdm bar."""
        given = _options(timeout, deadline, credit_budget)
        if on_upload_progress is not None:
            given["on_upload_progress"] = on_upload_progress
        if progress_bar is not None:
            given["progress_bar"] = progress_bar
        return self._send(body_params, query_params, opts, custom, given)


def merged_options(opts: RequestOptions | None, keywords: RequestOptions) -> RequestOptions:
    """The per-call options given in `opts` and as keywords; the same option both ways with
    two values is an error."""
    if not keywords:
        return opts if opts is not None else {}
    if opts is None:
        return keywords
    if not is_mapping(opts):
        return opts  # the client says what is wrong with it
    for name, value in keywords.items():
        if name in opts and opts[name] != value:  # type: ignore[literal-required]
            raise ParameterError(name, "given both in opts and as a keyword, differently")
    return {**opts, **keywords}


__all__ = [
    "Bound",
    "Command",
    "Custom",
    "Endpoint",
    "Group",
    "GroupSlot",
    "ListQuery",
    "OptionalCommand",
    "OptionalListQuery",
    "OptionalQuery",
    "Params",
    "ProgressCallback",
    "Query",
    "RequestOptions",
    "Response",
    "Upload",
    "group",
]
