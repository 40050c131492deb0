"""The shared drawing kit: fonts, cached text, PNG encoding, cached static layers.

Boards are judged at phone width (about 400 px shown), so every renderer
draws at a fixed logical size with one font shipped as a Python dependency
(never a system font path, never a download, so images look the same on every
machine), and no text may look smaller than 9 px there:
:func:`recording_font_sizes` lets a test see every size a render asked for.

Boards never overprint: every text a board draws goes through :func:`label`, a renderer names
the rectangles its texts belong in (:func:`panel`: a player's panel, a card, the title bar), and
cached sprites and layers travel with their texts (:func:`paste`, :func:`copy`), so
:func:`recording_texts` lets a test see where every word of a picture landed, check that no two
overlap and that none leaves its panel.

The font is Noto Sans (regular and bold): every Latin letter with its accents,
Greek and Cyrillic, so players' names are drawn as they wrote them.  A name in
a script it lacks (or made of emoji) is never drawn as empty boxes:
:func:`player_names` falls back to the seat's label.

Speed: a board render should take a few milliseconds.  Most of that used to
be text rasterising and PNG encoding, hence :func:`label` (glyph masks cached
per word) and :func:`png` with a fixed :func:`palette` (no colour analysis,
zlib level 3).
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Protocol

from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]
Font = ImageFont.FreeTypeFont

INK: Colour = (33, 33, 33)
PAPER: Colour = (250, 247, 240)
MUTED: Colour = (120, 120, 120)
WHITE: Colour = (255, 255, 255)

SEAT_COLOURS: tuple[Colour, ...] = (
    (214, 39, 40),
    (31, 119, 180),
    (44, 160, 44),
    (255, 127, 14),
    (148, 103, 189),
    (23, 190, 207),
)
"""Seat colours, one per seat up to six, each always drawn with its letter of
:data:`SEAT_LETTERS`: shared so a seat reads the same colour from one game to the next;
a game with fewer seats takes the first ones."""
SEAT_LETTERS = "ABCDEF"


Rect = tuple[float, float, float, float]
"""Left, top, right, bottom in a picture's pixels (right and bottom just outside)."""

_SIZES: ContextVar[set[int] | None] = ContextVar("font_sizes", default=None)


class Words(Protocol):
    """The table's language, as a renderer needs it: every word an image prints comes from here.

    The host passes its catalog bound to the table's language (``bot.core.i18n.Words``), so a French
    table's board reads in French with French numbers; a renderer never writes an English word
    or formats a number itself.  Keys live in ``bot/locales/*.toml`` under ``[<game>.image]``.
    Instances are hashable, so drawn text may be cached per language (:func:`static_layer`).
    """

    @property
    def language(self) -> str: ...

    def __hash__(self) -> int:
        """Hashable, so a cached drawing can be keyed on the language it was drawn in."""
        ...

    def __call__(self, key: str, /, **params: Any) -> str:
        """The catalog's text for ``key`` in this language, with ``{params}`` filled in."""
        ...

    def number(self, value: int) -> str:
        """A whole number as this language writes it (``1,500``; ``1 500``)."""
        ...

    def count(self, key: str, count: int, /, **params: Any) -> str:
        """``<key>_one`` or ``<key>_other`` by this language's plural rule, ``{count}`` formatted."""
        ...


# Noto Sans 2.015 (SIL Open Font License 1.1, by the Noto Project Authors,
# https://github.com/notofonts/latin-greek-cyrillic), as Google Fonts ships it (ofl/notosans):
# the PyPI package ``fontpkg-noto-sans`` redistributes that variable font (weight 100-900, width
# 62.5-100) unmodified, so installing the project installs the font: no system font, no download.
FONT_PACKAGE = "fontpkg_noto_sans"
FONT_FILE = "files/NotoSans[wdth,wght].ttf"
REGULAR, BOLD = 400, 700
"""The two weights the boards use, on the font's ``wght`` axis."""
WIDTH = 87.5
"""On the font's ``wdth`` axis: Noto Sans SemiCondensed.  At full width (100) Noto runs about 7 %
wider than Pillow's own font the boards were laid out with; semi-condensed, its bold takes the
room the old regular did, and names get a little more room than they had."""


def font_path() -> str:
    """The font file on disk (inside the installed ``fontpkg-noto-sans`` package)."""
    return str(resources.files(FONT_PACKAGE).joinpath(FONT_FILE))


def font(size: int, bold: bool = False) -> Font:
    """Noto Sans at ``size`` pixels, regular or bold.

    Every size asked for is noted while :func:`recording_font_sizes` is active, so a test
    can check a renderer's smallest text against the width the image is judged at.
    """
    sizes = _SIZES.get()
    if sizes is not None:
        sizes.add(size)
    return _font(size, bold)


@lru_cache(maxsize=64)
def _font(size: int, bold: bool) -> Font:
    # Pillow's basic layout, not Raqm: Raqm needs system libraries (FriBiDi) that a machine may
    # lack, which would change the drawing from one machine to another; these boards draw no
    # right-to-left or shaped scripts, and the basic layout is faster.
    face = ImageFont.truetype(font_path(), size, layout_engine=ImageFont.Layout.BASIC)
    chosen = {"Weight": float(BOLD if bold else REGULAR), "Width": WIDTH}
    values = [
        chosen.get(_axis_name(axis["name"]), float(axis["default"] or 0))
        for axis in face.get_variation_axes()
    ]
    face.set_variation_by_axes(values)
    return face


def _axis_name(name: str | bytes) -> str:
    return name.decode("ascii", "replace") if isinstance(name, bytes) else name


@contextmanager
def recording_font_sizes() -> Iterator[set[int]]:
    """Collect the font sizes requested inside the ``with`` block (this thread or task only).

    Sizes drawn from a cache (a sprite drawn by an earlier render) are not requested
    again: clear the renderer's caches first to see every size a render uses.
    """
    sizes: set[int] = set()
    token = _SIZES.set(sizes)
    try:
        yield sizes
    finally:
        _SIZES.reset(token)


def label(
    image: Image.Image,
    xy: tuple[float, float],
    value: str,
    size: int,
    fill: Colour = INK,
    anchor: str = "la",
    bold: bool = False,
) -> None:
    """Draw text like ``ImageDraw.text`` (in the bold weight if ``bold``), from a cache of glyph masks.

    Turning text into pixels is most of a board's drawing time, and a board repeats
    the same few words and numbers on every render; pasting a cached mask in the fill
    colour is several times faster and blends the anti-aliased edges the same way.
    Inside :func:`recording_texts` the text's box is noted on ``image`` with its panel.
    """
    sizes = _SIZES.get()
    if sizes is not None:
        sizes.add(size)
    x, y = xy
    ix, iy = int(x // 1), int(y // 1)
    mask, left, top, ink = _text_mask(value, size, anchor, bold, x - ix, y - iy)
    if mask is not None:
        image.paste(fill, (ix + left, iy + top), mask)
        recording = _RECORDING.get()
        if recording is not None:
            recording.labelled.add(value)
            name, box = _panel_of(image)
            x0, y0, x1, y1 = ink
            _texts(image).append(Drawn(value, (ix + x0, iy + y0, ix + x1, iy + y1), box, name))


@lru_cache(maxsize=4096)
def _text_mask(
    value: str, size: int, anchor: str, bold: bool, fx: float, fy: float
) -> tuple[Image.Image | None, int, int, Rect]:
    """``value``'s coverage as an "L" mask, where its corner lies from the anchor point, and the
    text's own box (Pillow's ``textbbox``) from the same point."""
    face = font(size, bold)
    x0, y0, x1, y1 = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox(
        (fx, fy), value, font=face, anchor=anchor
    )
    left, top = int(x0 // 1) - 1, int(y0 // 1) - 1
    width, height = int(-(-x1 // 1)) - left + 1, int(-(-y1 // 1)) - top + 1
    if width <= 0 or height <= 0 or not value:
        return None, 0, 0, (x0, y0, x1, y1)
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((fx - left, fy - top), value, font=face, fill=255, anchor=anchor)
    return mask, left, top, (x0, y0, x1, y1)


# --- where texts land ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Drawn:
    """One text as a picture shows it: its words, the box Pillow gives it (``textbbox``: from the
    tallest letter's top to the baseline or the lowest descender, across its advance), and the
    panel it belongs in (:func:`panel`; the whole picture when none was named)."""

    text: str
    box: Rect
    panel: Rect
    panel_name: str


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture :func:`png` encoded inside :func:`recording_texts`: its size and every text on it."""

    size: tuple[int, int]
    texts: tuple[Drawn, ...]


@dataclass(slots=True)
class Recording:
    """What :func:`recording_texts` saw: each encoded picture, and every string :func:`label` drew
    (on a picture or on a sprite), so a test can tell a sprite pasted without its texts."""

    pictures: list[Picture] = field(default_factory=list)
    labelled: set[str] = field(default_factory=set)


_RECORDING: ContextVar[Recording | None] = ContextVar("texts", default=None)
_PANELS: ContextVar[tuple[tuple[int, str, Rect], ...]] = ContextVar("panels", default=())
_TEXTS = "_kit_texts"
"""The attribute under which an image keeps the texts drawn on it while recording: a sprite cached
by one render carries them into every later render that pastes it."""


@contextmanager
def recording_texts() -> Iterator[Recording]:
    """Note every text drawn inside the ``with`` block and, for each picture :func:`png` encodes,
    where its texts landed (this thread or task only).

    Sprites and layers drawn before the block carry no record: clear the renderer's caches first
    (as for :func:`recording_font_sizes`), so everything pasted was drawn while recording.
    """
    recording = Recording()
    token = _RECORDING.set(recording)
    try:
        yield recording
    finally:
        _RECORDING.reset(token)


@contextmanager
def panel(image: Image.Image, name: str, box: Rect) -> Iterator[None]:
    """Texts drawn on ``image`` inside the block belong in ``box`` (a player's panel, a card, the title
    bar): a text that leaves it is a layout fault a test can see.  Costs nothing unless recording."""
    if _RECORDING.get() is None:
        yield
        return
    token = _PANELS.set((*_PANELS.get(), (id(image), name, box)))
    try:
        yield
    finally:
        _PANELS.reset(token)


def _panel_of(image: Image.Image) -> tuple[str, Rect]:
    """The innermost panel named for ``image``, else the whole image."""
    key = id(image)
    for owner, name, box in reversed(_PANELS.get()):
        if owner == key:
            return name, box
    return "image", (0, 0, image.width, image.height)


def _texts(image: Image.Image) -> list[Drawn]:
    found: list[Drawn] | None = getattr(image, _TEXTS, None)
    if found is None:
        found = []
        setattr(image, _TEXTS, found)
    return found


def paste(
    image: Image.Image, layer: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None
) -> None:
    """``image.paste(layer, xy, mask)``, and while recording, the texts drawn on ``layer`` move onto
    ``image`` with it: each must then stay inside its own panel on the layer (the layer itself when
    none was named, or it would be cut off) and inside the panel it is pasted into.  Without a
    ``mask`` the layer is opaque and hides what it is pasted on (:func:`cover`)."""
    image.paste(layer, xy, mask)
    if _RECORDING.get() is None:
        return
    if mask is None:
        cover(image, (xy[0], xy[1], xy[0] + layer.width, xy[1] + layer.height))
    carried: list[Drawn] | None = getattr(layer, _TEXTS, None)
    if not carried:
        return
    name, (px0, py0, px1, py1) = _panel_of(image)
    dx, dy = xy
    out = _texts(image)
    for t in carried:
        x0, y0, x1, y1 = t.box
        q0, r0, q1, r1 = t.panel
        inside = (max(px0, q0 + dx), max(py0, r0 + dy), min(px1, q1 + dx), min(py1, r1 + dy))
        where = t.panel_name if name == "image" else f"{name}/{t.panel_name}"
        out.append(Drawn(t.text, (x0 + dx, y0 + dy, x1 + dx, y1 + dy), inside, where))


def cover(image: Image.Image, box: Rect) -> None:
    """Say that ``box`` of ``image`` is being painted over (a tile laid on an empty space, a taken
    card greyed out): the texts recorded wholly inside it are hidden, so they are forgotten; one
    that sticks out stays, and clashes with whatever is drawn on top."""
    if _RECORDING.get() is None:
        return
    texts: list[Drawn] | None = getattr(image, _TEXTS, None)
    if not texts:
        return
    x0, y0, x1, y1 = box
    texts[:] = [
        t
        for t in texts
        if not (x0 <= t.box[0] and y0 <= t.box[1] and t.box[2] <= x1 + 1 and t.box[3] <= y1 + 1)
    ]


def copy(image: Image.Image) -> Image.Image:
    """``image.copy()`` keeping the texts recorded on it (a cached layer copied to draw on)."""
    new = image.copy()
    carried: list[Drawn] | None = getattr(image, _TEXTS, None)
    if carried and _RECORDING.get() is not None:
        setattr(new, _TEXTS, list(carried))
    return new


def smallest_on_phone(size: int, width: int, shown: int = 400) -> float:
    """How tall ``size``-pixel text looks when an image ``width`` pixels wide is shown ``shown`` wide."""
    return size * shown / width


def palette(
    colours: Iterable[Colour], blends: Iterable[tuple[Colour, Colour]] = (), steps: int = 5
) -> Image.Image:
    """A fixed palette for :func:`png`: ``colours`` plus ``steps`` shades between each pair in ``blends``.

    A board is flat colours plus anti-aliased text, whose edge pixels are mixes of the text
    colour and what lies under it; listing those pairs keeps the edges smooth.  With a
    fixed palette the image needs no colour analysis (octree quantizing was a third of a
    render) and the same board always gives the same bytes.  Raises ``ValueError`` past 256.
    """
    found: dict[Colour, None] = dict.fromkeys(colours)
    for (r0, g0, b0), (r1, g1, b1) in blends:
        for i in range(1, steps + 1):
            t = i / (steps + 1)
            found[(round(r0 + (r1 - r0) * t), round(g0 + (g1 - g0) * t), round(b0 + (b1 - b0) * t))] = None
    if len(found) > 256:
        raise ValueError(f"a PNG palette holds 256 colours, not {len(found)}")
    flat = [channel for colour in found for channel in colour]
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat + flat[:3] * (256 - len(found)))
    return holder


def png(image: Image.Image, colours: Image.Image | None = None) -> bytes:
    """PNG bytes of a 256-colour copy of ``image``.

    Flat board art loses nothing visible in 256 colours, and an indexed PNG is several
    times faster to compress and less than half the size of a full-colour one.  With
    ``colours`` (a :func:`palette`) each pixel takes the nearest palette colour, which is
    about five times faster than working out a palette; without it Pillow's fast octree
    chooses one.  zlib level 3 compresses nearly as well as 6 on flat art in half the time.
    """
    recording = _RECORDING.get()
    if recording is not None:
        recording.pictures.append(Picture(image.size, tuple(getattr(image, _TEXTS, ()))))
    out = io.BytesIO()
    if colours is None:
        indexed = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    else:
        indexed = image.quantize(palette=colours, dither=Image.Dither.NONE)
    indexed.save(out, "PNG", compress_level=3)
    return out.getvalue()


@lru_cache(maxsize=1024)
def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` pixels at ``size`` (in the bold weight if ``bold``)."""
    face = font(size, bold)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "...") > width:
        text = text[:-1]
    return text.rstrip(" .") + "..."


# Letters a font might lack that have no Unicode decomposition, spelled the way a keyboard would.
_SPELLED = {"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "ß": "ss", "Æ": "AE", "æ": "ae"}
_SPELLED |= {"Œ": "OE", "œ": "oe", "Þ": "Th", "þ": "th", "ı": "i", "Ð": "D", "ð": "d"}

_MISSING = "\U0010fffd"
"""A private-use code point no font maps: it draws as the font's "missing glyph" box."""


@lru_cache(maxsize=1)
def _missing_mask() -> tuple[tuple[int, int], bytes]:
    mask = _font(20, False).getmask(_MISSING)
    return mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def has_glyph(char: str) -> bool:
    """Whether the font has a glyph for ``char`` (one character), so it is not drawn as a box.

    Control and format characters (zero-width joiners, emoji variation selectors) count as
    missing: they are never wanted in a drawn name.  The check draws ``char`` once and compares
    it with the font's missing-glyph box (Pillow does not expose the font's character map);
    the answer is cached.
    """
    if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return False
    if char.isascii():
        return True
    mask = _font(20, False).getmask(char)
    return (mask.size, bytes(mask)) != _missing_mask()


def _spelled(char: str) -> str | None:
    """``char`` in letters the font has (Ｚ -> Z, ǲ -> Dz, Ø -> O if it lacked Ø); ``None`` if it cannot be."""
    if has_glyph(char):
        return char
    spelled = _SPELLED.get(char) or unicodedata.normalize("NFKD", char)
    kept = "".join(c for c in spelled if not unicodedata.combining(c) and c != char and has_glyph(c))
    return kept or None


@lru_cache(maxsize=256)
def printable(name: str) -> str:
    """``name`` as the font can draw it: accents and scripts it has kept as written (Zoë, Σοφία,
    Дмитрий), a letter it lacks spelled plainly where it can be, symbols and emoji it lacks left out."""
    out: list[str] = []
    for char in " ".join(unicodedata.normalize("NFC", name).split()):
        if char == " ":
            out.append(char)
        elif (kept := _spelled(char)) is not None:
            out.append(kept)
    return " ".join("".join(out).split())


def drawable_name(name: str) -> str | None:
    """``name`` as :func:`printable` draws it, or ``None`` when that would not be the name: it has
    no letter or digit the font can draw, or it has one the font lacks (a script the font does not
    cover: showing only the rest would show somebody else's name)."""
    clean = " ".join(unicodedata.normalize("NFC", name).split())
    for char in clean:
        if (unicodedata.category(char)[0] in "LN") and _spelled(char) is None:
            return None
    shown = printable(clean)
    return shown if any(c.isalnum() for c in shown) else None


def player_names(names: Sequence[str], players: int, words: Words) -> list[str]:
    """One drawable name per seat; a seat whose name the font cannot draw (see
    :func:`drawable_name`: "🎲🎲", "李雷") shows its label, "Player n", instead."""
    out: list[str] = []
    for seat in range(players):
        shown = drawable_name(str(names[seat])) if seat < len(names) else None
        out.append(shown if shown is not None else words("host.image.seat", number=seat + 1))
    return out


def static_layer(builder: Callable[[Words], Image.Image]) -> Callable[[Words], Image.Image]:
    """Build a layer once per language (board art, grids, legends); every call returns a fresh copy
    to draw on.  A layer without words takes the argument all the same and ignores it, so adding a
    label to it later cannot forget the language."""
    cached: dict[str, Image.Image] = {}

    def fresh(words: Words) -> Image.Image:
        layer = cached.get(words.language)
        if layer is None:
            layer = cached[words.language] = builder(words)
        return copy(layer)

    fresh.__doc__ = builder.__doc__
    return fresh


def text_colour(background: Colour) -> Colour:
    """Black or white, whichever reads better on ``background`` (relative luminance)."""
    r, g, b = background
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else WHITE


def hatch(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: Colour, step: int = 6) -> None:
    """Diagonal hatching: a pattern cue so colour is never the only signal."""
    x0, y0, x1, y1 = box
    for offset in range(-(y1 - y0), x1 - x0, step):
        start = (x0 + max(offset, 0), y0 + max(-offset, 0))
        length = min(x1 - start[0], y1 - start[1])
        draw.line((start, (start[0] + length, start[1] + length)), fill=colour, width=1)
