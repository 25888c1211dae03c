"""Discord's message limits, so the bot fails in tests exactly where it would fail in production.

`validate_message` returns a Discord-shaped "Invalid Form Body" error dict (code 50035) or None.
"""

from __future__ import annotations

from typing import Any

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_SELECT_OPTIONS = 25
MAX_BUTTON_LABEL = 80

_EMBED_LIMITS = {"title": 256, "description": 4096}
_SELECT_TYPES = (3, 5, 6, 7, 8)


class _Errors:
    """Collects errors in Discord's nested {"field": {"0": {"_errors": [...]}}} layout."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: tuple[Any, ...], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: tuple[Any, ...], value: str | None, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def validate_message(payload: dict[str, Any], *, is_edit: bool = False) -> dict[str, Any] | None:
    errors = _Errors()
    content = payload.get("content")
    errors.max_length(("content",), content, MAX_CONTENT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    for index, embed in enumerate(embeds):
        _validate_embed(errors, ("embeds", index), embed)
    components = payload.get("components") or []
    flags = int(payload.get("flags") or 0)
    if not flags & (1 << 15):  # components v2 layouts have their own, looser rules
        _validate_rows(errors, components)
    custom_ids: set[str] = set()
    _check_duplicates(errors, components, custom_ids)
    empty = not content and not embeds and not components and not payload.get("attachments") and not payload.get("poll")
    if empty and not is_edit and not payload.get("_has_files"):
        errors.add(("content",), "BASE_TYPE_REQUIRED", "Cannot send an empty message")
    if not errors.tree:
        return None
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors.tree}


def _validate_embed(errors: _Errors, path: tuple[Any, ...], embed: dict[str, Any]) -> None:
    total = 0
    for key, limit in _EMBED_LIMITS.items():
        errors.max_length(path + (key,), embed.get(key), limit)
        total += len(embed.get(key) or "")
    footer = embed.get("footer") or {}
    errors.max_length(path + ("footer", "text"), footer.get("text"), 2048)
    author = embed.get("author") or {}
    errors.max_length(path + ("author", "name"), author.get("name"), 256)
    total += len(footer.get("text") or "") + len(author.get("name") or "")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors.add(path + ("fields",), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for index, fld in enumerate(fields):
        errors.max_length(path + ("fields", index, "name"), fld.get("name"), 256)
        errors.max_length(path + ("fields", index, "value"), fld.get("value"), 1024)
        if not fld.get("name") or not fld.get("value"):
            errors.add(path + ("fields", index), "BASE_TYPE_REQUIRED", "This field is required")
        total += len(fld.get("name") or "") + len(fld.get("value") or "")
    if total > MAX_EMBED_TOTAL:
        errors.add(path, "EMBED_TOTAL_LENGTH", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")


def _validate_rows(errors: _Errors, rows: list[dict[str, Any]]) -> None:
    if len(rows) > MAX_ROWS:
        errors.add(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
    for r, row in enumerate(rows):
        path = ("components", r)
        if row.get("type") != 1:
            errors.add(path, "UNION_TYPE_CHOICES", "Top-level components must be action rows")
            continue
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") in _SELECT_TYPES]
        if not children:
            errors.add(path + ("components",), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        if len(children) > MAX_ROW_BUTTONS:
            errors.add(path + ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROW_BUTTONS} or fewer in length.")
        if selects and len(children) > 1:
            errors.add(
                path + ("components",),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for c, comp in enumerate(children):
            _validate_component(errors, path + ("components", c), comp)


def _validate_component(errors: _Errors, path: tuple[Any, ...], comp: dict[str, Any]) -> None:
    kind = comp.get("type")
    custom_id = comp.get("custom_id")
    errors.max_length(path + ("custom_id",), custom_id, MAX_CUSTOM_ID)
    if kind == 2:
        style = comp.get("style")
        if style == 5:
            if not comp.get("url"):
                errors.add(path + ("url",), "BASE_TYPE_REQUIRED", "This field is required")
        elif style != 6 and not custom_id:
            errors.add(path + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required")
        errors.max_length(path + ("label",), comp.get("label"), MAX_BUTTON_LABEL)
        if not comp.get("label") and not comp.get("emoji") and style != 6:
            errors.add(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or emoji is required")
    elif kind in _SELECT_TYPES:
        if not custom_id:
            errors.add(path + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required")
        errors.max_length(path + ("placeholder",), comp.get("placeholder"), 150)
        if kind == 3:
            options = comp.get("options") or []
            if not options or len(options) > MAX_SELECT_OPTIONS:
                errors.add(
                    path + ("options",),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
                )
            values = [o.get("value") for o in options]
            if len(values) != len(set(values)):
                errors.add(
                    path + ("options",),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select component option values must be unique",
                )
            for o, option in enumerate(options):
                errors.max_length(path + ("options", o, "label"), option.get("label"), 100)
                errors.max_length(path + ("options", o, "value"), option.get("value"), 100)
                errors.max_length(path + ("options", o, "description"), option.get("description"), 100)
            max_values = comp.get("max_values", 1)
            if options and max_values > len(options):
                errors.add(
                    path + ("max_values",),
                    "BASE_TYPE_MAX",
                    f"int value should be less than or equal to {len(options)}.",
                )


def _check_duplicates(errors: _Errors, components: list[dict[str, Any]], seen: set[str]) -> None:
    for comp in components:
        custom_id = comp.get("custom_id")
        if custom_id:
            if custom_id in seen:
                errors.add(
                    ("components",), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
                )
            seen.add(custom_id)
        _check_duplicates(errors, comp.get("components") or [], seen)
        if comp.get("accessory"):
            _check_duplicates(errors, [comp["accessory"]], seen)
