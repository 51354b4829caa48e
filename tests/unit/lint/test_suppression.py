"""Silencing one finding with a reason: a comment in the code or in the XML.

``droidsim-lint: disable=RULE[,RULE] reason`` above a function (or class), or
inside its <appfunction> (or <dataTypes>); app-level findings in
app_metadata.xml. ``--show-suppressed`` prints the reason.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sim.cli.lint import lint_command
from sim.lint import lint_apps, lint_installed_app
from sim.lint import lint_apps


def insert_before(path: Path, anchor: str, text: str) -> None:
    source = path.read_text()
    assert source.count(anchor) == 1, anchor
    path.write_text(source.replace(anchor, text + anchor))


def run(*args: str | Path):
    return CliRunner().invoke(lint_command, [*map(str, args)])


PY_REASON = "the catalogue applies the limit of 10 in the body as well"


def test_a_python_comment_above_the_function_silences_its_finding(corpus_copy) -> None:
    app_dir = corpus_copy("p4_declared_default")
    insert_before(app_dir / "books.py", "    @app_function", f"    # droidsim-lint: disable=P4 {PY_REASON}\n")

    result = run(app_dir)
    assert result.exit_code == 0
    assert "P4" not in result.output
    assert result.output.splitlines()[-1] == "Linted 1 app: 0 errors, 0 warnings, 1 suppressed"

    shown = run(app_dir, "--show-suppressed")
    assert shown.exit_code == 0
    line = next(line for line in shown.output.splitlines() if " P4 " in line)
    assert ": suppressed P4 [search_books]" in line
    assert f"{PY_REASON}" in shown.output and "suppressed error (" in shown.output

    # The install-time lint honours it too (it reads the comment without running the code).
    assert lint_installed_app(app_dir) == []


def test_json_shows_suppressed_findings_and_reasons_only_when_asked(corpus_copy) -> None:
    app_dir = corpus_copy("p4_declared_default")
    insert_before(app_dir / "books.py", "    @app_function", f"    # droidsim-lint: disable=P4 {PY_REASON}\n")
    hidden = json.loads(run(app_dir, "--json").output)
    assert hidden["apps"][0]["findings"] == [] and hidden["summary"]["suppressed"] == 1
    (finding,) = json.loads(run(app_dir, "--json", "--show-suppressed").output)["apps"][0]["findings"]
    assert (finding["rule"], finding["suppressed"], finding["reason"]) == ("P4", True, PY_REASON)


def test_an_xml_comment_inside_the_appfunction_silences_its_finding(corpus_copy) -> None:
    app_dir = corpus_copy("f3_filler_opening")
    insert_before(
        app_dir / "assets" / "functions.xml", "        <id>",
        "        <!-- droidsim-lint: disable=F3 the museum's own wording, kept on purpose -->\n",
    )
    (app,) = lint_apps([app_dir]).apps
    (finding,) = app.findings
    assert finding.rule == "F3" and finding.suppressed_by is not None
    assert finding.suppressed_by.reason == "the museum's own wording, kept on purpose"
    assert app.active == []


def test_a_directive_silences_only_the_rules_it_names(corpus_copy) -> None:
    app_dir = corpus_copy("f3_filler_opening")
    insert_before(app_dir / "assets" / "functions.xml", "        <id>",
                  "        <!-- droidsim-lint: disable=F4 not about filler -->\n")
    assert [f.rule for f in lint_apps([app_dir]).apps[0].active] == ["F3"]


def test_a_directive_without_a_reason_silences_nothing_and_is_reported(corpus_copy) -> None:
    app_dir = corpus_copy("f3_filler_opening")
    insert_before(app_dir / "assets" / "functions.xml", "        <id>", "        <!-- droidsim-lint: disable=F3 -->\n")
    assert sorted(f.rule for f in lint_apps([app_dir]).apps[0].active) == ["F3", "L1"]


def test_a_directive_on_one_function_does_not_silence_another(corpus_copy) -> None:
    """F9 is reported on the second of two near-identical functions; a directive on the first does nothing."""
    app_dir = corpus_copy("f9_near_duplicate")
    xml = app_dir / "assets" / "functions.xml"
    first = "<id>com.example.lint.weather.FunctionService#get_weather_today</id>"
    insert_before(xml, first, "<!-- droidsim-lint: disable=F9 meant for the other function -->\n        ")
    (finding,) = lint_apps([app_dir]).apps[0].active
    assert finding.rule == "F9" and finding.function_id.endswith("#get_weather_now")


def test_app_level_findings_are_silenced_in_the_app_metadata(corpus_copy) -> None:
    app_dir = corpus_copy("a2_app_description_filler")
    insert_before(app_dir / "res" / "xml" / "app_metadata.xml", "<AppFunctionAppMetadata",
                  "<!-- droidsim-lint: disable=A2 the store listing must start with the app's name -->\n")
    (finding,) = lint_apps([app_dir]).apps[0].findings
    assert finding.rule == "A2" and finding.suppressed_by.reason == "the store listing must start with the app's name"


def test_type_findings_are_silenced_above_the_class(corpus_copy) -> None:
    app_dir = corpus_copy("p7_raw_result")
    insert_before(app_dir / "flights.py", "@app_function_serializable",
                  "# droidsim-lint: disable=P7 the airline requires its answer to be shown verbatim\n")
    (finding,) = lint_apps([app_dir]).apps[0].findings
    assert finding.rule == "P7" and finding.suppressed_by is not None
    assert lint_installed_app(app_dir) == []


def test_without_app_metadata_app_level_findings_are_silenced_in_the_manifest(corpus_copy) -> None:
    app_dir = corpus_copy("a1_no_app_description")
    insert_before(app_dir / "AndroidManifest.xml", "        <service",
                  "        <!-- droidsim-lint: disable=A1 a preview build; the description ships with 1.0 -->\n")
    (finding,) = lint_apps([app_dir]).apps[0].findings
    assert finding.rule == "A1" and finding.suppressed_by.reason == "a preview build; the description ships with 1.0"
