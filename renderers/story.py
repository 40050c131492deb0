"""The story of a game as a chart: each seat's public score, move by move, in its seat colour.

Shown beside the final standings, so it is judged where they are: on a phone, about 400 px wide.
The image is drawn :data:`WIDTH` wide and its smallest text (:data:`F_SMALL`) stays above 9 px
there.  The series comes from public views only (``rules.play.story_series``), so the chart and
its alt text can show nothing a player at the table did not see.

Thousands of moves (a long Monopoly game) are drawn as at most one point per pixel column of the
plot: the chart's shape is what a reader takes from it, and the legend gives the exact final
values.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers import kit

WIDTH = 600
PHONE_WIDTH = 400  # the width the image is judged at
F_SMALL = 14  # ticks and legend values: 14 * 400 / 600 = 9.3 px on a phone
F_NAME = 15
F_TITLE = 18
MARGIN = 12
TITLE_H = 30
AXIS_LABEL_H = 22
PLOT_H = 230
X_TICKS_H = 22
LEGEND_ROW_H = 24
LEGEND_COLUMNS = 2
Y_TICKS = 4
"""Gridlines on the scale besides its ends: enough to read a value off, few enough to stay calm."""
LINE_WIDTH = 3
GRID: kit.Colour = (225, 221, 212)


def seat_colours(players: int) -> list[kit.Colour]:
    """Seats take the shared colours, so a seat reads the same on the board and in its story."""
    return [kit.SEAT_COLOURS[s % len(kit.SEAT_COLOURS)] for s in range(players)]


def _palette(colours: Sequence[kit.Colour]) -> Image.Image:
    base = [kit.PAPER, kit.INK, kit.MUTED, kit.WHITE, GRID, *colours]
    blends = [(kit.INK, kit.PAPER), (kit.MUTED, kit.PAPER), (GRID, kit.PAPER)]
    blends += [(c, kit.PAPER) for c in colours] + [(c, GRID) for c in colours]
    return kit.palette(base, blends, steps=3)


def _nice_step(span: int, ticks: int) -> int:
    """A round step (1, 2 or 5 times a power of ten) putting about ``ticks`` gridlines on ``span``."""
    raw = max(1, span // max(1, ticks))
    power = 1
    while power * 10 <= raw:
        power *= 10
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power


def _scale(series: Sequence[Sequence[int]]) -> tuple[int, int, int]:
    """The scale's low end, high end and step: round numbers enclosing every value."""
    low = min(min(point) for point in series)
    high = max(max(point) for point in series)
    if low == high:
        low, high = low - 1, high + 1
    step = _nice_step(high - low, Y_TICKS)
    low = (low // step) * step
    high = -((-high) // step) * step
    return low, high, step


def _columns(count: int, width: int) -> list[int]:
    """Which points to draw: every one when they fit, else one per pixel column (ends kept)."""
    if count <= width:
        return list(range(count))
    return [round(i * (count - 1) / (width - 1)) for i in range(width)]


def render_story(
    series: Sequence[Sequence[int]],
    names: Sequence[str],
    words: kit.Words,
    *,
    measure: str = "story.image.score",
    colours: Sequence[kit.Colour] | None = None,
) -> bytes:
    """PNG of ``series`` (one list of seat scores per public version, the start first).

    ``measure`` is the catalog key naming what is counted (``story.image.measure.<game>``);
    ``colours`` default to the seats' shared colours.
    """
    if not series or not series[0]:
        raise ValueError("a story needs at least one point with at least one seat")
    players = len(series[0])
    shown = kit.player_names(names, players, words)
    inks = list(colours) if colours is not None else seat_colours(players)
    rows = -(-players // LEGEND_COLUMNS)
    plot_top = TITLE_H + AXIS_LABEL_H
    legend_top = plot_top + PLOT_H + X_TICKS_H + 8
    height = legend_top + rows * LEGEND_ROW_H + MARGIN
    image = Image.new("RGB", (WIDTH, height), kit.PAPER)
    draw = ImageDraw.Draw(image)

    kit.label(image, (WIDTH / 2, 6), words("story.image.title"), F_TITLE, anchor="ma", bold=True)
    kit.label(image, (MARGIN, TITLE_H + 2), words(measure), F_SMALL, kit.MUTED)

    low, high, step = _scale(series)
    tick_texts = [words.number(v) for v in range(low, high + 1, step)]
    gutter = max(kit.font(F_SMALL).getlength(t) for t in tick_texts) + MARGIN + 6
    left, right = int(gutter), WIDTH - MARGIN - 4
    top, bottom = plot_top + 8, plot_top + PLOT_H

    def y_of(value: float) -> float:
        return bottom - (value - low) * (bottom - top) / (high - low)

    for value, text in zip(range(low, high + 1, step), tick_texts, strict=True):
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        kit.label(image, (left - 6, y), text, F_SMALL, kit.MUTED, anchor="rm")
    draw.line([(left, top), (left, bottom)], fill=kit.MUTED, width=1)
    draw.line([(left, bottom), (right, bottom)], fill=kit.MUTED, width=1)

    moves = len(series) - 1
    kit.label(image, (left, bottom + 4), words.number(0), F_SMALL, kit.MUTED, anchor="la")
    if moves:
        kit.label(image, (right, bottom + 4), words.number(moves), F_SMALL, kit.MUTED, anchor="ra")
    kit.label(
        image, ((left + right) / 2, bottom + 4), words("story.image.moves"), F_SMALL, kit.MUTED, anchor="ma"
    )

    picked = _columns(len(series), right - left)
    span = max(1, moves)

    def x_of(index: int) -> float:
        return left + index * (right - left) / span

    # The leader's line is drawn last so it stays on top where lines meet at the end.
    for seat in sorted(range(players), key=lambda s: series[-1][s]):
        ink = inks[seat]
        points = [(x_of(i), y_of(series[i][seat])) for i in picked]
        if len(points) > 1:
            draw.line(points, fill=ink, width=LINE_WIDTH, joint="curve")
        x, y = points[-1]
        draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=ink)

    column_w = (WIDTH - 2 * MARGIN) / LEGEND_COLUMNS
    for seat in range(players):
        col, row = seat // rows, seat % rows
        x0 = MARGIN + col * column_w
        y0 = legend_top + row * LEGEND_ROW_H
        box = (x0, y0, x0 + column_w - 20, y0 + LEGEND_ROW_H)
        with kit.panel(image, f"legend {seat}", box):
            draw.rectangle((x0, y0 + 6, x0 + 12, y0 + 18), fill=inks[seat])
            final = words.number(series[-1][seat])
            final_w = kit.font(F_NAME, True).getlength(final)
            kit.label(image, (box[2], y0 + 12), final, F_NAME, kit.INK, anchor="rm", bold=True)
            room = box[2] - final_w - 10 - (x0 + 18)
            kit.label(
                image, (x0 + 18, y0 + 12), kit.fit(shown[seat], F_NAME, room), F_NAME, kit.INK, anchor="lm"
            )
    return kit.png(image, _palette(inks))


def lead_takes(series: Sequence[Sequence[int]], lower_leads: bool = False) -> list[int]:
    """How many times each seat took the lead alone: a tie leaves the lead where it was, so
    two seats level at the start (everyone is) lead nobody until one pulls ahead."""
    if not series:
        return []
    takes = [0] * len(series[0])
    leader: int | None = None
    for point in series:
        best = min(point) if lower_leads else max(point)
        ahead = [s for s, v in enumerate(point) if v == best]
        if len(ahead) == 1 and ahead[0] != leader:
            leader = ahead[0]
            takes[leader] += 1
    return takes


def alt_text(
    series: Sequence[Sequence[int]],
    names: Sequence[str],
    words: kit.Words,
    *,
    measure: str = "story.image.score",
    lower_leads: bool = False,
) -> str:
    """The chart in words, for screen readers: what it counts, then a sentence per seat (its name,
    its final value and how often it took the lead), from the same public series as the image."""
    if not series or not series[0]:
        return ""
    players = len(series[0])
    takes = lead_takes(series, lower_leads)
    sentences = [words.count("story.image.alt_intro", len(series) - 1, measure=words(measure))]
    for seat in range(players):
        name = str(names[seat]) if seat < len(names) else words("host.image.seat", number=seat + 1)
        score = words.number(series[-1][seat])
        if takes[seat] == 0:
            sentences.append(words("story.image.alt_never", name=name, score=score))
        else:
            sentences.append(words.count("story.image.alt", takes[seat], name=name, score=score))
    return " ".join(sentences)
