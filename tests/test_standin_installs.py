"""User installs and the interaction contexts in the stand-in: each test checks what Discord's
documentation says (tests/standin/installs.py names it)."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from tests.standin import DiscordStandin


async def api(standin: DiscordStandin, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One bot-token request, as the bot would make it."""
    headers = {"Authorization": f"Bot {standin.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, standin.api_base + path, json=body, headers=headers) as response,
    ):
        return response.status, await response.json() if response.content_type == "application/json" else None


# --- command sync -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("contexts", [0, 3], ["contexts", "1"]),  # no interaction context 3
        ("contexts", ["0"], ["contexts", "0"]),  # integers, not strings
        ("contexts", [True], ["contexts", "0"]),
        ("contexts", 0, ["contexts"]),  # a list
        ("integration_types", [2], ["integration_types", "0"]),  # no installation context 2
        ("integration_types", [1], ["integration_types", "0"]),  # the app supports no user installs
    ],
)
async def test_a_sync_with_contexts_or_integration_types_discord_refuses(field, value, path) -> None:
    async with DiscordStandin() as standin:
        command = {"name": "start", "description": "Open a table", field: value}
        status, body = await api(standin, "PUT", f"/applications/{standin.application_id}/commands", [command])
        assert (status, body["code"]) == (400, 50035)
        node = body["errors"]
        for part in path:
            node = node[part]
        assert node["_errors"]
        assert standin.commands() == {}


async def test_a_sync_stores_installs_and_contexts_and_answers_them_back() -> None:
    async with DiscordStandin() as standin:
        route = f"/applications/{standin.application_id}/commands"
        # Left out, integration_types are the app's (servers only, as the bot's app is today) and
        # contexts stay null; the bot's own registration is accepted as it is.
        bare = {"name": "start", "description": "Open a table", "contexts": None, "integration_types": None}
        status, synced = await api(standin, "PUT", route, [bare])
        assert status == 200
        assert (synced[0]["integration_types"], synced[0]["contexts"]) == ([0], None)
        standin.set_installation_contexts(guild=True, user=True)
        both = {"name": "both", "description": "Both", "integration_types": [0, 1], "contexts": [0, 1, 2]}
        status, _ = await api(standin, "PUT", route, [bare, both])
        assert status == 200
        status, listed = await api(standin, "GET", route)
        answered = {c["name"]: (c["integration_types"], c["contexts"]) for c in listed}
        assert answered == {"start": ([0, 1], None), "both": ([0, 1], [0, 1, 2])}
        status, application = await api(standin, "GET", "/applications/@me")
        assert set(application["integration_types_config"]) == {"0", "1"}
