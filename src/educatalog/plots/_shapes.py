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
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
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
Vertex = tuple[float, float]


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
    """The state borders and the national border as polylines, each an (n, 2) array."""

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
    keys, paths, bounds = [], [], []
    owners: dict[tuple[Vertex, Vertex], list[str]] = defaultdict(list)
    for feature in features:
        key = str(feature["properties"]["ags"])
        polygons = _polygons(feature["geometry"])
        for polygon in polygons:
            for ring in polygon:
                for a, b in itertools.pairwise(ring):
                    if a != b:
                        owners[(a, b) if a < b else (b, a)].append(key)
        path = _path(polygons)
        keys.append(key)
        paths.append(path)
        vertices = np.asarray(path.vertices, dtype=float)
        bounds.append([*vertices.min(axis=0), *vertices.max(axis=0)])
    geometry = DistrictGeometry(
        keys=tuple(keys), paths=tuple(paths), bounds=np.asarray(bounds, dtype=float), borders=()
    )
    edges = _border_edges(owners, geometry)
    return dataclasses.replace(geometry, borders=tuple(_projected(line) for line in _chains(edges)))


def districts_at(geometry: DistrictGeometry, points: Floats) -> list[set[str]]:
    """The keys of the districts each point (x, y in km) lies in."""
    found: list[set[str]] = [set() for _ in range(len(points))]
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
                found[row].add(key)
    return found


def _polygons(geometry: dict[str, Any]) -> list[list[list[Vertex]]]:
    """The polygons of a GeoJSON geometry, each a list of rings of (lon, lat) tuples."""
    parts = geometry["coordinates"]
    if geometry["type"] == "Polygon":
        parts = [parts]
    elif geometry["type"] != "MultiPolygon":
        raise ValueError(f"a district's geometry is a {geometry['type']}, not a polygon")
    return [[[(float(x), float(y)) for x, y in ring] for ring in polygon] for polygon in parts]


def _path(polygons: Sequence[Sequence[Sequence[Vertex]]]) -> Path:
    """One compound path of the polygons, projected: outer rings counter-clockwise, holes
    clockwise, so that holes stay open under either fill rule."""
    pieces, codes = [], []
    for polygon in polygons:
        for index, ring in enumerate(polygon):
            xy = np.column_stack(project(*np.asarray(ring, dtype=float).T))
            area = np.sum(xy[:-1, 0] * xy[1:, 1] - xy[1:, 0] * xy[:-1, 1])
            if (area > 0) == (index > 0):  # an outer ring turning clockwise, a hole not
                xy = xy[::-1]
            kinds = np.full(len(xy), Path.LINETO, dtype=Path.code_type)
            kinds[0], kinds[-1] = Path.MOVETO, Path.CLOSEPOLY
            pieces.append(xy)
            codes.append(kinds)
    return Path(np.concatenate(pieces), np.concatenate(codes), readonly=True)


def _border_edges(
    owners: dict[tuple[Vertex, Vertex], list[str]], geometry: DistrictGeometry
) -> list[tuple[Vertex, Vertex]]:
    """The edges on a state's border: those of two districts in different states (a key's
    first two digits), and those of one district where the land beside it belongs to
    another state or to none (see the module's docstring)."""
    borders = [e for e, keys in owners.items() if len(keys) == 2 and keys[0][:2] != keys[1][:2]]
    single = [(edge, keys[0]) for edge, keys in owners.items() if len(keys) == 1]
    undecided = list(range(len(single)))
    beside: list[set[str]] = [set() for _ in single]
    for step in STEPS:
        if not undecided:
            break
        ends = np.asarray([single[i][0] for i in undecided], dtype=float)  # (n, 2, 2)
        ax, ay = project(ends[:, 0, 0], ends[:, 0, 1])
        bx, by = project(ends[:, 1, 0], ends[:, 1, 1])
        length = np.maximum(np.hypot(bx - ax, by - ay), 1e-9)
        normal = np.column_stack([(ay - by) / length, (bx - ax) / length]) * step
        middle = np.column_stack([(ax + bx) / 2, (ay + by) / 2])
        sides = districts_at(geometry, np.concatenate([middle + normal, middle - normal]))
        n = len(undecided)
        for number, i in enumerate(undecided):
            beside[i] = (sides[number] | sides[n + number]) - {single[i][1]}
        undecided = [i for i in undecided if not beside[i]]
    for (edge, key), others in zip(single, beside, strict=True):
        if not others or any(other[:2] != key[:2] for other in others):
            borders.append(edge)
    return borders


def _chains(edges: Sequence[tuple[Vertex, Vertex]]) -> list[list[Vertex]]:
    """The edges joined into polylines (each edge once), so that thick lines join cleanly."""
    links: dict[Vertex, list[int]] = defaultdict(list)
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


def _projected(line: Sequence[Vertex]) -> Floats:
    return np.column_stack(project(*np.asarray(line, dtype=float).T))
