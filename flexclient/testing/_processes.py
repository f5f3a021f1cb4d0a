"""Transaction processes: read from process.edn files, checked, and kept as data the engine
runs (`flexclient.testing._engine`).

A process is its transitions: who takes each (`customer`, `provider`, `operator`; one with
`:at` is taken by the system when its time comes), the state it leaves (none for one that
starts a transaction), the state it leads to, its actions in order, and whether only a
trusted context may take it (`:privileged?`). Its notifications are read and checked, and
not sent. The format is Sharetribe's (`:format :v3`); a process using an action, a time
function or a timepoint the fake does not know is refused when it is loaded, with the
transition that uses it named.

The built-in processes, those the web template uses, are files of the project's own in
`flexclient/testing/processes/<name>/process.edn`, each under the alias `<name>/release-1`.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from flexclient._errors import ProcessFileError
from flexclient._support.narrow import is_dict, is_tuple
from flexclient._support.suggest import did_you_mean
from flexclient.testing import _edn
from flexclient.testing import _time_expressions as tx_time
from flexclient.testing._actions import ACTIONS, check_config
from flexclient.testing._edn import Keyword

BUILT_IN = Path(__file__).parent / "processes"
BUILT_IN_NAMES = (
    "default-booking",
    "default-purchase",
    "default-inquiry",
    "default-negotiation",
    "default-download",
)
ROLES = {
    "actor.role/customer": "customer",
    "actor.role/provider": "provider",
    "actor.role/operator": "operator",
}
_ALIAS = re.compile(r"([A-Za-z0-9][A-Za-z0-9_.-]*)/([A-Za-z0-9][A-Za-z0-9_.-]*)")
_TRANSITION_KEYS = {"name", "actor", "actions", "from", "to", "at", "privileged?"}
_NOTIFICATION_KEYS = {"name", "on", "to", "template", "at"}


@dataclass(frozen=True)
class ActionCall:
    """An action as a transition runs it: its name and its `:config`, read."""

    name: str
    config: Mapping[str, Any] = field(default_factory=lambda: {})


@dataclass(frozen=True)
class Transition:
    name: str  # "transition/accept"
    to: str  # "state/accepted"
    start: str | None = None  # the state it is taken from; None: it starts a transaction
    actor: str | None = None  # "customer", "provider", "operator"; None: the system, at `at`
    actions: tuple[ActionCall, ...] = ()
    at: tx_time.Moment | None = None
    privileged: bool = False


@dataclass(frozen=True)
class Notification:
    name: str
    on: str  # the transition that sends it
    to: str  # "customer" or "provider"
    template: str
    at: tx_time.Moment | None = None


@dataclass(frozen=True)
class Process:
    name: str
    version: int
    transitions: tuple[Transition, ...]
    notifications: tuple[Notification, ...] = ()
    alias_name: str = "release-1"
    source: str = ""  # the file it was read from

    @property
    def alias(self) -> str:
        return f"{self.name}/{self.alias_name}"

    def transition(self, name: str) -> Transition | None:
        return next((t for t in self.transitions if t.name == name), None)

    def next_from(self, state: str | None) -> list[Transition]:
        """The transitions that can be taken from `state` (None: the initial ones)."""
        return [t for t in self.transitions if t.start == state]

    @property
    def states(self) -> list[str]:
        """Every state, in the order the transitions first name them."""
        found: dict[str, None] = {}
        for t in self.transitions:
            if t.start is not None:
                found.setdefault(t.start)
            found.setdefault(t.to)
        return list(found)


# --- where processes come from -------------------------------------------------------------

ProcessSource = str | os.PathLike[str]
ProcessSources = Iterable[ProcessSource] | Mapping[str, ProcessSource]


def split_alias(alias: str) -> tuple[str, str, int]:
    """A process alias's name, alias name and the version it stands for: `release-N` is
    version N, any other alias version 1."""
    match = _ALIAS.fullmatch(alias)
    if match is None:
        raise ValueError(f"{alias!r} is not a process alias such as 'my-process/release-1'")
    release = re.fullmatch(r"release-(\d+)", match[2])
    return match[1], match[2], int(release[1]) if release else 1


def _process_file(source: ProcessSource) -> Path:
    path = Path(source)
    return path / "process.edn" if path.is_dir() else path


def load(source: ProcessSource, alias: str | None = None) -> Process:
    """The process in a file (or in `process.edn` in a folder), under `alias`; without one,
    under `<folder>/release-1`, the folder being the one the file is in, as Sharetribe's
    CLI lays processes out (`<name>/process.edn`)."""
    path = _process_file(source)
    if alias is None:
        alias = f"{path.resolve().parent.name}/release-1"
    try:
        name, alias_name, version = split_alias(alias)
    except ValueError as exc:
        raise ProcessFileError(str(path), str(exc)) from None
    return read(_edn.read_file(path), name, version, alias_name=alias_name, where=str(path))


def load_all(sources: ProcessSources) -> list[Process]:
    """Processes from paths (each under its folder's name) or from a mapping of aliases to
    paths (`{"my-process/release-2": "path/to/process.edn"}`)."""
    if isinstance(sources, str | os.PathLike):
        raise TypeError("processes: a list of paths, or a mapping of aliases to paths")
    if isinstance(sources, Mapping):
        given = cast(Mapping[str, ProcessSource], sources)
        return [load(path, alias) for alias, path in given.items()]
    return [load(path) for path in sources]


@functools.cache
def built_in() -> tuple[Process, ...]:
    """The project's own processes of the web template's defaults."""
    return tuple(load(BUILT_IN / name) for name in BUILT_IN_NAMES)


# --- reading -------------------------------------------------------------------------------


def read(
    data: object, name: str, version: int, *, alias_name: str = "release-1", where: str = "EDN"
) -> Process:
    """A process from the value read from its process.edn."""

    def fail(problem: str) -> ProcessFileError:
        return ProcessFileError(where, problem)

    if not is_dict(data):
        raise fail("a process is a map of :format, :transitions and :notifications")
    top = _keys(data, where, "the process")
    unknown = set(top) - {"format", "transitions", "notifications"}
    if unknown:
        raise fail(f"unknown key {_kw(sorted(unknown)[0])} in the process")
    if top.get("format") != Keyword("v3"):
        raise fail(f":format is {_show(top.get('format'))}: the fake runs format :v3")
    raw_transitions = top.get("transitions")
    if not is_tuple(raw_transitions) or not raw_transitions:
        raise fail(":transitions is a vector of one or more transitions")
    transitions = tuple(_transition(t, i, fail, where) for i, t in enumerate(raw_transitions))
    names = [t.name for t in transitions]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise fail(f"transition {_kw(twice[0])} is defined more than once")
    raw_notifications = top.get("notifications", ())
    if not is_tuple(raw_notifications):
        raise fail(":notifications is a vector")
    notifications = tuple(
        _notification(n, i, set(names), fail, where) for i, n in enumerate(raw_notifications)
    )
    process = Process(name, version, transitions, notifications, alias_name, where)
    _check_graph(process, fail)
    return process


def _keys(raw: dict[object, object], where: str, what: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in raw.items():
        if not isinstance(key, Keyword):
            raise ProcessFileError(where, f"{what}: the key {_show(key)} is not a keyword")
        out[str(key)] = value
    return out


def _kw(name: str) -> str:
    return f":{name}"


def _show(value: object) -> str:
    return _kw(value) if isinstance(value, Keyword) else repr(value)


def _keyword(value: object, namespace: str, what: str) -> str:
    if not isinstance(value, Keyword) or value.namespace != namespace:
        raise ValueError(f"{what} is a keyword :{namespace}/..., not {_show(value)}")
    return str(value)


def _transition(raw: object, index: int, fail: Any, where: str) -> Transition:
    label = f"transition #{index + 1}"
    if not is_dict(raw):
        raise fail(f"{label} is not a map")
    keys = _keys(raw, where, label)
    try:
        name = _keyword(keys.get("name"), "transition", ":name")
    except ValueError as exc:
        raise fail(f"{label}: {exc}") from None
    try:
        return _transition_of(name, keys)
    except ValueError as exc:
        raise fail(f"{_kw(name)}: {exc}") from None


def _transition_of(name: str, keys: dict[str, object]) -> Transition:
    unknown = sorted(set(keys) - _TRANSITION_KEYS)
    if unknown:
        raise ValueError(f"unknown key {_kw(unknown[0])}")
    start = _keyword(keys["from"], "state", ":from") if "from" in keys else None
    if "to" not in keys:
        raise ValueError(":to is missing")
    to = _keyword(keys["to"], "state", ":to")
    at: tx_time.Moment | None = None
    actor: str | None = None
    if "at" in keys:
        if "actor" in keys:
            raise ValueError("a transition with :at is taken by the system: it has no :actor")
        if start is None:
            raise ValueError("a delayed transition (:at) cannot start a transaction")
        try:
            at = tx_time.parse(keys["at"])
        except tx_time.TimeExpressionError as exc:
            raise ValueError(f":at: {exc}") from None
    else:
        role = keys.get("actor")
        if not isinstance(role, Keyword) or role not in ROLES:
            known = ", ".join(_kw(r) for r in ROLES)
            raise ValueError(f":actor is one of {known} (or the transition has :at)")
        actor = ROLES[role]
    privileged = keys.get("privileged?", False)
    if not isinstance(privileged, bool):
        raise ValueError(":privileged? is true or false")
    raw_actions = keys.get("actions", ())
    if not is_tuple(raw_actions):
        raise ValueError(":actions is a vector of actions")
    actions = tuple(_action(a) for a in raw_actions)
    return Transition(name, to, start, actor, actions, at, privileged)


def _action(raw: object) -> ActionCall:
    if not is_dict(raw):
        raise ValueError(f"an action is a map {{:name :action/...}}, not {_show(raw)}")
    keys = {str(k): v for k, v in raw.items() if isinstance(k, Keyword)}
    if len(keys) != len(raw) or set(keys) - {"name", "config"}:
        raise ValueError("an action has :name and, optionally, :config")
    name = keys.get("name")
    if not isinstance(name, Keyword):
        raise ValueError(f"an action's :name is a keyword, not {_show(name)}")
    action = ACTIONS.get(str(name))
    if action is None:
        raise ValueError(
            f"unknown action {_show(name)}: the fake implements every action of Sharetribe's "
            "actions reference, and this is not one of them"
        )
    if action.implicit:
        raise ValueError(f"{_show(name)} is implicit: the process must not name it")
    config = keys.get("config", {})
    if not is_dict(config) or not all(isinstance(k, Keyword) for k in config):
        raise ValueError(f"the :config of {_show(name)} is a map of keywords")
    try:
        read = check_config(str(name), {str(k): v for k, v in config.items()})
    except ValueError as exc:
        raise ValueError(f"{_show(name)} {exc}") from None
    return ActionCall(str(name), read)


def _notification(
    raw: object, index: int, transitions: set[str], fail: Any, where: str
) -> Notification:
    label = f"notification #{index + 1}"
    if not is_dict(raw):
        raise fail(f"{label} is not a map")
    keys = _keys(raw, where, label)
    name = keys.get("name")
    if isinstance(name, Keyword):
        label = _kw(name)
    try:
        unknown = sorted(set(keys) - _NOTIFICATION_KEYS)
        if unknown:
            raise ValueError(f"unknown key {_kw(unknown[0])}")
        if not isinstance(name, Keyword):
            raise ValueError(":name is a keyword")
        on = _keyword(keys.get("on"), "transition", ":on")
        if on not in transitions:
            raise ValueError(f":on names {_kw(on)}, which is no transition of the process")
        role = keys.get("to")
        if role not in ("actor.role/customer", "actor.role/provider"):
            raise ValueError(":to is :actor.role/customer or :actor.role/provider")
        template = keys.get("template")
        if not isinstance(template, Keyword):
            raise ValueError(":template is a keyword")
        at = tx_time.parse(keys["at"]) if "at" in keys else None
    except (ValueError, tx_time.TimeExpressionError) as exc:
        raise fail(f"{label}: {exc}") from None
    return Notification(str(name), on, ROLES[str(role)], str(template), at)


def _check_graph(process: Process, fail: Any) -> None:
    """One connected flow with a start; the time expressions name states and transitions of
    the process."""
    if not process.next_from(None):
        raise fail("no transition starts a transaction (one without :from)")
    states = set(process.states)
    names = {t.name for t in process.transitions}
    for t in process.transitions:
        if t.at is None:
            continue
        for tp in tx_time.references(t.at):
            known = states if tp.name.endswith("-state") else names
            if tp.arg is not None and tp.arg not in known:
                raise fail(f"{_kw(t.name)}: :at names {_kw(tp.arg)}, which the process lacks")
    # A transition from a state no transition leads to can never be taken: a misspelt :from.
    reached = {t.to for t in process.transitions}
    for t in process.transitions:
        if t.start is not None and t.start not in reached:
            hint = did_you_mean(t.start, sorted(reached - {t.to}))
            raise fail(
                f"{_kw(t.name)}: its :from {_kw(t.start)} is a state no transition leads to{hint}"
            )
    # Connected: every state is reached from the states of the first transitions, going along
    # transitions either way.
    linked: dict[str, set[str]] = {s: set() for s in states}
    for t in process.transitions:
        if t.start is not None:
            linked[t.start].add(t.to)
            linked[t.to].add(t.start)
    seen: set[str] = set()
    todo = [t.to for t in process.next_from(None)]
    while todo:
        state = todo.pop()
        if state not in seen:
            seen.add(state)
            todo.extend(linked[state] - seen)
    apart = sorted(states - seen)
    if apart:
        raise fail(f"{_kw(apart[0])} is not connected to the rest of the process")
