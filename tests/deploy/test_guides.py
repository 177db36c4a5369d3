"""The README's module map and the calibration guide stay true to the tree and to what install.sh installs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_the_module_map_names_the_roots_leaves_and_the_two_finders() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    developers = text[text.index("## For developers") :]
    leaves = [p.name for p in (ROOT / "fantan_table").glob("*.py") if not p.name.startswith("__")]
    for name in [*(f"fantan_table/{leaf}" for leaf in leaves), "finder.py", "outlines.py"]:
        assert name in developers, f"the module map in README.md does not name {name}"

