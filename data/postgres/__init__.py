"""The PostgreSQL backend (asyncpg): one database shared by several bot processes."""

from .store import PostgresStore

__all__ = ["PostgresStore"]
