"""A deliberately plain board for the test game: one progress bar per seat."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from renderers.kit import Words


def render(view: dict[str, Any], names: Sequence[str], _words: Words) -> bytes:
    """English only (a test game); the table's words are accepted as every renderer's are."""
    points = view["points"]
    height = 40 + 30 * len(points)
    image = Image.new("RGB", (400, height), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=16)
    draw.text((10, 8), f"Total {view['total']} / {view['target']}", fill="black", font=font)
    for seat, value in enumerate(points):
        y = 40 + 30 * seat
        width = int(300 * value / max(1, view["target"]))
        draw.rectangle((80, y, 80 + width, y + 20), fill="#4a7")
        draw.text((10, y), names[seat][:8], fill="black", font=font)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
