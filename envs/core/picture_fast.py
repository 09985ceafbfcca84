"""The fast path of the ``rgb_array`` pictures: a :class:`~primeval.envs.core.picture.Sketch`'s
recorded calls painted from recorded renderer calls and cached tiles, equal pixel for pixel
to drawing them as one matplotlib figure (:func:`~primeval.envs.core.picture.sketch_reference`).

1. *record*: a call not seen before is drawn as the reference draws it, a matplotlib
   artist on a figure of the same size, while the calls it makes to Agg's C renderer
   (``draw_path``, ``draw_text_image``, ...) are kept with copies of their arguments, and
   the box of pixels they can change (exact for glyph images, the control points' box
   widened by the stroke for paths);
2. *replay*: making those C calls again paints the call again, the same pixels, at the
   cost of the C calls alone (a text's glyph images merged where their ink does not meet,
   and kept per glyph and position within the pixel while recording);
3. *tiles*: the picture is cut into :data:`TILE`-pixel tiles. A tile's pixels are the empty
   figure's with the calls reaching it painted over in drawing order (``zorder``, stably,
   as ``Axes.draw``), because a call leaves the pixels it cannot change as they were. So
   when the calls common to this frame and the last keep their order, only the tiles
   reached by a call added or gone can differ from the last picture; each of those is
   looked up in a cache under its place and its calls' ids, or painted by replaying, over
   the empty figure, just the calls that reach the tiles missing.

Between two frames of a game a few calls are new and a few dozen tiles change, so a
frame costs the drawing code's Python, the new calls' matplotlib work and some
bookkeeping: 20 to 30 times less than the reference (``docs/benchmarks/history.md``).

The fast path is equal to the reference pixel for pixel, by construction (the same C calls
with the same arguments, in the same order, on the pixels they reach) and by test:
``tests/envs/test_picture_fast.py`` compares them over seeded random games of each game and
player count. It leans on matplotlib's private renderer API (``RendererAgg._renderer``, the
glyph loop it mirrors only for the source it was written against); a matplotlib that moves
those fails those tests, not silently.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from primeval.envs.core.picture import (
    _DPI,
    Op,
    Sketch,
    _make_artist,
    _no_matplotlib,
    new_canvas,
)

__all__ = ["MAX_GLYPHS", "MAX_OPS", "MAX_TILES", "TILE", "painter_for", "sketch_to_array"]

#: Drawing calls whose renderer calls are kept per canvas size (beyond it, the most
#: recently used half is kept): a frame of either game makes about 350, a random game adds
#: about one a frame, and a call's record takes about 10 kB.
MAX_OPS = 6_000
#: Side of a tile of the fast path, pixels.
TILE = 32
#: Tiles kept per canvas size (beyond it, the cache starts again): at most 13 MB.
MAX_TILES = 4_000


#: Methods of matplotlib's C renderer (``RendererAgg._renderer``) that put ink on the canvas.
#: ``RendererAgg`` binds the ones in ``_BOUND`` onto itself, so a recording swaps those too.
_DRAW_METHODS = frozenset({"draw_path", "draw_text_image", "draw_markers", "draw_image",
                           "draw_path_collection", "draw_quad_mesh", "draw_gouraud_triangles"})
_BOUND = ("draw_gouraud_triangles", "draw_image", "draw_markers", "draw_path_collection",
          "draw_quad_mesh")


class _Recording:
    """Stands in for the C renderer while one artist draws: passes every call on, and keeps
    each drawing call with copies of its arguments (so that it can be made again later).
    ``complete`` turns false if the artist used anything else, which is then not replayed."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.calls: list[tuple[str, tuple, Any]] = []  # (method, kept args, kept gc)
        self.complete = True
        self._gc: tuple[Any, dict, Any] | None = None  # last gc seen, its state, its copy
        self._types = _matplotlib_types()

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._inner, name)
        if name not in _DRAW_METHODS:
            if callable(target):
                self.complete = False
            return target
        gc_type, _, transform_type = self._types

        def record(*args: Any, **kwargs: Any) -> Any:
            if kwargs:
                self.complete = False
            kept, gc = [], None
            for a in args:
                if isinstance(a, gc_type):
                    gc = a = self._kept_gc(a)
                elif isinstance(a, np.ndarray):
                    a = a.copy()
                elif isinstance(a, transform_type):
                    a = a.frozen()
                kept.append(a)  # paths, numbers and colours as they are
            self.calls.append((name, tuple(kept), gc))
            return target(*args, **kwargs)

        return record

    def _kept_gc(self, gc: Any) -> Any:
        """A copy of ``gc``, its clip box frozen; the same copy again while the same gc is
        passed unchanged (as for every glyph of a text)."""
        if self._gc is not None and self._gc[0] is gc and vars(gc) == self._gc[1]:
            return self._gc[2]
        gc_type, bbox_type, _ = self._types
        copy = gc_type()
        copy.copy_properties(gc)
        if isinstance(copy._cliprect, bbox_type):
            copy._cliprect = copy._cliprect.frozen()
        self._gc = (gc, dict(vars(gc)), copy)
        return copy


_TYPES: list[tuple] = []


def _matplotlib_types() -> tuple:
    """``(GraphicsContextBase, BboxBase, Transform)``, imported once."""
    if not _TYPES:
        from matplotlib.backend_bases import GraphicsContextBase
        from matplotlib.transforms import BboxBase, Transform

        _TYPES.append((GraphicsContextBase, BboxBase, Transform))
    return _TYPES[0]


def _merge_glyphs(calls: list[tuple[str, tuple, Any]]) -> tuple[tuple[str, tuple], ...]:
    """The recorded calls, with each run of ``draw_text_image`` calls (one per glyph, or per
    layer of glyphs) of the same graphics context merged as :func:`_glyph_layers` does."""
    out: list[tuple[str, tuple]] = []
    run: list[tuple] = []
    run_gc: Any = None

    def flush() -> None:
        if run:
            images = [(np.asarray(buf, dtype=np.uint8), int(x), int(y))
                      for buf, x, y, _, _ in run]
            out.extend(("draw_text_image", (image, x, y, 0, run_gc))
                       for image, x, y in _glyph_layers(images))
            run.clear()

    for name, args, gc in calls:
        if name == "draw_text_image" and len(args) == 5 and args[3] == 0 and gc is not None:
            if gc is not run_gc:
                flush()
                run_gc = gc
            run.append(args)
            continue
        flush()
        run_gc = None
        out.append((name, args))
    flush()
    return tuple(out)


def _glyph_layers(glyphs: list[tuple[np.ndarray, int, int]]
                  ) -> list[tuple[np.ndarray, int, int]]:
    """Glyph images ``(coverage, x, y)`` to blend in one after the other with one colour,
    merged into as few images as blend in the same pixels.

    ``draw_text_image(coverage, x, y, 0, gc)`` blends ``gc``'s colour into the canvas with
    the coverage as alpha, over rows ``y - h .. y - 1`` and columns ``x .. x + w - 1``, and
    leaves a pixel of coverage 0 as it was. Glyphs whose inked pixels do not meet can thus
    go in one image; a glyph inking a pixel the image already inks starts a new image after
    it, so that every pixel is blended in the same order as glyph by glyph.
    """
    glyphs = [(b, x, y) for b, x, y in glyphs if b.ndim == 2 and b.size and b.any()]
    if not glyphs:
        return []
    x0 = min(x for _, x, _ in glyphs)
    y0 = min(y - b.shape[0] for b, _, y in glyphs)
    x1 = max(x + b.shape[1] for b, x, _ in glyphs)
    y1 = max(y for _, _, y in glyphs)
    layers: list[np.ndarray] = []
    layer = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
    right = -1 << 30  # the layer has no ink from this column on
    for b, x, y in glyphs:
        h, w = b.shape
        window = layer[y - h - y0:y - y0, x - x0:x - x0 + w]
        if x < right and np.any(window[b > 0]):
            layers.append(layer)
            layer = np.zeros_like(layer)
            window = layer[y - h - y0:y - y0, x - x0:x - x0 + w]
            right = -1 << 30
        np.maximum(window, b, out=window)
        right = max(right, x + w)
    layers.append(layer)
    return [(image, x0, y1) for image in layers]


#: sha256 of the source of ``RendererAgg._draw_text_glyphs_and_boxes`` (matplotlib 3.11) that
#: :func:`_glyph_drawer` mirrors; with any other source, glyphs are drawn by matplotlib.
_GLYPHS_SOURCE = "ccc4749c9809539465c335a8e206cf42043d8e98199a2909cde208f6b463cab8"
#: Glyph images kept per canvas size (beyond it, the cache starts again).
MAX_GLYPHS = 20_000


def _glyph_drawer(renderer: Any, cache: dict) -> Any:
    """A stand-in for ``renderer._draw_text_glyphs_and_boxes`` that keeps FreeType's glyph
    images, or ``None`` if matplotlib's is not the one it mirrors.

    matplotlib renders each glyph with FreeType at its position in 1/64 pixel and blends the
    image in with ``draw_text_image``. The image of a glyph moved by whole pixels is the same
    image moved by as many pixels (checked by ``tests/envs/test_picture_fast.py``), so one is
    kept per font, size, glyph and position within its pixel, and the glyph images are
    blended in as :func:`_glyph_layers` merges them (the same pixels as one by one).
    Anything else (a rotation, the rules of mathtext) goes to matplotlib's own.
    """
    import hashlib
    import inspect

    from matplotlib.backends import backend_agg

    original = renderer._draw_text_glyphs_and_boxes
    try:
        source = inspect.getsource(backend_agg.RendererAgg._draw_text_glyphs_and_boxes)
        hinting_flag, mode_of = backend_agg.get_hinting_flag, backend_agg.RenderMode
    except (AttributeError, OSError, TypeError):  # pragma: no cover - another matplotlib
        return None
    if hashlib.sha256(source.encode()).hexdigest() != _GLYPHS_SOURCE:
        return None  # pragma: no cover - another matplotlib

    def draw(gc: Any, x: float, y: float, angle: float, glyphs: Any, boxes: Any) -> None:
        if angle != 0 or len(boxes):
            return original(gc, x, y, angle, glyphs, boxes)
        load_flags = hinting_flag()
        antialiased = gc.get_antialiased()
        mode = mode_of.NORMAL if antialiased else mode_of.MONO
        height, dpi = renderer.height, renderer.dpi
        images: list[tuple[np.ndarray, int, int]] = []
        last: dict[int, tuple] = {}  # font: its last size, matrix and offset
        for font, size, glyph_index, slant, extend, dx, dy in glyphs:
            matrix = (0x10000 * np.array([[1.0, -0.0], [0.0, 1.0]])
                      @ [[extend, extend * slant], [0, 1]]).round().astype(int)
            offset = [round(0x40 * (x + dx)), round(0x40 * (height - y + dy))]
            key = (id(font), size, dpi, glyph_index, matrix.tobytes(), offset[0] & 63,
                   offset[1] & 63, load_flags, antialiased)
            entry = cache.get(key)
            if entry is None or entry[0] is not font:
                font.set_size(size, dpi)
                font._set_transform(matrix, offset)
                bitmap = font._render_glyph(glyph_index, load_flags, mode)
                buffer = np.array(bitmap.buffer)
                if not antialiased:
                    buffer *= 0xff
                entry = (font, buffer, bitmap.left - (offset[0] >> 6),
                         bitmap.top - (offset[1] >> 6))
                if len(cache) >= MAX_GLYPHS:
                    cache.clear()
                cache[key] = entry
            last[id(font)] = (font, size, matrix, offset)
            _, buffer, left, top = entry
            images.append((buffer, left + (offset[0] >> 6),
                           int(height) - (top + (offset[1] >> 6)) + buffer.shape[0]))
        for font, size, matrix, offset in last.values():  # leave each font as matplotlib's
            font.set_size(size, dpi)
            font._set_transform(matrix, offset)
        for image, left, bottom in _glyph_layers(images):
            renderer._renderer.draw_text_image(image, left, bottom, 0, gc)
        return None

    return draw


class _Record:
    """What is kept of one drawing call: an id never given to another call, the renderer
    calls to make it again (``None``: it cannot be replayed, draw it with matplotlib), the
    tiles its ink can reach (indices, row by row) and the last frame that made it."""

    __slots__ = ("calls", "id", "tiles", "used")

    def __init__(self, id: int, calls: tuple | None, tiles: tuple[int, ...]) -> None:
        self.id, self.calls, self.tiles, self.used = id, calls, tiles, 0


class _Painter:
    """The fast path for one canvas size and background: a figure whose axes makes the
    artists, the picture of the empty figure every frame starts from, the record of each
    drawing call seen and the tiles drawn (the least recently used of each dropped first).

    A frame is cut into tiles of :data:`TILE` pixels. A tile's pixels are those of the empty
    figure with the calls whose ink reaches the tile painted over it in drawing order (a call
    leaves the pixels its ink does not reach as they were), so a tile is kept under its
    place and the ids of those calls, and a frame pastes the tiles it has seen before.
    The others are painted by replaying, on the empty figure, only the calls that reach them.
    """

    def __init__(self, width: int, height: int, background: str) -> None:
        import threading

        self.width, self.height = width, height
        self.cols, self.rows = -(-width // TILE), -(-height // TILE)
        self.fig, self.ax = new_canvas(width, height, background)
        self.fig.canvas.draw()  # the empty figure: cleared, then the figure's background
        self.renderer = self.fig.canvas.get_renderer()
        self.base = self.renderer.copy_from_bbox(self.fig.bbox)
        self.glyphs = _glyph_drawer(self.renderer, {})
        self.records: dict[Op, _Record] = {}
        self.tiles: dict[tuple, np.ndarray] = {}
        self._next_id = 0
        self.frame = 0
        # The last frame: its calls' ids in drawing order, their records and its picture.
        self.last_ids: list[int] | None = None
        self.last_records: list[_Record] = []
        self.last_picture: np.ndarray | None = None
        self.lock = threading.Lock()
        # For benchmarks: calls drawn with matplotlib, calls replayed, tiles painted, pasted.
        self.drawn = self.replayed = self.painted = self.pasted = 0

    def _draw(self, op: Op, zorder: float) -> tuple | None:
        """Draw ``op`` on the renderer as the reference does (a matplotlib artist on this
        figure's axes), recording the renderer calls it makes; ``None`` if they cannot be
        replayed."""
        artist = _make_artist(self.ax, op, limits=False)
        try:
            if artist.get_zorder() != zorder:
                raise RuntimeError(f"zorder of {op!r}: {artist.get_zorder()}, not {zorder}")
            r = self.renderer
            inner, saved = r._renderer, {name: r.__dict__[name] for name in _BOUND}
            recording = _Recording(inner)
            r._renderer = recording
            for name in _BOUND:
                setattr(r, name, getattr(recording, name))
            if self.glyphs is not None:
                r._draw_text_glyphs_and_boxes = self.glyphs
            try:
                artist.draw(r)
            finally:
                r._renderer = inner
                r.__dict__.update(saved)
                r.__dict__.pop("_draw_text_glyphs_and_boxes", None)
        finally:
            artist.remove()
        self.drawn += 1
        return _merge_glyphs(recording.calls) if recording.complete else None

    def _record(self, op: Op, zorder: float) -> _Record:
        calls = self._draw(op, zorder)
        box = None if calls is None else _ink_box(calls, self.height)
        cols, rows = self.cols, self.rows
        if box is None:  # unbounded: every tile
            c0, r0, c1, r1 = 0, 0, cols - 1, rows - 1
        else:
            x0, y0, x1, y1 = box
            c0, r0 = max(0, int(x0 // TILE)), max(0, int(y0 // TILE))
            c1, r1 = min(cols - 1, int(x1 // TILE)), min(rows - 1, int(y1 // TILE))
        tiles = tuple(r * cols + c for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))
        record = _Record(self._next_id, calls, tiles)
        self._next_id += 1
        return record

    def _paint(self, ops: list[Op], zorders: list[float], records: list[_Record]) -> None:
        """Paint ``ops`` (in drawing order) over the empty figure."""
        r = self.renderer
        r.restore_region(self.base)
        c_renderer = r._renderer
        for op, z, record in zip(ops, zorders, records, strict=True):
            if record.calls is None:
                self._draw(op, z)
                continue
            for name, args in record.calls:
                getattr(c_renderer, name)(*args)
            self.replayed += 1

    def render(self, ops: list[Op]) -> np.ndarray:
        text_z, patch_z, line_z = _default_zorders()
        zorders = []
        for kind, _, _, kwargs in ops:
            z = next((v for k, v in kwargs if k == "zorder"), None)
            zorders.append(z if z is not None
                           else text_z if kind == "text" else line_z if kind == "plot"
                           else patch_z)
        order = sorted(range(len(ops)), key=zorders.__getitem__)  # stable, as Axes.draw
        ops = [ops[k] for k in order]
        zorders = [zorders[k] for k in order]
        with self.lock:
            return self._render(ops, zorders)

    def _render(self, ops: list[Op], zorders: list[float]) -> np.ndarray:
        records = self.records
        self.frame = frame = self.frame + 1
        found: list[_Record] = []
        for op, z in zip(ops, zorders, strict=True):
            record = records.get(op)
            if record is None:
                record = records[op] = self._record(op, z)
            record.used = frame
            found.append(record)
        if len(records) > MAX_OPS:  # keep the most recently used half
            newest = sorted(records.items(), key=lambda item: item[1].used)[len(records) // 2:]
            self.records = dict(newest)
        ids = [record.id for record in found]
        dirty = self._changed_tiles(ids, found)
        out = self.last_picture
        if dirty is None:  # nothing to start from: every tile
            out = np.empty((self.height, self.width, 3), dtype=np.uint8)
            dirty = range(self.cols * self.rows)
        wanted = set(dirty)
        keys: dict[int, list[int]] = {t: [t] for t in dirty}  # tile, then its calls' ids
        for record in found:
            if wanted.isdisjoint(record.tiles):
                continue
            for t in record.tiles:
                key = keys.get(t)
                if key is not None:
                    key.append(record.id)
        self.last_ids = None  # until the picture is whole again
        self._fill(out, keys, ops, zorders, found)
        self.last_ids, self.last_records, self.last_picture = ids, found, out
        return out.copy()

    def _changed_tiles(self, ids: list[int], found: list[_Record]) -> set[int] | None:
        """The tiles whose calls are not those of the last frame, in the same order (the
        others are the last picture's), or ``None`` to paint every tile."""
        last = self.last_ids
        if last is None:
            return None
        now, before = set(ids), set(last)
        if len(now ^ before) > len(ids) // 3:
            return None  # another picture altogether: look every tile up
        if [i for i in ids if i in before] != [i for i in last if i in now]:
            return None  # the calls both frames make are in another order
        dirty: set[int] = set()
        for record in found:
            if record.id not in before:
                dirty.update(record.tiles)
        gone = before - now
        if gone:
            for record in self.last_records:
                if record.id in gone:
                    dirty.update(record.tiles)
        return dirty

    def _fill(self, out: np.ndarray, keys: dict[int, list[int]], ops: list[Op],
              zorders: list[float], found: list[_Record]) -> None:
        """Tiles ``keys`` of ``out``: from the cache, or painted (and cached)."""
        tiles, cols = self.tiles, self.cols
        missing: list[tuple[int, tuple]] = []
        for t, ids in keys.items():
            key = tuple(ids)
            tile = tiles.get(key)
            if tile is None:
                missing.append((t, key))
                continue
            row, col = divmod(t, cols)
            out[row * TILE:(row + 1) * TILE, col * TILE:(col + 1) * TILE] = tile
        self.pasted += len(keys) - len(missing)
        if not missing:
            return
        needed: set[int] = set()
        for _, key in missing:
            needed.update(key[1:])
        chosen = [k for k, record in enumerate(found) if record.id in needed]
        self._paint([ops[k] for k in chosen], [zorders[k] for k in chosen],
                    [found[k] for k in chosen])
        painted = np.asarray(self.renderer.buffer_rgba())
        for t, key in missing:
            row, col = divmod(t, cols)
            window = (slice(row * TILE, (row + 1) * TILE), slice(col * TILE, (col + 1) * TILE))
            tile = out[window] = painted[window][..., :3]
            tiles[key] = tile.copy()
        self.painted += len(missing)
        if len(tiles) > MAX_TILES:  # start again (the last picture holds this frame's)
            tiles.clear()


def _ink_box(calls: tuple, height: int) -> tuple[float, float, float, float] | None:
    """``(x0, y0, x1, y1)``, pixel columns and rows (from the top), bounding every pixel the
    renderer calls can change; ``None`` if a call cannot be bounded here."""
    from matplotlib.path import Path

    boxes = []
    for name, args in calls:
        if name == "draw_text_image" and len(args) == 5 and args[3] == 0:
            image, x, y = args[0], args[1], args[2]
            h, w = np.shape(image)[:2]
            boxes.append((x - 1, y - h - 1, x + w + 1, y + 1))
        elif (name == "draw_path" and len(args) in (3, 4) and isinstance(args[1], Path)
              and args[0].get_sketch_params() is None):
            gc, path, transform = args[:3]
            if len(path.vertices) == 0:
                continue
            # A curve lies in the hull of its control points: their box bounds the path.
            points = np.asarray(transform.transform(path.vertices), dtype=float)
            if not np.all(np.isfinite(points)):
                return None
            (px0, py0), (px1, py1) = points.min(axis=0), points.max(axis=0)
            pad = 2.5 * gc.get_linewidth() * _DPI / 72.0 + 3  # half a stroke, mitres, AA
            boxes.append((px0 - pad, height - py1 - pad, px1 + pad, height - py0 + pad))
        else:
            return None
    if not boxes:
        return (0.0, 0.0, -1.0, -1.0)
    xs0, ys0, xs1, ys1 = zip(*boxes, strict=True)
    return (min(xs0), min(ys0), max(xs1), max(ys1))


def _default_zorders() -> tuple[float, float, float]:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.text import Text

    return Text.zorder, Patch.zorder, Line2D.zorder


#: rcParams that change how a call is drawn: a painter is kept per value of these.
_STYLE_KEYS = ("font.family", "font.sans-serif", "font.size", "font.weight", "font.style",
               "text.antialiased", "text.hinting", "text.hinting_factor", "text.kerning_factor",
               "lines.antialiased", "patch.antialiased", "lines.solid_capstyle",
               "lines.solid_joinstyle", "lines.dash_capstyle", "lines.dash_joinstyle",
               "lines.dashed_pattern", "lines.scale_dashes", "patch.force_edgecolor",
               "path.simplify", "path.simplify_threshold", "path.snap", "agg.path.chunksize",
               "hatch.linewidth")

_PAINTERS: dict[tuple, _Painter] = {}


def painter_for(width: int, height: int, background: str) -> _Painter:
    try:
        from matplotlib import rcParams
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise _no_matplotlib() from exc
    key = (width, height, background,
           tuple(str(rcParams[k]) for k in _STYLE_KEYS if k in rcParams))
    painter = _PAINTERS.get(key)
    if painter is None:
        if len(_PAINTERS) >= 4:
            _PAINTERS.clear()
        painter = _PAINTERS[key] = _Painter(width, height, background)
    return painter


def sketch_to_array(sketch: Sketch) -> np.ndarray:
    """The picture the sketch's calls draw, as
    :func:`~primeval.envs.core.picture.sketch_reference` gives it: an ``(H, W, 3)`` uint8
    array, painted by the fast path."""
    return painter_for(sketch.width, sketch.height, sketch.background).render(sketch.ops)
