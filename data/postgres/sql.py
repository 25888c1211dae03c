"""Running the shared SQL on asyncpg: numbered parameters and transient failures.

The shared modules (queries, statements, privacy) write ``?`` and ``:name``
parameters, as SQLite takes them; PostgreSQL wants ``$1``, ``$2``... The
conversion is done once per statement text and cached.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

#: A connection of its own, or one lent by the pool.
Connection: TypeAlias = asyncpg.Connection | PoolConnectionProxy

_PARAMETER = re.compile(r"\?|(?<!:):([A-Za-z_]\w*)")

#: Failures that say the server or the connection went away, not that the statement is wrong.
TRANSIENT: tuple[type[BaseException], ...] = (
    OSError,  # ConnectionError and the like: refused, reset, unreachable
    asyncio.TimeoutError,
    asyncpg.InterfaceError,  # e.g. "connection is closed", ConnectionDoesNotExistError
    asyncpg.PostgresConnectionError,  # class 08
    asyncpg.CannotConnectNowError,  # the server is starting up or shutting down
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    # A connection the server just terminated can fail its next BEGIN with this
    # protocol-state error before asyncpg notices that it is closed.
    asyncpg.InternalClientError,
)


@lru_cache(maxsize=512)
def numbered(sql: str) -> tuple[str, tuple[str | int, ...]]:
    """``sql`` with PostgreSQL's ``$n`` parameters, and what each number stands for:
    a position for ``?``, a name for ``:name`` (one number per distinct name)."""
    order: list[str | int] = []
    positional = 0

    def number(match: re.Match[str]) -> str:
        nonlocal positional
        name = match.group(1)
        if name is None:
            order.append(positional)
            positional += 1
            return f"${len(order)}"
        if name not in order:
            order.append(name)
        return f"${order.index(name) + 1}"

    return _PARAMETER.sub(number, sql), tuple(order)


def arguments(order: Sequence[str | int], parameters: Sequence[Any] | Mapping[str, Any]) -> list[Any]:
    """``parameters`` in ``order``: by name from a mapping (``:name``), by position from a sequence (``?``)."""
    if isinstance(parameters, Mapping):
        names = [key for key in order if isinstance(key, str)]
        if len(names) != len(order):
            raise TypeError("a statement with ? parameters takes them as a sequence, not a mapping")
        return [parameters[name] for name in names]
    positions = [key for key in order if isinstance(key, int)]
    if len(positions) != len(order):
        raise TypeError("a statement with :name parameters takes them as a mapping, not a sequence")
    return [parameters[position] for position in positions]


class Numbered:
    """An asyncpg connection that runs the shared ``?``/``:name`` SQL (the ``queries.Reader`` shape)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    async def execute_fetchall(
        self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ()
    ) -> list[asyncpg.Record]:
        text, order = numbered(sql)
        return await self.conn.fetch(text, *arguments(order, parameters))

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> str:
        text, order = numbered(sql)
        return await self.conn.execute(text, *arguments(order, parameters))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            text, _ = numbered(sql)
            await self.conn.executemany(text, rows)
