"""Resources and envelopes for people: short reprs, HTML tables in notebooks, flat records.

A record is one resource as a flat dict: `id`, `type`, every attribute under its snake_case
name, nested values joined with dots (`profile.display_name`, `public_data.category`), money
as the `Money` itself (`price`, shown `49.90 EUR`) and as numbers (`price.amount`,
`price.currency`), locations split into numbers (`geolocation.lat`), and chosen
relationships: a to-one one flattened under its name (`author.profile.display_name`), a
to-many one as `images.count` and `images.ids`.

Tables drawn for people (HTML in notebooks, the command line's `-o table`) show each money
value once, in major units with its currency: `readable()` leaves out the numbers. In the
HTML tables, a nested value of more than `_FOLD_OVER` fields is one cell that opens to them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from flexclient._errors import ParameterError, require
from flexclient._support.narrow import is_mapping
from flexclient._wire.value_types import LatLng, Money
from flexclient._wire.values import display

if TYPE_CHECKING:
    from flexclient.models._resource import Resource

Record = dict[str, Any]
LABELS = ("title", "name", "profile.display_name", "event_type", "content", "code")
_HTML_ROWS = 50
# More fields than this, and a nested value folds: an event's ~30 `resource.*` columns
# would push the event's own off the screen.
_FOLD_OVER = 3


def _flatten(value: Any, prefix: str, out: Record) -> None:
    if isinstance(value, Money):
        out[prefix] = value
        out[f"{prefix}.amount"] = value.amount
        out[f"{prefix}.currency"] = value.currency
    elif isinstance(value, LatLng):
        out[f"{prefix}.lat"] = value.lat
        out[f"{prefix}.lng"] = value.lng
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            _flatten(getattr(value, name), f"{prefix}.{name}", out)
        for name, extra in (value.model_extra or {}).items():
            _flatten(extra, f"{prefix}.{name}", out)
    elif is_mapping(value) and value:
        for key, item in value.items():
            _flatten(item, f"{prefix}.{key}", out)
    else:
        out[prefix] = value


def record(resource: Resource, relationships: Sequence[str] = ()) -> Record:
    """One resource as a flat dict (see the module docstring)."""
    out: Record = {"id": resource.id, "type": resource.type}
    attrs: Record = {}
    _flatten(resource.attributes, "", attrs)
    out.update({k.lstrip("."): v for k, v in attrs.items()})
    for name in relationships:
        related = resource.related(name)
        if isinstance(related, list):
            out[f"{name}.count"] = len(related)
            out[f"{name}.ids"] = [r.id for r in related]
        elif related is None:
            out[f"{name}.id"] = None
        else:
            out.update({f"{name}.{k}": v for k, v in record(related).items() if k != "type"})
    return out


def included_relationships(resources: Sequence[Resource]) -> list[str]:
    """The relationships (wire names) that the answer included for every one of `resources`,
    in the order they come."""
    from flexclient._errors import RelationshipNotIncludedError

    names: list[str] = []
    for resource in resources:
        names.extend(n for n in resource.relationships if n not in names)
    found: list[str] = []
    for name in names:
        try:
            for resource in resources:
                resource.related(name)
        except (RelationshipNotIncludedError, ParameterError):
            continue
        found.append(name)
    return found


def readable(rec: Record) -> Record:
    """A record as tables show it to people: money once, as `Money` (`49.90 EUR`), without
    its `.amount` and `.currency` numbers."""
    parts = {
        f"{key}.{part}"
        for key, value in rec.items()
        if isinstance(value, Money)
        for part in ("amount", "currency")
    }
    return {k: v for k, v in rec.items() if k not in parts}


def describe(model: BaseModel) -> str:
    """A nested value of an attribute (a line item, a transition, ...) as people read it in
    a table cell: its fields that have a value, `name: value, ...`, with `display()`'s forms.

    >>> from flexclient.models import TransactionTransition
    >>> describe(TransactionTransition(transition="transition/accept", by="provider"))
    'transition: transition/accept, by: provider'
    """
    fields = [*type(model).model_fields, *(model.model_extra or {})]
    texts = [(name, display(getattr(model, name))) for name in fields]
    return ", ".join(f"{name}: {text}" for name, text in texts if text)


def dataframe(records: list[Record]) -> Any:
    pd = require("pandas", "pandas", "to_dataframe()")
    return pd.DataFrame.from_records(records)


def label(resource: Resource) -> str:
    """A few words that name a resource: its title, name, display name, ..."""
    flat = record(resource)
    for key in LABELS:
        value = flat.get(key)
        if isinstance(value, str) and value:
            return value if len(value) <= 40 else value[:39] + "…"
    return ""


def short_repr(resource: Resource) -> str:
    text = label(resource)
    named = f", {text!r}" if text else ""
    return f"<{type(resource).__name__} {resource.type} {resource.id}{named}>"


def _escape(text: str) -> str:
    import html  # for notebooks only: a program that never shows HTML skips its import time

    return html.escape(text)


def _cell(value: Any) -> str:
    return _escape(display(value))


def html_fields(rec: Record, caption: str) -> str:
    """One record as a two-column table of fields and values."""
    rows = "".join(
        f"<tr><th>{_escape(k)}</th><td>{_cell(v)}</td></tr>" for k, v in readable(rec).items()
    )
    return f"<table><caption>{_escape(caption)}</caption><tbody>{rows}</tbody></table>"


def _folds(columns: Sequence[str]) -> dict[str, list[str]]:
    """The nested values of more than `_FOLD_OVER` fields (an event's `resource.*`), by their
    first name: each shows as one cell, its fields on demand."""
    groups: dict[str, list[str]] = {}
    for column in columns:
        head, dot, _ = column.partition(".")
        if dot:
            groups.setdefault(head, []).append(column)
    # A row without the value at all has it as a column of its own (`previous_values`: None).
    return {
        head: [head, *names] if head in columns else names
        for head, names in groups.items()
        if len(names) > _FOLD_OVER
    }


def _folded_cell(row: Record, head: str, names: Sequence[str]) -> str:
    """A folded value: its label and how many fields it has, which open to a table of them."""
    given = [(name, row[name]) for name in names if row.get(name) not in (None, "", [], {})]
    if not given:
        return ""
    # Its label, as a resource's: the title of `resource.attributes.title`, the display name
    # of `profile.display_name` or of `author.profile.display_name`.
    labels = {name: name.removeprefix(f"{head}.").removeprefix("attributes.") for name, _ in given}
    words = next(
        (
            value
            for key in LABELS
            for name, value in given
            if key in (name, labels[name]) and isinstance(value, str)
        ),
        "",
    )
    words = words if len(words) <= 40 else words[:39] + "…"
    summary = f"{words} · {len(given)} fields" if words else f"{len(given)} fields"
    rows = "".join(
        f"<tr><th>{_escape(name.removeprefix(head + '.'))}</th><td>{_cell(value)}</td></tr>"
        for name, value in given
    )
    return f"<details><summary>{_escape(summary)}</summary><table>{rows}</table></details>"


def html_table(records: Iterable[Record], caption: str = "") -> str:
    """Records as an HTML table for notebooks: the first rows, each value as people read it;
    a nested value of many fields as one cell that opens to them (`to_records()` has them
    all, one a column)."""
    rows = list(records)
    shown = [readable(row) for row in rows[:_HTML_ROWS]]
    columns: list[str] = []
    for row in shown:
        columns.extend(k for k in row if k not in columns)
    # A value some rows lack (`geolocation`: None) beside the fields of those that have it
    # (`geolocation.lat`) is no column of its own.
    nested = {c.partition(".")[0] for c in columns if "." in c}
    columns = [
        c
        for c in columns
        if c not in nested or any(row.get(c) not in (None, "", [], {}) for row in shown)
    ]
    folds = _folds(columns)
    # Each folded value in the place of its first field.
    layout: list[str] = []
    for column in columns:
        head = column.partition(".")[0]
        shown_as = head if head in folds else column
        if shown_as not in layout:
            layout.append(shown_as)
    head_cells = "".join(f"<th>{_escape(c)}</th>" for c in layout)
    body = "".join(
        "<tr>"
        + "".join(
            f"<td>{_folded_cell(row, c, folds[c]) if c in folds else _cell(row.get(c))}</td>"
            for c in layout
        )
        + "</tr>"
        for row in shown
    )
    more = f"<p>… and {len(rows) - len(shown)} more</p>" if len(rows) > len(shown) else ""
    title = f"<caption>{_escape(caption)}</caption>" if caption else ""
    return f"<table>{title}<thead><tr>{head_cells}</tr></thead><tbody>{body}</tbody></table>{more}"
