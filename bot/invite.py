"""The bot's invite link: the scopes and the permissions it asks for (the README gives each reason)."""

from __future__ import annotations

import discord

#: Everything the bot uses, and nothing more: no administrator, no moderation.
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,  # to see a table's channel
    send_messages=True,  # the lobby; a game's messages where it runs in the channel itself
    embed_links=True,  # tables and leaderboards are embeds
    attach_files=True,  # the table picture, exported game logs
    read_message_history=True,  # after a crash or a long outage: a post that may be there already
    create_public_threads=True,  # each game's thread, started on its lobby
    send_messages_in_threads=True,  # everything a game in a thread posts; adding its players
)


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with its slash commands and exactly its permissions."""
    return discord.utils.oauth_url(
        application_id, permissions=INVITE_PERMISSIONS, scopes=("bot", "applications.commands")
    )


def user_install_url(application_id: int) -> str:
    """The link that adds the app to a player's own account: its player commands then work in group
    DMs and in servers that never added the bot, carried by the players' clicks (no bot, no permissions)."""
    return discord.utils.oauth_url(application_id, scopes=("applications.commands",)) + "&integration_type=1"
