"""A PostgreSQL server for the tests: TEST_DATABASE_URL, or a throwaway cluster.

The throwaway cluster is made with the machine's PostgreSQL binaries in a
temporary folder, listening on 127.0.0.1 at a free port, and removed at the
end of the session. ``initdb`` and ``postgres`` refuse to run as root, so as
root they run as the unprivileged ``nobody``, who owns the folder. Without
binaries and without TEST_DATABASE_URL the PostgreSQL tests are skipped, or
fail when SIXNIMMT_REQUIRE_POSTGRES=1 (CI sets it: there they must run).
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

HOW_TO_ENABLE = (
    "PostgreSQL tests need TEST_DATABASE_URL (a role that may CREATE DATABASE) or the "
    "PostgreSQL server binaries (initdb, pg_ctl; apt-get install postgresql)"
)
# Each pytest-xdist worker has a template of its own: on TEST_DATABASE_URL's one server, workers
# making and dropping one name at once would fail each other (its throwaway cluster is its own).
TEMPLATE = f"sixnimmt_template_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
_names = itertools.count(1)


def require_or_skip(reason: str) -> None:
    if os.environ.get("SIXNIMMT_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"SIXNIMMT_REQUIRE_POSTGRES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def binaries() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A server and the URL of its maintenance database (for CREATE DATABASE)."""

    def __init__(self, admin_url: str, stop=None) -> None:
        self.admin_url = admin_url
        self._stop = stop

    def url(self, database: str) -> str:
        return self.admin_url.rsplit("/", 1)[0] + "/" + database

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()

    async def fresh_database(self) -> str:
        """A new database with the latest schema (a copy of the template): its URL."""
        import asyncpg

        name = f"sixnimmt_test_{os.getpid()}_{next(_names)}"
        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}" STRATEGY FILE_COPY')
        finally:
            await conn.close()
        return self.url(name)

    async def empty_database(self) -> str:
        import asyncpg

        name = f"sixnimmt_empty_{os.getpid()}_{next(_names)}"
        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    async def make_template(self) -> None:
        import asyncpg

        from data.postgres import PostgresStore

        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}"')
            await conn.execute(f'CREATE DATABASE "{TEMPLATE}"')
        finally:
            await conn.close()
        store = await PostgresStore.open(self.url(TEMPLATE), pool_size=1)
        await store.close()


def start_cluster(*, durable: bool = False) -> Cluster:
    """TEST_DATABASE_URL's server, else a throwaway cluster; raises RuntimeError saying why not.

    ``durable``: the throwaway cluster syncs to disk as a production server does (for
    benchmarks); the tests' cluster does not, since it never outlives a crash.
    """
    if os.environ.get("TEST_DATABASE_URL"):
        cluster = Cluster(os.environ["TEST_DATABASE_URL"])
    else:
        cluster = _throwaway(durable)
    try:
        # In a thread of its own: the fixture may be first asked for inside a test's event loop.
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, cluster.make_template()).result()
    except BaseException:
        cluster.stop()
        raise
    return cluster


def _throwaway(durable: bool) -> Cluster:
    folder = binaries()
    if folder is None:
        raise RuntimeError(HOW_TO_ENABLE)
    root = Path(tempfile.mkdtemp(prefix="sixnimmt-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb and postgres refuse root
        nobody = pwd.getpwnam("nobody")
        os.chown(root, nobody.pw_uid, nobody.pw_gid)
        as_user = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]
    data = root / "data"

    def run(*args: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*as_user, *map(str, args)], check=True, capture_output=True, text=True, cwd=root, timeout=120
        )

    try:
        run(folder / "initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
        # fsync off: a test cluster never survives a crash, and every test creates a database.
        speed = "" if durable else "-F -c full_page_writes=off"
        for attempt in range(3):
            # The free port may be taken before the server binds it (by another test process
            # starting its own cluster): then another one.
            port = free_port()
            try:
                run(
                    folder / "pg_ctl",
                    "-D",
                    data,
                    "-l",
                    root / "server.log",
                    "-w",
                    "-t",
                    "60",
                    "-o",
                    f"-h 127.0.0.1 -p {port} -k {root} {speed} -c max_connections=300",
                    "start",
                )
                break
            except subprocess.CalledProcessError:
                if attempt == 2:
                    raise
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"could not start a throwaway PostgreSQL: {exc.stderr.strip() or exc}") from None

    def stop() -> None:
        subprocess.run(
            [*as_user, str(folder / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            cwd=root,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)

    return Cluster(f"postgresql://postgres@127.0.0.1:{port}/postgres", stop)


def main() -> None:
    """``python -m tests.postgres``: a throwaway server that syncs to disk, for running the bot
    or benchmarks/load.py on PostgreSQL by hand; prints a DATABASE_URL, stops on Ctrl-C/SIGTERM."""
    import signal

    cluster = start_cluster(durable=True)
    try:
        print(f"DATABASE_URL={asyncio.run(cluster.empty_database())}", flush=True)
        signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))
        signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
