"""The kinds of endpoint method: queries, list queries, commands and uploads.

An endpoint is declared once, as a class attribute of its group in `flexclient._endpoints.table`
(`query = ListQuery[ListingsQueryParams, Listing]("listings/query")`); reading it from a
group of a client gives a callable bound to that client. The type arguments are the
parameters the method takes (a TypedDict of `flexclient.params`) and the `data` of the
envelope it returns; `Endpoint.params_type` and `Endpoint.data_type` read them back.

Each kind comes in two forms, and the table says which one an endpoint is:

| kind | first argument optional | first argument required (the endpoint needs keys) |
|---|---|---|
| GET, one resource | `Query` | `RequiredQuery` |
| GET, a list, page by page | `ListQuery` | `RequiredListQuery` |
| POST | `Command` | `RequiredCommand` |
| multipart POST | | `Upload` |

The first argument is typed as the TypedDict itself (not `P | None`), so that mypy and
pyright name a wrong key, a wrong value or a missing key; a method whose endpoint needs
keys cannot be called without them. Keys of the API's open families (`pub_*`, `meta_*`,
`priv_*`, `prot_*`, `fields.*`, `imageVariant.*`, `limit.*`) go in the keyword `custom=`,
which any method takes: they are checked to be of those families and joined to the query
parameters. At run time any mapping is accepted as the parameters.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Literal,
    Self,
    TypedDict,
    TypeVar,
    cast,
    overload,
)

from requests.structures import CaseInsensitiveDict

from flexclient._endpoints import pages as _pages
from flexclient._endpoints.checks import check_call, with_custom
from flexclient._errors import ParameterError
from flexclient._http.multipart import ProgressCallback, UploadProgress
from flexclient._support.frozen import Frozen
from flexclient._support.lazy import declared_args
from flexclient._support.narrow import is_mapping
from flexclient._support.suggest import no_such, vars_of
from flexclient.credits import UsageType, credits_for, usage_type
from flexclient.models import Envelope
from flexclient.params import CommandQueryParams

if TYPE_CHECKING:
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

    `retries` counts the times the request was sent again before this answer.

    >>> res = sdk.listings.query({"perPage": 5})  # doctest: +SKIP
    >>> res.status, res.status_text, len(res.data.data)  # doctest: +SKIP
    (200, 'OK', 5)
    """

    status: int
    status_text: str
    # Left out of repr(): a page of headers says little in a notebook or a log line.
    headers: CaseInsensitiveDict[str] = field(repr=False)
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


class Endpoint(Generic[P, D]):
    """An endpoint of a group; see the module docstring."""

    kind: ClassVar[Kind] = "query"
    params_required: ClassVar[bool] = False
    """True when the method's first argument is required (the endpoint needs keys)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.name: str = ""
        self._group: type | None = None
        self._params: Any = None

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self._group = owner

    @functools.cached_property
    def _declared(self) -> tuple[object, ...]:
        # The endpoint's annotation in its group, `query: ListQuery[ListingsQueryParams,
        # Listing] = ListQuery(...)`, names its TypedDict and model, looked up when first
        # needed: the table imports neither, and a call imports only its own endpoint's
        # TypedDict, and an answer the models of what it holds. Read when first needed too,
        # not for all hundred endpoints at import.
        return declared_args(self._group, self.name) if self._group is not None else ()

    def __repr__(self) -> str:
        return f"<{self.kind} {self.path}>"

    def declared(self) -> tuple[Any, ...]:
        """The type arguments the endpoint is declared with in its group: (the TypedDict of its
        parameters, the model it answers); () for an endpoint declared without them."""
        if not self._declared:
            return ()
        model = self._declared[1]
        if isinstance(model, str):
            import flexclient.models

            model = getattr(flexclient.models, model)
        return (self.params_type, model)

    @property
    def params_type(self) -> Any:
        """The TypedDict of the parameters (query parameters of a query, body of a
        command) the endpoint was declared with."""
        if self._params is None:
            found = self._declared[0] if self._declared else Params
            if isinstance(found, str):
                import flexclient.params

                found = getattr(flexclient.params, found)
            self._params = found
        return self._params

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


class Query(Endpoint[P, D]):
    """A GET endpoint: `method(params)`, with `params` optional."""

    kind: ClassVar[Kind] = "query"

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundQuery[P, D]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundQuery[P, D]:
        if group is None:
            return self
        return BoundQuery(_client_of(group), self)


class RequiredQuery(Query[P, D]):
    """A GET endpoint that needs parameters: `method(params)`."""

    params_required: ClassVar[bool] = True

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundRequiredQuery[P, D]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundRequiredQuery[P, D]:
        if group is None:
            return self
        return BoundRequiredQuery(_client_of(group), self)


class ListQuery(Endpoint[P, R]):
    """A GET endpoint answering a list of resources of type R, page by page: `method(params)`,
    `method.iter(params)`, `method.pages(params)`, with `params` optional."""

    kind: ClassVar[Kind] = "query"

    @property
    def data_type(self) -> Any:
        """`list[...]` of the model of its resources."""
        item = self.declared()[1:] or (Any,)
        return list.__class_getitem__(item[0])

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundListQuery[P, R]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundListQuery[P, R]:
        if group is None:
            return self
        return BoundListQuery(_client_of(group), self)


class RequiredListQuery(ListQuery[P, R]):
    """A list query that needs parameters (`timeslots.query` needs a listing and a period)."""

    params_required: ClassVar[bool] = True

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundRequiredListQuery[P, R]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundRequiredListQuery[P, R]:
        if group is None:
            return self
        return BoundRequiredListQuery(_client_of(group), self)


class Command(Endpoint[P, D]):
    """A POST endpoint: `method(body_params, query_params, opts)`, all optional."""

    kind: ClassVar[Kind] = "command"

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundCommand[P, D]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundCommand[P, D]:
        if group is None:
            return self
        return BoundCommand(_client_of(group), self)


class RequiredCommand(Command[P, D]):
    """A POST endpoint whose body has required keys: `body_params` must be given."""

    params_required: ClassVar[bool] = True

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundRequiredCommand[P, D]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundRequiredCommand[P, D]:
        if group is None:
            return self
        return BoundRequiredCommand(_client_of(group), self)


class Upload(Command[P, D]):
    """A multipart POST endpoint; the file goes in the body parameter `image`."""

    kind: ClassVar[Kind] = "upload"
    params_required: ClassVar[bool] = True

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundUpload[P, D]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundUpload[P, D]:
        if group is None:
            return self
        return BoundUpload(_client_of(group), self)


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


class Bound:
    """An endpoint of one client: what all kinds of bound method have in common."""

    def __init__(self, client: BaseClient, endpoint: Endpoint[Any, Any]) -> None:
        self._client = client
        self.endpoint = endpoint

    def __repr__(self) -> str:
        billed = f"{self.usage_type}, {self.credits} credits" if self.usage_type else "not billed"
        return f"<{self.endpoint.kind} {self.url_path} ({billed})>"

    @property
    def url_path(self) -> str:
        """The endpoint's URL path, `/v1/api/listings/query`."""
        return self._client.path_for(self.endpoint.path)

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


class BoundQuery(Bound, Generic[P, D]):
    """A query endpoint of one client; call it with the query parameters."""

    def __call__(
        self,
        params: P = _OMITTED,
        /,
        *,
        custom: Custom | None = None,
        timeout: Timeout | None = None,
        deadline: float | None = None,
        credit_budget: int | Decimal | None = None,
    ) -> Response[Envelope[D]]:
        """Send the query; `params` are the query parameters, keys as the API spells them,
        and `custom` the keys of the open families (`pub_*`, `fields.*`, ...). `timeout`
        overrides the client's for this call (seconds, or (connect, read)), `deadline`
        the seconds the whole call may take, and `credit_budget` the credits it may spend."""
        return self._send(with_custom(params, custom), _options(timeout, deadline, credit_budget))

    def _send(self, query: Params | None, opts: RequestOptions) -> Response[Envelope[D]]:
        check_call(self.endpoint, query, None)
        return self._client.call(self.endpoint, query=query, opts=opts)


class BoundRequiredQuery(BoundQuery[P, D]):
    """A query endpoint that needs parameters."""

    def __call__(  # type: ignore[override]  # the one difference: `params` is required
        self,
        params: P,
        /,
        *,
        custom: Custom | None = None,
        timeout: Timeout | None = None,
        deadline: float | None = None,
        credit_budget: int | Decimal | None = None,
    ) -> Response[Envelope[D]]:
        """Send the query; see `BoundQuery.__call__`."""
        return self._send(with_custom(params, custom), _options(timeout, deadline, credit_budget))


class BoundListQuery(BoundQuery[P, list[R]], Generic[P, R]):
    """A query endpoint whose answer is a list; it can also walk every page.

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
        """The responses of successive pages, lazily, from `params["page"]` (or the first)
        to the last page, the query's pagination limit (with a `PaginationLimitWarning`
        when results remain), or `max_pages`. Every other parameter is kept."""
        opts = _options(timeout, None)
        return _pages.pages(lambda p: self._send(p, opts), with_custom(params, custom), max_pages)

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
        """Every resource of every page, one by one, lazily, with its relationships
        resolved; at most `max_items`. `progress=True` shows a tqdm progress bar (the
        `progress` extra)."""
        opts = _options(timeout, None)
        query = with_custom(params, custom)
        return _pages.items(lambda p: self._send(p, opts), query, max_items, progress)


class BoundRequiredListQuery(BoundListQuery[P, R]):
    """A list query endpoint that needs parameters; `iter` and `pages` need them too."""

    def __call__(  # type: ignore[override]  # the one difference: `params` is required
        self,
        params: P,
        /,
        *,
        custom: Custom | None = None,
        timeout: Timeout | None = None,
        deadline: float | None = None,
        credit_budget: int | Decimal | None = None,
    ) -> Response[Envelope[list[R]]]:
        """Send the query; see `BoundQuery.__call__`."""
        return self._send(with_custom(params, custom), _options(timeout, deadline, credit_budget))

    def pages(  # type: ignore[override]
        self,
        params: P,
        /,
        *,
        custom: Custom | None = None,
        max_pages: int | None = None,
        timeout: Timeout | None = None,
    ) -> Iterator[Response[Envelope[list[R]]]]:
        """See `BoundListQuery.pages`."""
        return super().pages(params, custom=custom, max_pages=max_pages, timeout=timeout)

    def iter(  # type: ignore[override]
        self,
        params: P,
        /,
        *,
        custom: Custom | None = None,
        max_items: int | None = None,
        progress: bool = False,
        timeout: Timeout | None = None,
    ) -> Iterator[R]:
        """See `BoundListQuery.iter`."""
        return super().iter(
            params, custom=custom, max_items=max_items, progress=progress, timeout=timeout
        )


class BoundCommand(Bound, Generic[P, D]):
    """A command endpoint of one client; call it with body params, query params and opts."""

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
        """Send the command. Pass `{"expand": True}` as query params to get the whole
        resource back rather than only its id and type.

        Per-call options go in `opts`, as in the official SDK, or as keywords: `timeout`
        (seconds, or (connect, read)), `deadline` (seconds for the whole call) and
        `credit_budget` (credits the call may spend). `custom` takes query keys of the open
        families (`fields.*`, `imageVariant.*`, `limit.*`)."""
        return self._send(
            body_params, query_params, opts, custom, _options(timeout, deadline, credit_budget)
        )

    def _send(
        self,
        body: Params | None,
        query: Params | None,
        opts: RequestOptions | None,
        custom: Custom | None,
        keywords: RequestOptions,
    ) -> Response[Envelope[D]]:
        query = with_custom(query, custom, "query_params")
        check_call(self.endpoint, query, body)
        return self._client.call(
            self.endpoint, body=body, query=query, opts=merged_options(opts, keywords)
        )


class BoundRequiredCommand(BoundCommand[P, D]):
    """A command endpoint whose body has required keys."""

    def __call__(  # type: ignore[override]  # the one difference: `body_params` is required
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
        """Send the command; see `BoundCommand.__call__`."""
        return self._send(
            body_params, query_params, opts, custom, _options(timeout, deadline, credit_budget)
        )


class BoundUpload(BoundCommand[P, D]):
    """An upload endpoint of one client: a command whose per-call options also take the
    upload's progress.

    >>> sdk.images.upload({"image": "photo.jpg"}, {}, progress_bar=True)  # doctest: +SKIP
    """

    def __call__(  # type: ignore[override]  # `body_params` (the file) is required
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
    "BoundCommand",
    "BoundListQuery",
    "BoundQuery",
    "BoundRequiredCommand",
    "BoundRequiredListQuery",
    "BoundRequiredQuery",
    "BoundUpload",
    "Command",
    "Custom",
    "Endpoint",
    "Group",
    "GroupSlot",
    "ListQuery",
    "Params",
    "ProgressCallback",
    "Query",
    "RequestOptions",
    "RequiredCommand",
    "RequiredListQuery",
    "RequiredQuery",
    "Response",
    "Upload",
    "group",
]


def endpoint_names(client: object) -> list[str]:
    """Every `group.endpoint` of a client, as the command line names them."""
    names: list[str] = []
    for group_name, slot in vars_of(type(client)).items():
        if isinstance(slot, GroupSlot):
            # A slot's group is a Group, which isinstance does not tell the checkers.
            group = cast("GroupSlot[Group]", slot).cls
            names += [
                f"{group_name}.{name}"
                for name, value in vars_of(group).items()
                if isinstance(value, Endpoint)
            ]
    return names
