"""The one label placer of every picture (the window, the SVG pages, the browser's overlays):
labels are placed after everything else is known, the highest priority first; each takes the
first of its candidate places - its own near ones, then rings further out round what it names -
that covers no label already placed, no model and no line it must keep off, and lies inside the
bounds; when none is free, the least covered. A label set away from what it names, or nearer
another unit's model than its own, is tied to it by a leader line (and no later label covers the
line). Unit-free: the pages place in table inches, the window's tools in pixels (`up` says which
way is up: +1 for the table's y, -1 for the screen's)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Box = tuple[float, float, float, float]          # x0, y0, x1, y1 (x0 <= x1, y0 <= y1)
Point = tuple[float, float]

DIRECTIONS = 32
# Rings further out round the anchor, in label heights beyond the near places: farther rings
# cost more, so a free near place always wins.
STEPS = (0.9, 1.5, 2.0, 2.7, 3.4, 4.3, 5.2, 6.3, 7.5, 9.0, 10.5, 12.2, 14.0, 16.0, 18.0)
_UNIT = np.array([(math.cos(2 * math.pi * k / DIRECTIONS + math.pi / 2),
                   math.sin(2 * math.pi * k / DIRECTIONS + math.pi / 2))
                  for k in range(DIRECTIONS)])
LABEL = "(a label)"          # the owner of a label placed before (a leader never crosses it)
ROUNDS = 6                   # rounds of placing, hemmed-in labels first in the next
AMBIGUOUS = 5                # an ambiguous free place counts as this many places further down


def around(box: Box, w: float, h: float, gap: float, up: float = 1.0) -> list[Point]:
    """Candidate centres for a w x h label next to box: above, below, right, left, the
    corners, then a row further above and below."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    top, bottom = (y1, y0) if up > 0 else (y0, y1)
    above = top + up * (gap + h / 2)
    below = bottom - up * (gap + h / 2)
    right, left = x1 + gap + w / 2, x0 - gap - w / 2
    return [(cx, above), (cx, below), (right, cy), (left, cy), (right, above), (left, above),
            (right, below), (left, below), (cx, above + up * h), (cx, below - up * h)]


def union(boxes: Sequence[Box]) -> Box:
    a = np.asarray(boxes, dtype=float).reshape(-1, 4)
    return (float(a[:, 0].min()), float(a[:, 1].min()), float(a[:, 2].max()),
            float(a[:, 3].max()))


def box_at(c: Point, w: float, h: float) -> Box:
    return (c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2)


@dataclass
class _Want:
    item: Any
    w: float
    h: float
    near: list[Point]
    priority: float
    order: int
    anchor: Box | None
    owner: str | None
    tied: bool = True


@dataclass
class Placed:
    """Where a label went: its box and centre, and its leader line (anchor end first);
    `want`: what it asked for (to place it again: `Placer.again`)."""

    item: Any
    box: Box
    centre: Point
    leader: tuple[Point, Point] | None = None
    want: _Want | None = field(default=None, repr=False, compare=False)


@dataclass
class Placer:
    """`add` labels (a size, candidate centres and what they name), `avoid` what they must not
    cover, then `place` them all. `gap`: how far a label stands from what it names; `pad`: the
    clear margin round a label (its halo: nothing may touch it, not even another label's
    halo); `bounds`: where labels must stay. A leader line crosses no other unit's base and no
    label: a place whose line would is passed over."""

    bounds: Box | None = None
    gap: float = 0.12
    pad: float = 0.06
    up: float = 1.0
    obstacles: list[Box] = field(default_factory=list)
    owners: list[str | None] = field(default_factory=list)
    wants: list[_Want] = field(default_factory=list)
    _array: np.ndarray | None = field(default=None, repr=False)
    _spot_cache: tuple[np.ndarray, list[int]] = field(
        default_factory=lambda: (np.zeros((0, 4)), []), repr=False)

    def avoid(self, box: Box, owner: str | None = None) -> None:
        """Keep labels off box; `owner`: the unit it belongs to (a model), so that a label is
        tied by a leader line when it stands nearer another unit's model than its own."""
        x0, y0, x1, y1 = box
        self.obstacles.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
        self.owners.append(owner)

    def avoid_line(self, p: Point, q: Point, width: float) -> None:
        """Keep labels off the segment p-q (drawn `width` wide)."""
        n = max(1, math.ceil(math.hypot(q[0] - p[0], q[1] - p[1]) / max(width, 1e-9)))
        n = min(n, 400)
        for k in range(n + 1):
            x = p[0] + (q[0] - p[0]) * k / n
            y = p[1] + (q[1] - p[1]) * k / n
            self.avoid((x - width / 2, y - width / 2, x + width / 2, y + width / 2))

    def add(self, item: Any, w: float, h: float, near: Sequence[Point], priority: float = 0,
            anchor: Box | None = None, owner: str | None = None, tied: bool = True) -> None:
        """A label w x h wanting one of the `near` centres (tried in order); with `anchor`
        (the box of what it names) rings further out are tried too and a leader line ties a
        label set away from it (`tied` False: no line - a caption, not a name)."""
        if near or anchor is not None:
            self.wants.append(_Want(item, float(w), float(h), list(near), priority,
                                    len(self.wants), anchor, owner, tied))

    def again(self, label: Placed, item: Any = None) -> None:
        """Place a label placed before once more, as it asked then (its near places, rings
        round what it names, its priority) - its place then first of all, so that it stays
        where it was when that is still free. `item`: what to place (its own by default)."""
        w = label.want
        assert w is not None, "a label placed by Placer.place"
        self.add(label.item if item is None else item, w.w, w.h, [label.centre, *w.near],
                 w.priority, w.anchor, w.owner, w.tied)

    def mark(self) -> tuple[int, int]:
        """How many obstacles and labels there are now (`back_to` forgets any added since)."""
        return len(self.obstacles), len(self.wants)

    def back_to(self, mark: tuple[int, int]) -> None:
        del self.obstacles[mark[0]:], self.owners[mark[0]:], self.wants[mark[1]:]
        self._array = None

    # --- placing ---------------------------------------------------------------------------
    def _rings(self, want: _Want) -> np.ndarray:
        """Places further out round the anchor: DIRECTIONS on each of STEPS, nearest first."""
        a = want.anchor
        if a is None:
            return np.zeros((0, 2))
        cx, cy = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
        rx = (a[2] - a[0]) / 2 + want.w / 2 + self.gap
        ry = (a[3] - a[1]) / 2 + want.h / 2 + self.gap
        with np.errstate(divide="ignore"):
            reach = np.minimum(np.where(np.abs(_UNIT[:, 0]) > 1e-9,
                                        rx / np.abs(_UNIT[:, 0]), np.inf),
                               np.where(np.abs(_UNIT[:, 1]) > 1e-9,
                                        ry / np.abs(_UNIT[:, 1]), np.inf))
        d = (reach[None, :] + np.asarray(STEPS)[:, None] * want.h).ravel()
        u = np.tile(_UNIT, (len(STEPS), 1))
        return np.column_stack([cx + u[:, 0] * d, cy + self.up * u[:, 1] * d])

    def _spots(self) -> tuple[np.ndarray, list[int]]:
        """The point-like anchors (a mark's spot, smaller than its tag is high) and whose they
        are: no other label may cover one, or its own tag's leader would start under it."""
        keep = [(w.anchor, w.order) for w in self.wants if w.anchor is not None
                and max(w.anchor[2] - w.anchor[0], w.anchor[3] - w.anchor[1]) < w.h]
        return (np.asarray([a for a, _ in keep], dtype=float).reshape(-1, 4),
                [k for _, k in keep])

    def _score(self, want: _Want, c: np.ndarray, boxes: np.ndarray, first: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(candidate boxes, score, ambiguous) of the centres c; `first`: the rank of c[0]. A
        free place scores its rank (more when ambiguous); a covered one more than any free."""
        hw, hh = want.w / 2, want.h / 2
        cand = np.empty((len(c), 4))
        cand[:, 0], cand[:, 1] = c[:, 0] - hw, c[:, 1] - hh
        cand[:, 2], cand[:, 3] = c[:, 0] + hw, c[:, 1] + hh
        inner = cand + np.array([-self.pad, -self.pad, self.pad, self.pad])   # with its halo
        # what the halos reach, not the bare boxes: a base just under a halo's edge covers it
        region = (float(inner[:, 0].min()), float(inner[:, 1].min()), float(inner[:, 2].max()),
                  float(inner[:, 3].max()))
        obstacles = self._obstacles()
        near = _near(obstacles, region)
        idx = np.flatnonzero(near)
        obs = obstacles[idx]
        area = max(want.w * want.h, 1e-12)
        covered = _overlap(inner, obs)
        spots, whose = self._spot_cache
        others = np.array([k != want.order for k in whose], dtype=bool)
        if others.any():    # another tag's spot is kept clear too
            covered += 2 * _overlap(inner, spots[others])
        if len(boxes):      # another label's halo counts too: two labels never touch
            grown = boxes + np.array([-self.pad, -self.pad, self.pad, self.pad])
            covered += 4 * _overlap(inner, grown[_near(grown, region)])
        if self.bounds is not None:
            bx0, by0, bx1, by1 = self.bounds
            cw = np.clip(np.minimum(inner[:, 2], bx1) - np.maximum(inner[:, 0], bx0), 0, None)
            ch = np.clip(np.minimum(inner[:, 3], by1) - np.maximum(inner[:, 1], by0), 0, None)
            area = max((want.w + 2 * self.pad) * (want.h + 2 * self.pad), 1e-12)
            covered += 8 * np.maximum(area - cw * ch, 0.0)
        rank = first + np.arange(len(c), dtype=float)
        ambiguous = np.zeros(len(c), dtype=bool)
        if want.owner is not None and want.anchor is not None:
            # the models that could stand nearer a label than its own: those within reach
            m = max(want.w, want.h)
            around = np.flatnonzero(_near(obstacles, (region[0] - m, region[1] - m,
                                                      region[2] + m, region[3] + m)))
            ambiguous = self._ambiguous(want, cand, obstacles[around],
                                        [self.owners[k] for k in around])
        free = covered <= area * 1e-9
        score = np.where(free, rank + AMBIGUOUS * ambiguous, 1e6 + covered / area * 1e3 + rank)
        return cand, score, ambiguous

    def _obstacles(self) -> np.ndarray:
        if self._array is None or len(self._array) != len(self.obstacles):
            self._array = np.asarray(self.obstacles, dtype=float).reshape(-1, 4)
        return self._array

    def place(self) -> list[Placed]:
        """Every label placed, highest priority first (then in the order added): the near
        places are tried first, the rings round the anchor only when none of them is free
        and unambiguous. A label left with no free place whose leader line is clear (hemmed
        in by the labels placed before it) goes first of its priority in another round (at
        most ROUNDS): the round with the fewest such labels is kept."""
        kept = len(self.obstacles)
        self._spot_cache = self._spots()
        first: set[int] = set()
        best: tuple[int, list[Placed], list[Box]] | None = None
        for _ in range(ROUNDS):
            del self.obstacles[kept:], self.owners[kept:]
            placed, stuck = self._round(first)
            if best is None or len(stuck) < best[0]:
                best = (len(stuck), placed, list(self.obstacles[kept:]))
            if not stuck or stuck <= first:
                break
            first |= stuck
        assert best is not None
        del self.obstacles[kept:], self.owners[kept:]
        self.obstacles += best[2]
        self.owners += [None] * len(best[2])
        return best[1]

    def _round(self, first: set[int]) -> tuple[list[Placed], set[int]]:
        placed: list[Placed] = []
        stuck: set[int] = set()
        every = np.zeros((len(self.wants), 4))
        for k, want in enumerate(sorted(self.wants, key=lambda w: (
                w.order not in first, -w.priority, w.order))):
            boxes = every[:k]
            near = np.asarray(want.near, dtype=float).reshape(-1, 2)
            cand, score, ambiguous = self._score(want, near, boxes, 0)
            best = self._choose(want, cand, score, ambiguous, near, boxes)
            if want.anchor is not None and (best is None or ambiguous[best]):
                ring = self._rings(want)
                more = self._score(want, ring, boxes, len(near))
                cand = np.vstack([cand, more[0]])
                score = np.concatenate([score, more[1]])
                ambiguous = np.concatenate([ambiguous, more[2]])
                near = np.vstack([near, ring])
                best = self._choose(want, cand, score, ambiguous, near, boxes)
            if best is None:                 # hemmed in: another round puts it first
                stuck.add(want.order)
                best = self._choose(want, cand, score, ambiguous, near, boxes, lenient=True)
            if best is None:                 # nothing free: the least covered
                best = int(np.argmin(score))
            box = tuple(float(v) for v in cand[best])
            centre = (float(near[best, 0]), float(near[best, 1]))
            leader = None
            if self._tied(want, box, bool(ambiguous[best])):
                leader = self._leader(want, box, centre)
            placed.append(Placed(want.item, box, centre, leader, want))   # type: ignore[arg-type]
            every[k] = box
            if leader is not None:
                self.avoid_line(leader[0], leader[1], self.pad * 2)
        return placed, stuck

    def _tied(self, want: _Want, box: Box, ambiguous: bool) -> bool:
        """Whether a label there needs its leader line: set away from what it names, or
        nearer another unit's model."""
        return want.anchor is not None and want.tied and (ambiguous or _distance(
            box, want.anchor) > self.gap * 2.5 + self.pad)

    def _leader(self, want: _Want, box: Box, centre: Point) -> tuple[Point, Point]:
        assert want.anchor is not None
        # to the label's nearest point from what it names: the shortest line, crossing least
        cx, cy = _centre(want.anchor)
        q = (min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3]))
        return _edge(want.anchor, q), q

    def _choose(self, want: _Want, cand: np.ndarray, score: np.ndarray,
                ambiguous: np.ndarray, near: np.ndarray, boxes: np.ndarray,
                lenient: bool = False) -> int | None:
        """The best free place whose leader line (when it needs one) crosses no other unit's
        base and no label placed; None when there is none."""
        obstacles = self._obstacles()
        foreign = np.array([o is not None and o != want.owner for o in self.owners],
                           dtype=bool) if len(self.owners) else np.zeros(0, dtype=bool)
        for i in np.argsort(score, kind="stable"):
            if score[i] >= 1e6:
                return None
            box = tuple(float(v) for v in cand[i])
            if not self._tied(want, box, bool(ambiguous[i])):
                return int(i)
            p, q = self._leader(want, box, (float(near[i, 0]), float(near[i, 1])))
            # leniently, a base the line starts in (a mark's end on it) is left, not crossed,
            # heading away from its middle
            others = obstacles[foreign]
            if lenient and len(others):
                inside = others[(others[:, 0] < p[0]) & (p[0] < others[:, 2])
                                & (others[:, 1] < p[1]) & (p[1] < others[:, 3])]
                mid = (inside[:, :2] + inside[:, 2:]) / 2
                if np.any((q[0] - p[0]) * (p[0] - mid[:, 0]) + (q[1] - p[1]) * (p[1] - mid[:, 1])
                          <= 0):
                    continue
            if _crosses(p, q, others, enter=lenient) or _crosses(p, q, boxes):
                continue
            return int(i)
        return None

    def _ambiguous(self, want: _Want, cand: np.ndarray, obs: np.ndarray,
                   owners: list[str | None]) -> np.ndarray:
        """For each candidate: another unit's model stands as near it as what it names (or
        nearer), so the label could be read as naming that model."""
        out = np.zeros(len(cand), dtype=bool)
        if want.anchor is None or want.owner is None or not len(obs):
            return out
        foreign = np.array([o is not None and o != want.owner and o != LABEL for o in owners])
        if not foreign.any():
            return out
        own = _distances(cand, np.asarray([want.anchor], dtype=float))[:, 0]
        other = _distances(cand, obs[foreign]).min(axis=1)
        return other <= own + want.h * 0.5     # about as near as its own: reads as theirs


def overlapping(boxes: Sequence[Box], others: Sequence[Box], margin: float = 0.0) -> np.ndarray:
    """Which of `boxes` overlap (or come within `margin` of) any of `others`."""
    a = np.asarray(boxes, dtype=float).reshape(-1, 4)
    b = np.asarray(others, dtype=float).reshape(-1, 4)
    if not len(a) or not len(b):
        return np.zeros(len(a), dtype=bool)
    return _overlap(a + np.array([-margin, -margin, margin, margin]), b) > 0


def _crosses(p: Point, q: Point, boxes: np.ndarray, eps: float = 1e-6, enter: bool = False
             ) -> bool:
    """Whether the segment p-q passes through any of `boxes` (n, 4) (touching an edge does
    not count; `enter`: only boxes it goes into, not one it starts in): Liang-Barsky's clip
    against each box at once."""
    if not len(boxes):
        return False
    b = boxes[(boxes[:, 2] >= min(p[0], q[0])) & (boxes[:, 0] <= max(p[0], q[0]))
              & (boxes[:, 3] >= min(p[1], q[1])) & (boxes[:, 1] <= max(p[1], q[1]))]
    if not len(b):
        return False
    x0, y0, x1, y1 = b[:, 0] + eps, b[:, 1] + eps, b[:, 2] - eps, b[:, 3] - eps
    dx, dy = q[0] - p[0], q[1] - p[1]
    lo, hi = np.zeros(len(b)), np.ones(len(b))
    for d, s, a0, a1 in ((dx, p[0], x0, x1), (dy, p[1], y0, y1)):
        if abs(d) < 1e-12:
            inside = (s > a0) & (s < a1)
            lo = np.where(inside, lo, 2.0)
            continue
        t0, t1 = (a0 - s) / d, (a1 - s) / d
        lo = np.maximum(lo, np.minimum(t0, t1))
        hi = np.minimum(hi, np.maximum(t0, t1))
    return bool(np.any((lo < hi) & (lo > eps if enter else True)))


def _centre(b: Box) -> Point:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _near(obstacles: np.ndarray, region: Box) -> np.ndarray:
    """Which obstacles touch the region (the others cannot matter to this label)."""
    if not len(obstacles):
        return np.zeros(0, dtype=bool)
    x0, y0, x1, y1 = region
    out = obstacles[:, 2] >= x0
    out &= obstacles[:, 0] <= x1
    out &= obstacles[:, 3] >= y0
    out &= obstacles[:, 1] <= y1
    return out


def _overlap(r: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The area each box of r (n, 4) shares with all of `boxes` (m, 4), summed."""
    if not len(boxes):
        return np.zeros(len(r))
    w = np.minimum(r[:, None, 2], boxes[None, :, 2]) - np.maximum(r[:, None, 0], boxes[None, :, 0])
    h = np.minimum(r[:, None, 3], boxes[None, :, 3]) - np.maximum(r[:, None, 1], boxes[None, :, 1])
    return (np.maximum(w, 0) * np.maximum(h, 0)).sum(axis=1)


def _distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(n, m) gaps between the boxes of a and of b (0 where they touch or overlap)."""
    dx = np.maximum(np.maximum(a[:, None, 0] - b[None, :, 2], b[None, :, 0] - a[:, None, 2]), 0)
    dy = np.maximum(np.maximum(a[:, None, 1] - b[None, :, 3], b[None, :, 1] - a[:, None, 3]), 0)
    return np.hypot(dx, dy)


def _distance(a: Box, b: Box) -> float:
    return float(_distances(np.asarray([a]), np.asarray([b]))[0, 0])


def _edge(b: Box, toward: Point) -> Point:
    """Where the segment from b's centre toward a point leaves b."""
    cx, cy = _centre(b)
    dx, dy = toward[0] - cx, toward[1] - cy
    if abs(dx) < 1e-12 and abs(dy) < 1e-12:
        return cx, cy
    sx = (b[2] - b[0]) / 2 / abs(dx) if abs(dx) > 1e-12 else math.inf
    sy = (b[3] - b[1]) / 2 / abs(dy) if abs(dy) > 1e-12 else math.inf
    s = min(sx, sy, 1.0)
    return cx + dx * s, cy + dy * s


__all__ = ["LABEL", "Placer", "Placed", "around", "union", "box_at", "overlapping", "Box",
           "Point"]
