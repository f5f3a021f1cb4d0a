"""Walking a paginated query page by page, lazily, keeping every other parameter."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from flexclient._errors import PaginationLimitWarning, ParameterError
from flexclient._http.progress import progress_bar


def pages(
    fetch: Callable[[Mapping[str, object]], Any],
    params: Mapping[str, object] | None,
    max_pages: int | None,
) -> Iterator[Any]:
    """Responses of successive pages, from `params["page"]` (or 1) to the last page, the
    pagination limit, or `max_pages` pages."""
    base = dict(params or {})
    page = base.pop("page", 1)
    if not isinstance(page, int) or isinstance(page, bool) or page < 1:
        raise ParameterError("page", "must be a whole number, 1 or more")
    if max_pages is not None and max_pages < 1:
        raise ParameterError("max_pages", "must be 1 or more")
    fetched = 0
    while True:
        res = fetch({**base, "page": page})
        fetched += 1
        yield res
        meta = res.data.meta
        count = len(res.data.data)
        per_page = meta.per_page or base.get("perPage") or count
        if meta.total_pages is not None:
            last = page >= meta.total_pages
        else:  # totalItems may be null: a short page is the last one
            last = count == 0 or (isinstance(per_page, int) and count < per_page)
        limit, total = meta.pagination_limit, meta.total_items
        # Let go of this page before the next is fetched: one page in memory at a time.
        del res, meta
        if not last and limit is not None and page >= limit:
            warnings.warn(
                PaginationLimitWarning(
                    f"stopped at page {page}, the pagination limit of this query; "
                    f"{total or 'more'} results in all: narrow the query "
                    "(filters, or a sort and ranges of it) to read the rest"
                ),
                stacklevel=3,
            )
            return
        if last or (max_pages is not None and fetched >= max_pages):
            return
        page += 1


def items(
    fetch: Callable[[Mapping[str, object]], Any],
    params: Mapping[str, object] | None,
    max_items: int | None,
    progress: bool,
) -> Iterator[Any]:
    """The resources of successive pages, one by one, at most `max_items`."""
    if max_items is not None and max_items < 0:
        raise ParameterError("max_items", "must be 0 or more")
    if max_items == 0:
        return
    bar = progress_bar(unit=" resources") if progress else None
    given = 0
    try:
        for res in pages(fetch, params, None):
            if bar is not None and bar.total is None:
                total = res.data.meta.total_items
                bar.total = min(total, max_items) if total and max_items else total or max_items
            for item in res.data.data:
                yield item
                given += 1
                if bar is not None:
                    bar.update(1)
                if max_items is not None and given >= max_items:
                    return
            del res  # not kept while the next page is fetched
    finally:
        if bar is not None:
            bar.close()
