from typing import IO, Literal

class Writer:
    def __init__(
        self,
        io: IO[str],
        protocol: Literal["json", "json_verbose", "msgpack"] = "json",
        opts: dict[str, object] | None = None,
    ) -> None: ...
    def write(self, obj: object) -> None: ...
