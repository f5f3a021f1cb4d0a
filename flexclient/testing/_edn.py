"""EDN, the format of Sharetribe's process.edn files, read with edn-format into plain values.

A keyword becomes a `Keyword`: a `str` of its name with its namespace and without the colon
(`:transition/accept` is `Keyword("transition/accept")`), so that it compares equal to the
string the API uses for it. Strings stay `str` and are told apart from keywords by their
type. Maps become dicts, vectors and lists tuples, sets frozensets; numbers, booleans and nil
are themselves (`0.1M` a `Decimal`).

>>> read('{:name :transition/accept, :at {:fn/period ["PT15M"]}}')
{Keyword('name'): Keyword('transition/accept'), Keyword('at'): {Keyword('fn/period'): ('PT15M',)}}
"""

from __future__ import annotations

import os
from pathlib import Path

import edn_format

from flexclient._errors import ProcessFileError
from flexclient._support.narrow import is_mapping, is_sequence, is_set


class Keyword(str):
    """An EDN keyword, by its name (`transition/accept` for `:transition/accept`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Keyword({str(self)!r})"

    @property
    def namespace(self) -> str | None:
        return self.split("/", 1)[0] if "/" in self else None


def read(text: str, *, where: str = "EDN") -> object:
    """The one value in `text`; `where` names the text in errors (a file's path)."""
    try:
        # No parser tables are written next to edn-format's modules: they may not be writable.
        values = edn_format.loads_all(text, write_ply_tables=False)
    except edn_format.EDNDecodeError as exc:
        raise ProcessFileError(where, f"not valid EDN: {_problem(text, exc)}") from None
    if len(values) != 1:
        raise ProcessFileError(where, f"expected one EDN value, found {len(values)}")
    return _plain(values[0], where)


def read_file(path: str | os.PathLike[str]) -> object:
    """The value in the EDN file at `path`."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProcessFileError(str(file), f"cannot be read: {exc.strerror or exc}") from None
    return read(text, where=str(file))


def _problem(text: str, exc: edn_format.EDNDecodeError) -> str:
    # edn-format's error carries the parser's token (with its position), or a message.
    token = exc.args[0] if exc.args else None
    position = getattr(token, "lexpos", None)
    if isinstance(position, int):
        line = text.count("\n", 0, position) + 1
        return f"unexpected {getattr(token, 'value', token)!r} on line {line}"
    return str(exc) or "cannot be read"


def _plain(value: object, where: str) -> object:
    if isinstance(value, edn_format.Keyword):
        return Keyword(value.name)
    if isinstance(value, str | bool | int | float) or value is None:
        return value
    if is_mapping(value):
        return {_plain(k, where): _plain(v, where) for k, v in value.items()}
    if is_set(value):  # edn-format reads a set as a frozenset
        return frozenset(_plain(v, where) for v in value)
    if is_sequence(value):
        return tuple(_plain(v, where) for v in value)
    if isinstance(value, edn_format.Symbol):
        raise ProcessFileError(where, f"a symbol ({value.name}) where a value was expected")
    return value  # a Decimal, a tagged value (#inst, #uuid) as edn-format reads it
