"""The shared drawing kit: fonts, PNG encoding, cached static layers.

Boards are judged at phone width (about 400 px shown), so every renderer
draws at a fixed logical size with fonts from Pillow itself (never a system
font path, so images look the same on every machine).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

INK: Colour = (33, 33, 33)
PAPER: Colour = (250, 247, 240)
MUTED: Colour = (120, 120, 120)
WHITE: Colour = (255, 255, 255)


@lru_cache(maxsize=32)
def font(size: int) -> Font:
    """Pillow's bundled scalable font (Aileron-like sans, shipped with Pillow >= 10.1)."""
    return ImageFont.load_default(size=size)


def png(image: Image.Image) -> bytes:
    """PNG bytes; ``optimize`` off because it costs more time than the bytes it saves here."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()


def static_layer(builder: Callable[[], Image.Image]) -> Callable[[], Image.Image]:
    """Build a layer once (board art, grids, legends); every call returns a fresh copy to draw on."""
    cached: list[Image.Image] = []

    def copy() -> Image.Image:
        if not cached:
            cached.append(builder())
        return cached[0].copy()

    copy.__doc__ = builder.__doc__
    return copy


def text_colour(background: Colour) -> Colour:
    """Black or white, whichever reads better on ``background`` (relative luminance)."""
    r, g, b = background
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else WHITE


def centred_text(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, size: int, fill: Colour = INK
) -> None:
    x0, y0, x1, y1 = box
    draw.text(((x0 + x1) / 2, (y0 + y1) / 2), text, font=font(size), fill=fill, anchor="mm")


def hatch(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: Colour, step: int = 6) -> None:
    """Diagonal hatching: a pattern cue so colour is never the only signal."""
    x0, y0, x1, y1 = box
    for offset in range(-(y1 - y0), x1 - x0, step):
        start = (x0 + max(offset, 0), y0 + max(-offset, 0))
        length = min(x1 - start[0], y1 - start[1])
        draw.line((start, (start[0] + length, start[1] + length)), fill=colour, width=1)
