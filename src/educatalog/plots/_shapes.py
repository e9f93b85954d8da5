"""The districts' shapes as matplotlib paths, projected, and the state borders derived from
them: read and converted once a session (:func:`district_geometry`), shared by every map.

The projection is Lambert's azimuthal equal-area on a sphere of 6,371 km centred on Germany
(10.45° E, 51.16° N), in kilometres: areas are true, so a large district does not look
larger than it is, and shapes and directions are within a few percent over the country.

A state's border is the edges of its districts that no other district of the state shares.
Most inner edges are shared vertex for vertex (15,000 of 19,500 edges are held by two
districts), but the shapes were simplified district by district: about 1,600 edges
(4,000 km) inside a state are held by one district only, its neighbour's line running up
to 400 m beside it, and drawn as borders they would dash every state with false lines. So
an edge held by one district is a border only where the land just beyond it (0.25 km,
else 1 km, on either side) lies in another state's district or in none (the national
border and the coast); where it lies in a district of the same state, it is an inner edge.
Where both states' districts hold their own line of one border, up to 400 m apart, a map
draws one of them: the line of the state in view (:meth:`DistrictGeometry.border_lines`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.path import Path

from educatalog.frames.districts import district_shapes

RADIUS_KM = 6371.0
CENTRE = (10.45, 51.16)
"""Longitude and latitude of the projection's centre (the middle of Germany)."""

STEPS = (0.25, 1.0)
"""How far beside an edge held by one district (km) its other side is looked for."""

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class DistrictGeometry:
    """The 400 districts in key order, projected (km east and north of :data:`CENTRE`)."""

    keys: tuple[str, ...]
    """The 5-digit district keys, in key order (the order of :attr:`paths`)."""
    paths: tuple[Path, ...]
    """One compound path a district (every part and hole; holes turn the other way)."""
    bounds: Floats
    """(400, 4): each district's x0, y0, x1, y1."""
    borders: tuple[Floats, ...]
    """The borders drawn on every map as polylines, each an (n, 2) array: the national
    border and the coast, and the state borders the districts on both sides share."""
    beside: dict[tuple[str, str], tuple[Floats, ...]]
    """The state borders each side draws its own line of (up to 400 m from the other's),
    by the state whose districts hold them and the state beside: (``"12"``, ``"11"``) is
    Brandenburg's line along Berlin."""

    def border_lines(self, focus: Iterable[str]) -> list[Floats]:
        """The borders to draw on a map of the states ``focus`` (their keys): of a border
        with two lines, the line of the state in focus, else of the state with the lower
        key, so that no border is drawn twice beside itself."""
        shown = set(focus)
        lines = list(self.borders)
        for (own, other), pieces in self.beside.items():
            mine, theirs = own in shown, other in shown
            if (mine and (not theirs or own < other)) or (not mine and not theirs and own < other):
                lines.extend(pieces)
        return lines

    def box(self, keys: Iterable[str]) -> tuple[float, float, float, float]:
        """x0, y0, x1, y1 around the districts of ``keys``."""
        wanted = set(keys)
        rows = self.bounds[[i for i, key in enumerate(self.keys) if key in wanted]]
        return (
            float(rows[:, 0].min()),
            float(rows[:, 1].min()),
            float(rows[:, 2].max()),
            float(rows[:, 3].max()),
        )


def project(lon: npt.ArrayLike, lat: npt.ArrayLike) -> tuple[Floats, Floats]:
    """Longitude and latitude (degrees) -> x, y in km (Lambert azimuthal equal-area)."""
    lam = np.radians(np.asarray(lon, dtype=float) - CENTRE[0])
    phi = np.radians(np.asarray(lat, dtype=float))
    phi0 = np.radians(CENTRE[1])
    cos_c = np.sin(phi0) * np.sin(phi) + np.cos(phi0) * np.cos(phi) * np.cos(lam)
    k = np.sqrt(2.0 / (1.0 + cos_c))
    x = RADIUS_KM * k * np.cos(phi) * np.sin(lam)
    y = RADIUS_KM * k * (np.cos(phi0) * np.sin(phi) - np.sin(phi0) * np.cos(phi) * np.cos(lam))
    return x, y


@functools.cache
def district_geometry() -> DistrictGeometry:
    """The shipped shapes, read and projected once a session."""
    features = sorted(district_shapes()["features"], key=lambda f: f["properties"]["ags"])
    keys = tuple(str(f["properties"]["ags"]) for f in features)
    rings = [
        (number, index, np.asarray(ring, dtype=float))
        for number, feature in enumerate(features)
        for polygon in _polygons(feature["geometry"])
        for index, ring in enumerate(polygon)
    ]
    lonlat = np.concatenate([ring for _, _, ring in rings])
    x, y = project(lonlat[:, 0], lonlat[:, 1])
    projected = np.column_stack([x, y])
    starts = np.cumsum([0] + [len(ring) for _, _, ring in rings])
    pieces: list[list[Floats]] = [[] for _ in keys]
    for (number, index, _), start, end in zip(rings, starts[:-1], starts[1:], strict=True):
        pieces[number].append(_oriented(projected[start:end], hole=index > 0))
    paths = tuple(_path(parts) for parts in pieces)
    corners = [np.asarray(p.vertices, dtype=float) for p in paths]
    bounds = np.asarray([[*xy.min(axis=0), *xy.max(axis=0)] for xy in corners])
    geometry = DistrictGeometry(keys=keys, paths=paths, bounds=bounds, borders=(), beside={})
    # Vertices are the same point wherever their rounded coordinates are (4 decimals).
    code = np.round(lonlat * 10_000).astype(np.int64)
    vertex, where = np.unique(code[:, 0] * 10_000_000 + code[:, 1], return_inverse=True)
    points = np.zeros((len(vertex), 2))
    points[where] = projected
    owner = np.repeat([number for number, _, _ in rings], [len(ring) for _, _, ring in rings])
    last = np.zeros(len(lonlat), dtype=bool)
    last[starts[1:] - 1] = True  # a ring's last vertex starts no edge
    a, b, district = where[:-1][~last[:-1]], where[1:][~last[:-1]], owner[:-1][~last[:-1]]
    keep = a != b
    edges = np.column_stack([np.minimum(a, b), np.maximum(a, b)])[keep]
    groups = _border_edges(edges, district[keep], geometry, points)
    lines = {
        group: tuple(points[line] for line in _chains(found)) for group, found in groups.items()
    }
    return dataclasses.replace(geometry, borders=lines.pop(("", ""), ()), beside=lines)


def districts_at(geometry: DistrictGeometry, points: Floats) -> dict[int, set[str]]:
    """The keys of the districts each point (x, y in km) lies in, by the point's row
    (points in no district left out)."""
    found: dict[int, set[str]] = defaultdict(set)
    for key, path, (x0, y0, x1, y1) in zip(
        geometry.keys, geometry.paths, geometry.bounds, strict=True
    ):
        near = np.nonzero(
            (points[:, 0] >= x0)
            & (points[:, 0] <= x1)
            & (points[:, 1] >= y0)
            & (points[:, 1] <= y1)
        )[0]
        if len(near):
            for row in near[path.contains_points(points[near])]:
                found[int(row)].add(key)
    return found


def _polygons(geometry: dict[str, Any]) -> list[Any]:
    """The polygons of a GeoJSON geometry, each a list of rings of [lon, lat] pairs."""
    if geometry["type"] == "Polygon":
        return [geometry["coordinates"]]
    if geometry["type"] != "MultiPolygon":
        raise ValueError(f"a district's geometry is a {geometry['type']}, not a polygon")
    return list(geometry["coordinates"])


def _oriented(xy: Floats, *, hole: bool) -> Floats:
    """A ring counter-clockwise (a hole clockwise), so that holes stay open under either
    fill rule."""
    area = np.sum(xy[:-1, 0] * xy[1:, 1] - xy[1:, 0] * xy[:-1, 1])
    return xy[::-1] if (area > 0) == hole else xy


def _path(rings: Sequence[Floats]) -> Path:
    """One compound path of the rings."""
    codes = []
    for ring in rings:
        kinds = np.full(len(ring), Path.LINETO, dtype=Path.code_type)
        kinds[0], kinds[-1] = Path.MOVETO, Path.CLOSEPOLY
        codes.append(kinds)
    return Path(np.concatenate(rings), np.concatenate(codes), readonly=True)


def _border_edges(
    edges: npt.NDArray[np.int64],
    owners: npt.NDArray[np.int64],
    geometry: DistrictGeometry,
    points: Floats,
) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """The edges on a border, grouped: (``""``, ``""``) those of two districts in different
    states (a key's first two digits) and those of one district with no land beside it;
    (own state, state beside) those of one district with another state's land beside it
    (see the module's docstring). An edge with land of its own state only beside it is
    inside its state. ``edges`` are pairs of vertex numbers (``points`` their places, the
    lower number first), one row for each ring that holds the edge, ``owners`` the district
    (its number) of each row."""
    size = len(points)
    order = np.argsort(edges[:, 0] * size + edges[:, 1], kind="stable")
    code, start, counts = np.unique(
        (edges[:, 0] * size + edges[:, 1])[order], return_index=True, return_counts=True
    )
    owner = owners[order]
    state = [key[:2] for key in geometry.keys]
    groups: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for number, first in zip(code[counts == 2].tolist(), start[counts == 2].tolist(), strict=True):
        if state[int(owner[first])] != state[int(owner[first + 1])]:
            groups[("", "")].append(divmod(number, size))
    single = [
        (divmod(number, size), int(owner[first]))
        for number, first in zip(
            code[counts == 1].tolist(), start[counts == 1].tolist(), strict=True
        )
    ]
    ends = points[np.asarray([edge for edge, _ in single], dtype=np.int64)]  # (n, 2, 2)
    along = ends[:, 1] - ends[:, 0]
    normal = np.column_stack([-along[:, 1], along[:, 0]])
    normal /= np.maximum(np.hypot(normal[:, 0], normal[:, 1]), 1e-9)[:, None]
    middle = ends.mean(axis=1)
    beside: dict[int, set[str]] = {}
    undecided = list(range(len(single)))
    for step in STEPS:
        if not undecided:
            break
        shift = normal[undecided] * step
        sides = districts_at(
            geometry, np.concatenate([middle[undecided] + shift, middle[undecided] - shift])
        )
        for number, i in enumerate(undecided):
            found = sides.get(number, set()) | sides.get(len(undecided) + number, set())
            found -= {geometry.keys[single[i][1]]}
            if found:
                beside[i] = found
        undecided = [i for i in undecided if i not in beside]
    for i, (edge, district) in enumerate(single):
        own = state[district]
        if i not in beside:
            groups[("", "")].append(edge)
            continue
        states = sorted({other[:2] for other in beside[i]} - {own})
        if states:
            groups[(own, states[0])].append(edge)
    return groups


def _chains(edges: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The edges (pairs of vertex numbers) joined into polylines, each edge once, so that
    thick lines join cleanly."""
    links: dict[int, list[int]] = defaultdict(list)
    for number, (a, b) in enumerate(edges):
        links[a].append(number)
        links[b].append(number)
    used = [False] * len(edges)
    lines = []
    for number, (a, b) in enumerate(edges):
        if used[number]:
            continue
        used[number] = True
        line, end = [a, b], b
        while True:
            following = next((n for n in links[end] if not used[n]), None)
            if following is None:
                break
            used[following] = True
            first, second = edges[following]
            end = second if first == end else first
            line.append(end)
        lines.append(line)
    return lines
