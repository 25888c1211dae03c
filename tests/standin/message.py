"""Stored messages: what the bot sent, exactly as sent, with edit history and uploaded files."""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .mentions import Pings
from .model import HAS_THREAD_FLAG, LOADING_FLAG, Channel, Guild, User, iso_now


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "description": self.description,
        }
        if self.content_type == "image/png" and len(self.data) >= 24 and self.data[:8] == b"\x89PNG\r\n\x1a\n":
            data["width"] = int.from_bytes(self.data[16:20], "big")
            data["height"] = int.from_bytes(self.data[20:24], "big")
        return data


@dataclass(eq=False)
class Message:
    """A message as Discord stores it: content, embeds, components exactly as the bot sent them."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    ephemeral_to: User | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    reference_id: int | None = None
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    history: list[MessageSnapshot] = field(default_factory=list)
    deleted: bool = False
    reactions: dict[str, set[int]] = field(default_factory=dict)
    nonce: str | None = None  # as sent on create; Discord echoes it in the create's answer and event
    thread: Channel | None = None  # the thread started from this message (same id), if any
    written_at: float = field(default_factory=time.monotonic)  # when this version was created or edited
    pinged: list[User] = field(default_factory=list)  # who this version pings (mentions.py): its `mentions`
    pings: Pings = field(default_factory=Pings)

    @property
    def pinged_users(self) -> frozenset[int]:
        """The users this message pings (Discord's `mentions`), as mentions.py decides."""
        return self.pings.users

    @property
    def pinged_roles(self) -> frozenset[int]:
        """The roles this message pings (Discord's `mention_roles`)."""
        return self.pings.roles

    @property
    def pinged_everyone(self) -> bool:
        """Whether this message pings @everyone or @here (Discord's `mention_everyone`)."""
        return self.pings.everyone

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        """True while this is a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & LOADING_FLAG)

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    def snapshot(self) -> MessageSnapshot:
        return MessageSnapshot(
            content=self.content,
            embeds=copy.deepcopy(self.embeds),
            components=copy.deepcopy(self.components),
            attachments=[a.filename for a in self.attachments],
            edited_timestamp=self.edited_timestamp,
            written_at=self.written_at,
            pings=self.pings,
        )

    def versions(self) -> list[MessageSnapshot]:
        """Every version of the message, oldest first, the current one last (for timing what was shown when)."""
        return [*self.history, self.snapshot()]

    # --- components -------------------------------------------------------------------------

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every interactive component (buttons, selects), flattened out of rows and containers."""
        return iter_components(self.components)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c["type"] == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c["type"] != 2]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> dict[str, Any]:
        """Find one button by exact label and/or custom_id regex (re.fullmatch)."""
        found = [
            b
            for b in self.buttons
            if (label is None or b.get("label") == label)
            and (custom_id is None or re.fullmatch(custom_id, b.get("custom_id", "")))
        ]
        if len(found) != 1:
            labels = [(b.get("label"), b.get("custom_id")) for b in self.buttons]
            raise LookupError(
                f"expected one button label={label!r} custom_id={custom_id!r}, found {len(found)} in {labels}"
            )
        return found[0]

    # --- payload ----------------------------------------------------------------------------

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": self.pings.everyone,
            "mentions": [user.payload() for user in self.pinged],
            "mention_roles": [str(role) for role in sorted(self.pings.roles)],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "type": 20 if self.interaction_id else (19 if self.reference_id else 0),
            "flags": self.flags | (HAS_THREAD_FLAG if self.thread is not None and not self.thread.deleted else 0),
            "reactions": [
                {
                    "emoji": {"id": None, "name": name},
                    "count": len(users),
                    "me": False,
                    "burst_colors": [],
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me_burst": False,
                }
                for name, users in self.reactions.items()
                if users
            ],
        }
        if self.guild is not None:
            data["guild_id"] = str(self.guild.id)
        if self.webhook_id:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.reference_id:
            data["message_reference"] = {"message_id": str(self.reference_id), "channel_id": str(self.channel.id)}
        if self.thread is not None and not self.thread.deleted:
            # docs/resources/Message.md: "thread: the thread that was started from this message"
            data["thread"] = self.thread.payload()
        return data

    def __repr__(self) -> str:
        where = f"ephemeral to {self.ephemeral_to.name}" if self.ephemeral_to else f"#{self.channel.name}"
        return f"<Message {self.id} {where} content={self.content[:40]!r} embeds={len(self.embeds)} components={self.custom_ids}>"


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    stack = list(reversed(components))
    while stack:
        comp = stack.pop()
        children = comp.get("components")
        if comp.get("type") == 9 and comp.get("accessory"):  # section with accessory button
            stack.append(comp["accessory"])
        if children:
            stack.extend(reversed(children))
        elif comp.get("type") in (2, 3, 5, 6, 7, 8):
            yield comp


@dataclass(frozen=True)
class MessageSnapshot:
    """What a message looked like before an edit (Message.history keeps these, oldest first)."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[str]
    edited_timestamp: str | None
    written_at: float = 0.0  # time.monotonic() when this version was written
    pings: Pings = field(default_factory=Pings)  # who this version pinged

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]
