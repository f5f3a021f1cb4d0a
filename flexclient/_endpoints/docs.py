"""What `help()` shows of an endpoint: its own docstring and signature, made when asked.

`help(sdk.own_listings.create)` reads the endpoint's `__doc__` and `__signature__`, which its
kind (`flexclient._endpoints.kinds`) makes here from the endpoint's declaration in the table:
what it does, its method and path, what it answers, what a call costs, and the keys of its
parameters, with the TypedDict's own notes. Nothing here runs unless someone asks.
"""

from __future__ import annotations

import inspect
import textwrap
from typing import Any, get_args, is_typeddict

from flexclient._endpoints.checks import CUSTOM_PREFIXES
from flexclient._endpoints.kinds import Endpoint, ListQuery, Upload
from flexclient.credits import bills_transfer, credits_for, usage_type

# Keys every TypedDict of their kind shares, shown last; `fields.*` and `limit.*` as one each.
_SHARED = ("page", "perPage", "expand", "include", "fields.<type>", "limit.<relationship>")
_WIDTH = 88


def _name(annotation: Any) -> str:
    """`Listing`, `list[Listing]`, `ListingsQueryParams`."""
    args = get_args(annotation)
    if args:
        return f"list[{_name(args[0])}]"
    return str(getattr(annotation, "__name__", annotation))


def _a(noun: str) -> str:
    return f"{'an' if noun[:1] in 'AEIOU' else 'a'} {noun}"


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, _WIDTH, initial_indent=indent, subsequent_indent="    ")


def _keys(typed: Any) -> list[str]:
    """The keys of a parameter TypedDict: the required ones (marked), its others, and last
    the ones it shares with every TypedDict of its kind."""
    required: frozenset[str] = getattr(typed, "__required_keys__", frozenset())
    keys: list[str] = []
    for key in getattr(typed, "__annotations__", {}):
        if key.startswith(("fields.", "limit.")):
            key = "fields.<type>" if key.startswith("fields.") else "limit.<relationship>"
        if key not in keys:
            keys.append(key)
    own = [k for k in keys if k not in _SHARED]
    return [
        *(f"{k} (required)" for k in own if k in required),
        *(k for k in own if k not in required),
        *(k for k in _SHARED if k in keys),
    ]


def _parameters(argument: str, typed: Any, notes: bool = True) -> list[str]:
    """The paragraph on one argument: its TypedDict, its notes (the TypedDict's docstring),
    its keys."""
    text = " ".join((typed.__doc__ or "").split()) if notes and is_typeddict(typed) else ""
    head = f"{argument} ({_name(typed)}): {text}".rstrip(": ")
    return [*_wrap(head), *_wrap(f"keys: {', '.join(_keys(typed)) or 'none'}", "    ")]


def describe(endpoint: Endpoint[Any, Any]) -> str:
    """An endpoint's docstring: what it does, its path, its credits and its parameters."""
    client = getattr(endpoint, "_client", None)  # None for a declaration of the table
    path = client.path_for(endpoint.path) if client is not None else endpoint.path
    if isinstance(endpoint, ListQuery):
        item = _name(get_args(endpoint.data_type)[0])
        answer = f"GET {path} answers a page of {item}s; `.iter()` walks every {item}"
        answer += ", `.pages()` every page."
    elif endpoint.kind == "query":
        answer = f"GET {path} answers {_a(_name(endpoint.data_type))}."
    else:
        answer = f"POST {path} answers {_a(_name(endpoint.data_type))}"
        answer += ', all of it with {"expand": True} in the query params.'
    lines = [endpoint.summary, "", *_wrap(answer)]
    if endpoint.deprecated:
        lines += _wrap(f"Deprecated: {endpoint.deprecated}. A call warns (DeprecationWarning).")
    if client is not None:
        billed = usage_type(path)
        credits = f"{credits_for(path)} a call ({billed})"
        if bills_transfer(path):
            credits += ", and its data transfer"
        lines.append(f"Credits: {credits}." if billed else "Credits: none.")
    lines.append("")
    if endpoint.kind == "query":
        lines += _parameters("params", endpoint.params_type)
    else:
        lines += _parameters("body_params", endpoint.params_type)
        lines += _parameters("query_params", endpoint.query_params_type, notes=False)
    options = "timeout, deadline, credit_budget"
    if isinstance(endpoint, Upload):
        options += ", on_upload_progress, progress_bar"
    where = "as keywords" if endpoint.kind == "query" else "as keywords or in opts"
    families = ", ".join(f"{p}*" for p in CUSTOM_PREFIXES)
    lines += [
        *_wrap(f"custom=: keys of the open families ({families})."),
        *_wrap(f"Options, {where}: {options}."),
    ]
    return "\n".join(lines)


def signature(endpoint: Endpoint[Any, Any]) -> inspect.Signature:
    """The signature of the endpoint's method, with its own parameter and answer types."""
    plain = inspect.signature(type(endpoint).__call__)
    first, *rest = list(plain.parameters.values())[1:]  # without self
    # A query's `*extra` is there only to refuse a second argument with a clear message.
    rest = [p for p in rest if p.kind is not inspect.Parameter.VAR_POSITIONAL]
    return plain.replace(
        parameters=[first.replace(annotation=_name(endpoint.params_type)), *rest],
        return_annotation=f"Response[Envelope[{_name(endpoint.data_type)}]]",
    )
