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
import re
from pathlib import Path

import edn_format

from flexclient._errors import ProcessFileError
from flexclient._support.files import read_regular
from flexclient._support.narrow import is_mapping, is_sequence, is_set

# A process file nests a dozen levels and is a few kilobytes: far past either, it is no
# process, and reading it on would run out of stack (or memory).
DEEPEST = 100
LARGEST = 4 * 1024 * 1024
_TAGGED = re.compile(r'#(inst|uuid)\s*("(?:[^"\\]|\\.)*"|[^\s\])}]+)')


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
    values = _parse(text, where)
    if len(values) != 1:
        raise ProcessFileError(where, f"expected one EDN value, found {len(values)}")
    return _plain(values[0], where, 0)


def _parse(text: str, where: str) -> list[object]:
    try:
        # No parser tables are written next to edn-format's modules: they may not be writable.
        return list(edn_format.loads_all(text, write_ply_tables=False))
    except edn_format.EDNDecodeError as exc:
        problem = _problem(text, exc)
    except NotImplementedError as exc:  # edn-format's word for a tag it has no reader for
        problem = _unknown_tag(text, exc)
    except (ValueError, TypeError, AttributeError):  # #inst or #uuid refused its value
        problem = _bad_tagged(text)
    # Raised outside the `except`: the parser's exception says nothing more to a reader.
    raise ProcessFileError(where, f"not valid EDN: {problem}")


def read_file(path: str | os.PathLike[str]) -> object:
    """The value in the EDN file at `path`: a regular file (a FIFO is refused before it is
    opened for long: reading one would wait for a writer) of UTF-8 text."""
    file = Path(path)
    try:
        found = read_regular(file, LARGEST)
    except OSError as exc:
        raise ProcessFileError(str(file), f"cannot be read: {exc.strerror or exc}") from None
    if found is None:
        raise ProcessFileError(str(file), "cannot be read: no such file")
    content = found[0]
    if len(content) > LARGEST:
        raise ProcessFileError(str(file), f"is larger than {LARGEST // 1024 // 1024} MiB")
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = content.count(b"\n", 0, exc.start) + 1
        byte = content[exc.start]
        raise ProcessFileError(
            str(file), f"is not UTF-8 text: byte 0x{byte:02x} on line {line} (save it as UTF-8)"
        ) from None
    return read(text, where=str(file))


def _problem(text: str, exc: edn_format.EDNDecodeError) -> str:
    # edn-format's error carries the parser's token (with its position), or a message.
    token = exc.args[0] if exc.args else None
    position = getattr(token, "lexpos", None)
    if isinstance(position, int):
        line = text.count("\n", 0, position) + 1
        return f"unexpected {getattr(token, 'value', token)!r} on line {line}"
    return str(exc) or "cannot be read"


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _unknown_tag(text: str, exc: NotImplementedError) -> str:
    # edn-format names the tag in its message: "... handle tag ImmutableDict(my/tag)".
    named = re.search(r"\((.+)\)$", str(exc))
    if named is None:
        return "a tag the reader does not know (it knows #inst and #uuid)"
    tag = named[1]
    found = re.search(rf"#{re.escape(tag)}(?![\w.*+!?$%&=<>/:#'-])", text)
    on_line = f" on line {_line_of(text, found.start())}" if found else ""
    return f"unknown tag #{tag}{on_line} (the reader knows #inst and #uuid)"


def _bad_tagged(text: str) -> str:
    # The parser does not say where: each tagged value is read on its own to find it.
    for match in _TAGGED.finditer(text):
        try:
            edn_format.loads(match[0], write_ply_tables=False)
        except Exception as exc:  # whatever the tag's reader raised
            detail = str(exc) or type(exc).__name__
            line = _line_of(text, match.start())
            return f"bad #{match[1]} value {match[2]} on line {line}: {detail}"
    return "a tagged value (#inst or #uuid) that cannot be read"


def _key(value: object, where: str, depth: int) -> object:
    """A map's key or a set's element, read: a map inside one (which EDN allows, and a
    process file never has) is refused, as a dict cannot be a key."""
    read = _plain(value, where, depth)
    try:
        hash(read)
    except TypeError:
        raise ProcessFileError(where, "a map used as a map key or set element") from None
    return read


def _plain(value: object, where: str, depth: int) -> object:
    if depth > DEEPEST:
        raise ProcessFileError(where, f"nested more than {DEEPEST} levels deep: no process is")
    depth += 1
    if isinstance(value, edn_format.Keyword):
        return Keyword(value.name)
    if isinstance(value, str | bool | int | float) or value is None:
        return value
    if is_mapping(value):
        return {_key(k, where, depth): _plain(v, where, depth) for k, v in value.items()}
    if is_set(value):  # edn-format reads a set as a frozenset
        return frozenset(_key(v, where, depth) for v in value)
    if is_sequence(value):
        return tuple(_plain(v, where, depth) for v in value)
    if isinstance(value, edn_format.Symbol):
        raise ProcessFileError(where, f"a symbol ({value.name}) where a value was expected")
    return value  # a Decimal, a tagged value (#inst, #uuid) as edn-format reads it
