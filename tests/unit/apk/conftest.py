"""The checked-in test APKs (tests/apks/, built by its build.py) and hostile variants of them,
made from bytes."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from sim.device import Device

pytest.importorskip("androguard", reason="reading APKs needs androguard (a dependency of droidsim)")

APKS = Path(__file__).resolve().parents[2] / "apks"
SHOP = "com.example.shop"
FETCH = "com.example.shop.OrderFunctionService#fetchOrderStatus"
CANCEL = "com.example.shop.OrderFunctionService#cancelOrder"
TRACK = "com.example.shop.TrackingFunctionService#trackParcel"


def apk_bytes(name: str = "shop.apk") -> bytes:
    return (APKS / name).read_bytes()


def rewritten(data: bytes, replace: dict[str, bytes | None] | None = None, add: dict[str, bytes] | None = None) -> bytes:
    """``data``'s zip with entries replaced (None: left out) and added, in order."""
    replace = replace or {}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename not in replace:
                target.writestr(info.filename, source.read(info))
            elif replace[info.filename] is not None:
                target.writestr(info.filename, replace[info.filename])
        for name, content in (add or {}).items():
            target.writestr(name, content)
    return out.getvalue()


@pytest.fixture
def write_apk(tmp_path: Path):
    def write(data: bytes, name: str = "app.apk") -> Path:
        path = tmp_path / name
        path.write_bytes(data)
        return path

    return write


@pytest.fixture(params=[36, 37], ids=["sdk36", "sdk37"])
def sdk(request) -> int:
    return request.param


@pytest.fixture
def device(tmp_path: Path):
    """A device whose verifier is the real one: each APK decodes in a child of its zygote."""
    with Device(tmp_path / "data", isolated_apps=False) as device:
        yield device


@pytest.fixture
def device36(tmp_path: Path):
    with Device(tmp_path / "data36", isolated_apps=False, sdk=36) as device:
        yield device
