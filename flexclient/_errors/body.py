"""The body of an error response, as models: `ApiError.data`.

Imported with the first error body read: a program that never sees one never builds these
classes.
"""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field


class ErrorSource(BaseModel):
    """Where in the request an error was found, e.g. `path=["body", "title"]`."""

    # Built when an error body is first read, not at import.
    model_config: ClassVar[ConfigDict] = ConfigDict(extra="allow", defer_build=True)

    path: list[str] = Field(default_factory=list)
    type: str | None = None


class ErrorItem(BaseModel):
    """One error of an error response.

    `details` is meant for debugging only: the API may change its content at any time, so do
    not make decisions on it. Decide on `status` and `code`.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(extra="allow", defer_build=True)

    id: uuid.UUID | None = None
    status: int | None = None
    code: str = ""
    title: str = ""
    details: Any = None
    source: ErrorSource | None = None
    meta: dict[str, Any] | None = None


class ErrorEnvelope(BaseModel):
    """The body of an error response: `{"errors": [...]}`."""

    model_config: ClassVar[ConfigDict] = ConfigDict(extra="allow", defer_build=True)

    errors: list[ErrorItem] = Field(default_factory=list[ErrorItem])
