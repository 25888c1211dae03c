"""Players who play a game through the real bot on the Discord stand-in, by what they see and click.

Everything here reads what a player's Discord shows and clicks what it offers, nothing else:

- the *live table* is the newest public message with buttons, when they are a table's (Play a
  card, the row buttons, Decide, the Pro draft); a table message a newer one superseded keeps its
  buttons, and once the game is over the newest is the *standings*, with their Rematch;
- "Play a card" opens the player's *hand*, an ephemeral message with a button for each card;
- the table marks each player who has picked this turn with ✅ before their mention;
- a row button is taken from the player whose low card it is, and refused to anyone else;
- a special-card decision (Anniversary) is asked of the player its message mentions, with Decide.

``play_game`` is the one driver: it plays moves until the game ends (or ``until`` holds), and what a
test checks along the way, or does differently, goes in through its hooks.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from tests.standin import Channel, DiscordStandin, Interaction, Member, Message, StandinTimeout

HAND_BUTTON = "6n:h:"  # "Play a card"
ROW_BUTTON = "6n:r:"
DRAFT_SELECT = "6n:d:"
DECIDE_BUTTON = "6n:s:"
CARD_BUTTON = "6n:p:"  # a card in a hand
REMATCH_BUTTON = "6n:m:"  # on the standings
TABLE_BUTTONS = (HAND_BUTTON, ROW_BUTTON, DRAFT_SELECT, DECIDE_BUTTON)
DEFERRED_UPDATE = 6  # the answer to a click that is taken and shown by the table moving on
TURN = re.compile(r"round (\d+), turn (\d+)")


def table_ids(message: Message) -> list[str]:
    """The custom ids of ``message``'s table buttons (none: it is not a table message)."""
    return [cid for cid in message.custom_ids if cid.startswith(TABLE_BUTTONS)]


def newest_with_buttons(standin: DiscordStandin, channel: Channel) -> Message | None:
    return next((m for m in reversed(standin.channel_messages(channel)) if m.custom_ids), None)


def live_table(standin: DiscordStandin, channel: Channel) -> Message | None:
    """The live table message in ``channel`` (a game's thread, or the games channel), if a game is on."""
    message = newest_with_buttons(standin, channel)
    return message if message is not None and table_ids(message) else None


def offers(message: Message, prefix: str) -> bool:
    """Whether ``message`` has a button (or select) whose custom id starts with ``prefix``."""
    return any(cid.startswith(prefix) for cid in message.custom_ids)


def is_standings(message: Message) -> bool:
    return offers(message, REMATCH_BUTTON)


def table_or_standings(standin: DiscordStandin, channel: Channel) -> Message | None:
    """The live table, or the standings once the game is over; None while neither shows (before the
    game's first table message, or a lobby)."""
    message = newest_with_buttons(standin, channel)
    return message if message is not None and (table_ids(message) or is_standings(message)) else None


def last_messages(standin: DiscordStandin, channel: Channel, count: int = 4) -> str:
    """What the channel shows last, for a failure's message."""
    shown = [(m.content[:80], (m.embed or {}).get("title"), m.custom_ids) for m in standin.channel_messages(channel)]
    return f"the last messages: {shown[-count:]!r}"


def turn_of(table: Message) -> tuple[int, int]:
    """The round and the turn a table message's title names ("6 nimmt! — round 2, turn 1"; English)."""
    found = TURN.search((table.embed or {}).get("title") or "")
    assert found is not None, f"no round and turn in the table's title: {table.embed}"
    return int(found[1]), int(found[2])


def has_picked(table: Message, user: Member) -> bool:
    """Whether ``table`` marks ``user`` as having played a card face down this turn."""
    lines = (line for field in (table.embed or {}).get("fields", []) for line in field["value"].splitlines())
    return any(line.startswith(f"✅ {user.mention} ") for line in lines)


@dataclass(frozen=True)
class Hand:
    """A player's hand, as "Play a card" showed it to them."""

    user: Member
    table: Message  # the table message it was opened from
    message: Message  # the ephemeral hand; a click on a card edits it
    text: str  # what the hand said when it was opened
    cards: dict[int, str]  # each card's button (its custom id), lowest card first


#: Which card of the hand to play.
Chooser = Callable[[Hand], int]


def lowest(hand: Hand) -> int:
    return min(hand.cards)


def highest(hand: Hand) -> int:
    return max(hand.cards)


async def open_hand(standin: DiscordStandin, user: Member, table: Message, *, timeout: float = 3.0) -> Hand:
    """``user`` presses "Play a card" on ``table``: their hand, which only they see."""
    play = next(cid for cid in table.custom_ids if cid.startswith(HAND_BUTTON))
    message = await (await standin.click(user, table, play)).reply(timeout)
    assert message.ephemeral_to is not None and message.ephemeral_to.id == user.id, "a hand shows to its player alone"
    cards = {int(cid.rsplit(":", 1)[1]): cid for cid in message.custom_ids if cid.startswith(CARD_BUTTON)}
    assert cards, f"{user.name}'s hand shows no card: {message.content!r}"
    return Hand(user, table, message, message.content, dict(sorted(cards.items())))


async def play_card(standin: DiscordStandin, hand: Hand, card: int, *, timeout: float = 3.0) -> Interaction:
    """The hand's player clicks ``card``; the click, once it is answered (``reply()``: the answer)."""
    click = await standin.click(hand.user, hand.message, hand.cards[card])
    await click.reply(timeout)
    return click


async def pick(
    standin: DiscordStandin, user: Member, table: Message, card: Chooser = lowest, *, timeout: float = 3.0
) -> Message:
    """``user`` opens their hand from ``table`` and plays the card ``card`` chooses: the answer."""
    hand = await open_hand(standin, user, table, timeout=timeout)
    return await (await play_card(standin, hand, card(hand), timeout=timeout)).reply(timeout)


async def choose_row(standin: DiscordStandin, players: Sequence[Member], table: Message) -> Member | None:
    """Each of ``players`` in turn presses the first row button until one of them is the player whose
    low card it is (the others are refused): who took the row, or None (someone else chooses)."""
    row = next(cid for cid in table.custom_ids if cid.startswith(ROW_BUTTON))
    for user in players:
        if await (await standin.click(user, table, row)).ack() == DEFERRED_UPDATE:
            return user
    return None


def decider(table: Message, players: Sequence[Member]) -> Member:
    """The player a special-card decision waits on: its message calls them by their mention."""
    called = [user for user in players if user.mention in table.content]
    assert len(called) == 1, f"the decision calls {len(called)} of the players: {table.content!r}"
    return called[0]


#: A player's move on a table message: their pick, or their answer to its Decide.
Move = Callable[[Member, Message], Awaitable[object]]
#: Something done with a table message: a look before its move, or what to do when it waits on others.
Look = Callable[[Message], Awaitable[object]]


async def play_game(
    standin: DiscordStandin,
    channel: Channel,
    players: Sequence[Member],
    *,
    settle: Callable[[], Awaitable[object]] | None = None,
    card: Chooser = lowest,
    pick: Move | None = None,
    decide: Move | None = None,
    before: Look | None = None,
    stalled: Look | None = None,
    until: Callable[[Message], bool] | None = None,
    moves: int = 200,
    timeout: float = 3.0,
) -> Message:
    """``players`` play the game in ``channel`` (its thread, or the games channel) until it is over:
    the standings. With ``until``, until ``until(table)`` holds for the live table message before a
    move: that table (the game must not end first).

    Each move answers the live table: every player who has not picked plays a card (``card``
    chooses it; ``pick(user, table)`` replaces the whole move), the row buttons are tried by each
    player in turn until the one whose low card it is takes the first row, and a Decide is left to
    ``decide(user, table)`` for the player it calls. ``before(table)`` runs before each move.

    ``settle``: waits until the bot has shown everything (a bot in this process); then
    ``stalled(table)`` runs when the players have made their moves and the table has not moved on
    (it waits on someone else: a player who is away). Without ``settle`` (a bot in another
    process) each move waits, up to ``timeout``, for the next table message, as ``players`` are
    then every seat the game waits on; ``timeout`` bounds every answer too. ``moves`` bounds the game.
    """

    async def pick_card(user: Member, table: Message) -> None:
        hand = await open_hand(standin, user, table, timeout=timeout)
        await play_card(standin, hand, card(hand), timeout=timeout)

    async def moved_on(previous: Message | None) -> Message:
        """The table (or the standings) once it is another message than ``previous``."""

        def shown() -> Message | None:
            message = table_or_standings(standin, channel)
            return message if message is not previous else None

        said = "the game did not move on" if previous is not None else "no table message showed"
        try:
            return await standin.world.wait_until(shown, timeout, said)
        except StandinTimeout as late:
            raise AssertionError(f"{late}; {last_messages(standin, channel)}") from None

    previous: Message | None = None
    for _ in range(moves):
        if settle is not None:
            await settle()
            table = table_or_standings(standin, channel)
            assert table is not None, "neither a live table nor the standings show"
        else:
            table = await moved_on(previous)
        if is_standings(table):
            assert until is None, "the game ended before `until` held"
            return table
        if until is not None and until(table):
            return table
        if before is not None:
            await before(table)
        if offers(table, ROW_BUTTON):
            await choose_row(standin, players, table)
        elif offers(table, DECIDE_BUTTON):
            assert decide is not None, "a special-card decision, and no `decide` to answer it"
            await decide(decider(table, players), table)
        elif offers(table, HAND_BUTTON):
            for user in players:
                if not has_picked(table, user):
                    await (pick or pick_card)(user, table)
        else:
            raise AssertionError(f"the driver does not play this table: {table.custom_ids}")
        previous = table
        if stalled is not None and settle is not None:
            await settle()
            if live_table(standin, channel) is table:
                await stalled(table)
    done = "reach `until`" if until else "end"
    raise AssertionError(f"the game did not {done} in {moves} moves; {last_messages(standin, channel)}")
