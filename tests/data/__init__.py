"""Tests of the persistence layer (data/)."""
