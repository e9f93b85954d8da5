"""Damaged copies of files, and a tally of what reading them gave (issue 22): the ways a disk,
a sync tool or a colleague damages a file, each applied to a copy of a folder.

Every damage keeps the file's name; ``flip`` keeps its size too (bits inverted at one
place, or at several), ``truncate`` and ``append`` change it, ``replace`` puts another valid
file of the same kind (an older snapshot's table under the newer name) in its place.
"""

from __future__ import annotations

import shutil
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from educatalog.errors import EducatalogError

__all__ = ["DAMAGES", "Damage", "Tally", "damaged_copies"]


@dataclass(frozen=True)
class Damage:
    """One way of damaging a file: ``kind`` (flip, truncate, append, replace) and where."""

    kind: str
    label: str
    apply: Callable[[Path, Path | None], None]


def _flip(*fractions: float, mask: int = 0x01) -> Callable[[Path, Path | None], None]:
    def apply(path: Path, other: Path | None) -> None:
        data = bytearray(path.read_bytes())
        for fraction in fractions:
            at = min(max(int(len(data) * fraction), 0), len(data) - 1)
            data[at] ^= mask
        path.write_bytes(bytes(data))  # same size

    return apply


def _truncate(keep: Callable[[int], int]) -> Callable[[Path, Path | None], None]:
    def apply(path: Path, other: Path | None) -> None:
        data = path.read_bytes()
        path.write_bytes(data[: keep(len(data))])

    return apply


def _append(extra: bytes) -> Callable[[Path, Path | None], None]:
    def apply(path: Path, other: Path | None) -> None:
        with path.open("ab") as out:
            out.write(extra)

    return apply


def _replace(path: Path, other: Path | None) -> None:
    assert other is not None
    assert other.read_bytes() != path.read_bytes()
    shutil.copyfile(other, path)


DAMAGES: list[Damage] = [
    Damage("flip", "one bit near the start", _flip(0.02)),
    Damage("flip", "one bit at a quarter", _flip(0.25)),
    Damage("flip", "one bit in the middle", _flip(0.5)),
    Damage("flip", "one bit at three quarters", _flip(0.75)),
    Damage("flip", "one bit near the end", _flip(0.97)),
    Damage("flip", "bytes at five places", _flip(0.1, 0.3, 0.5, 0.7, 0.9, mask=0x5A)),
    Damage("truncate", "by one byte", _truncate(lambda n: n - 1)),
    Damage("truncate", "to half", _truncate(lambda n: n // 2)),
    Damage("truncate", "to nothing", _truncate(lambda n: 0)),
    Damage("append", "one byte", _append(b"\0")),
    Damage("append", "a kilobyte", _append(b"educatalog" * 100)),
    Damage("replace", "by another valid file of the same kind", _replace),
]
"""Twelve damaged copies per file: six flips (size unchanged), three truncations, two
appends, one replacement."""


def damaged_copies(
    folder: Path, victim: str, into: Path, other: Path | None
) -> Iterator[tuple[Damage, Path]]:
    """Copies of ``folder`` (in ``into``), each with the file ``victim`` (relative to it)
    damaged in one of the ways of :data:`DAMAGES`; ``other`` replaces it in the last."""
    for i, damage in enumerate(DAMAGES):
        if damage.kind == "replace" and other is None:
            continue
        copy = into / f"{victim.replace('/', '_')}-{i}"
        shutil.copytree(folder, copy)
        damage.apply(copy / victim, other)
        yield damage, copy


@dataclass
class Tally:
    """What each read of a damaged copy gave, by kind of file: the right answer, an error
    naming the damaged file, or (never, the tests say) anything else."""

    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    copies: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    RIGHT = "right numbers"
    REBUILT = "right numbers, rebuilt with a warning naming the file"
    NAMED = "an error naming the file"

    def read(
        self,
        what: str,
        victim: Path,
        damage: Damage,
        read: Callable[[], Any],
        right: Callable[[Any], bool],
        *,
        names: tuple[Path, ...] = (),
    ) -> None:
        """Run one ``read`` of a copy whose file ``victim`` is damaged; ``right(answer)``
        says whether the answer is the undamaged one. An error must name ``victim`` (or
        one of ``names``: the file a damaged checksum is the checksum of)."""
        named = [str(p) for p in (victim, *names)]
        where = f"{what}: {victim.name} {damage.kind} ({damage.label})"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                answer = read()
            except EducatalogError as exc:
                if any(n in str(exc) for n in named):
                    self.counts[what, self.NAMED] += 1
                else:
                    self.counts[what, "an error NOT naming the file"] += 1
                    self.failures.append(f"{where}: {type(exc).__name__}: {exc}")
                return
            except Exception as exc:  # DuckDB's, pyarrow's, sqlite3's own errors
                self.counts[what, "a foreign error"] += 1
                self.failures.append(f"{where}: {type(exc).__name__}: {exc}")
                return
        if not right(answer):
            self.counts[what, "WRONG numbers, no error"] += 1
            self.failures.append(f"{where}: wrong numbers")
            return
        warned = [str(w.message) for w in caught]
        if any(any(n in w for n in named) for w in warned):
            self.counts[what, self.REBUILT] += 1
        else:
            self.counts[what, self.RIGHT] += 1

    def table(self) -> str:
        """The tally as a Markdown table (shown by ``pytest -rA`` and the final report)."""
        outcomes = sorted({o for _, o in self.counts})
        kinds = sorted({k for k, _ in self.counts})
        lines = ["| reads of damaged copies | " + " | ".join(kinds) + " |"]
        lines.append("|---|" + "---:|" * len(kinds))
        for outcome in outcomes:
            cells = " | ".join(str(self.counts[k, outcome]) for k in kinds)
            lines.append(f"| {outcome} | {cells} |")
        lines.append("| damaged copies | " + " | ".join(str(self.copies[k]) for k in kinds) + " |")
        return "\n".join(lines)

    def check(self, minimum_copies: int) -> None:
        print("\n" + self.table())
        assert not self.failures, "\n".join(self.failures[:20])
        assert sum(self.copies.values()) >= minimum_copies
