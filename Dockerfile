# 6 nimmt! Discord bot. Build: docker build -t sixnimmt-bot .   Run: see compose.yaml and the README.

# The build stage installs the bot and its dependencies (from pyproject.toml) into a venv;
# the final image gets only that venv: no compilers, no pip cache, no sources.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY data ./data
COPY engine ./engine
RUN python -m venv /opt/venv && /opt/venv/bin/pip install --no-cache-dir .

FROM python:3.11-slim
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_PATH=/data/sixnimmt.sqlite3 \
    HEALTH_FILE=/tmp/sixnimmt.health
# FriBiDi: Pillow's wheels bring HarfBuzz and Raqm but load FriBiDi from the system, and without
# it Thai and Hindi picture words come out unshaped (cogs/render/fonts.py).
# A user of its own: the bot never needs root. /data holds the SQLite database (a volume);
# the heartbeat stays in the container's /tmp, so a new container never sees an old one's.
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin sixnimmt \
    && mkdir /data && chown sixnimmt:sixnimmt /data
COPY --from=build /opt/venv /opt/venv
USER sixnimmt
WORKDIR /data
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "--health"]
# Exec form: python is PID 1 and receives Docker's SIGTERM itself, checkpoints the tables and exits.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
