"""The reference site's build: what mkdocs.yml's hook adds to the pages of docs/.

- The home page is README.md, its links into docs/ made links of the site.
- The navigation follows README's "Where to read" table, in its order; a page of docs/ that
  the table does not link comes after, by name, so a new page is never left out.
- reference/marketplace-api.md and reference/integration-api.md list every endpoint method,
  made from one walk of each client's groups (the endpoint table, as the command line walks
  it): what it does, its request, what it answers, its parameter keys (from its TypedDict),
  its cost in credits (flexclient.credits) and the errors it can raise.
- reference/python/*.md render each public package's names from their docstrings
  (mkdocstrings), the names read from the same lists the packages export.
- `DoctestFences`, a griffe extension, shows the `>>>` examples of docstrings as code.

A link from a page to a file of the repository outside docs/ (it works on GitHub) shows as
the file's path; a link to no file at all still fails `mkdocs build --strict`.

`endpoint_pages()` and `home_page()` need nothing of mkdocs: tests/test_docs_site.py checks
them without a build.
"""

from __future__ import annotations

import importlib
import inspect
import re
import types
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from griffe import Extension

from flexclient import IntegrationClient, MarketplaceClient
from flexclient._base_client import BaseClient
from flexclient._endpoints.kinds import Bound, Endpoint, ListQuery
from flexclient._endpoints.walk import api_of, iter_endpoints
from flexclient.credits import bills_transfer, transfer_cost

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "reference"

# What every call can raise, whatever its endpoint: (exception, when). docs/errors.md has them all.
EVERY_CALL = (
    ("ParameterError", "a parameter cannot be sent as given; nothing was sent"),
    ("CreditBudgetExceededError", "the call could pass a `credit_budget=`; nothing was sent"),
    ("BadRequestError", "400: the API refused a parameter (`validation-invalid-value`, ...)"),
    ("UnauthorizedError", "401 that a new token did not cure"),
    ("AuthError", "the token request failed (a wrong client ID or secret)"),
    ("ForbiddenError", "403: the token's user may not do this"),
    ("RateLimitError", "429, after the retries"),
    ("ServerError", "5xx, after the retries"),
    (
        "TransportError",
        "no answer: connection refused or reset (`RequestTimeoutError`: none in time)",
    ),
    ("UnexpectedResponseError", "a success whose body cannot be read as the answer"),
)

# The errors of some endpoints beside those: (exception, the API's error codes), by path below
# the API's prefix. The codes are those of the API's error reference (shared API notes).
_LISTING_STATE = (("ConflictError", "409 `listing-invalid-state`"),)
_EMAIL_TAKEN = (("ConflictError", "409 `email-taken`"),)
_TRANSITION = (
    ("PaymentRequiredError", "402 `transaction-payment-failed`"),
    ("ConflictError", "409 `transaction-invalid-transition`, `transaction-locked`"),
)
_SPECULATIVE = (("ConflictError", "409 `transaction-invalid-transition`"),)
_IMAGE = (
    ("BadRequestError", "400 `image-invalid-content`"),
    ("ConflictError", "409 `image-invalid`"),
    ("PayloadTooLargeError", "413 `request-upload-over-limit`"),
)
ERRORS_BY_PATH: Mapping[str, tuple[tuple[str, str], ...]] = {
    "current_user/create": _EMAIL_TAKEN,
    "current_user/create_with_idp": _EMAIL_TAKEN,
    "current_user/change_email": _EMAIL_TAKEN,
    "current_user/verify_email": (("ConflictError", "409 `email-already-verified`"),),
    "current_user/send_verification_email": (("ConflictError", "409 `email-already-verified`"),),
    "password_reset/request": (("ConflictError", "409 `email-not-found`"),),
    "images/upload": _IMAGE,
    "transactions/initiate": (
        ("PaymentRequiredError", "402 `transaction-payment-failed`"),
        ("ConflictError", "409 `listing-not-found`, `listing-invalid-state`"),
    ),
    "transactions/initiate_speculative": (
        ("ConflictError", "409 `listing-not-found`, `listing-invalid-state`"),
    ),
    "transactions/transition": _TRANSITION,
    "transactions/transition_speculative": _SPECULATIVE,
    "own_listings/publish_draft": _LISTING_STATE,
    "own_listings/open": _LISTING_STATE,
    "own_listings/close": _LISTING_STATE,
    "listings/approve": _LISTING_STATE,
    "listings/open": _LISTING_STATE,
    "listings/close": _LISTING_STATE,
    "stock/compare_and_set": (("ConflictError", "409: the stock is no longer `oldTotal`"),),
}

# Keys every TypedDict of their kind shares, shown once each.
_FAMILIES = {"fields.": "fields.<type>", "limit.": "limit.<relationship>"}


@dataclass(frozen=True)
class Api:
    """One API's reference page: its client, as the page calls it, and where the page goes."""

    title: str
    slug: str
    variable: str
    client: BaseClient


def apis() -> tuple[Api, Api]:
    """Both APIs, each with a client that sends nothing (it is only walked)."""
    return (
        Api("Marketplace API", "marketplace-api", "sdk", MarketplaceClient("docs")),
        Api(
            "Integration API",
            "integration-api",
            "integ",
            IntegrationClient("docs", "docs-secret"),
        ),
    )


def endpoints(client: BaseClient) -> Iterator[tuple[str, Any]]:
    """`(group.name, the bound endpoint)` of every endpoint of a client, in table order."""
    for entry in iter_endpoints(api_of(client)):
        yield entry.name, entry.bound(client)


def type_text(annotation: Any) -> str:
    """A type as its source would spell it: `Sequence[UUID | str] | UUID | str`."""
    origin, args = typing.get_origin(annotation), get_args(annotation)
    if origin is typing.Union or isinstance(annotation, types.UnionType):
        return " | ".join(type_text(arg) for arg in args)
    if origin is typing.Literal:
        return f"Literal[{', '.join(repr(arg) for arg in args)}]"
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{', '.join(type_text(arg) for arg in args)}]"
    if annotation is type(None):
        return "None"
    return str(getattr(annotation, "__name__", annotation))


def _keys(typed: Any) -> list[tuple[str, str, bool]]:
    """`(key, type, required)` of a parameter TypedDict, its own keys first, the `fields.*`
    and `limit.*` families as one row each."""
    required: frozenset[str] = getattr(typed, "__required_keys__", frozenset())
    hints: dict[str, Any] = typing.get_type_hints(typed) if typing.is_typeddict(typed) else {}
    rows: dict[str, tuple[str, str, bool]] = {}
    for key, hint in hints.items():
        family = next((name for prefix, name in _FAMILIES.items() if key.startswith(prefix)), None)
        shown = family or key
        rows.setdefault(shown, (shown, type_text(hint), key in required))
    own = [row for row in rows.values() if row[0] not in _FAMILIES.values()]
    shared = [row for row in rows.values() if row[0] in _FAMILIES.values()]
    order = ("include", "page", "perPage", "expand")
    first = [r for r in own if r[2]] + [r for r in own if not r[2] and r[0] not in order]
    last = [r for r in own if not r[2] and r[0] in order]
    return first + last + shared


def _params_section(argument: str, typed: Any, notes: bool) -> list[str]:
    name = getattr(typed, "__name__", str(typed))
    link = f"[`{name}`][flexclient.params.{name}]" if typing.is_typeddict(typed) else f"`{name}`"
    doc = " ".join((typed.__doc__ or "").split()) if notes and typing.is_typeddict(typed) else ""
    lines = [f"**`{argument}`** ({link}){': ' + doc if doc else ''}", ""]
    rows = _keys(typed)
    if not rows:
        return [*lines, "No keys.", ""]
    lines += ["| key | type | |", "| --- | --- | --- |"]
    lines += [f"| `{key}` | `{kind}` | {'required' if req else ''} |" for key, kind, req in rows]
    return [*lines, ""]


def _answer(endpoint: Endpoint[Any, Any]) -> str:
    data = endpoint.data_type
    args = get_args(data)
    model = getattr(args[0] if args else data, "__name__", "Any")
    link = f"[`{model}`][flexclient.models.{model}]" if model != "Any" else "`Any`"
    if isinstance(endpoint, ListQuery):
        return f"a page of {link}; `.iter()` walks every one, `.pages()` every page"
    if endpoint.kind == "query":
        return link
    return f'{link}, all of its attributes with `{{"expand": True}}` in the query params'


def _credits(endpoint: Bound) -> str:
    if endpoint.usage_type is None:
        return "none: the API's usage table does not list it"
    text = f"{endpoint.credits} a call ({endpoint.usage_type})"
    if bills_transfer(endpoint.url_path):
        per_gb = transfer_cost(endpoint.url_path, 10**9)
        text += f", and {per_gb:,} a GB of the data it moves"
    return text + " ([credits](../credits.md))"


def _errors(endpoint: Endpoint[Any, Any]) -> str:
    own = list(ERRORS_BY_PATH.get(endpoint.path, ()))
    if endpoint.kind == "query" and not isinstance(endpoint, ListQuery):
        own.insert(0, ("NotFoundError", "404 `not-found`: no such resource, or not yours to see"))
    named = [f"[`{error}`][flexclient.{error}] ({why})" for error, why in own]
    return "; ".join([*named, "[those of every call](#errors-of-every-call)"])


def _method(api: Api, name: str, endpoint: Any) -> list[str]:
    declared = endpoint.endpoint
    anchor = name.replace(".", "-").replace("_", "-")
    signature = str(inspect.signature(endpoint)).replace("'", "")
    verb = "GET" if declared.kind == "query" else "POST"
    multipart = " (multipart)" if declared.kind == "upload" else ""
    lines = [
        f"### {name} {{#{anchor}}}",
        "",
        declared.summary,
        "",
        "```python",
        f"{api.variable}.{name}{signature}",
        "```",
        "",
    ]
    if declared.deprecated:
        lines += [f'!!! warning "Deprecated"\n    {declared.deprecated}; a call warns.', ""]
    lines += [
        "| | |",
        "| --- | --- |",
        f"| request | `{verb} {endpoint.url_path}`{multipart} |",
        f"| answers | {_answer(declared)} |",
        f"| credits | {_credits(endpoint)} |",
        f"| raises | {_errors(declared)} |",
        "",
    ]
    if declared.kind == "query":
        lines += _params_section("params", declared.params_type, notes=True)
    else:
        lines += _params_section("body_params", declared.params_type, notes=True)
        lines += _params_section("query_params", declared.query_params_type, notes=False)
    return lines


def endpoint_page(api: Api) -> str:
    """The reference page of one API's endpoints."""
    client = type(api.client).__name__
    lines = [
        f"# {api.title}: every endpoint",
        "",
        f"Every endpoint method of [`{client}`][flexclient.{client}] (`{api.variable}` below), "
        "made from the endpoint table the client is built from. Queries take one mapping of "
        "query parameters; commands take body params, query params and options, all "
        "positional. Keys of the open families (`pub_*`, `meta_*`, `priv_*`, `prot_*`, "
        "`fields.*`, `imageVariant.*`, `limit.*`) go in `custom=`; every method also takes "
        "`timeout=`, `deadline=` and `credit_budget=` ([using the client](../usage.md)).",
        "",
        "## Errors of every call",
        "",
        "Any method can raise these (all in `flexclient`, see [errors](../errors.md)); each "
        "method below names the ones its endpoint adds.",
        "",
        "| exception | when |",
        "| --- | --- |",
        *(f"| [`{error}`][flexclient.{error}] | {why} |" for error, why in EVERY_CALL),
        "",
    ]
    group = ""
    for name, endpoint in endpoints(api.client):
        if name.split(".")[0] != group:
            group = name.split(".")[0]
            lines += [f"## {group}", ""]
        lines += _method(api, name, endpoint)
    return "\n".join(lines)


def endpoint_pages() -> dict[str, str]:
    """Each API's page of endpoints, by its path in the site."""
    return {f"{REFERENCE}/{api.slug}.md": endpoint_page(api) for api in apis()}


# The Python reference: (its page's name, the package, what it holds).
PACKAGES = (
    ("flexclient", "flexclient", "the clients, their options, values, stores, errors"),
    ("models", "flexclient.models", "the models of the resources and the envelope"),
    ("params", "flexclient.params", "the TypedDicts of every endpoint's parameters"),
    ("credits", "flexclient.credits", "credits, usage meters and budgets"),
    ("testing", "flexclient.testing", "the fake marketplace"),
)


def public_names(package: str) -> list[str]:
    """The names a package exports: its `__all__` (a lazy package's too, from its table)."""
    listed: list[object] = getattr(importlib.import_module(package), "__all__")  # noqa: B009
    return [str(name) for name in listed]


def python_pages() -> dict[str, str]:
    """A page for each public package, its names rendered by mkdocstrings."""
    pages: dict[str, str] = {}
    for slug, package, holds in PACKAGES:
        names = public_names(package)
        pages[f"{REFERENCE}/python/{slug}.md"] = "\n".join(
            [
                f"# `{package}`",
                "",
                f"{holds[0].upper()}{holds[1:]}.",
                "",
                f"::: {package}",
                "    options:",
                f"      members: [{', '.join(sorted(names))}]",
                "",
            ]
        )
    return pages


def home_page(readme: str) -> str:
    """README.md as the site's home: its links into docs/ made links of the site."""
    return readme.replace("](docs/", "](")


WHERE_TO_READ = re.compile(r"^## Where to read\n(?P<table>.*?)(?=^## )", re.M | re.S)
LINK = re.compile(r"\[(?P<title>[^\]]+)\]\(docs/(?P<page>[\w./-]+\.md)\)")


def navigation(readme: str, pages: list[str]) -> list[Any]:
    """The site's navigation: home, the pages in the order of README's "Where to read", the
    others of docs/ by name, then the reference."""
    table = WHERE_TO_READ.search(readme)
    linked = [(m["title"], m["page"]) for m in LINK.finditer(table["table"] if table else "")]
    named = {page for _, page in linked}
    guides: list[Any] = [{title: page} for title, page in linked if page in pages]
    guides += [page for page in sorted(pages) if page not in named and page != "index.md"]
    endpoints_nav = [{api.title: f"{REFERENCE}/{api.slug}.md"} for api in apis()]
    python_nav = [{package: f"{REFERENCE}/python/{slug}.md"} for slug, package, _ in PACKAGES]
    return [
        {"Home": "index.md"},
        {"Guides": guides},
        {"Endpoints": endpoints_nav},
        {"Python API": python_nav},
    ]


def outside_links(markdown: str, page_dir: Path) -> str:
    """Links to files of the repository outside docs/ (`../examples/explore.ipynb`) as the
    file's path in code: the site has no such file. A link to no file is left to fail."""

    def replace(match: re.Match[str]) -> str:
        target = match["target"]
        if "://" in target or target.startswith(("#", "mailto:")):
            return match[0]
        path = (page_dir / target.split("#")[0]).resolve()
        docs = ROOT / "docs"
        if path.is_relative_to(docs) or not path.exists() or not path.is_relative_to(ROOT):
            return match[0]
        return f"{match['text']} (`{path.relative_to(ROOT).as_posix()}`)"

    return re.sub(r"(?<!!)\[(?P<text>[^\]]+)\]\((?P<target>[^)\s]+)\)", replace, markdown)


# The mkdocs hooks (mkdocs.yml, `hooks:`).


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Set the navigation from README.md and the pages docs/ holds."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = Path(config.docs_dir)
    pages = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))
    config["nav"] = navigation(readme, pages)
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pages: the home page and the reference."""
    from mkdocs.structure.files import File

    generated = {**endpoint_pages(), **python_pages()}
    if files.get_file_from_path("index.md") is None:
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        generated["index.md"] = home_page(readme)
    for path, text in generated.items():
        files.append(File.generated(config, path, content=text))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Links out of docs/ as paths; the home page's are README's, from the top."""
    source = page.file.src_uri
    if page.file.generated_by is not None:
        base = ROOT if source == "index.md" else ROOT / "docs" / Path(source).parent
    else:
        base = Path(page.file.abs_src_path or ROOT / "docs" / source).parent
    return outside_links(markdown, base)


class DoctestFences(Extension):
    """A griffe extension: the `>>>` examples of a docstring, shown as code rather than as
    Markdown's quotes."""

    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        docstring = getattr(obj, "docstring", None)
        if docstring is not None:
            docstring.value = fence_doctests(docstring.value)


def fence_doctests(text: str) -> str:
    """Each run of `>>>` lines (with their `...` and output lines) in a ```pycon fence."""
    out: list[str] = []
    inside = False
    for line in text.split("\n"):
        starts = line.lstrip().startswith(">>>")
        if starts and not inside:
            out.append("```pycon")
            inside = True
        elif inside and not starts and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)
