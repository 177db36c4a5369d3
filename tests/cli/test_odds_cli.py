import json
import subprocess
import sys
from pathlib import Path

from fantan_table.cli import main


def test_odds_json_has_exact_fractions(capsys):
    assert main(["odds", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["distribution"] == ["161/648", "1/4", "163/648", "1/4"]
    bets = {b["bet"]: b for b in out["bets"]}
    assert len(bets) == 30
    assert bets["number:0"]["ev"] == "-1/162"
    assert bets["corner:0"]["ev"] == "-1/400" and bets["corner:0"]["variants"] == "corners"


def test_odds_for_d6(capsys):
    assert main(["odds", "--dice", "1", "--faces", "1,2,3,4,5,6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["distribution"] == ["1/6", "1/3", "1/3", "1/6"]


def test_odds_table_shows_fractions_and_percentages(capsys):
    assert main(["odds"]) == 0
    out = capsys.readouterr().out
    assert "161/648" in out and "24.8457%" in out
    assert "number:0" in out and "-1/162" in out and "-0.617%" in out


def test_bad_faces_exit_2_with_one_line(capsys):
    assert main(["odds", "--faces", "a,b"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--faces takes whole numbers" in err
    assert main(["odds", "--dice", "0"]) == 2
    assert "number of dice" in capsys.readouterr().err


def test_installed_console_script_runs():
    script = Path(sys.executable).with_name("fantan-table")
    assert script.exists(), "install the package (make test does) so that the fantan-table command exists"
    done = subprocess.run([script, "odds", "--json"], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["distribution"][0] == "161/648"
    done = subprocess.run([sys.executable, "-m", "fantan_table", "settle"], capture_output=True, text=True)
    assert done.returncode == 2 and "the following arguments are required: --bets, --open" in done.stderr


def test_output_cut_short_by_a_pipe_is_not_a_crash():
    script = Path(sys.executable).with_name("fantan-table")
    done = subprocess.run(f"'{script}' odds | head -1", shell=True, capture_output=True, text=True)
    assert done.stdout.startswith("4 dice") and "Traceback" not in done.stderr


def test_odds_columns_stay_apart_for_any_number_of_dice(capsys):
    """Fifty dice's fractions are 60 characters long: each column still has spaces before the next."""
    assert main(["odds", "--dice", "50"]) == 0
    lines = capsys.readouterr().out.splitlines()
    chance = next(line for line in lines if line.startswith("  open 1"))
    assert chance.split()[2].count("/") == 1 and chance.split()[3] == "25.0000%"
    ev = next(line for line in lines if line.startswith("  number:1 "))
    assert ev.split()[3].startswith("1/") and ev.split()[4] == "0.000%"
