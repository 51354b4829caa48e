"""Regenerate the Python binder code from proto/ (``make proto``).

Generated modules land in platform/droidsim/v1/, a package of their own, so
their absolute imports (``from droidsim.v1 import data_pb2``) work unchanged.
With ``--check`` it generates into a temporary folder and fails when the
committed files differ, so stale generated code cannot land.
"""

from __future__ import annotations

import argparse
import filecmp
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc
import grpc_tools

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
OUT_ROOT = ROOT / "platform"
PACKAGE = Path("droidsim") / "v1"


def generate(out_root: Path) -> list[Path]:
    protos = sorted((PROTO_ROOT / PACKAGE).glob("*.proto"))
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    args = [
        "protoc",
        f"-I{PROTO_ROOT}",
        f"-I{well_known}",
        f"--python_out={out_root}",
        f"--pyi_out={out_root}",
        f"--grpc_python_out={out_root}",
        *[str(p.relative_to(PROTO_ROOT)) for p in protos],
    ]
    (out_root / PACKAGE).mkdir(parents=True, exist_ok=True)
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    for package_dir in (out_root / "droidsim", out_root / PACKAGE):
        (package_dir / "__init__.py").touch()
    return sorted(p.relative_to(out_root) for p in (out_root / PACKAGE).glob("*.py*"))


def stale_files() -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        fresh = generate(Path(tmp))
        committed = sorted(p.relative_to(OUT_ROOT) for p in (OUT_ROOT / PACKAGE).glob("*.py*"))
        names = sorted(set(fresh) | set(committed))
        return [
            str(name)
            for name in names
            if not (OUT_ROOT / name).exists()
            or not (Path(tmp) / name).exists()
            or not filecmp.cmp(OUT_ROOT / name, Path(tmp) / name, shallow=False)
        ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed code is stale")
    if parser.parse_args().check:
        stale = stale_files()
        if stale:
            print("stale generated code, run `make proto`:", *stale, sep="\n  ", file=sys.stderr)
            return 1
        return 0
    for name in generate(OUT_ROOT):
        print(f"wrote platform/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
