"""Distractor apps are real apps: they compile, install without lint findings and answer."""

from __future__ import annotations

import asyncio
import logging

from droid.agent import AppFunctionAgentTools
from sim.device import Device
from sim.eval.devices import package_of
from sim.eval.distractors import DOMAINS, distractor_plan, write_distractor_apps


def test_distractors_install_cleanly_and_answer(tmp_path, caplog):
    folders = write_distractor_apps(tmp_path / "apps", 3)
    with caplog.at_level(logging.WARNING), Device(tmp_path / "data", isolated_apps=False) as device:
        for folder in folders:
            device.install(folder)
        tools = {t.name: t for t in AppFunctionAgentTools.discover(device.shell_context())}
        answer = asyncio.run(tools["track_parcel"].execute({"trackingCode": "PP123456789FR"}))
    assert answer == {"result": "Parcel Post: track_parcel tracking_code='PP123456789FR'"}
    assert len(tools) == 9
    assert [r.getMessage() for r in caplog.records if "lint" in r.getMessage()] == []


def test_the_same_count_gives_the_same_apps_and_every_package_is_distinct(tmp_path):
    assert distractor_plan(200) == distractor_plan(200)
    assert distractor_plan(len(DOMAINS) + 1)[-1] == (DOMAINS[0], "Plus")  # past the domains: another brand
    assert len({f"{d.key}{b}".lower() for d, b in distractor_plan(200)}) == 200
    assert package_of(write_distractor_apps(tmp_path, 1)[0]) == f"com.distractor.{DOMAINS[0].key}"
