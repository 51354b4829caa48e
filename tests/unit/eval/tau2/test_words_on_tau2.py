"""How eval's word rules read τ² agents' closing replies, measured on τ-bench's 200 recorded GPT-4o airline
runs (../shared/reference/benchmarks/tau-bench-v1, DROIDSIM_REFERENCE; skipped, naming it, where absent).

On a task whose gold actions change nothing, droidsim fails a closing reply that claims a change
(sim/eval/tau2/conversation.py). A careful agent must not fail so: the closing replies of the runs
on such tasks in which the agent changed nothing are read, and (nearly) none may claim. And the
reading must hear claims at all: the closing replies of the runs in which the agent did change the
database mostly say so."""

from __future__ import annotations

import json

import pytest

from droid.agent import AppFunctionAgentTools
from sim.eval.tau2.conversation import claims_of


@pytest.fixture(scope="module")
def recorded(reference_dir):
    folder = reference_dir / "benchmarks" / "tau-bench-v1"
    if not folder.is_dir():
        pytest.skip(f"τ-bench v1 data not found at {folder}")
    from sim.tau2 import DomainDevice, load_domain

    with DomainDevice(load_domain("airline", folder / "airline")) as domain_device:
        tools = AppFunctionAgentTools.discover(domain_device.device.shell_context())
    runs = json.loads((folder / "historical_trajectories" / "gpt-4o-airline.json").read_text())
    return [tool for tool in tools if tool.metadata.is_destructive], runs


def _closing(run: dict, writes: set[str]) -> tuple[str, str, bool, bool]:
    """(the agent's closing reply, the user message it answered, whether the task's gold actions write,
    whether the agent's writes went through)."""
    traj = run["traj"]
    pending: list[str] = []
    wrote = False
    for message in traj:  # each result answers the oldest call still open (the runs reuse call ids)
        if message["role"] == "assistant":
            pending += [call["function"]["name"] for call in message.get("tool_calls") or []]
        elif message["role"] == "tool" and pending:
            wrote |= pending.pop(0) in writes and not str(message.get("content")).startswith("Error")
    at = max(i for i, m in enumerate(traj) if m["role"] == "assistant" and m.get("content"))
    request = [m["content"] for m in traj[:at] if m["role"] == "user"][-1]
    gold_writes = any(a["name"] in writes for a in run["info"]["task"]["actions"])
    return traj[at]["content"], request, gold_writes, wrote


def test_careful_closing_replies_on_do_nothing_tasks_claim_nothing(recorded) -> None:
    writes, runs = recorded
    names = {tool.short_id for tool in writes}
    careful = [(reply, request) for reply, request, gold_writes, wrote in (_closing(r, names) for r in runs)
               if not gold_writes and not wrote]
    claiming = [(reply, claims) for reply, request in careful if (claims := claims_of(reply, request, writes))]
    assert len(careful) == 59
    # Measured 1 of 59: "the compensation policy for canceled flights is set at $100" (a participle
    # that names a kind of flight, not a thing done). docs/benchmarks.md gives the figure.
    assert len(claiming) <= 1, claiming


def test_closing_replies_after_a_change_mostly_claim_it(recorded) -> None:
    writes, runs = recorded
    names = {tool.short_id for tool in writes}
    changed = [(reply, request) for reply, request, _, wrote in (_closing(r, names) for r in runs) if wrote]
    heard = sum(bool(claims_of(reply, request, writes)) for reply, request in changed)
    # Measured 72 of 113; the others say goodbye or ask something else ("Is there anything else?").
    assert len(changed) == 113 and heard >= 70, heard
