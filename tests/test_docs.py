"""Every Python example in README.md and docs/*.md runs, against the fake marketplace.

Each file is one test. Its ```python blocks run in order in one namespace of their own, which
starts empty (only `__name__`): the blocks themselves start the fake and make the clients, as a
reader pasting them would. A block is left out only when the line right before its fence is
`<!-- not run: <reason> -->` (it is still compiled, so its syntax is checked). The blocks run
in a temporary folder with HOME pointing into it, the SHARETRIBE_SDK_* / FLEX_* variables
unset, and every connection to a host other than 127.0.0.1 refused: such an attempt fails the
test even when a block catches the error. Every fake started is stopped at the end.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import re
import socket
import warnings
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from flexclient import IntegrationClient, MarketplaceClient
from flexclient.testing import FakeMarketplace
from flexclient.testing._asset_cdn import FakeAssetCDN

ROOT = Path(__file__).parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<info>[^`\s]*)")
MARKER = re.compile(r"\s*<!--\s*not run\b(?P<rest>.*?)-->\s*$")  # a line of its own
ALLOWED_HOSTS = {"127.0.0.1"}
ENVIRONMENT = (
    "SHARETRIBE_SDK_CLIENT_ID",
    "SHARETRIBE_SDK_CLIENT_SECRET",
    "SHARETRIBE_SDK_BASE_URL",
    "REACT_APP_SHARETRIBE_SDK_CLIENT_ID",
    "FLEX_INTEGRATION_CLIENT_ID",
    "FLEX_INTEGRATION_CLIENT_SECRET",
    "FLEX_INTEGRATION_BASE_URL",
)


@dataclasses.dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the first line of code, 1-based
    code: str
    not_run: str | None  # the marker's reason


def blocks(path: Path) -> list[Block]:
    """The ```python blocks of a Markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if fence is None:
            i += 1
            continue
        indent, info = fence["indent"], fence["info"]
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith("```"):
            end += 1
        if info in ("python", "py"):
            code = "\n".join(line.removeprefix(indent) for line in lines[i + 1 : end])
            marker = MARKER.match(lines[i - 1]) if i > 0 else None
            reason = None
            if marker is not None:
                reason = marker["rest"].strip().removeprefix(":").strip()
                assert marker["rest"].strip().startswith(":") and reason, (
                    f"{path.name}:{i}: a not-run marker needs a reason: <!-- not run: why -->"
                )
            found.append(Block(path, i + 2, code + "\n", reason))
        i = end + 1
    return found


def stray_markers(path: Path) -> list[int]:
    """Lines holding a not-run marker that is not right before a ```python fence."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [
        n + 1
        for n, line in enumerate(lines)
        if MARKER.match(line)
        and not (n + 1 < len(lines) and re.match(r"\s*```(python|py)\s*$", lines[n + 1]))
    ]


class InternetRefused(BaseException):
    """A block tried to reach a host other than 127.0.0.1 (a BaseException: no `except
    Exception` or retry loop swallows it)."""


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Refuse and record every name lookup or connection to a host other than 127.0.0.1."""
    attempts: list[str] = []
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect

    def check(host: object) -> None:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name not in ALLOWED_HOSTS:
            attempts.append(name)
            raise InternetRefused(f"the docs tests refuse to reach {name!r}: 127.0.0.1 only")

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        check(host)
        return real_getaddrinfo(host, *args, **kwargs)

    def connect(self: socket.socket, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            check(address[0])
        real_connect(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    yield attempts


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every fake started meanwhile; stopped at the end, whatever names the blocks gave them."""
    servers: list[Any] = []
    for cls in (FakeMarketplace, FakeAssetCDN):
        real_start: Callable[[Any], Any] = cls.start

        def start(self: Any, real_start: Callable[[Any], Any] = real_start) -> Any:
            servers.append(self)
            return real_start(self)

        monkeypatch.setattr(cls, "start", start)
    yield servers
    for server in servers:
        server.stop()


@contextlib.contextmanager
def global_state_kept() -> Generator[None, None, None]:
    """Undo what blocks do to the process: warning filters, logging handlers and levels."""
    loggers = [logging.getLogger(), logging.getLogger("flexclient")]
    saved = [(logger, logger.level, list(logger.handlers)) for logger in loggers]
    try:
        with warnings.catch_warnings():
            yield
    finally:
        for logger, level, handlers in saved:
            logger.setLevel(level)
            logger.handlers[:] = handlers


def where(block: Block) -> str:
    path = block.path.relative_to(ROOT) if block.path.is_relative_to(ROOT) else block.path
    return f"{path}:{block.line}"


def run_blocks(path: Path, attempts: list[str]) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    try:
        for block in blocks(path):
            # Padded so that tracebacks give the line in the Markdown file.
            code = compile("\n" * (block.line - 1) + block.code, str(block.path), "exec")
            if block.not_run is not None:
                continue
            try:
                exec(code, namespace)
            except BaseException as e:
                e.add_note(f"in the block at {where(block)}")
                raise
            assert not attempts, (
                f"the block at {where(block)} tried to reach "
                f"{sorted(set(attempts))}: use the fake marketplace, or mark it not run"
            )
    finally:
        for value in namespace.values():
            if isinstance(value, MarketplaceClient | IntegrationClient):
                value.close()
    return namespace


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(ROOT)) for p in DOCS])
def test_python_blocks_run(
    path: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    offline: list[str],
    started: list[Any],
) -> None:
    for name in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(tmp_path)
    stray = stray_markers(path)
    assert not stray, f"not-run markers not right before a ```python fence, lines {stray}"
    with global_state_kept():
        run_blocks(path, offline)


def test_the_readme_tour_runs_against_the_fake() -> None:
    tour = blocks(ROOT / "README.md")[0]
    assert tour.not_run is None
    assert "FakeMarketplace(" in tour.code and "fake.client_id" in tour.code


def test_every_page_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in DOCS[1:] if f"](docs/{p.name})" not in readme]
    assert not missing, f"README.md links no {missing}"


def test_markers_need_a_reason(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- not run -->\n```python\nx = 1\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="needs a reason"):
        blocks(page)
    page.write_text("<!-- not run: needs Redis -->\n```python\nx = 1\n```\n", encoding="utf-8")
    assert blocks(page)[0].not_run == "needs Redis"


def test_a_block_reaching_the_internet_fails_even_when_it_catches_the_error(
    tmp_path: Path, offline: list[str]
) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nfrom flexclient import MarketplaceClient\n"
        "try:\n    MarketplaceClient('CLIENT_ID', max_retries=0).listings.query()\n"
        "except BaseException:\n    pass\n```\n",
        encoding="utf-8",
    )
    with pytest.raises(AssertionError, match=r"tried to reach \['flex-api.sharetribe.com'\]"):
        run_blocks(page, offline)


def test_a_marked_block_is_compiled_but_not_run(tmp_path: Path, offline: list[str]) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- not run: real API -->\n```python\nraise SystemExit\n```\n", "utf-8")
    run_blocks(page, offline)
    page.write_text("<!-- not run: real API -->\n```python\nif True\n```\n", "utf-8")
    with pytest.raises(SyntaxError):
        run_blocks(page, offline)
