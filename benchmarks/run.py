"""``make bench``: every benchmark, each figure printed beside its baseline's.

A benchmark is a module ``benchmarks/bench_*.py`` with ``run() -> list[Row]``.
Targets live here, never in timed unit tests.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import Row  # noqa: E402


def main() -> int:
    rows: list[Row] = []
    for path in sorted(HERE.glob("bench_*.py")):
        module = importlib.import_module(path.stem)
        print(f"running {path.stem} ...", file=sys.stderr, flush=True)
        rows += module.run()
    width = max(len(r.name) for r in rows)
    figure = max(14, *(len(f) for r in rows for f in (r.ours, r.baseline)))  # "0.21% (1 of 470)" is wider
    print(f"{'benchmark':<{width}}  {'ours':>{figure}}  {'baseline':>{figure}}  {'target':>12}  verdict")
    failed = 0
    for r in rows:
        verdict = r.verdict()
        failed += verdict == "MISSED"
        print(f"{r.name:<{width}}  {r.ours:>{figure}}  {r.baseline:>{figure}}  {r.target:>12}  {verdict}")
    targets = sum(r.met is not None for r in rows)
    print(f"{targets - failed} of {targets} targets met" + (" (exit status 1)" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
