"""Where the app can be used: installs to servers and to users and the three interaction contexts,
as Discord's documentation describes them.

What a test sets (``DiscordStandin`` methods, from ``InstallsMixin`` below)::

    standin.set_installation_contexts(guild=True, user=True)  # the app may be installed to users too

What Discord documents, and how the stand-in plays it (sources: docs/resources/Application.md,
"Installation Context" and "Application Integration Types"; docs/interactions/Application_Commands.md,
"Contexts" and the command structure's ``integration_types`` and ``contexts``;
docs/interactions/Receiving_and_Responding.md, Interaction Object, "Interaction Context Types"):

- **Installation contexts** (integration types): GUILD_INSTALL 0, USER_INSTALL 1. The app supports a
  set of them ("Setting Supported Installation Contexts"); the stand-in's app starts with servers only,
  as the bot's app is configured today. A command's ``integration_types`` may name only supported ones
  ("as long as any included contexts are already supported on the application-level") and defaults to
  the app's ("Defaults to your app's configured contexts"); the GET answers the value in force.
- **Interaction contexts**: GUILD 0, BOT_DM 1, PRIVATE_CHANNEL 2 ("Group DMs and DMs other than the
  app's bot user"). A command's ``contexts`` defaults to all three ("By default, contexts includes all
  interaction context types"), and "the PRIVATE_CHANNEL interaction context is only meaningful for
  commands installed to a user". Both fields are lists of those integers: anything else is refused at
  sync with 400 / 50035 and the field's path. The docs name no error code for these fields; the codes
  here (``ENUM_TYPE_COERCE`` and the like) are the stand-in's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .world import World

GUILD_INSTALL, USER_INSTALL = 0, 1  # Application.md, Application Integration Types
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # Receiving_and_Responding.md, Interaction Context Types
INTEGRATION_TYPES = (GUILD_INSTALL, USER_INSTALL)
CONTEXTS = (GUILD, BOT_DM, PRIVATE_CHANNEL)


# --- commands --------------------------------------------------------------------------------


def install_problems(data: dict[str, Any], supported: frozenset[int]) -> list[tuple[str, str]]:
    """What Discord refuses in a command's ``integration_types`` and ``contexts``, as (path, code)."""
    problems: list[tuple[str, str]] = []
    for key, allowed in (("integration_types", INTEGRATION_TYPES), ("contexts", CONTEXTS)):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, list):
            problems.append((key, "LIST_TYPE_CONVERT"))
            continue
        for index, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, int):
                problems.append((f"{key}.{index}", "NUMBER_TYPE_COERCE"))
            elif item not in allowed:
                problems.append((f"{key}.{index}", "ENUM_TYPE_COERCE"))
            elif key == "integration_types" and item not in supported:
                problems.append((f"{key}.{index}", "APPLICATION_INTEGRATION_TYPE_NOT_SUPPORTED"))
    return problems


def integration_types_of(data: dict[str, Any], supported: frozenset[int]) -> tuple[int, ...]:
    """A command's installation contexts: as given, or the app's at the time of the sync."""
    given = data.get("integration_types")
    return tuple(sorted(set(given))) if given is not None else tuple(sorted(supported))


def contexts_of(data: dict[str, Any]) -> tuple[int, ...]:
    """A command's interaction contexts: as given, or all three."""
    given = data.get("contexts")
    return tuple(sorted(set(given))) if given is not None else CONTEXTS


# --- the test's side: DiscordStandin's methods ---------------------------------------------------


class InstallsMixin:
    """``DiscordStandin``'s world-building for installs, foreign guilds and group DMs."""

    world: World

    def set_installation_contexts(self, *, guild: bool = True, user: bool = False) -> None:
        """Where the app may be installed (Application.md, "Setting Supported Installation
        Contexts"): to servers, to users, or both. Commands synced later default to these."""
        if not (guild or user):
            raise ValueError("an app supports at least one installation context")
        self.world.app_integration_types = frozenset(
            kind for kind, wanted in ((GUILD_INSTALL, guild), (USER_INSTALL, user)) if wanted
        )
