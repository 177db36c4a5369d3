"""Every exception the project defines derives from the one root type, and the command line reports it in one line."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import fantan_table
from fantan_table import cli
from fantan_table.errors import FantanError
from fantan_table.table.core.journal import JournalError


def project_exceptions() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of fantan_table, by qualified name."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(fantan_table.__path__, "fantan_table."):
        if info.name.endswith(".__main__"):  # importing it runs the command line
            continue
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == module.__name__:
                found[f"{module.__name__}.{value.__qualname__}"] = value
    return found


def test_every_project_exception_derives_from_the_root() -> None:
    exceptions = project_exceptions()
    assert "fantan_table.table.wiring.config.ConfigFileError" in exceptions  # the walk reaches the modules
    strays = sorted(name for name, kind in exceptions.items() if not issubclass(kind, FantanError))
    assert strays == []


@pytest.mark.parametrize(
    ("name", "builtin"),
    [
        ("fantan_table.rules.errors.RulesError", ValueError),
        ("fantan_table.table.wiring.config.ConfigFileError", ValueError),
        ("fantan_table.vision.profile.ProfileError", ValueError),
        ("fantan_table.devices.pins.PinError", ValueError),
        ("fantan_table.table.core.journal.JournalError", RuntimeError),
        ("fantan_table.devices.camera.CameraError", RuntimeError),
    ],
)
def test_project_errors_keep_their_older_builtin_base(name: str, builtin: type[Exception]) -> None:
    """Code that catches ``ValueError`` or ``RuntimeError`` still catches these."""
    assert issubclass(project_exceptions()[name], builtin)


def test_the_command_line_reports_a_project_error_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(args: object) -> int:
        raise JournalError("the journal is locked: stop the other table first")

    monkeypatch.setattr(cli.odds, "run", broken)
    assert cli.main(["odds"]) == 1
    assert capsys.readouterr().err == "fantan-table odds: error: the journal is locked: stop the other table first\n"
