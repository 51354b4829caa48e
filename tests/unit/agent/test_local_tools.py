"""Local tools are held to the checks an AppFunction gets (issue 36): arguments are validated
before the tool runs and a bad call is ERROR_INVALID_ARGUMENT for the model, never the app's
failure; sync tools run off the event loop; ``Args:`` descriptions reach the schema."""

from __future__ import annotations

import threading

import pydantic
import pytest

from droid.agent import (
    Agent,
    AgentRunner,
    AgentTool,
    FunctionResponse,
    FunctionTool,
    HitlConfirmationTool,
    ScriptedModel,
    tool_call,
)

from .conftest import run


class Address(pydantic.BaseModel):
    street: str
    city: str


def double(amount: float) -> dict:
    """Doubles an amount.

    Args:
        amount: How much to double, in euros.

    Returns:
        The doubled amount.
    """
    return {"doubled": amount * 2}


def ship(to: Address, express: bool = False) -> dict:
    """Ships the parcel."""
    assert isinstance(to, Address), f"got {type(to).__name__}"
    return {"city": to.city, "express": express}


def responses(tool: AgentTool, *calls) -> list[dict]:
    model = ScriptedModel([list(calls), "done"])
    events = run(AgentRunner(Agent(tools=[tool]), model).create_session(), "go")
    return [e.response for e in events if isinstance(e, FunctionResponse)]


def invalid(response: dict) -> str:
    error = response["error"]
    assert (error["code_name"], error["type"], error["category"]) == (
        "ERROR_INVALID_ARGUMENT", "AppFunctionInvalidArgumentException", "ERROR_CATEGORY_REQUEST_ERROR"), error
    return error["message"]


def test_a_number_in_a_string_is_read_as_pydantic_reads_it_and_words_are_refused():
    assert responses(FunctionTool(double), tool_call("double", amount="12")) == [{"doubled": 24.0}]
    [refused] = responses(FunctionTool(double), tool_call("double", amount="twelve"))
    assert invalid(refused) == ("Parameter amount: Input should be a valid number, unable to parse string as a "
                                "number (got 'twelve')")


def test_a_missing_or_unknown_argument_is_the_models_mistake_not_the_apps_failure():
    ran = []
    tool = FunctionTool(lambda amount: ran.append(amount) or {}, name="double")
    missing, unknown = responses(FunctionTool(double), tool_call("double"), tool_call("double", amout=3))
    assert invalid(missing) == "Parameter amount is required"
    assert invalid(unknown) == "Unknown parameter 'amout' (did you mean amount?); double takes: amount"
    assert responses(tool, tool_call("double", amount=1, extra=2))[0]["error"]["code_name"] == "ERROR_INVALID_ARGUMENT"
    assert ran == [], "a call with bad arguments never reaches the function"


def test_a_pydantic_model_parameter_arrives_as_the_model_even_from_json_text():
    tool = FunctionTool(ship)
    schema = tool.parameters
    assert schema["properties"]["to"] == {"$ref": "#/$defs/Address"} and schema["required"] == ["to"]
    assert schema["additionalProperties"] is False
    given_object, given_text, broken = responses(
        tool,
        tool_call("ship", to={"street": "1 Main St", "city": "Oslo"}),
        tool_call("ship", to='{"street": "1 Main St", "city": "Bergen"}', express=True),
        tool_call("ship", to={"street": "1 Main St"}),
    )
    assert given_object == {"city": "Oslo", "express": False}
    assert given_text == {"city": "Bergen", "express": True}
    assert invalid(broken).startswith("Parameter to.city is required")


def test_args_descriptions_reach_the_schema_and_the_rest_describes_the_tool():
    tool = FunctionTool(double)
    assert tool.parameters["properties"]["amount"] == {"type": "number", "description": "How much to double, in euros."}
    assert tool.description == "Doubles an amount.\nReturns: The doubled amount."


def test_a_tool_with_a_hand_written_schema_is_checked_by_json_schema_rules():
    class Lamp(AgentTool):
        def __init__(self):
            super().__init__(name="dim", parameters={
                "type": "object", "properties": {"level": {"type": "number"}}, "required": ["level"],
            })

        async def execute(self, args):
            return {"level": args["level"]}

    ok, text, missing = responses(Lamp(), tool_call("dim", level=0.5), tool_call("dim", level="12"), tool_call("dim"))
    assert ok == {"level": 0.5}
    assert invalid(text) == "Invalid arguments at level: '12' is not of type 'number'"
    assert invalid(missing) == "Invalid arguments: 'level' is a required property"


def test_a_confirmation_is_never_asked_for_a_call_with_bad_arguments():
    asked = []
    tool = HitlConfirmationTool(FunctionTool(double), lambda name, args: asked.append(args) or True)
    [refused] = responses(tool, tool_call("double", amount="twelve"))
    assert invalid(refused).startswith("Parameter amount:")
    assert asked == []


@pytest.mark.parametrize("kind", ["function", "agent tool"])
def test_two_sync_tools_of_one_turn_overlap(kind):
    """Each tool waits inside until the other has entered: run one after the other, the first
    would wait alone until the barrier breaks (and answer with an error)."""
    inside = threading.Barrier(2, timeout=10)
    threads = set()

    def wait_for_the_other(name: str) -> dict:
        threads.add(threading.get_ident())
        inside.wait()
        return {"name": name}

    class Sync(AgentTool):
        def execute(self, args):  # a plain method: the runtime puts it on a worker thread
            return wait_for_the_other(**args)

    tool = FunctionTool(wait_for_the_other, name="slow") if kind == "function" else Sync(
        name="slow", parameters={"type": "object", "properties": {"name": {"type": "string"}}})
    answers = responses(tool, tool_call("slow", name="a"), tool_call("slow", name="b"))
    assert answers == [{"name": "a"}, {"name": "b"}], "both were inside the tool at once"
    assert threading.get_ident() not in threads, "neither ran on the event loop's thread"
