"""Local tools are held to the checks an AppFunction gets (issue 36): arguments are validated
before the tool runs and a bad call is ERROR_INVALID_ARGUMENT for the model, never the app's
failure; sync tools run off the event loop; ``Args:`` descriptions reach the schema. Issue 47:
strict by default (a boolean or a string is no number), hints that do not resolve are errors
naming the parameter, results are JSON or refused naming the type, tools are callable."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import enum
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
    function_tool,
    tool_call,
)
from droid.appfunctions import AppFunctionInvalidArgumentException

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


def test_a_boolean_or_a_string_is_no_number_unless_the_tool_asks_for_pydantics_lax_mode():
    strict = FunctionTool(double)
    whole, text, boolean = responses(strict, tool_call("double", amount=6), tool_call("double", amount="12"),
                                     tool_call("double", amount=True))
    assert whole == {"doubled": 12}
    assert invalid(text) == "Invalid arguments at amount: '12' is not of type 'number'"
    assert invalid(boolean) == "Invalid arguments at amount: True is not of type 'number'"
    lax = FunctionTool(double, strict=False)
    assert responses(lax, tool_call("double", amount="12")) == [{"doubled": 24.0}]
    [refused] = responses(lax, tool_call("double", amount="twelve"))
    assert invalid(refused) == ("Parameter amount: Input should be a valid number, unable to parse string as a "
                                "number (got 'twelve')")


def test_strict_checking_follows_a_hand_written_schema_and_the_signature_still_converts():
    def when(day: datetime.date) -> dict:
        return {"weekday": day.strftime("%A")}

    tool = FunctionTool(when, parameters={"type": "object", "properties": {"day": {"type": "string", "pattern": "^2026-"}},
                                          "required": ["day"]})
    ok, outside = responses(tool, tool_call("when", day="2026-05-01"), tool_call("when", day="2025-05-01"))
    assert ok == {"weekday": "Friday"}
    assert invalid(outside) == "Invalid arguments at day: '2025-05-01' does not match '^2026-'"


def test_a_missing_or_unknown_argument_is_the_models_mistake_not_the_apps_failure():
    ran = []
    tool = FunctionTool(lambda amount: ran.append(amount) or {}, name="double")
    missing, unknown = responses(FunctionTool(double), tool_call("double"), tool_call("double", amout=3))
    assert invalid(missing) == "Invalid arguments: 'amount' is a required property"
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
    assert invalid(broken) == "Invalid arguments at to: 'city' is a required property"


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
    assert invalid(refused).startswith("Invalid arguments at amount:")
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


def make_packer():
    class Box(pydantic.BaseModel):  # a model defined inside a function, as a test or a factory does
        weight_kg: float

    def pack(box: Box) -> dict:
        return {"weight_kg": box.weight_kg}

    return FunctionTool(pack)


def test_a_hint_naming_a_model_of_the_defining_function_resolves_there():
    tool = make_packer()
    assert tool.parameters["properties"]["box"] == {"$ref": "#/$defs/Box"}
    assert responses(tool, tool_call("pack", box={"weight_kg": 2})) == [{"weight_kg": 2.0}]
    [refused] = responses(tool, tool_call("pack", box={"weight_kg": "2"}))
    assert invalid(refused) == "Invalid arguments at box/weight_kg: '2' is not of type 'number'"


def test_a_hint_that_does_not_resolve_is_an_error_naming_the_parameter_and_why():
    def json_name(n: "integer") -> dict:  # noqa: F821 - the mistake under test
        return {}

    def misspelt(n: "integr") -> dict:  # noqa: F821
        return {}

    def unknown(parcel: Parcel) -> dict:  # noqa: F821 - defined nowhere
        return {}

    with pytest.raises(TypeError) as error:
        FunctionTool(json_name)
    assert str(error.value) == ("FunctionTool(json_name): the type hint of parameter 'n', 'integer', does not resolve: "
                                "NameError: name 'integer' is not defined (a type hint is a Python type: int, not the "
                                "JSON Schema name 'integer')")
    with pytest.raises(TypeError, match=r"parameter 'n', 'integr', does not resolve: .* \(did you mean int\?\)"):
        FunctionTool(misspelt)
    with pytest.raises(TypeError, match=r"FunctionTool\(unknown\): the type hint of parameter 'parcel', 'Parcel', does "
                                        r"not resolve: NameError: name 'Parcel' is not defined \(a hint under `from "
                                        r"__future__ import annotations` is text, .*define Parcel at module level"):
        FunctionTool(unknown)


def test_a_type_that_has_no_json_schema_is_refused_naming_the_parameter():
    class Handle:
        pass

    def use(handle: Handle) -> dict:
        return {}

    with pytest.raises(TypeError, match=r"FunctionTool\(use\): parameter 'handle' has type .*Handle.*, which has no "
                                        r"JSON Schema"):
        FunctionTool(use)


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Reading:
    at: datetime.datetime
    colour: Colour


def test_results_are_made_json_explicitly_or_refused_naming_the_tool_and_the_type():
    class Opaque:
        pass

    @function_tool
    def when() -> datetime.date:
        return datetime.date(2026, 5, 1)

    @function_tool
    def reading() -> Reading:
        return Reading(datetime.datetime(2026, 5, 1, 7, 30), Colour.RED)

    @function_tool
    def model() -> Address:
        return Address(street="1 Main St", city="Oslo")

    @function_tool
    def opaque() -> Opaque:
        return Opaque()

    model_ = ScriptedModel([[tool_call("when"), tool_call("reading"), tool_call("model"), tool_call("opaque")], "ok"])
    events = run(AgentRunner(Agent(tools=[when, reading, model, opaque]), model_).create_session(), "go")
    day, read, address, refused = [e.response for e in events if isinstance(e, FunctionResponse)]
    assert day == {"result": "2026-05-01"}
    assert read == {"at": "2026-05-01T07:30:00", "colour": "red"}
    assert address == {"street": "1 Main St", "city": "Oslo"}
    error = refused["error"]
    assert (error["code_name"], error["type"]) == ("ERROR_APP_UNKNOWN_ERROR", "ToolResultError")
    assert error["message"].startswith("tool opaque returned a tests.unit.agent.test_local_tools."
                                       "test_results_are_made_json_explicitly_or_refused_naming_the_tool_and_the_type."
                                       "<locals>.Opaque, which has no JSON form")


def test_a_tool_is_called_as_a_genkit_tool_is_arguments_checked_first():
    tool = FunctionTool(double)
    assert asyncio.run(tool({"amount": 2})) == {"doubled": 4}
    assert asyncio.run(tool(amount=3)) == {"doubled": 6}
    with pytest.raises(AppFunctionInvalidArgumentException, match="Invalid arguments at amount: '2' is not of type"):
        asyncio.run(tool(amount="2"))
    with pytest.raises(NotImplementedError, match="subclass AgentTool and define `async def execute"):
        asyncio.run(AgentTool(name="bare", parameters={"type": "object"})({}))


def test_what_the_model_would_not_be_told_is_warned_about_when_the_tool_is_made(caplog):
    def undocumented(city, *rest, **more) -> dict:
        return {}

    FunctionTool(undocumented)
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        "FunctionTool(undocumented): parameter 'city' has no type hint, so the model is told nothing of it and any "
        "JSON value passes",
        "FunctionTool(undocumented): *rest is not offered to the model: a tool's parameters are named, each with a "
        "type hint",
        "FunctionTool(undocumented): **more is not offered to the model: a tool's parameters are named, each with a "
        "type hint",
        "FunctionTool(undocumented) has no docstring: the model sees only its name; give it one (or description=) "
        "that says what it does",
    ]
    caplog.clear()
    FunctionTool(double)
    assert caplog.records == []
