"""The README's invite link asks for exactly the permissions the bot uses, and names each."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.invite import INVITE_PERMISSIONS, invite_url

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_the_invite_link_asks_for_exactly_the_bots_permissions():
    [asked] = set(re.findall(r"oauth2/authorize\?[^`\s]*permissions=(\d+)", README))
    assert int(asked) == INVITE_PERMISSIONS.value
    # The link the bot logs as it starts asks for the same, with both scopes.
    url = invite_url(1234)
    assert "client_id=1234" in url and f"permissions={INVITE_PERMISSIONS.value}" in url
    assert "scope=bot+applications.commands" in url


#: Discord's names for the permissions, as its client and the README show them.
LABELS = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}


def test_the_readme_gives_a_reason_for_each_permission():
    assert discord.Permissions(**{name: True for name in LABELS}) == INVITE_PERMISSIONS
    rows = dict(re.findall(r"^\s*\| ([A-Z][\w ]+?) \| (.+?) \|$", README, re.M))
    for label in LABELS.values():
        assert rows.get(label), f"the README's permission table has no reason for {label}"
    assert not INVITE_PERMISSIONS.administrator and not INVITE_PERMISSIONS.manage_threads
