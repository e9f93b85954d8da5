"""The API reference of educatalog, generated from the package when the site is built.

One page per public module (a module or package whose dotted name has no part starting
with an underscore): its docstring, the list of its public submodules, and the public names
it owns. A public name is what a module's ``__all__`` lists, or, without ``__all__``, the
classes and functions it defines under a public name. A name re-exported by several modules
(``educatalog.load`` is defined in ``educatalog.loading.loaders``) is documented once, in
the shallowest module that exports it, unless a submodule of that module has the same name
(``educatalog.stats.supply`` is a module, so the function is ``educatalog.stats.supply.supply``);
the top-level names (``educatalog.__all__``) have a page each.

Docstrings name things where they are defined (``:func:`educatalog.loading.loaders.load```,
``:mod:`educatalog.client._paging```). A reference that the Python domain cannot resolve is
looked up here: the object it names is imported and sent to the name it is documented
under; a private module goes to the public package that holds it. What still does not
resolve is a warning, and the build fails on warnings.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.typing import ExtensionMetadata

PACKAGE = "educatalog"
# Not modules of the package: the dashboard's kernel manager Voilà imports by path, the
# ``python -m`` entry points (importing them runs the command).
LEFT_OUT = ("educatalog.data", "educatalog.__main__", "educatalog.cli.__main__")


@dataclass
class Member:
    name: str
    module: str
    kind: str  # function, class, exception, data

    @property
    def full(self) -> str:
        return f"{self.module}.{self.name}"


@dataclass
class Reference:
    """What the generated pages document: modules, and each object's one documented name."""

    modules: list[str] = field(default_factory=list)
    owned: dict[str, list[Member]] = field(default_factory=dict)
    canonical: dict[tuple[int, str], str] = field(default_factory=dict)
    data_docs: dict[str, list[str]] = field(default_factory=dict)


def _is_public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split(".")[1:])


def public_modules() -> list[str]:
    package = importlib.import_module(PACKAGE)
    names = [PACKAGE]
    for info in pkgutil.walk_packages(package.__path__, PACKAGE + "."):
        if _is_public(info.name) and not info.name.startswith(LEFT_OUT):
            names.append(info.name)
    return sorted(names, key=lambda n: (n.count("."), n))


def _kind(value: Any) -> str:
    if inspect.isclass(value):
        return "exception" if issubclass(value, BaseException) else "class"
    if inspect.isfunction(value) or inspect.isbuiltin(value):
        return "function"
    if inspect.ismodule(value):
        return "module"
    return "data"


def exported(module: ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is not None:
        return list(names)
    return [
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and _kind(value) in ("function", "class", "exception")
        and getattr(value, "__module__", None) == module.__name__
    ]


def collect() -> Reference:
    reference = Reference(modules=public_modules())
    known = set(reference.modules)
    exporters: dict[tuple[int, str], list[str]] = {}
    values: dict[tuple[int, str], Any] = {}
    for module_name in reference.modules:
        module = importlib.import_module(module_name)
        reference.owned[module_name] = []
        for name in exported(module):
            value = getattr(module, name)
            if _kind(value) == "module" or f"{module_name}.{name}" in known:
                continue
            exporters.setdefault((id(value), name), []).append(module_name)
            values[(id(value), name)] = value
    for key, modules in exporters.items():
        value, name = values[key], key[1]
        home = getattr(value, "__module__", None) or ""
        if not isinstance(home, str) or _kind(value) == "data":
            home = ""
        # The top-level names first; then the shallowest exporter on the way to where the
        # object is defined; then the shallowest exporter.
        nearer = [m for m in modules if m != PACKAGE and (home + ".").startswith(m + ".")]
        owner = PACKAGE if PACKAGE in modules else (nearer or modules)[0]
        member = Member(name, owner, _kind(value))
        reference.canonical[key] = member.full
        reference.owned[owner].append(member)
        if member.kind == "data":
            reference.data_docs[member.full] = _data_doc(value, name)
    return reference


def _data_doc(value: Any, name: str) -> list[str]:
    """The docstring written under a constant where it is defined (a re-exported constant
    has none where it is re-exported, and autodoc would show its type's docstring)."""
    package = importlib.import_module(PACKAGE)
    for info in pkgutil.walk_packages(package.__path__, PACKAGE + "."):
        if info.name.startswith(LEFT_OUT):
            continue
        module = importlib.import_module(info.name)
        if vars(module).get(name) is not value:
            continue
        docs = ModuleAnalyzer.for_module(info.name).find_attr_docs()
        if ("", name) in docs:
            return list(docs[("", name)])
    return []


def process_docstring(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    reference: Reference | None = getattr(app.env, "educatalog_api", None)
    if what == "data" and reference is not None and name in reference.data_docs:
        found = reference.data_docs[name]
        if found and lines != found[: len(lines)]:
            lines[:] = found


def _title(text: str) -> str:
    return f"{text}\n{'=' * len(text)}\n"


DIRECTIVES = {
    "function": "autofunction",
    "class": "autoclass",
    "exception": "autoexception",
    "data": "autodata",
}


ROLES = {"function": "func", "class": "class", "exception": "exc", "data": "data", "module": "mod"}


def _link(name: str, kind: str) -> str:
    return f":{ROLES[kind]}:`{name}`"


def _summary(name: str) -> str:
    """The first sentence of an object's docstring, as plain text."""
    module_name, _, attribute = name.rpartition(".")
    try:
        value: Any = importlib.import_module(name)
    except ImportError:
        value = getattr(importlib.import_module(module_name), attribute)
    doc = inspect.getdoc(value) or ""
    first = doc.split("\n\n", 1)[0].replace("\n", " ")
    sentence = first.split(". ", 1)[0].rstrip(".")
    # Plain text: roles and markup of the docstring's first sentence left out.
    sentence = re.sub(r":\w+:`~?([^`]+)`", r"\1", sentence)
    return sentence.replace("*", "").replace("`", "").replace("|", "/") or "(no description)"


def module_page(reference: Reference, module_name: str) -> str:
    lines = [_title(f"``{module_name}``"), f".. automodule:: {module_name}", "   :no-members:", ""]
    children = [
        m for m in reference.modules if m.rsplit(".", 1)[0] == module_name and m != module_name
    ]
    members = reference.owned.get(module_name, [])
    if module_name == PACKAGE:
        lines += ["Names", "-----", ""]
        lines += [f"- {_link(m.full, m.kind)}: {_summary(m.full)}" for m in members] + [""]
        lines += [".. toctree::", "   :hidden:", ""] + [f"   {m.full}" for m in members] + [""]
        members = []
    if children:
        lines += ["Modules", "-------", ""]
        lines += [f"- {_link(c, 'module')}: {_summary(c)}" for c in children] + [""]
        lines += [".. toctree::", "   :hidden:", ""] + [f"   {c}" for c in children] + [""]
    if members:
        lines += ["Names", "-----", ""]
        for member in members:
            lines.append(f".. {DIRECTIVES[member.kind]}:: {member.full}")
            if member.kind in ("class", "exception"):
                lines += ["   :members:", "   :undoc-members:", "   :show-inheritance:"]
            lines.append("")
    return "\n".join(lines)


def member_page(member: Member) -> str:
    lines = [_title(f"``{member.module}.{member.name}``")]
    lines += [f".. currentmodule:: {member.module}", ""]
    lines.append(f".. {DIRECTIVES[member.kind]}:: {member.name}")
    if member.kind in ("class", "exception"):
        lines += ["   :members:", "   :undoc-members:", "   :show-inheritance:"]
    return "\n".join(lines) + "\n"


def _write(path: Path, text: str) -> None:
    """Written only when changed, so that Sphinx rebuilds only what changed."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app: Sphinx) -> None:
    reference = collect()
    app.env.educatalog_api = reference  # type: ignore[attr-defined]
    folder = Path(app.srcdir) / "api" / "generated"
    folder.mkdir(parents=True, exist_ok=True)
    wanted = set()
    for module_name in reference.modules:
        wanted.add(f"{module_name}.rst")
        _write(folder / f"{module_name}.rst", module_page(reference, module_name))
    for member in reference.owned.get(PACKAGE, []):
        wanted.add(f"{member.full}.rst")
        _write(folder / f"{member.full}.rst", member_page(member))
    for stale in folder.glob("*.rst"):
        if stale.name not in wanted:
            stale.unlink()


EXTERNAL = "<external>"


def _documented(reference: Reference, target: str) -> str | None:
    """The name ``target``'s object is documented under, if it names one of the package's."""
    if not target.startswith(PACKAGE):
        return None
    parts = target.split(".")
    module: ModuleType | None = None
    depth = len(parts)
    while depth:
        try:
            module = importlib.import_module(".".join(parts[:depth]))
            break
        except ImportError:
            depth -= 1
    if module is None:
        return None
    path = [(module, ".".join(parts[:depth]))]
    value: Any = module
    for part in parts[depth:]:
        try:
            value = inspect.getattr_static(value, part)
        except AttributeError:
            return None
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        path.append((value, part))
    last = path[-1][0]
    if isinstance(last, TypeVar) or (
        inspect.isclass(last) and not last.__module__.startswith(PACKAGE)
    ):
        return EXTERNAL  # another package's class, or a type variable: text, not a link
    for index in range(len(path) - 1, -1, -1):
        value, name = path[index]
        tail = ".".join(p for _, p in path[index + 1 :])
        if inspect.ismodule(value):
            found = value.__name__
            while not _is_public(found):  # a private module: the public package holding it
                found = found.rsplit(".", 1)[0]
            if found not in reference.modules:
                return None
        else:
            found = reference.canonical.get((id(value), name.rsplit(".", 1)[-1]), "")
            if not found:
                continue
        return f"{found}.{tail}" if tail else found
    return None


def resolve(
    app: Sphinx, env: BuildEnvironment, node: Any, contnode: nodes.Element
) -> nodes.Element | None:
    if node.get("refdomain") != "py":
        return None
    reference: Reference | None = getattr(env, "educatalog_api", None)
    if reference is None:
        return None
    target = node["reftarget"]
    module, cls = node.get("py:module"), node.get("py:class")
    candidates = [target]
    if not target.startswith(PACKAGE):
        # A name relative to the page's module or class, or to where the docstring is
        # written ("docstring of educatalog.client._base.item_of").
        if module and cls:
            candidates.append(f"{module}.{cls}.{target}")
        if module:
            candidates.append(f"{module}.{target}")
        written = re.search(r"docstring of ([\w.]+)", node.source or "")
        if written:
            parts = written[1].split(".")
            candidates += [".".join([*parts[:n], target]) for n in range(len(parts), 0, -1)]
    domain = env.domains["py"]
    for candidate in candidates:
        documented = _documented(reference, candidate)
        if documented == EXTERNAL:
            return contnode
        if documented is None or documented == target:
            continue
        found = domain.resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], documented, node, contnode
        )
        if found is not None:
            return found
    return None


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("builder-inited", generate)
    app.connect("missing-reference", resolve)
    app.connect("autodoc-process-docstring", process_docstring)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
