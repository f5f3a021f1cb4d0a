"""Multipart bodies for image uploads, streamed from disk with progress reports.

The file goes in the field `image`; other body parameters become text fields. The body is a
file-like object with a known length, so `requests` streams it in chunks and sends a
Content-Length; a retried request builds a fresh one, re-reading the file from the start.
"""

from __future__ import annotations

import io
import mimetypes
import os
import stat
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any, BinaryIO, NamedTuple, cast

from flexclient._errors import ParameterError, require
from flexclient._http.progress import progress_bar
from flexclient._wire.value_types import Money
from flexclient._wire.values import Unwritable, as_text

FileInput = str | os.PathLike[str] | bytes | BinaryIO


class UploadProgress(NamedTuple):
    """Passed to `on_upload_progress`: bytes sent so far and the body's total size.

    >>> UploadProgress(loaded=512, total=2048).loaded
    512
    """

    # A named tuple, not a dataclass: made at import, it costs a seventh of one.
    loaded: int
    total: int


ProgressCallback = Callable[[UploadProgress], object]

# A part's names are quoted strings in its header: a `"` would end one early and a CR or LF
# would start a header line of the caller's choosing. Percent-encoding those three is how the
# HTML standard's form encoding, browsers and urllib3 send such names (RFC 7578 section 4.2
# allows percent-encoding there), so servers read the name as they read a browser's upload.
_QUOTED_ESCAPES = str.maketrans({'"': "%22", "\r": "%0D", "\n": "%0A"})


def quoted_param(value: str) -> str:
    """`value` as it goes between the quotes of a multipart header parameter."""
    return value.translate(_QUOTED_ESCAPES)


def _text(value: object, key: str) -> str:
    kind = type(value)
    if issubclass(kind, Money | Mapping | list | tuple):
        raise ParameterError(key, f"cannot send a {kind.__name__} in a multipart form")
    try:
        return as_text(value)  # as the official SDK's form data writes it
    except Unwritable as exc:
        raise ParameterError(key, f"cannot send it in a multipart form: {exc}") from None


class Source:
    """Where the file's bytes come from, and how to read them again from the start."""

    def __init__(self, value: object, key: str) -> None:
        self.key = key
        if isinstance(value, bytes | bytearray):
            self.data: bytes | None = bytes(value)
            self.path: Path | None = None
            self.stream: BinaryIO | None = None
            self.filename = key
            self.size = len(value)
        elif isinstance(value, str | os.PathLike):
            self.data, self.stream = None, None
            # A PathLike of bytes fails here, as Path() takes text only.
            self.path = Path(cast("str | os.PathLike[str]", value))
            if not self.path.is_file():
                raise ParameterError(key, f"no such file: {str(self.path)!r}")
            self.filename = self.path.name
            self.size = self.path.stat().st_size
        elif hasattr(value, "read"):
            self.data, self.path = None, None
            self.stream = value  # type: ignore[assignment]
            name = getattr(value, "name", None)
            self.filename = Path(name).name if isinstance(name, str) else key
            self.start = self._tell()
            self.size = self._size()
        else:
            raise ParameterError(
                key, "give a file path, a pathlib.Path, bytes, or a binary file object"
            )
        self.opened = False
        guessed = mimetypes.guess_type(self.filename)[0]
        self.content_type = guessed or "application/octet-stream"

    def _tell(self) -> int | None:
        try:
            return self.stream.tell() if self.stream is not None else None
        except (OSError, ValueError):
            return None

    def _size(self) -> int:
        assert self.stream is not None
        try:
            st = os.fstat(self.stream.fileno())
            if stat.S_ISREG(st.st_mode):  # a pipe or socket has no size to tell
                return st.st_size - (self.start or 0)
        except (OSError, AttributeError, ValueError):
            pass
        if self.start is not None:
            try:
                end = self.stream.seek(0, io.SEEK_END)
                self.stream.seek(self.start)
                return end - self.start
            except (OSError, ValueError):
                pass
        raise ParameterError(self.key, "the file object must be seekable or have a file size")

    def open(self) -> IO[bytes]:
        """The bytes from the start: a path is opened anew, a stream rewound. A stream that
        cannot seek is used as it is for the first attempt and refused for any other."""
        if self.data is not None:
            return io.BytesIO(self.data)
        if self.path is not None:
            return self.path.open("rb")
        assert self.stream is not None
        if self.opened and self.start is None:
            raise ParameterError(
                self.key,
                "the upload must be sent again (after a retry or a token refresh), "
                "but the file object cannot be rewound; pass a path or a seekable file",
            )
        if self.opened:
            self.stream.seek(self.start or 0)
        self.opened = True
        return self.stream


class MultipartBody(io.RawIOBase):
    """A multipart/form-data body read in chunks; reports progress as it is read."""

    def __init__(
        self,
        fields: list[tuple[str, str]],
        source: Source,
        boundary: str,
        on_progress: ProgressCallback | None,
    ) -> None:
        head = b"".join(
            f"--{boundary}\r\nContent-Disposition: form-data; "
            f'name="{quoted_param(k)}"\r\n\r\n{v}\r\n'.encode()
            for k, v in fields
        )
        head += (
            f"--{boundary}\r\nContent-Disposition: form-data; "
            f'name="{quoted_param(source.key)}"; filename="{quoted_param(source.filename)}"\r\n'
            f"Content-Type: {source.content_type}\r\n\r\n"
        ).encode()
        self._source = source
        self._parts: list[bytes | IO[bytes]] = [
            head,
            source.open(),
            f"\r\n--{boundary}--\r\n".encode(),
        ]
        self._owned = source.path is not None
        self.total = len(head) + source.size + len(self._parts[2])  # type: ignore[arg-type]
        self.loaded = 0
        self._on_progress = on_progress
        self._part = 0
        self._offset = 0

    def __len__(self) -> int:
        return self.total

    def readable(self) -> bool:
        return True

    def tell(self) -> int:
        # requests sizes a body as its length less its position: this gives Content-Length.
        return self.loaded

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        """Back to the start only: requests rewinds a body when an answer redirects (to make
        the next request, even one it will not send); the file is opened or rewound anew."""
        if (offset, whence) == (self.loaded, io.SEEK_SET) or (offset, whence) == (0, io.SEEK_CUR):
            return self.loaded
        if (offset, whence) != (0, io.SEEK_SET):
            raise io.UnsupportedOperation("a multipart body seeks back to its start only")
        self._close_file()
        try:
            self._parts[1] = self._source.open()
        except ParameterError as exc:  # a stream that cannot be rewound
            raise io.UnsupportedOperation(str(exc)) from None
        self._part = self._offset = self.loaded = 0
        return 0

    def _close_file(self) -> None:
        part = self._parts[1]
        if self._owned and not isinstance(part, bytes):
            part.close()

    def close(self) -> None:
        if not self.closed:
            self._close_file()
        super().close()

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            size = self.total
        out = bytearray()
        while len(out) < size and self._part < len(self._parts):
            part = self._parts[self._part]
            if isinstance(part, bytes):
                chunk = part[self._offset : self._offset + size - len(out)]
                self._offset += len(chunk)
                if self._offset >= len(part):
                    self._part, self._offset = self._part + 1, 0
            else:
                chunk = part.read(size - len(out))
                if not chunk:
                    if self._owned:
                        part.close()
                    self._part += 1
            out += chunk
        if out:
            self.loaded += len(out)
            if self._on_progress is not None:
                self._on_progress(UploadProgress(loaded=self.loaded, total=self.total))
        return bytes(out)


def upload_bar(then: ProgressCallback | None) -> ProgressCallback:
    """A progress callback that draws a tqdm bar (and calls `then` too, if given)."""
    require("tqdm.auto", "progress", "a progress bar")  # without it, the error now
    bar: Any = None

    def update(progress: UploadProgress) -> None:
        nonlocal bar
        if bar is None or progress.loaded < bar.n:  # a new attempt starts from zero
            if bar is not None:
                bar.close()
            bar = progress_bar(total=progress.total, unit="B", desc="upload")
        bar.update(progress.loaded - bar.n)
        if progress.loaded >= progress.total:
            bar.close()
        if then is not None:
            then(progress)

    return update


def multipart_factory(
    params: Mapping[str, object], on_progress: ProgressCallback | None
) -> tuple[str, Callable[[], MultipartBody], int]:
    """Check upload params now (raising `ParameterError`); return the content type, a
    factory that builds a fresh body for each attempt, and the size of the file (what the
    upload's data transfer is billed by)."""
    if "image" not in params:
        raise ParameterError("image", "an upload needs the file in 'image'")
    source = Source(params["image"], "image")
    fields = [(k, _text(v, k)) for k, v in params.items() if k != "image" and v is not None]
    boundary = uuid.uuid4().hex
    content_type = f"multipart/form-data; boundary={boundary}"
    return (
        content_type,
        lambda: MultipartBody(fields, source, boundary, on_progress),
        source.size,
    )
