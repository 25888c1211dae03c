"""The lobby of a table: open, join, leave, add AI, start, cancel, kick, rematch, and taking back a
seat an AI took over."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from engine import Game

from .checks import not_paused, seat_of
from .errors import LobbyError, NotAtTable, NotHost, NotInLobby, TableError, TableExists
from .play import Play, ServiceDefaults
from .registry import TableRegistry
from .table import TURN_BASED_LOBBY_SECONDS, Seat, Table, TableOptions, TableStatus
from .text import N_, Name, Nn_, Text
from .transactions import Transactions

AI_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "Claude", "Margaret")

#: How long a Start waits for its game's thread while Discord is asked again to start it, before it refuses.
THREAD_WAIT = 10.0

TABLE_FULL = Nn_("The table is full ({players} player).", "The table is full ({players} players).", "players")


class Lobby:
    """Seating players before and during a game; each change is one commit."""

    def __init__(
        self,
        registry: TableRegistry,
        tx: Transactions,
        play: Play,
        defaults: ServiceDefaults,
        clock: Callable[[], float],
    ) -> None:
        self.registry = registry
        self.tx = tx
        self.play = play
        self.defaults = defaults
        self.clock = clock
        self.thread_wait = THREAD_WAIT
        self._thread_known: dict[int, asyncio.Event] = {}  # lobbies a Start waits on, until their thread is known

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: TableOptions,
        seats: list[Seat] | None = None,
        *,
        threaded: bool = False,
        carried: bool = False,
        private: bool = False,
        language: str | None = None,
    ) -> Table:
        """A new lobby in ``channel_id``. Its message is the caller's answer.

        ``threaded``: the game will play in a thread started on that message
        (``set_thread``), so the channel may hold any number of them; a game
        played in the channel itself is the only one there. ``carried``: the bot is
        not a member where it plays, so players' interactions carry all it shows, in
        the channel itself (never a thread), at a live pace; ``private``: a group DM
        (``guild_id`` is then the channel's id), whose public language is ``language``."""
        if carried and (threaded or options.turn_based):
            raise ValueError("a game carried by interactions plays live, in its channel")
        if threaded:  # a thread is started on the lobby: never inside a game's thread
            game = self.registry.game_in_thread(channel_id)
            if game is not None:
                raise TableExists(game.id, game.message_id, game.channel_of(game.message_id))
        else:
            self.require_room_in_place(channel_id)
            self.registry.opening.add(channel_id)
        try:
            if seats is None:
                seats = [Seat(host_id, host_name)]
                for _ in range(options.ai_seats):  # one by one: each AI's name differs from those before
                    seats.append(ai_seat(seats, options.ai_level))
            now = self.clock()
            waits = TURN_BASED_LOBBY_SECONDS if options.turn_based else self.defaults.lobby_minutes * 60
            table = Table(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                options=options,
                seats=seats,
                seed=self.new_seed(),
                created_at=now,
                deadline=now + waits,
                threaded=threaded,
                carried=carried,
                private=private,
                language=language,
            )
            # The lobby's message is news like a reveal: committed with the table, shown once by the
            # presenter (as the opener's answer where it can), and again after a restart if it never was.
            table.add_post("opened", at=now)
            await self.tx.create(table, "lobby")
            self.registry.add(table)
        finally:
            if not threaded:
                self.registry.opening.discard(channel_id)
        self.play.schedule(table)
        return table

    async def set_thread(self, table_id: int, thread_id: int | None) -> Table:
        """The game of ``table_id`` plays in ``thread_id`` (started on its lobby message); None: no
        thread could be made, so it plays in its channel after all, unless the channel has its one
        game played in place already: then the table closes, saying why (the table returned is
        closed). The registry follows only once the change is committed."""
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            before = table.thread_id
            if thread_id is None and table.threaded:
                try:
                    self.require_room_in_place(table.channel_id)
                except TableError:
                    await self.play.close(
                        table,
                        "cancelled",
                        Text(
                            N_(
                                "No thread could be started for this game, and this channel already has a game played "
                                "in the channel itself, so this table was closed. Open it again once that game is over."
                            )
                        ),
                    )
                    return table
                table.threaded = False  # from here on it counts as the channel's one game in place
            table.thread_id = thread_id
            await self.tx.commit(table, kind="lobby")
            self.registry.moved(table, before)
        known = self._thread_known.pop(table_id, None)
        if known is not None:
            known.set()
        return table

    async def _await_thread(self, table: Table) -> None:
        """A threaded lobby's thread is started on Discord after its message is shown, and tried
        again through Discord's failures: a Start pressed meanwhile waits for it (``thread_wait`` at
        most), so the game's first post goes to its thread and never to the channel."""
        if not (table.threaded and table.thread_id is None and table.status is TableStatus.LOBBY):
            return
        known = self._thread_known.setdefault(table.id, asyncio.Event())
        try:
            await asyncio.wait_for(known.wait(), self.thread_wait)
        except TimeoutError:
            if self._thread_known.get(table.id) is known:  # nothing is kept of a thread never told
                del self._thread_known[table.id]
            raise LobbyError(N_("Something went wrong on our side; nothing was changed. Please try again.")) from None

    def require_room_in_place(self, channel_id: int) -> None:
        """Refuse a second game played in ``channel_id`` itself (a channel holds one game in place;
        a game's thread, only its game)."""
        existing = self.registry.played_in(channel_id)
        if existing is not None:
            raise TableExists(existing.id, existing.message_id, existing.channel_of(existing.message_id))
        if channel_id in self.registry.opening:
            raise LobbyError(N_("A table is being set up in this channel right now."))

    async def set_reminders(self, table_id: int, user_id: int, by_dm: bool) -> Table:
        """A turn-based player's reminders come as a direct message (``by_dm``) or as a mention."""
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotAtTable()
            if not table.options.turn_based:
                raise LobbyError(N_("Reminders are for turn-based games; this one is played live."))
            table.seats[seat].remind_by_dm = by_dm
            await self.tx.commit(table, kind="notice")
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            require_lobby(table)
            if table.has_user(user_id):
                raise LobbyError(N_("You are already at this table."))
            if len(table.seats) >= table.options.max_players:
                raise LobbyError(TABLE_FULL, players=table.options.max_players)
            table.seats.append(Seat(user_id, name))  # the player's name is stored with the seats
            await self._lobby_changed(table)
        return table

    async def leave(self, table_id: int, user_id: int) -> Table:
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            if table.status is TableStatus.LOBBY and table.seat_of(user_id) is None:
                raise NotInLobby()
            seat = seat_of(table, user_id)  # says why, to a player an AI plays for already
            left = Text(N_("**{name}** left the table."), name=Name(table.seats[seat].name))
            await self._remove_seat(table, seat, left, "left")
        return table

    async def kick(self, table_id: int, host_id: int, target_id: int) -> Table:
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            if host_id != table.host_id:
                raise NotHost(N_("Only the host can kick a player."))
            if target_id == host_id:
                raise LobbyError(N_("You cannot kick yourself: use Leave or Cancel."))
            seat = table.seat_of(target_id)
            if seat is None:
                raise LobbyError(N_("That member is not playing at this table."))
            await self._remove_seat(
                table,
                seat,
                Text(N_("**{name}** was removed by the host."), name=Name(table.seats[seat].name)),
                "kicked",
            )
        return table

    async def add_ai(self, table_id: int, user_id: int, level: str | None = None) -> Table:
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            require_lobby(table)
            if table.seat_of(user_id) is None:
                raise NotInLobby()
            if len(table.seats) >= table.options.max_players:
                raise LobbyError(TABLE_FULL, players=table.options.max_players)
            table.seats.append(ai_seat(table.seats, level or table.options.ai_level))
            await self._lobby_changed(table)
        return table

    async def begin(self, table_id: int, user_id: int) -> Table:
        await self._await_thread(self.registry.get(table_id))
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            require_lobby(table)
            if not table.has_user(user_id):
                raise NotInLobby()
            if user_id != table.host_id:
                raise NotHost(N_("Only the host can start the game."))
            if len(table.seats) < table.options.min_players:
                raise LobbyError(
                    Nn_(
                        "This game needs at least {players} player: invite a friend or add an AI.",
                        "This game needs at least {players} players: invite a friend or add an AI.",
                        "players",
                    ),
                    players=table.options.min_players,
                )
            table.game = Game.new(table.options.game_config(len(table.seats)), seed=table.seed)
            table.status = TableStatus.PLAYING
            await self.play.advance(table, [], [], kind="started", status="playing", seats=True)
        return table

    async def cancel(self, table_id: int, user_id: int, can_manage: bool) -> Table:
        table = self.registry.get(table_id)
        async with self.tx.acting(table):
            if user_id != table.host_id and not can_manage:
                if not table.has_user(user_id):
                    raise NotInLobby() if table.status is TableStatus.LOBBY else NotAtTable()
                raise NotHost(N_("Only the host (or a member who can Manage Messages) can cancel the table."))
            await self.play.close(table, "cancelled", Text(N_("The table was cancelled.")))
        return table

    async def rematch(self, old: Table | None, user_id: int, name: str, *, threads: bool = True) -> Table:
        """A new lobby in the same channel with the same seats; whoever asked hosts it.
        ``old``: the ended table as saved (None if there is none). A game played in a thread
        gets a new thread for its rematch (unless ``threads`` is off now)."""
        if old is None or old.status is not TableStatus.FINISHED:
            raise LobbyError(N_("That game is too old for a rematch: start a new one with `/6nimmt start`."))
        if not old.has_user(user_id):
            raise NotAtTable()
        seats = [
            Seat(s.user_id, s.name) if s.user_id is not None else Seat(None, s.name, s.ai_level) for s in old.seats
        ]
        return await self.open_lobby(
            old.guild_id,
            old.channel_id,
            user_id,
            name,
            old.options,
            seats,
            threaded=threads and old.thread_id is not None and not old.carried,
            carried=old.carried,
            private=old.private,
            language=old.language,
        )

    async def reclaim_seat(self, table_id: int, user_id: int) -> Table:
        """A player an AI took over from (missed turns or left, never kicked) plays their seat again.

        Effective from the next decision point: the AI has already decided
        everything this one asked of the seat (AI seats act at once; one that
        thinks a while over its pick finishes first), and that decision stands;
        the player's own timer starts with the next one.
        """
        table = self.registry.get(table_id)
        await self.play.after_thinking(table)  # the AI's pick for this turn comes first, and stands
        async with self.tx.acting(table):
            if table.status is not TableStatus.PLAYING:
                raise LobbyError(N_("The game is not running, so there is no seat to take back."))
            if table.seat_of(user_id) is not None:
                raise LobbyError(N_("You are playing your seat already."))
            not_paused(table)
            seat = table.taken_over_seat(user_id)
            if seat is None:
                raise NotAtTable()
            player = table.seats[seat]
            if player.takeover == "kicked":
                raise TableError(N_("The host removed you from this game, so its seat stays with the AI."))
            player.ai_level = None
            player.missed_turns = 0
            player.removed = None
            player.back_from_step = table.step + 1
            table.add_post(
                "notice",
                notices=[
                    Text(
                        N_("**{name}** took their seat back and plays again from the next turn."),
                        name=Name(player.name),
                    )
                ],
                at=self.clock(),
            )
            await self.tx.commit(table, kind="notice", seats=True)
        return table

    # -- helpers ------------------------------------------------------------------

    @staticmethod
    def new_seed() -> int:
        """A new table's deal (tests and benchmarks fix it)."""
        return secrets.randbits(63)

    async def _lobby_changed(self, table: Table, **record: Any) -> None:
        await self.tx.commit(table, kind="lobby", seats=True, **record)

    async def _remove_seat(self, table: Table, seat: int, notice: Text, why: str) -> None:
        if table.status is TableStatus.LOBBY:
            user_id = table.seats[seat].user_id
            del table.seats[seat]
            if not table.humans:
                await self.play.close(
                    table, "cancelled", notice + Text(N_("Nobody is left, so the table closed.")), seats=True
                )
                return
            host = user_id == table.host_id
            if host:
                table.host_id = table.human_ids()[0]  # the lobby's crown shows who hosts now
            await self._lobby_changed(table, host=host)  # the lobby's list of players says who left
            return
        # Mid-game a seat cannot vanish: an AI plays it from here on.
        not_paused(table)
        table.seats[seat].removed = why
        await self.play.replace_with_ai(table, seat, notice + Text(N_("An AI plays their seat from now on.")))


def require_lobby(table: Table) -> None:
    if table.status is not TableStatus.LOBBY:
        raise LobbyError(N_("The game has already started."))


def ai_seat(seats: list[Seat], level: str) -> Seat:
    taken = {s.name for s in seats}
    name = next((f"🤖 {n}" for n in AI_NAMES if f"🤖 {n}" not in taken), f"🤖 AI {len(seats) + 1}")
    return Seat(None, name, level)
