"""cogs package."""
