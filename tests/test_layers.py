"""No upward arrows: every import of ours, read with ``ast``, stays inside what its room may use.

The rooms and their arrows are ARCHITECTURE.md's "Rooms"; a module that reaches up (the rules asking the
table, a device asking the journal, the core asking the wiring) fails here, named with the line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import fantan_table

PACKAGE = "fantan_table"
LEAVES = ("errors", "settings", "tomlfile", "durable")
"""The root's leaf modules: anything may import them, and they import only each other."""

ALLOWED: dict[str, tuple[str, ...]] = {
    "leaf": ("leaf",),
    "rules": ("rules", "leaf"),
    "vision": ("vision", "rules", "leaf"),
    "devices": ("devices", "vision", "rules", "leaf"),
    "table.core": ("table.core", "vision", "rules", "leaf"),
    "table.show": ("table.show", "table.core", "devices", "vision", "rules", "leaf"),
    "table.wiring": ("table.wiring", "table.show", "table.core", "devices", "vision", "rules", "leaf"),
    "web": ("web", "table.wiring", "table.show", "table.core", "devices", "vision", "rules", "leaf"),
    "cli": ("cli", "web", "table.wiring", "table.show", "table.core", "devices", "vision", "rules", "leaf"),
}
"""Each room and the rooms it may import, lowest last: only table, web and cli put parts together."""


def room_of(module: str) -> str | None:
    """``fantan_table.table.core.state`` -> ``table.core``; None for the bare packages and ``__main__``."""
    parts = module.split(".")[1:]
    if not parts or parts == ["table"] or parts[0] == "__main__":
        return None
    if parts[0] in LEAVES:
        return "leaf"
    if parts[0] == "table":
        return f"table.{parts[1]}"
    return parts[0]


def module_name(root: Path, path: Path) -> str:
    relative = path.relative_to(root.parent).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(parts)


def imported(module: str, is_package: bool, tree: ast.Module, modules: set[str]) -> list[tuple[int, str]]:
    """Every module of ours that ``tree`` imports, absolute, with its line."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            # ``from pkg import x`` imports the module ``pkg.x`` when there is one, else a name of ``pkg``
            found += [(node.lineno, f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base) for a in node.names]
    return [(line, name) for line, name in found if name == PACKAGE or name.startswith(PACKAGE + ".")]


def upward_arrows(root: Path) -> list[str]:
    """``path:line: room -> room (module)`` for every import a module's room may not make."""
    arrows = []
    paths = sorted(root.rglob("*.py"))
    modules = {module_name(root, path) for path in paths}
    for path in paths:
        module = module_name(root, path)
        source = room_of(module)
        if source is None:
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        for line, target in imported(module, path.name == "__init__.py", tree, modules):
            room = room_of(target)
            if room is not None and room not in ALLOWED[source]:
                arrows.append(f"{path.relative_to(root.parent)}:{line}: {source} -> {room} ({target})")
    return arrows


def test_no_module_of_ours_imports_upward() -> None:
    root = Path(fantan_table.__file__).parent
    assert upward_arrows(root) == []


def test_every_room_is_declared() -> None:
    """A new package must be given a place in the order before its imports can be judged."""
    root = Path(fantan_table.__file__).parent
    rooms = {room_of(module_name(root, path)) for path in root.rglob("*.py")} - {None}
    assert rooms == set(ALLOWED)


@pytest.mark.parametrize(
    ("where", "line", "arrow"),
    [
        ("rules/odds.py", "from ..table.core import state", "rules -> table.core"),
        ("vision/reader.py", "from ..devices.camera import Camera", "vision -> devices"),
        ("devices/panel.py", "import fantan_table.table.wiring.config", "devices -> table.wiring"),
        ("table/core/state.py", "from ..show.present import screens_for", "table.core -> table.show"),
        ("table/core/table.py", "from ..wiring import owner", "table.core -> table.wiring"),
        ("table/show/present.py", "from ..wiring.hardware import Devices", "table.show -> table.wiring"),
        ("settings.py", "from .rules.game import Suit", "leaf -> rules"),
    ],
)
def test_an_upward_arrow_is_found(tmp_path: Path, where: str, line: str, arrow: str) -> None:
    """The check itself can fail: a copy of the package with one planted upward import is caught."""
    root = tmp_path / PACKAGE
    for path in Path(fantan_table.__file__).parent.rglob("*.py"):
        copy = root / path.relative_to(Path(fantan_table.__file__).parent)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(path.read_text())
    planted = root / where
    planted.write_text(f"{line}\n{planted.read_text()}")
    found = upward_arrows(root)
    assert len(found) == 1 and found[0].startswith(f"{PACKAGE}/{where}:1: {arrow} ")
