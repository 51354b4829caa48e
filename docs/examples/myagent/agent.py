"""My agent app's own agent: what `droidsim agent --as com.example.myagent` and
`droidsim mcp --as com.example.myagent` run, as the app (docs/agent.md, "Your own agent app")."""

from droid.agent import Agent, AppFunctionAgentTools, FunctionTool, require_confirmation


def loyalty_points(customerId: str) -> dict:
    """Looks up how many loyalty points a customer has.

    Args:
        customerId: The customer's id (for example, CUS-1234).
    """
    return {"customerId": customerId, "points": 120}


def build_agent(context) -> Agent:
    """Called once per run with the app's Context: the agent to run."""
    functions = AppFunctionAgentTools.discover(context, ["fetch_order_details", "cancel_order"])
    # No on_confirm: the door asks its own user (droidsim agent: y/n; droidsim mcp: the client's).
    tools = require_confirmation([*functions, FunctionTool(loyalty_points)])
    return Agent(name="OrderHelper", instructions="Help customers with their orders and loyalty points.",
                 tools=tools, max_turns=3)
