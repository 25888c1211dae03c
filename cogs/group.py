"""The one ``/6nimmt`` command group, declared here; every cog adds its subcommands to it.

Each cog adds its subcommands in ``cog_load`` and takes them back in
``cog_unload``, so no cog depends on another's being loaded first; the group
joins the tree with its first subcommands and leaves it with its last.
"""

from __future__ import annotations

from collections.abc import Iterable

from discord import app_commands

NAME = "6nimmt"

#: A player's commands: installed to a server or to a player's own account, and used in servers (those
#: that added the bot and those that did not), the bot's DM and group DMs.
PLAYER_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
PLAYER_CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
#: A server's admin and the bot owner's commands: where the server added the bot, only.
SERVER_INSTALLS = app_commands.AppInstallationType(guild=True, user=False)
SERVER_CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


def declare() -> app_commands.Group:
    """A fresh group for one bot's tree (a group belongs to one tree)."""
    return app_commands.Group(
        name=NAME,
        description="Play 6 nimmt! in this channel",
        allowed_installs=PLAYER_INSTALLS,
        allowed_contexts=PLAYER_CONTEXTS,
    )


def add_subcommands(tree: app_commands.CommandTree, commands: Iterable[app_commands.Command]) -> app_commands.Group:
    found = tree.get_command(NAME)
    if isinstance(found, app_commands.Group):
        group = found
    elif found is None:
        group = declare()
        tree.add_command(group)
    else:
        raise TypeError(f"/{NAME} is a command of its own in this tree, not the group")
    for command in commands:
        group.add_command(command, override=True)
    return group


def remove_subcommands(tree: app_commands.CommandTree, commands: Iterable[app_commands.Command]) -> None:
    group = tree.get_command(NAME)
    if not isinstance(group, app_commands.Group):
        return
    for command in commands:
        group.remove_command(command.name)
    if not group.commands:
        tree.remove_command(NAME)
