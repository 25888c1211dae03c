"""The gateway websocket: HELLO/IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME and dispatches.

Frames are compressed the way the bot asked in its ``compress=`` query parameter, as Discord
does: discord.py 2.7 asks for ``zstd-stream`` when ``zstandard`` (the ``discord.py[speed]``
extra) is importable and ``zlib-stream`` otherwise. Either way one compressor per connection
and each frame flushed whole, so every websocket message decompresses to one payload.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .installs import hidden_from_bot
from .world import ApiError, World

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41250
BACKLOG = 2000
# Intent bits that gate the events we send (https://discord.com/developers/docs/events/gateway#gateway-intents)
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
_EVENT_INTENTS = {
    "GUILD_MEMBER_ADD": GUILD_MEMBERS,
    "MESSAGE_CREATE": GUILD_MESSAGES,
    "MESSAGE_UPDATE": GUILD_MESSAGES,
    "MESSAGE_DELETE": GUILD_MESSAGES,
}


COMPRESSIONS = ("zlib-stream", "zstd-stream")


def _zlib_stream() -> Callable[[bytes], bytes]:
    """One deflate stream; each frame ends in Z_SYNC_FLUSH's 00 00 ff ff, which discord.py waits for."""
    compressor = zlib.compressobj()
    return lambda data: compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


def _zstd_stream() -> Callable[[bytes], bytes]:
    """One zstd frame for the connection, flushed block by block: discord.py feeds each websocket
    message to a single streaming decompressor and expects a whole payload back."""
    try:
        import zstandard
    except ImportError:
        from compression import zstd  # Python 3.14+; discord.py falls back to it the same way

        std = zstd.ZstdCompressor()
        return lambda data: std.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK)
    compressor = zstandard.ZstdCompressor().compressobj()
    return lambda data: compressor.compress(data) + compressor.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)


class _Connection:
    """One live websocket; owns the compression stream so frames stay in order."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None, transport: Any = None) -> None:
        self.ws = ws
        self.compression = compress
        self.compressor = {"zlib-stream": _zlib_stream, "zstd-stream": _zstd_stream}[compress]() if compress else None
        self.transport = transport  # the TCP connection, for drop()
        self.lock = asyncio.Lock()

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        async with self.lock:
            if self.ws.closed:
                return
            if self.compressor is None:
                await self.ws.send_str(text)
            else:
                await self.ws.send_bytes(self.compressor(text.encode()))

    def drop(self) -> None:
        """Cut the TCP connection without a close frame, as a network failure does."""
        if self.transport is not None:
            self.transport.abort()


@dataclass
class Session:
    """A gateway session; survives disconnects so the bot can RESUME and get what it missed."""

    session_id: str
    intents: int
    seq: int = 0
    backlog: list[dict[str, Any]] = field(default_factory=list)
    connection: _Connection | None = None
    invalidated: bool = False
    shard: tuple[int, int] | None = None  # (shard id, shard count) from IDENTIFY

    def owns(self, guild_id: Any) -> bool:
        """Discord sends a guild's events only to the shard (guild_id >> 22) % count."""
        if self.shard is None or guild_id is None:
            return self.shard is None or self.shard[0] == 0  # DMs go to shard 0
        return (int(guild_id) >> 22) % self.shard[1] == self.shard[0]

    def wants(self, event: str, data: dict[str, Any], bot_id: int | None = None) -> bool:
        if not self.owns(data.get("guild_id") if event != "GUILD_CREATE" else data.get("id")):
            return False
        if event == "THREAD_MEMBERS_UPDATE" and not self.intents & GUILD_MEMBERS:
            # Gateway_Events.md, Thread Members Update: without GUILD_MEMBERS "this event will only be
            # sent if the current user was added to or removed from the thread".
            touched = {m["user_id"] for m in data.get("added_members", [])} | set(data.get("removed_member_ids", []))
            return str(bot_id) in touched
        needed = _EVENT_INTENTS.get(event)
        if needed == GUILD_MESSAGES and "guild_id" not in data:
            needed = DIRECT_MESSAGES
        return needed is None or bool(self.intents & needed)


class Gateway:
    def __init__(self, world: World, url: str) -> None:
        self.world = world
        self.url = url
        self.sessions: dict[str, Session] = {}
        self.identify_count = 0
        self.resume_count = 0
        self.last_intents = 0
        self.compressions: list[str | None] = []  # what each connection asked for, in order

    @property
    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.connection is not None and not s.invalidated]

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH to every live session (and queue it for sessions that may resume); none
        about a place the bot is not in (installs.py: foreign guilds, group DMs), interactions excepted."""
        if hidden_from_bot(self.world, event, data):
            return
        for session in list(self.sessions.values()):
            if session.invalidated or not session.wants(event, data, self.world.bot.id):
                continue
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            session.backlog.append(frame)
            del session.backlog[:-BACKLOG]
            if session.connection is not None:
                await session.connection.send(frame)

    def drop_connections(self) -> int:
        """Cut every live gateway connection (no close frame); the sessions stay resumable."""
        live = self.live_sessions
        for session in live:
            session.connection.drop()
        return len(live)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT, as Discord does during maintenance; the bot should RESUME."""
        for session in self.live_sessions:
            await session.connection.send({"op": 7, "d": None})

    # --- websocket handler ------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress")
        if compress not in (None, *COMPRESSIONS) or request.query.get("encoding", "json") != "json":
            self.world.record_error(
                ApiError(
                    "GET",
                    str(request.rel_url),
                    400,
                    {
                        "message": f"the stand-in speaks encoding=json with compress= one of {COMPRESSIONS} "
                        f"or none, got {dict(request.query)}"
                    },
                )
            )
            await ws.close(code=4000, message=b"unsupported compression/encoding")
            return ws
        self.compressions.append(compress)
        conn = _Connection(ws, compress, request.transport)
        session: Session | None = None
        await conn.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                session = await self._on_frame(conn, session, frame) or session
        finally:
            if session is not None and session.connection is conn:
                session.connection = None
                # A clean close (1000/1001) ends the session, like on Discord; anything else may RESUME.
                if ws.close_code in (1000, 1001):
                    session.invalidated = True
            self.world.notify()
        return ws

    async def _on_frame(self, conn: _Connection, session: Session | None, frame: dict[str, Any]) -> Session | None:
        op, data = frame.get("op"), frame.get("d")
        if op == 1:
            await conn.send({"op": 11})
        elif op == 2:
            return await self._identify(conn, data)
        elif op == 6:
            return await self._resume(conn, data)
        elif op == 8 and session is not None:
            await self._send_member_chunk(session, data)
        return None

    async def _identify(self, conn: _Connection, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        self.identify_count += 1
        self.last_intents = int(data.get("intents", 0))
        shard = data.get("shard")
        session = Session(
            session_id=secrets.token_hex(16),
            intents=self.last_intents,
            connection=conn,
            shard=(int(shard[0]), int(shard[1])) if shard else None,
        )
        self.sessions[session.session_id] = session
        world = self.world
        guilds = [g for g in world.guilds.values() if session.owns(g.id)]
        await self._send_to(
            session,
            "READY",
            {
                "v": 10,
                "user": world.bot.payload() | {"verified": True, "mfa_enabled": False, "flags": 0},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.session_id,
                "session_type": "normal",
                "resume_gateway_url": self.url,
                "application": {"id": str(world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
            }
            | ({"shard": list(session.shard)} if session.shard else {}),
        )
        for guild in guilds:
            await self._send_to(session, "GUILD_CREATE", self._guild_create(guild))
        world.notify()
        return session

    def _guild_create(self, guild: Any) -> dict[str, Any]:
        """Threads.md, Syncing for the current user: "The Guild Create Gateway Event will contain a
        thread member object as a property on any returned threads the current [user] is a member of"."""
        data = guild.payload()
        me = self.world.bot.id
        for thread in data["threads"]:
            channel = self.world.channels.get(int(thread["id"]))
            if channel is not None and me in channel.members:
                thread["member"] = channel.thread_member(me)
        return data

    async def _resume(self, conn: _Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or session.invalidated or data.get("token") != self.world.token:
            await conn.send({"op": 9, "d": False})
            return None
        self.resume_count += 1
        last_seen = int(data.get("seq") or 0)
        session.connection = conn
        for frame in session.backlog:
            if frame["s"] > last_seen:
                await conn.send(frame)
        await self._send_to(session, "RESUMED", {})
        self.world.notify()
        return session

    async def _send_to(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.backlog.append(frame)
        if session.connection is not None:
            await session.connection.send(frame)

    async def _send_member_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = [
            m.payload()
            for m in guild.members.values()
            if (not wanted or m.id in wanted) and m.name.lower().startswith(query)
        ]
        await self._send_to(
            session,
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": data.get("nonce"),
                "not_found": [],
            },
        )
