"""A Kotlin app as a developer copies it out of app/build: the orders sample's manifest,
res/xml and function XML, without its Python."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sim.device import Device
from tests.helpers import REPO

# docs/responses.md's example: the orders sample as a Kotlin build leaves it, and a double of it.
KOTLIN_ORDERS = REPO / "docs" / "examples" / "kotlin-orders"
ORDERS_DOUBLE = REPO / "docs" / "examples" / "orders-double"
ORDERS_CALLS = REPO / "docs" / "examples" / "orders.calls.yaml"
ORDERS = "com.example.orders"
FETCH = "com.example.orders.OrderFunctionService#fetch_order_details"
CANCEL = "com.example.orders.OrderFunctionService#cancel_order"


def code_less_copy(app: Path, target: Path) -> Path:
    """``app`` without its Python: what a Kotlin build leaves besides the DEX."""
    target.mkdir(parents=True)
    shutil.copy(app / "AndroidManifest.xml", target)
    for folder in ("res", "assets"):
        shutil.copytree(app / folder, target / folder)
    return target


@pytest.fixture
def kotlin_orders(tmp_path: Path) -> Path:
    """A copy of KOTLIN_ORDERS, for a test to change."""
    return shutil.copytree(KOTLIN_ORDERS, tmp_path / "orders-kotlin")



@pytest.fixture
def device(tmp_path: Path):
    with Device(tmp_path / "data", isolated_apps=False) as device:
        yield device
