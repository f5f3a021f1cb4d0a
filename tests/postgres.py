"""A throwaway PostgreSQL server for the tests, from the machine's own binaries.

The server runs from a temporary folder, listens on a Unix socket only (no port is opened),
and is stopped when the test session ends. `initdb` refuses to run as root: under root (as
CI runs) the server runs as the `postgres` account that Debian's package creates.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import sqlalchemy as sa

MISSING = (
    "PostgreSQL's server binaries (initdb, pg_ctl) are not on this machine:"
    " apt-get install postgresql (Debian), or put its bin folder on PATH"
)


def server_bindir() -> Path:
    """The folder holding `initdb` and `pg_ctl`: `pg_config --bindir`, or PATH."""
    pg_config = shutil.which("pg_config")
    if pg_config is not None:
        found = subprocess.run(
            [pg_config, "--bindir"], capture_output=True, text=True, check=False
        ).stdout.strip()
        if found and (Path(found) / "initdb").is_file():
            return Path(found)
    initdb = shutil.which("initdb")
    if initdb is not None and shutil.which("pg_ctl") is not None:
        return Path(initdb).resolve().parent
    raise RuntimeError(MISSING)


class PostgresServer:
    """A server of its own in a temporary folder; `database_url()` makes a fresh database."""

    def __init__(self) -> None:
        self.bindir = server_bindir()
        self.folder = Path(tempfile.mkdtemp(prefix="flexclient-pg-"))
        self.data = self.folder / "data"
        self.socket = self.folder / "socket"
        self.socket.mkdir()
        self._names = itertools.count(1)
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            for path in (self.folder, self.socket):
                os.chown(path, account.pw_uid, account.pw_gid)
            self._as_user = ["runuser", "-u", "postgres", "--"]
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        options = (
            f"-k {self.socket} -c listen_addresses='' -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        self.admin = sa.create_engine(self._url("postgres"), isolation_level="AUTOCOMMIT")

    def _run(self, program: str, *args: str) -> None:
        command = [*self._as_user, str(self.bindir / program), *args]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed: {done.stdout}{done.stderr}")

    def _url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@/{database}?host={self.socket}"

    def database_url(self) -> str:
        """The URL of a new, empty database (as a user writes it: `postgresql://`)."""
        name = f"test_{next(self._names)}"
        with self.admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@/{name}?host={self.socket}"

    def stop(self) -> None:
        self.admin.dispose()
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
