"""The persistent buttons and selects (discord.py DynamicItems) and the views they sit in."""
