"""The shared drawing kit: fixed-palette PNGs, cached text, and the font-size record tests rely on."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from renderers import kit

RED, BLUE = (200, 30, 40), (30, 60, 200)


def test_a_fixed_palette_keeps_its_colours_exactly_and_gives_the_same_bytes() -> None:
    colours = kit.palette([kit.PAPER, kit.INK, RED, BLUE], [(kit.INK, kit.PAPER)], steps=4)
    image = Image.new("RGB", (40, 20), kit.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 9, 9), fill=RED)
    draw.rectangle((10, 0, 19, 9), fill=BLUE)
    data = kit.png(image, colours)
    assert data == kit.png(image.copy(), colours)
    decoded = Image.open(io.BytesIO(data))
    assert decoded.mode == "P"
    rgb = decoded.convert("RGB")
    assert (
        rgb.getpixel((2, 2)) == RED and rgb.getpixel((12, 2)) == BLUE and rgb.getpixel((30, 15)) == kit.PAPER
    )


def test_a_palette_has_room_for_256_colours_only() -> None:
    many = [(i, i, 0) for i in range(200)]
    kit.palette(many, [((0, 0, 255), (255, 0, 255))], steps=56)
    with pytest.raises(ValueError, match="256"):
        kit.palette(many, [((0, 0, 255), (255, 0, 255))], steps=57)


def test_png_without_a_palette_still_works() -> None:
    image = Image.new("RGB", (30, 30), RED)
    assert Image.open(io.BytesIO(kit.png(image))).convert("RGB").getpixel((5, 5)) == RED


def test_font_sizes_are_recorded_only_inside_the_block() -> None:
    kit.font(11)
    with kit.recording_font_sizes() as sizes:
        kit.font(15)
        kit.label(Image.new("RGB", (60, 30)), (2, 2), "hi", 17)
        kit.label(Image.new("RGB", (60, 30)), (2, 2), "hi", 17)  # from the cache: still recorded
        with kit.recording_font_sizes() as inner:
            kit.font(19)
        kit.font(21)
    kit.font(23)
    assert sizes == {15, 17, 21} and inner == {19}


@pytest.mark.parametrize("anchor", ["la", "mm", "rm", "lm", "ld"])
@pytest.mark.parametrize("bold", [False, True])
def test_cached_text_looks_like_pillows_own(anchor: str, bold: bool) -> None:
    direct = Image.new("RGB", (220, 60), kit.PAPER)
    cached = direct.copy()
    ImageDraw.Draw(direct).text((110, 30), "Zoë 12 pts", font=kit.font(16, bold), fill=RED, anchor=anchor)
    kit.label(cached, (110, 30), "Zoë 12 pts", 16, RED, anchor, bold)
    assert direct.tobytes() == cached.tobytes()
    kit.label(cached, (110.5, 30.5), "", 16, RED, anchor, bold)  # nothing to draw is fine
    assert kit.smallest_on_phone(14, 600) == pytest.approx(9.333, abs=0.001)
