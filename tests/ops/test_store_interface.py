"""The store stays behind the narrow ``Store`` protocol, so SQLite and PostgreSQL are interchangeable.

bot/ and cogs/ import only the backend-neutral parts of data/ and call only
methods the protocol declares; SQLiteStore implements each of them with the
same parameters, and so does PostgresStore.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from data.postgres import PostgresStore
from data.sqlite import SQLiteStore
from data.store import Store

ROOT = Path(__file__).resolve().parents[2]
NEUTRAL = {"data", "data.store", "data.models", "data.errors"}
PROTOCOL = {name for name, value in vars(Store).items() if inspect.iscoroutinefunction(value)}


def sources():
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path.relative_to(ROOT), ast.parse(path.read_text())


def is_store(node: ast.AST) -> bool:
    """``store``, ``self.store``, ``service.store``, ``store_of(interaction)``…"""
    if isinstance(node, ast.Name):
        return node.id in {"store", "_store"}
    if isinstance(node, ast.Attribute):
        return node.attr in {"store", "_store"}
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "store_of"


def test_the_upper_layers_import_only_the_neutral_parts_of_data():
    for path, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "data":
                assert node.module in NEUTRAL, f"{path}:{node.lineno} imports {node.module}"
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any(n.startswith(("aiosqlite", "sqlite3")) for n in names), f"{path}:{node.lineno}"


def test_the_upper_layers_call_only_protocol_methods():
    called = set()
    for path, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and is_store(node.value):
                assert node.attr in PROTOCOL, f"{path}:{node.lineno} uses store.{node.attr}, not in Store"
                called.add(node.attr)
    assert {"load_unfinished", "leaderboard", "close"} <= called, "the scan sees the calls"
    assert {"create_game", "commit", "mark_shown"} <= called, "the service writes through commits and marks"


#: The service's writes from before commit(): each is one commit (or part of one) now.
RETIRED = {"upsert_player", "upsert_guild", "update_game", "checkpoint", "record_results"}


def test_the_protocol_has_the_one_transaction_per_action_writes():
    assert {"create_game", "commit", "mark_shown", "load_unshown", "load_table"} <= PROTOCOL
    params = inspect.signature(Store.create_game).parameters
    assert {"commit", "options", "seed"} <= set(params) and not {"message_ids", "seats"} & set(params)
    assert params["commit"].default is inspect.Parameter.empty, "a game opens with its first commit"


@pytest.mark.parametrize("owner", [Store, SQLiteStore, PostgresStore])
def test_the_retired_writes_are_gone(owner):
    assert not {name for name in RETIRED if hasattr(owner, name)}, f"{owner.__name__} keeps retired writes"


@pytest.mark.parametrize("backend", [SQLiteStore, PostgresStore])
def test_each_backend_implements_the_protocol_with_the_same_parameters(backend):
    assert len(PROTOCOL) >= 13
    for name in PROTOCOL:
        expected = inspect.signature(getattr(Store, name)).parameters
        actual = inspect.signature(getattr(backend, name)).parameters
        assert [(p.name, p.kind, p.default) for p in actual.values()] == [
            (p.name, p.kind, p.default) for p in expected.values()
        ], f"{backend.__name__}.{name}{list(actual)} differs from Store.{name}{list(expected)}"
