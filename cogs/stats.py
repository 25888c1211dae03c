"""``/leaderboard`` and ``/6nimmt stats | history | forget-me``: the stored records, shown.

Thin like the other cogs: the store answers the questions, ``bot.records``
checks and refuses. ``/6nimmt`` is the group the Tables cog defines; these
subcommands are attached to the tree's copy of it when this cog loads (a cog
cannot declare commands inside another cog's group), so users see one
``/6nimmt`` command.

Buttons are restart-proof ``DynamicItem``s with the ``6s:`` prefix (``6n:``
belongs to the table buttons): a leaderboard page carries its scope, metric,
minimum games and page, and re-queries the store on every click.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SixNimmtBot
from bot.tables.records import (
    SeatedAtOpenTable,
    forget_player,
    game_log_in,
    open_table_of,
    parse_game_id,
)
from cogs.client import bot_of, scope_id_of
from cogs.errors import add_items, remove_items
from cogs.i18n import (
    DELETED_PLAYER,
    N_,
    LocaleLike,
    items,
    language_of,
    number,
    past_seat_name,
    percent,
    public_locale,
    tr,
    trn,
    user_locale,
)
from cogs.render.chart import CHART_WORDS
from cogs.render.history import game_files
from cogs.render.names import shown_name
from cogs.render.text import BULL, GREEN, VARIANT_NAMES
from cogs.ui.base import IdFormat, Part, TableItem, digits, item_view, one_of, service_of
from data.models import LeaderboardEntry, Metric, PlayerStats
from data.store import Store
from engine import Variant

from .group import add_subcommands, remove_subcommands

log = logging.getLogger(__name__)

PREFIX = "6s:"
PAGE_SIZE = 10

METRICS: dict[Metric, tuple[str, str, str]] = {  # metric → (custom-id code, choice name, leaderboard title)
    "rating": ("o", N_("Rating"), N_("rating")),
    "wins": ("w", N_("Wins"), N_("wins")),
    "win_rate": ("r", N_("Win rate"), N_("win rate")),
    "avg_points_per_round": ("p", N_("Average points per round"), N_("average points per round (fewest first)")),
    "games": ("g", N_("Games played"), N_("games played")),
}
METRIC_BY_CODE: dict[str, Metric] = {code: metric for metric, (code, _, _) in METRICS.items()}


def metric_named(name: str) -> Metric:
    """``name`` as a metric: Discord offers only ``METRIC_CHOICES``; anything else ranks by rating."""
    for metric in METRICS:
        if metric == name:
            return metric
    return "rating"


METRIC_CHOICES = [app_commands.Choice(name=name, value=metric) for metric, (_, name, _) in METRICS.items()]
#: A game's status as the history shows it.
GAME_STATUS = {
    "lobby": N_("lobby"),
    "playing": N_("playing"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
    "abandoned": N_("abandoned"),
}
SCOPE_CHOICES = [
    app_commands.Choice(name=N_("This server"), value="server"),
    app_commands.Choice(name=N_("All servers"), value="global"),
]


def where_text(locale, scope: str) -> str:
    return tr(locale, "this server") if scope == "server" else tr(locale, "all servers")


def games_text(locale, count: int) -> str:
    return trn(locale, "{count} game", "{count} games", count, count=number(locale, count))


def store_of(interaction: discord.Interaction) -> Store:
    return service_of(interaction).store


# --------------------------------------------------------------------------- leaderboard


def per_round(locale, entry) -> str:
    return tr(locale, "{points}{bull}/round", points=number(locale, entry.avg_points_per_round, 2), bull=BULL)


def metric_value(locale, entry: LeaderboardEntry, metric: str) -> str:
    if metric == "win_rate":
        return tr(locale, "{rate} win rate", rate=percent(locale, entry.win_rate))
    if metric == "avg_points_per_round":
        return per_round(locale, entry) if entry.avg_points_per_round is not None else "—"
    if metric == "games":
        return games_text(locale, entry.games)
    if metric == "wins":
        return trn(locale, "{wins} win", "{wins} wins", entry.wins, wins=number(locale, entry.wins))
    return tr(locale, "rating {rating}", rating=number(locale, entry.rating, 1))


def entry_line(locale, entry: LeaderboardEntry, metric: str, *, highlight: bool = False) -> str:
    rest = [tr(locale, "rating {rating}", rating=number(locale, entry.rating, 1))] if metric != "rating" else []
    rest.append(
        tr(
            locale,
            "{wins}/{games} won ({rate})",
            wins=number(locale, entry.wins),
            games=number(locale, entry.games),
            rate=percent(locale, entry.win_rate),
        )
    )
    if entry.avg_points_per_round is not None and metric != "avg_points_per_round":
        rest.append(per_round(locale, entry))
    name = shown_name(entry.display_name or "?")
    line = f"**{entry.rank}.** {name} — **{metric_value(locale, entry, metric)}** · " + " · ".join(rest)
    return f"▶ {line}" if highlight else line


async def leaderboard_message(
    interaction: discord.Interaction, scope: str, metric: Metric, min_games: int, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed and page buttons for one leaderboard page, with the viewer's own rank."""
    store = store_of(interaction)
    locale = public_locale(interaction)
    guild_id = scope_id_of(interaction) if scope == "server" else None
    total = (await store.leaderboard(guild_id, metric, min_games=min_games, limit=0)).total
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)  # the board may have shrunk since the buttons were made
    board = await store.leaderboard(guild_id, metric, min_games=min_games, limit=PAGE_SIZE, offset=page * PAGE_SIZE)
    viewer = interaction.user
    mine = await store.rank_of(viewer.id, guild_id, metric, min_games=min_games)

    where = where_text(locale, scope)
    embed = discord.Embed(
        title=tr(locale, "6 nimmt! leaderboard — {metric}", metric=tr(locale, METRICS[metric][2])), colour=GREEN
    )
    if board.entries:
        embed.description = "\n".join(
            entry_line(locale, e, metric, highlight=e.user_id == viewer.id) for e in board.entries
        )
    elif min_games > 1:
        embed.description = tr(
            locale,
            "Nobody qualifies yet (at least {games}). Start a game with `/6nimmt start`!",
            games=games_text(locale, min_games),
        )
    else:
        embed.description = tr(locale, "Nobody qualifies yet. Start a game with `/6nimmt start`!")
    name = shown_name(viewer.display_name)
    rank_title = tr(locale, "{name}'s rank", name=name)
    if mine is not None:
        embed.add_field(name=rank_title, value=entry_line(locale, mine, metric), inline=False)
    else:
        embed.add_field(
            name=rank_title,
            inline=False,
            value=trn(
                locale,
                "{name} is not ranked here yet: it takes {count} finished game in {where}.",
                "{name} is not ranked here yet: it takes {count} finished games in {where}.",
                min_games,
                name=name,
                count=number(locale, min_games),
                where=where,
            ),
        )
    players = trn(locale, "{count} player", "{count} players", total, count=number(locale, total))
    embed.set_footer(
        text=tr(
            locale,
            "Page {page} of {pages} · {players} · {where} · at least {games}",
            page=page + 1,
            pages=pages,
            players=players,
            where=where,
            games=games_text(locale, min_games),
        )
    )
    if pages == 1:
        return embed, None
    view = item_view()
    # Translators: a button label (at most 80 characters).
    view.add_item(
        LeaderboardPage(scope, metric, min_games, page - 1, label=tr(locale, "◀ Previous"), disabled=page == 0)
    )
    # Translators: a button label (at most 80 characters).
    view.add_item(
        LeaderboardPage(scope, metric, min_games, page + 1, label=tr(locale, "Next ▶"), disabled=page >= pages - 1)
    )
    return embed, view


class LeaderboardPage(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=IdFormat(
        "6s:lb:{scope}:{metric}:{min_games}:{page}",
        scope=Part(
            "[sa]",
            read=lambda code: "server" if code == "s" else "global",
            write=lambda scope: "s" if scope == "server" else "a",
        ),
        metric=Part("[a-z]", read=lambda code: METRIC_BY_CODE.get(code, "rating"), write=lambda m: METRICS[m][0]),
        min_games=digits(4),
        page=digits(5),
    ),
):
    """A page button: anyone may page; the board is read anew from the store on every click."""

    moves = False

    def __init__(
        self, scope: str, metric: Metric, min_games: int, page: int, *, label: str = "Page", disabled: bool = False
    ) -> None:
        page = max(page, 0)  # "Previous" on page 1 points at page 1, "Next" at page 2: ids stay distinct
        scope = "server" if scope in ("s", "server") else "global"
        custom_id = self.id_format.build(scope=scope, metric=metric, min_games=min_games, page=page)
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id, disabled=disabled)
        )
        self.scope = scope
        self.metric, self.min_games, self.page = metric, min_games, page

    async def act(self, interaction, service, reply):
        embed, view = await leaderboard_message(interaction, self.scope, self.metric, self.min_games, self.page)
        await reply.edit(embed=embed, view=view)


# --------------------------------------------------------------------------- stats


def stats_embed(locale, stats: PlayerStats, name: str, where: str) -> discord.Embed:
    """``name``: the player's display name, as they chose it."""
    embed = discord.Embed(title=tr(locale, "6 nimmt! stats — {name}", name=shown_name(name)), colour=GREEN)
    if not stats.games:
        embed.description = tr(locale, "No finished games in {where} yet.", where=where)
        return embed
    embed.description = tr(locale, "Finished games in {where}.", where=where)
    games = number(locale, stats.games)
    if stats.finished_by_ai:
        games += " " + trn(
            locale,
            "({count} finished by an AI)",
            "({count} finished by an AI)",
            stats.finished_by_ai,
            count=number(locale, stats.finished_by_ai),
        )
    embed.add_field(name=tr(locale, "Games"), value=games)
    embed.add_field(name=tr(locale, "Wins"), value=f"{number(locale, stats.wins)} ({percent(locale, stats.win_rate)})")
    if stats.rating is not None:
        embed.add_field(
            name=tr(locale, "Rating"),
            value=f"{number(locale, stats.rating.ordinal, 1)} "
            f"(μ {number(locale, stats.rating.mu, 1)}, "
            f"σ {number(locale, stats.rating.sigma, 1)})",
        )
    else:
        embed.add_field(name=tr(locale, "Rating"), value=tr(locale, "not rated yet"))
    if stats.avg_points_per_round is not None:
        embed.add_field(
            name=tr(locale, "Points per round"), value=f"{number(locale, stats.avg_points_per_round, 2)}{BULL}"
        )
    if stats.avg_points_per_game is not None:
        embed.add_field(
            name=tr(locale, "Points per game"), value=f"{number(locale, stats.avg_points_per_game, 1)}{BULL}"
        )
    for label, score in ((N_("Best game"), stats.best_game), (N_("Worst game"), stats.worst_game)):
        if score is not None:
            embed.add_field(
                name=tr(locale, label),
                value=tr(locale, "{points}{bull} in game #{game}", points=score.points, bull=BULL, game=score.game_id),
            )
    embed.add_field(name=tr(locale, "Rows taken"), value=number(locale, stats.rows_taken))
    embed.add_field(name=tr(locale, "Sixth-card takes"), value=number(locale, stats.sixth_card_takes))
    embed.add_field(name=tr(locale, "Low-card takes"), value=number(locale, stats.low_card_takes))
    if stats.favourite_row is not None:
        embed.add_field(
            name=tr(locale, "Favourite row"),
            value=tr(
                locale,
                "row {row} ({times}× taken)",
                row=stats.favourite_row + 1,
                times=stats.row_takes[stats.favourite_row],
            ),
        )
    return embed


# --------------------------------------------------------------------------- forget-me


class ForgetButton(
    TableItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=IdFormat("6s:fm:{user_id}:{answer}", user_id=digits(20), answer=one_of("yes", "no")),
):
    """The confirmation of ``/6nimmt forget-me``; only the asking user may answer it."""

    def __init__(self, user_id: int, answer: str, locale=None) -> None:
        # Translators: a button label (at most 80 characters).
        label, style = (
            (tr(locale, "Delete my data"), discord.ButtonStyle.danger)
            if answer == "yes"
            # Translators: a button label (at most 80 characters).
            else (tr(locale, "Keep my data"), discord.ButtonStyle.secondary)
        )
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=self.id_format.build(user_id=user_id, answer=answer))
        )
        # ``choice``, not ``answer``: that names how TableItem answers the click (an edit of the question)
        self.user_id, self.choice = user_id, answer

    async def act(self, interaction, service, reply):
        locale = user_locale(interaction)
        if interaction.user.id != self.user_id:
            await reply.error(tr(locale, "This button is not yours: use `/6nimmt forget-me` yourself."))
            return
        if self.choice == "no":
            await reply.edit(content=tr(locale, "Nothing was deleted."), view=None)
            return
        stored = await forget_player(service, self.user_id)
        await reply.edit(
            content=(
                tr(
                    locale,
                    "Your 6 nimmt! data is deleted: your stats, ratings and name are gone, and your "
                    "seats in past games now read “deleted player”.",
                )
                if stored
                else tr(locale, "There was nothing stored about you.")
            ),
            view=None,
        )


ITEMS = (LeaderboardPage, ForgetButton)


def forget_view(user_id: int, locale) -> discord.ui.View:
    view = item_view()
    view.add_item(ForgetButton(user_id, "yes", locale))
    view.add_item(ForgetButton(user_id, "no", locale))
    return view


# --------------------------------------------------------------------------- /6nimmt subcommands


@app_commands.command(name="stats", description="A player's 6 nimmt! record")
@app_commands.describe(member="Whose stats (default: yours)", scope="This server or every server")
@app_commands.choices(scope=SCOPE_CHOICES)
async def stats_command(
    interaction: discord.Interaction, member: discord.Member | discord.User | None = None, scope: str = "server"
) -> None:
    target = member or interaction.user
    guild_id = scope_id_of(interaction) if scope == "server" else None
    stats = await store_of(interaction).player_stats(target.id, guild_id)
    locale = public_locale(interaction)
    await interaction.response.send_message(
        embed=stats_embed(locale, stats, target.display_name, where_text(locale, scope))
    )


@app_commands.command(name="history", description="The last games in this server, or one game's log as files")
@app_commands.describe(game="A game number from the list: export its log as JSON and text files")
async def history_command(interaction: discord.Interaction, game: str | None = None) -> None:
    # The store may be slow and the files take a moment: answer "thinking…" at once. A game's
    # files go to the asker alone, the list to the channel.
    await interaction.response.defer(ephemeral=game is not None, thinking=True)
    store = store_of(interaction)
    if game is not None:
        log_ = await game_log_in(store, scope_id_of(interaction), parse_game_id(game))
        locale: LocaleLike = user_locale(interaction)
        export, chart = await bot_of(interaction).tables.workers.run(
            game_files, log_, {word: tr(locale, word) for word in (*CHART_WORDS, DELETED_PLAYER)}, language_of(locale)
        )
        files = [
            discord.File(io.BytesIO(export.json_text.encode()), filename=f"6nimmt-game-{export.game_id}.json"),
            discord.File(io.BytesIO(export.text.encode()), filename=f"6nimmt-game-{export.game_id}.txt"),
        ]
        if chart is not None:  # each player's bullheads round by round
            files.append(
                discord.File(
                    io.BytesIO(chart),
                    filename=f"6nimmt-game-{export.game_id}-scores.png",
                    description=tr(locale, "Bullheads after each round"),
                )
            )
        standings = items(
            locale, [f"{r.rank}. {shown_name(past_seat_name(locale, r))} {r.points}{BULL}" for r in log_.results]
        )
        await interaction.followup.send(
            tr(
                locale,
                "Game #{game} ({status}): {standings}. The full log is attached.",
                game=export.game_id,
                status=tr(locale, GAME_STATUS[log_.game.status]),
                standings=standings or tr(locale, "no results"),
            ),
            files=files,
            ephemeral=True,
        )
        return
    games = await store.history(scope_id_of(interaction), limit=10)
    locale = public_locale(interaction)
    embed = discord.Embed(title=tr(locale, "6 nimmt! — last games in this server"), colour=GREEN)
    if not games:
        embed.description = tr(locale, "No finished games yet. Start one with `/6nimmt start`!")
    else:
        lines = []
        for summary in games:
            record = summary.game
            status = tr(locale, GAME_STATUS[record.status])
            when = f"<t:{int(record.finished_at.timestamp())}:R>" if record.finished_at else status
            standings = items(
                locale,
                [
                    f"{'🏆 ' if r.won else ''}{shown_name(past_seat_name(locale, r))} {r.points}{BULL}"
                    for r in summary.results
                ],
            )
            variant = tr(locale, VARIANT_NAMES[Variant(record.variant)])
            lines.append(f"**#{record.game_id}** · {variant} · {when}\n{standings or status}")
        embed.description = "\n".join(lines)[:4000]
        embed.set_footer(text=tr(locale, "Download a game's log: /6nimmt history game:<number>"))
    await interaction.followup.send(embed=embed)


@app_commands.command(name="forget-me", description="Delete everything the bot stores about you")
async def forget_me_command(interaction: discord.Interaction) -> None:
    table = open_table_of(service_of(interaction), interaction.user.id)
    if table is not None:
        raise SeatedAtOpenTable(table.channel_id)
    locale = user_locale(interaction)
    await interaction.response.send_message(
        tr(
            locale,
            "This deletes your 6 nimmt! stats, ratings and name for good; your seats in past games will "
            "read “deleted player”. Other players' results stay as they were. Are you sure?",
        ),
        view=forget_view(interaction.user.id, locale),
        ephemeral=True,
    )


SUBCOMMANDS: tuple[app_commands.Command[Any, Any, Any], ...] = (stats_command, history_command, forget_me_command)


class Stats(commands.Cog):
    def __init__(self, bot: SixNimmtBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        add_subcommands(self.bot.tree, SUBCOMMANDS)

    async def cog_unload(self) -> None:
        remove_subcommands(self.bot.tree, SUBCOMMANDS)

    @app_commands.command(name="leaderboard", description="The best 6 nimmt! players")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(
        scope="This server or every server",
        metric="What to rank by",
        min_games="Only rank players with at least this many finished games",
    )
    @app_commands.choices(scope=SCOPE_CHOICES, metric=METRIC_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        scope: str = "server",
        metric: str = "rating",
        min_games: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        embed, view = await leaderboard_message(interaction, scope, metric_named(metric), min_games, 0)
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)


async def setup(bot: SixNimmtBot) -> None:
    add_items(bot, PREFIX, N_("That button is not valid any more. Run the command again."), ITEMS)
    await bot.add_cog(Stats(bot))


async def teardown(bot: SixNimmtBot) -> None:
    remove_items(bot, PREFIX, ITEMS)
