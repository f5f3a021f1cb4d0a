from typing import IO, Literal

class Writer:
    def __init__(
        self,
        io: IO[str],
        protocol: Literal["json", "json_verbose", "msgpack"] = "json",
        opts: dict[str, object] | None = None,
    ) -> None: ...
    def write(self, obj: object) -> None: ...

class JsonMarshaler:
    def __init__(self, io: IO[str], opts: dict[str, object] | None = None) -> None: ...
    def marshal_top(self, obj: object, cache: object | None = None) -> None: ...
