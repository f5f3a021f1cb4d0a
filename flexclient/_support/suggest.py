"""'Did you mean ...?' for misspelled names: endpoint groups, endpoints, parameter keys."""

from __future__ import annotations

from collections.abc import Iterable


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A hint naming the closest known names, or "" when none is close.

    >>> did_you_mean("listing.query", ["listings.query", "users.show"])
    "; did you mean 'listings.query'?"
    """
    import difflib  # only when a name is misspelled

    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + " or ".join(repr(c) for c in close) + "?"


def vars_of(cls: type) -> dict[str, object]:
    """A class's attributes, its bases' included (the nearest definition wins)."""
    found: dict[str, object] = {}
    for klass in reversed(cls.__mro__):
        found.update(vars(klass))
    return found


def no_such(owner: object, name: str, member: type, noun: str) -> AttributeError:
    """The error for a name `owner` lacks, naming its members of type `member` that it
    resembles: `MarketplaceClient has no endpoint group 'listing'; did you mean 'listings'?`"""
    if name.startswith("_"):
        return AttributeError(name)
    known = [k for k, v in vars_of(type(owner)).items() if isinstance(v, member)]
    hint = did_you_mean(name, known)
    return AttributeError(f"{type(owner).__name__} has no {noun} {name!r}{hint}")
