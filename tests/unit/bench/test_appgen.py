"""The generated bench apps install cleanly and their functions answer; search sizes add up."""

from __future__ import annotations

import logging

import pytest

from bench import appgen
from bench.workspace import SEARCH_SIZES, search_packages
from sim.device import Device


def test_a_generated_app_installs_without_lint_findings_and_adds(tmp_path, caplog):
    app_dir = appgen.write_app(tmp_path / "apps", "com.bench.app0007", functions=3)
    with caplog.at_level(logging.WARNING), Device(tmp_path / "data", isolated_apps=False) as device:
        package = device.install(app_dir)
        assert [f.id for f in package.metadata.app_functions] == [
            appgen.function_id("com.bench.app0007", i) for i in range(3)
        ]
        request, expected = appgen.sum_request("com.bench.app0007", index=2, a=40, b=2)
        response = device.shell_context().app_function_manager.execute_app_function(request)
    assert response.return_value == expected == 42
    assert [r.getMessage() for r in caplog.records if "lint" in r.getMessage()] == []


def test_an_app_needs_a_function(tmp_path):
    with pytest.raises(ValueError, match="at least one function"):
        appgen.write_app(tmp_path, "com.bench.empty", functions=0)


def test_search_packages_name_apps_whose_functions_add_up():
    for size in SEARCH_SIZES:
        assert len(search_packages(size)) * appgen.FUNCTIONS_PER_APP == size
    assert search_packages(20) == {"com.bench.search0000", "com.bench.search0001"}
    with pytest.raises(ValueError, match="whole number"):
        search_packages(15)


def test_check_sum_refuses_a_wrong_answer_or_an_error():
    from droid.appfunctions import AppFunctionAppUnknownException, ExecuteAppFunctionResponse

    appgen.check_sum(ExecuteAppFunctionResponse.of(3), 3)
    with pytest.raises(RuntimeError, match="returned 4, expected 3"):
        appgen.check_sum(ExecuteAppFunctionResponse.of(4), 3)
    with pytest.raises(RuntimeError, match="AppFunctionAppUnknownException"):
        appgen.check_sum(AppFunctionAppUnknownException("app died"), 3)
