"""The boot service and its installer: the unit passes systemd's own check, the script bash's and shellcheck's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fantan_table.table.wiring.config import load_config

ROOT = Path(__file__).parents[2]
UNIT = ROOT / "systemd" / "fantan-table.service"
INSTALLER = ROOT / "systemd" / "install.sh"


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def test_the_unit_runs_the_table_as_its_own_user_with_the_hardware_it_needs() -> None:
    s = unit_settings()
    assert s["User"] == ["fantan"] and s["SupplementaryGroups"] == ["gpio video i2c"]
    assert "GPIOZERO_PIN_FACTORY=lgpio" in s["Environment"]
    assert "LG_WD=/var/lib/fantan-table" in s["Environment"] and s["WorkingDirectory"] == ["/var/lib/fantan-table"]
    assert s["StateDirectory"] == ["fantan-table"] and s["Restart"] == ["on-failure"]
    assert s["RestartPreventExitStatus"] == ["2"]  # a bad config or a damaged journal: restarting mends nothing
    assert s["ExecStart"] == ["/opt/fantan-table/venv/bin/fantan-table run --config /etc/fantan-table/config.toml"]
    for hardening in ("NoNewPrivileges", "ProtectHome", "PrivateTmp"):
        assert s[hardening] == ["yes"], hardening
    assert s["ProtectSystem"] == ["strict"]
    assert "PrivateDevices" not in s, "PrivateDevices hides the GPIO, camera and I2C devices"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not on this machine")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    # verify insists that ExecStart exists: point it at this checkout's command instead of /opt's.
    here = Path(sys.executable).parent / "fantan-table"
    assert here.exists(), "the fantan-table command is not installed in this venv"
    text = UNIT.read_text(encoding="utf-8").replace("/opt/fantan-table/venv/bin/fantan-table", str(here))
    copy = tmp_path / "fantan-table.service"
    copy.write_text(text, encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_installer_parses() -> None:
    done = subprocess.run(["bash", "-n", str(INSTALLER)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (.ci/run installs it)")
def test_shellcheck_finds_nothing_in_the_installer() -> None:
    done = subprocess.run(["shellcheck", str(INSTALLER)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_the_installer_refuses_to_run_without_root() -> None:
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    # the script comes on stdin: "nobody" may not be allowed to read the checkout (a private temp folder)
    script = INSTALLER.read_text(encoding="utf-8")
    done = subprocess.run([*as_nobody, "bash", "-s"], input=script, capture_output=True, text=True, cwd="/")
    assert done.returncode == 1 and "run it as root" in done.stderr


def test_the_config_the_installer_writes_is_the_example_switched_to_the_pi(tmp_path: Path) -> None:
    example = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    assert example.count('\n# hardware = "pi"\n') == 1, "install.sh uncomments this exact line"
    written = tmp_path / "config.toml"
    written.write_text(example.replace('\n# hardware = "pi"\n', '\nhardware = "pi"\n'), encoding="utf-8")
    assert load_config(written).hardware == "pi"
