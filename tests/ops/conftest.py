from tests.bot.conftest import clock, store  # noqa: F401  (the service fixtures)
