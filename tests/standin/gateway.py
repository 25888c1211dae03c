"""The gateway websocket: HELLO/IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME and dispatches.

Frames are zlib-stream compressed the way discord.py's _ZlibDecompressionContext expects:
one compressobj per connection, each frame ending in the Z_SYNC_FLUSH suffix.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from dataclasses import dataclass, field
from typing import Any, Optional

from aiohttp import WSMsgType, web

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


class _Connection:
    """One live websocket; owns the compression stream so frames stay in order."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.compressor = zlib.compressobj() if compress else None
        self.lock = asyncio.Lock()

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        async with self.lock:
            if self.ws.closed:
                return
            if self.compressor is None:
                await self.ws.send_str(text)
            else:
                data = self.compressor.compress(text.encode()) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)


@dataclass
class Session:
    """A gateway session; survives disconnects so the bot can RESUME and get what it missed."""

    session_id: str
    intents: int
    seq: int = 0
    backlog: list[dict[str, Any]] = field(default_factory=list)
    connection: Optional[_Connection] = None
    invalidated: bool = False
    shard: Optional[tuple[int, int]] = None  # (shard id, shard count) from IDENTIFY

    def owns(self, guild_id: Any) -> bool:
        """Discord sends a guild's events only to the shard (guild_id >> 22) % count."""
        if self.shard is None or guild_id is None:
            return self.shard is None or self.shard[0] == 0  # DMs go to shard 0
        return (int(guild_id) >> 22) % self.shard[1] == self.shard[0]

    def wants(self, event: str, data: dict[str, Any]) -> bool:
        if not self.owns(data.get("guild_id") if event != "GUILD_CREATE" else data.get("id")):
            return False
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

    @property
    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.connection is not None and not s.invalidated]

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH to every live session (and queue it for sessions that may resume)."""
        for session in list(self.sessions.values()):
            if session.invalidated or not session.wants(event, data):
                continue
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            session.backlog.append(frame)
            del session.backlog[:-BACKLOG]
            if session.connection is not None:
                await session.connection.send(frame)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT, as Discord does during maintenance; the bot should RESUME."""
        for session in self.live_sessions:
            await session.connection.send({"op": 7, "d": None})

    # --- websocket handler ------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress")
        if compress not in (None, "zlib-stream") or request.query.get("encoding", "json") != "json":
            self.world.record_error(ApiError("GET", str(request.rel_url), 400, {
                "message": f"stand-in only speaks encoding=json with zlib-stream, got {dict(request.query)}; "
                           "uninstall zstandard from the test environment"}))
            await ws.close(code=4000, message=b"unsupported compression/encoding")
            return ws
        conn = _Connection(ws, compress == "zlib-stream")
        session: Optional[Session] = None
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

    async def _on_frame(self, conn: _Connection, session: Optional[Session], frame: dict[str, Any]) -> Optional[Session]:
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

    async def _identify(self, conn: _Connection, data: dict[str, Any]) -> Optional[Session]:
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        self.identify_count += 1
        self.last_intents = int(data.get("intents", 0))
        shard = data.get("shard")
        session = Session(session_id=secrets.token_hex(16), intents=self.last_intents, connection=conn,
                          shard=(int(shard[0]), int(shard[1])) if shard else None)
        self.sessions[session.session_id] = session
        world = self.world
        guilds = [g for g in world.guilds.values() if session.owns(g.id)]
        await self._send_to(session, "READY", {
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
        } | ({"shard": list(session.shard)} if session.shard else {}))
        for guild in guilds:
            await self._send_to(session, "GUILD_CREATE", guild.payload())
        world.notify()
        return session

    async def _resume(self, conn: _Connection, data: dict[str, Any]) -> Optional[Session]:
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
            m.payload() for m in guild.members.values()
            if (not wanted or m.id in wanted) and m.name.lower().startswith(query)
        ]
        await self._send_to(session, "GUILD_MEMBERS_CHUNK", {
            "guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1,
            "nonce": data.get("nonce"), "not_found": [],
        })
