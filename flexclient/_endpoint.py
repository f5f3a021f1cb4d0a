"""The three kinds of endpoint method: queries, commands and uploads.

An endpoint is declared once, as a class attribute of its group in `flexclient._endpoints`
(`query = Query[ListingsQueryParams, list[Listing]]("listings/query")`); reading it from a
group of a client gives a callable bound to that client. The type parameters are the
parameters the method takes and the `data` of the envelope it returns; they exist for the type
checker only, since responses are typed by each resource's own `type`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, Self, TypedDict, TypeVar, overload

from requests.structures import CaseInsensitiveDict

from flexclient import _pages
from flexclient._errors import ParameterError
from flexclient._multipart import ProgressCallback, UploadProgress
from flexclient.models import Envelope

if TYPE_CHECKING:
    from flexclient._client import BaseClient

P = TypeVar("P", bound=Mapping[str, object])
D = TypeVar("D")
T = TypeVar("T")

Kind = Literal["query", "command", "upload"]


@dataclass(frozen=True)
class Response(Generic[T]):
    """A successful answer: `status`, `status_text`, `headers`, and `data` (the envelope).

    `retries` counts the times the request was sent again before this answer.

    >>> res = sdk.listings.query({"perPage": 5})  # doctest: +SKIP
    >>> res.status, res.status_text, len(res.data.data)  # doctest: +SKIP
    (200, 'OK', 5)
    """

    status: int
    status_text: str
    headers: CaseInsensitiveDict[str]
    data: T
    retries: int = 0


class RequestOptions(TypedDict, total=False):
    """Per-call options of commands (the third argument).

    `on_upload_progress` is called with an `UploadProgress` (`.loaded`, `.total`) as an
    upload is sent; `progress_bar=True` shows a tqdm bar for it (extra `flexclient[progress]`);
    `timeout` overrides the client's timeout for this call, `deadline` its total deadline
    (seconds for the whole call, retries and token requests included).
    """

    on_upload_progress: Callable[[UploadProgress], object]
    progress_bar: bool
    timeout: float | tuple[float, float]
    deadline: float


Params = Mapping[str, object]
"""Parameters of any endpoint, keys as the API spells them."""


class Group:
    """A group of endpoints (`listings`, `own_listings`, ...) of one client."""

    def __init__(self, client: BaseClient) -> None:
        self._client = client

    def __repr__(self) -> str:
        names = sorted(k for k, v in type(self).__dict__.items() if isinstance(v, Endpoint))
        return f"<{type(self).__name__}: {', '.join(names)}>"


G = TypeVar("G", bound=Group)


class GroupSlot(Generic[G]):
    """A group as an attribute of a client class; made once per client, on first use."""

    def __init__(self, cls: type[G]) -> None:
        self.cls = cls
        self.name = ""

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

    kind: Kind = "query"

    def __init__(self, path: str) -> None:
        self.path = path
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.kind} {self.path}>"


class Query(Endpoint[P, D]):
    """A GET endpoint: `method(params)`."""

    kind: Kind = "query"

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundQuery[P, D]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundQuery[P, D]:
        if group is None:
            return self
        return BoundQuery(group._client, self)


R = TypeVar("R")


class ListQuery(Endpoint[P, R]):
    """A GET endpoint answering a list of resources of type R, page by page: `method(params)`,
    `method.iter(params)`, `method.pages(params)`."""

    kind: Kind = "query"

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundListQuery[P, R]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundListQuery[P, R]:
        if group is None:
            return self
        return BoundListQuery(group._client, self)


class Command(Endpoint[P, D]):
    """A POST endpoint: `method(body_params, query_params, opts)`."""

    kind: Kind = "command"

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundCommand[P, D]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundCommand[P, D]:
        if group is None:
            return self
        return BoundCommand(group._client, self)


class Upload(Command[P, D]):
    """A multipart POST endpoint; the file goes in the body parameter `image`."""

    kind: Kind = "upload"

    @overload
    def __get__(self, group: None, owner: type) -> Self: ...
    @overload
    def __get__(self, group: Group, owner: type) -> BoundUpload[P, D]: ...
    def __get__(self, group: Group | None, owner: type) -> Self | BoundUpload[P, D]:
        if group is None:
            return self
        return BoundUpload(group._client, self)


class BoundQuery(Generic[P, D]):
    """A query endpoint of one client; call it with the query parameters."""

    def __init__(self, client: BaseClient, endpoint: Endpoint[Any, Any]) -> None:
        self._client = client
        self.endpoint = endpoint

    def __repr__(self) -> str:
        return f"<query {self._client.path_for(self.endpoint.path)}>"

    def __call__(
        self,
        params: P | None = None,
        /,
        *,
        timeout: float | tuple[float, float] | None = None,
        deadline: float | None = None,
    ) -> Response[Envelope[D]]:
        """Send the query; `params` are the query parameters, keys as the API spells them.
        `timeout` overrides the client's for this call (seconds, or (connect, read)), and
        `deadline` the seconds the whole call may take."""
        opts: RequestOptions = {}
        if timeout is not None:
            opts["timeout"] = timeout
        if deadline is not None:
            opts["deadline"] = deadline
        return self._client.call(self.endpoint, query=params, opts=opts)


class BoundListQuery(BoundQuery[P, list[R]], Generic[P, R]):
    """A query endpoint whose answer is a list; it can also walk every page.

    >>> for listing in sdk.listings.query.iter({"pub_category": "road", "perPage": 100}):
    ...     print(listing.attributes.title)  # doctest: +SKIP
    """

    def pages(
        self,
        params: P | None = None,
        /,
        *,
        max_pages: int | None = None,
        timeout: float | tuple[float, float] | None = None,
    ) -> Iterator[Response[Envelope[list[R]]]]:
        """The responses of successive pages, lazily, from `params["page"]` (or the first)
        to the last page, the query's pagination limit (with a `PaginationLimitWarning`
        when results remain), or `max_pages`. Every other parameter is kept."""
        return _pages.pages(lambda p: self(p, timeout=timeout), params, max_pages)  # type: ignore[arg-type]

    def iter(
        self,
        params: P | None = None,
        /,
        *,
        max_items: int | None = None,
        progress: bool = False,
        timeout: float | tuple[float, float] | None = None,
    ) -> Iterator[R]:
        """Every resource of every page, one by one, lazily, with its relationships
        resolved; at most `max_items`. `progress=True` shows a tqdm progress bar (extra
        `flexclient[progress]`)."""
        return _pages.items(lambda p: self(p, timeout=timeout), params, max_items, progress)  # type: ignore[arg-type]


class BoundCommand(Generic[P, D]):
    """A command endpoint of one client; call it with body params, query params and opts."""

    def __init__(self, client: BaseClient, endpoint: Endpoint[Any, Any]) -> None:
        self._client = client
        self.endpoint = endpoint

    def __repr__(self) -> str:
        return f"<{self.endpoint.kind} {self._client.path_for(self.endpoint.path)}>"

    def __call__(
        self,
        body_params: P | None = None,
        query_params: Params | None = None,
        opts: RequestOptions | None = None,
        /,
        *,
        timeout: float | tuple[float, float] | None = None,
        deadline: float | None = None,
    ) -> Response[Envelope[D]]:
        """Send the command. Pass `{"expand": True}` as query params to get the whole
        resource back rather than only its id and type.

        Per-call options go in `opts`, as in the official SDK, or as keywords: `timeout`
        (seconds, or (connect, read)) and `deadline` (seconds for the whole call)."""
        given: RequestOptions = {}
        if timeout is not None:
            given["timeout"] = timeout
        if deadline is not None:
            given["deadline"] = deadline
        return self._client.call(
            self.endpoint,
            body=body_params,
            query=query_params,
            opts=merged_options(opts, given),
        )


class BoundUpload(BoundCommand[P, D]):
    """An upload endpoint of one client: a command whose per-call options also take the
    upload's progress.

    >>> sdk.images.upload({"image": "photo.jpg"}, {}, progress_bar=True)  # doctest: +SKIP
    """

    def __call__(
        self,
        body_params: P | None = None,
        query_params: Params | None = None,
        opts: RequestOptions | None = None,
        /,
        *,
        timeout: float | tuple[float, float] | None = None,
        deadline: float | None = None,
        on_upload_progress: Callable[[UploadProgress], object] | None = None,
        progress_bar: bool | None = None,
    ) -> Response[Envelope[D]]:
        """Upload. `on_upload_progress` is called with an `UploadProgress` (`.loaded`,
        `.total`) as the file is sent; `progress_bar=True` shows a tqdm bar."""
        given: RequestOptions = {}
        if on_upload_progress is not None:
            given["on_upload_progress"] = on_upload_progress
        if progress_bar is not None:
            given["progress_bar"] = progress_bar
        return super().__call__(
            body_params,
            query_params,
            merged_options(opts, given),
            timeout=timeout,
            deadline=deadline,
        )


def merged_options(opts: RequestOptions | None, keywords: RequestOptions) -> RequestOptions:
    """The per-call options given in `opts` and as keywords; the same option both ways with
    two values is an error."""
    if not keywords:
        return opts if opts is not None else {}
    if opts is None:
        return keywords
    if not isinstance(opts, Mapping):
        return opts  # the client says what is wrong with it
    for name, value in keywords.items():
        if name in opts and opts[name] != value:  # type: ignore[literal-required]
            raise ParameterError(name, "given both in opts and as a keyword, differently")
    return {**opts, **keywords}


__all__ = [
    "BoundCommand",
    "BoundListQuery",
    "BoundQuery",
    "Command",
    "Endpoint",
    "Group",
    "GroupSlot",
    "ListQuery",
    "Params",
    "ProgressCallback",
    "Query",
    "RequestOptions",
    "Response",
    "Upload",
    "group",
]
