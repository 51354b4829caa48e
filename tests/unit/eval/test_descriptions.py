"""The offline baseline reads descriptions, so a worse description loses cases (issue 22, item 6).

The model ranks tools by BM25 over each tool's name, description and parameter
descriptions (droid.agent.models.offline.relevance); a prompt weighs only the
closest few in full, so its cost does not grow with the catalog beyond one pass.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from droid.agent import ModelRequest, OfflineModel
from droid.agent.messages import Message, ToolDeclaration
from droid.agent.models.offline import choosing
from droid.agent.models.offline.relevance import tool_index
from sim.eval.run import EvalOptions, run_eval
from sim.eval.suite import PROJECT_APPS, load_suite

from .conftest import RUN_DATE
from .gutting import GUTTED, gut

HELDOUT = Path(__file__).resolve().parents[3] / "sim" / "eval" / "suites" / "sample-apps-heldout.yaml"


def report(what: str) -> dict:
    return {"type": "object", "required": ["reportId"],
            "properties": {"reportId": {"type": "string", "description": what}}}


SALES = ToolDeclaration("get_report", "Gets a report.", report("The sales report's ID, for example RPT-1."))
WEATHER = ToolDeclaration("fetch_report", "Fetches a report.", report("The rainfall report's ID, for example RPT-2."))
PROMPT = "Show me the sales report RPT-7"


def decide(prompt: str, tools: list[ToolDeclaration]):
    return OfflineModel(today=dt.date(2026, 3, 14)).respond(ModelRequest("", (Message.user(prompt),), tuple(tools)))


def test_a_parameter_description_that_says_the_users_words_picks_the_tool():
    assert [(r.name, r.args) for r in decide(PROMPT, [WEATHER, SALES]).tool_requests] == [
        ("get_report", {"reportId": "RPT-7"})]
    gutted = ToolDeclaration("get_report", "Gets a report.", report("The other report's ID, for example RPT-1."))
    response = decide(PROMPT, [WEATHER, gutted])
    assert response.tool_requests == [], "two equally good fits once the description says nothing: it asks"
    assert "fetch report or get report?" in response.text


def test_bm25_ranks_the_described_tool_first_and_a_gutted_one_nowhere():
    index = tool_index([SALES, WEATHER])
    scores = index.scores(["sales"])
    assert scores["get_report"] > 0 == scores["fetch_report"]
    assert tool_index([ToolDeclaration("get_report", GUTTED, report("")), WEATHER]).scores(["sales"]) == {
        "get_report": 0.0, "fetch_report": 0.0}


def test_a_prompt_weighs_a_bounded_number_of_tools_however_large_the_catalog(monkeypatch):
    catalog = [ToolDeclaration(f"get_widget_{i}", f"Gets a report on widget number {i}.", report("The widget's ID."))
               for i in range(600)] + [SALES]
    weighed: list[str] = []
    score = choosing.Chooser._score
    monkeypatch.setattr(choosing.Chooser, "_score", lambda self, tool, *a: weighed.append(tool.name) or score(self, tool, *a))
    assert [r.name for r in decide(PROMPT, catalog).tool_requests] == ["get_report"]
    assert "get_report" in weighed
    assert len(set(weighed)) <= choosing.CANDIDATES, "only the closest tools are weighed in full, not all 601"


def test_a_variant_with_gutted_descriptions_scores_lower_on_the_shipped_suite(shipped, tmp_path):
    variant = gut(PROJECT_APPS / "booking", tmp_path / "booking-gutted")
    ids = ["booking-book-not-search", "fr-book-bistro", "missing-booking-details", "booking-search-tomorrow",
           "orders-where-is-my-order"]
    summary = run_eval(shipped, EvalOptions(out=tmp_path / "o", run_date=RUN_DATE, cases=ids, variant=variant))
    assert summary["configs"]["base"]["scores"]["overall"]["passed"] == 5
    assert summary["variant"]["newly_failing"] == ["booking-book-not-search", "fr-book-bistro", "missing-booking-details"]
    assert summary["variant"]["pass@1_delta"]["overall"] == -0.6


def test_gutting_only_the_function_description_loses_a_held_out_case(tmp_path):
    variant = gut(PROJECT_APPS / "weather", tmp_path / "weather-gutted", keep_parameters=True)
    summary = run_eval(load_suite(HELDOUT), EvalOptions(out=tmp_path / "o", run_date=RUN_DATE, variant=variant,
                                                        categories=["simple"]))
    assert summary["variant"]["newly_failing"] == ["h-tokyo-fahrenheit"] and summary["variant"]["newly_passing"] == []
