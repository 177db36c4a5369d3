"""The README's module map and the calibration guide stay true to the tree and to what install.sh installs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_the_module_map_names_the_roots_leaves_and_the_two_finders() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    developers = text[text.index("## For developers") :]
    leaves = [p.name for p in (ROOT / "fantan_table").glob("*.py") if not p.name.startswith("__")]
    for name in [*(f"fantan_table/{leaf}" for leaf in leaves), "finder.py", "outlines.py"]:
        assert name in developers, f"the module map in README.md does not name {name}"


def test_the_calibration_guide_names_only_what_install_sh_puts_in_opt() -> None:
    """install.sh puts the README and a venv in /opt/fantan-table: a profile there is one nobody put."""
    installed = (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8")
    assert '"$PREFIX/README.md"' in installed and '"$PREFIX/venv"' in installed
    guide = (ROOT / "calibration" / "README.md").read_text(encoding="utf-8")
    for path in re.findall(r"/opt/fantan-table/\S*", guide):
        assert path.startswith(("/opt/fantan-table/venv/", "/opt/fantan-table/README.md")), path


def test_the_calibration_guide_gives_calibrate_its_required_options() -> None:
    guide = (ROOT / "calibration" / "README.md").read_text(encoding="utf-8")
    for command in re.findall(r"fantan-table calibrate[^`]*", guide):
        assert "--images" in command and "--out" in command, command
