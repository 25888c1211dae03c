"""The aiohttp application: REST under /api/v10, the gateway at /gateway, files at /attachments."""

from __future__ import annotations

from aiohttp import web

from .gateway import Gateway
from .plumbing import error_middleware
from .rest import RestApi
from .threads import ThreadApi
from .webhooks import WebhookApi
from .world import World

API_PREFIX = "/api/v10"


class StandinServer:
    """Owns the listening socket; the same World and port survive across bot restarts."""

    def __init__(self, world: World, host: str = "127.0.0.1") -> None:
        self.world = world
        self.host = host
        self.port = 0  # chosen by the OS in start(), so parallel test runs never collide
        self.gateway = Gateway(world, "")
        self.rest = RestApi(world, "")
        self.webhooks = WebhookApi(world, self.rest)
        self.threads = ThreadApi(world, self.rest)
        world.dispatch = self.gateway.dispatch
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application(middlewares=[error_middleware(self.world, API_PREFIX)], client_max_size=64 * 1024 * 1024)
        self.rest.add_routes(app, API_PREFIX)
        self.webhooks.add_routes(app, API_PREFIX)
        self.threads.add_routes(app, API_PREFIX)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel}/{attachment}/{filename}", self.get_attachment)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.gateway.url = self.gateway_url
        self.rest.base_url = self.base_url

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    async def close(self) -> None:
        for session in self.gateway.live_sessions:
            await session.connection.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def get_attachment(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["attachment"])
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == wanted:
                    return web.Response(
                        body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
                    )
        raise web.HTTPNotFound()
