"""Where a package's answers come from, as listings say it (list-app-functions, dumpsys)."""

from __future__ import annotations

from droidsim.v1.metadata_pb2 import AnswerSource


def answers_json(answers: AnswerSource, function_id: str) -> dict:
    """One function's: ``{"source": "code"}``, or the cassette (with how many calls of this
    function it recorded), the double and what a call nothing answers gets."""
    if answers.kind != "responses":
        return {"source": "code"}
    return {
        "source": "responses",
        "cassette": answers.cassette or None,
        "recorded": answers.recorded.get(function_id, 0),
        "double": answers.double_dir or None,
        "on_miss": answers.on_miss,
    }


def answers_line(answers: AnswerSource) -> str:
    if answers.kind != "responses":
        return "answers=code"
    parts = [f"cassette={answers.cassette} ({sum(answers.recorded.values())} calls)"] if answers.cassette else []
    if answers.double_dir:
        parts.append(f"double={answers.double_dir}")
    return " ".join(["answers=responses", *parts, f"onMiss={answers.on_miss}"])
