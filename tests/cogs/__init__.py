"""Unit tests of the Discord face's pure parts: custom ids, rendering, wording."""
