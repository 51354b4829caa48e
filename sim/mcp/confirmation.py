"""Asking the MCP client's user before a destructive function runs.

``--confirm elicit`` (the default) asks through elicitation when the client supports it, and
otherwise refuses; ``never`` refuses every destructive call; ``always-allow`` asks nobody. A
refusal is the HITL decorator's ``CANCELLED_BY_USER``, and nothing runs.

Up to protocol 2025-11-25 the question is an ``elicitation/create`` request in the middle of
the call. From 2026-07-28 a server sends no requests: the call returns an
``InputRequiredResult`` and the client retries it with the answer. The retry must carry the
``request_state`` this server signed for exactly that tool and those arguments, so an answer
cannot be made up without asking, nor approve other arguments than the ones shown.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
from typing import Any

import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from droid.agent.confirmation import cancelled_by_user
from sim.mcp.conversion import ToolShape
from sim.mcp.modes import ALWAYS_ALLOW, ELICIT, MODES

log = logging.getLogger("droidsim.mcp")

ANSWER_KEY = "confirm"
REQUESTED_SCHEMA = {
    "type": "object",
    "properties": {ANSWER_KEY: {"type": "boolean", "title": "Allow this call", "default": False}},
    "required": [ANSWER_KEY],
}


class Confirmation:
    def __init__(self, mode: str = ELICIT) -> None:
        if mode not in MODES:
            raise ValueError(f"confirmation mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self._key = secrets.token_bytes(32)

    async def decide(
        self, ctx: Any, shape: ToolShape, args: dict[str, Any], params: types.CallToolRequestParams
    ) -> bool | types.InputRequiredResult:
        """True to run the call, False to refuse it, or the question to send back first."""
        if self.mode != ELICIT:
            return self.mode == ALWAYS_ALLOW
        capabilities = ctx.session.client_capabilities
        if capabilities is None or capabilities.elicitation is None:
            return False
        message = question(shape, args)
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return self._decide_by_retry(shape, args, params, message)
        try:
            answer = await ctx.session.elicit_form(message, REQUESTED_SCHEMA, related_request_id=ctx.request_id)
        except Exception as error:  # the client failed to ask: as good as no
            log.warning("elicitation for %s failed: %s", shape.name, error)
            return False
        return approves(answer)

    def refusal_message(self, ctx: Any) -> str:
        """What a refused destructive call tells the model: who said no, or why nobody was asked."""
        if self.mode != ELICIT:
            return "Not run: this bridge refuses every destructive call (droidsim mcp --confirm never)."
        capabilities = ctx.session.client_capabilities
        if capabilities is None or capabilities.elicitation is None:
            return ("Not run: this MCP client cannot ask its user (it declares no elicitation capability); use a "
                    "client that supports elicitation, or start the bridge with --confirm always-allow to run "
                    "destructive calls unasked.")
        return cancelled_by_user()["message"]

    def _decide_by_retry(
        self, shape: ToolShape, args: dict[str, Any], params: types.CallToolRequestParams, message: str
    ) -> bool | types.InputRequiredResult:
        state = self._sign(shape.name, args)
        if params.request_state is None:
            request = types.ElicitRequest(
                params=types.ElicitRequestFormParams(message=message, requested_schema=REQUESTED_SCHEMA)
            )
            return types.InputRequiredResult(input_requests={ANSWER_KEY: request}, request_state=state)
        if not hmac.compare_digest(params.request_state, state):
            return False
        return approves((params.input_responses or {}).get(ANSWER_KEY))

    def _sign(self, name: str, args: dict[str, Any]) -> str:
        call = json.dumps([name, args], sort_keys=True, ensure_ascii=False).encode()
        return hmac.new(self._key, call, hashlib.sha256).hexdigest()


def question(shape: ToolShape, args: dict[str, Any]) -> str:
    arguments = json.dumps(args, ensure_ascii=False, sort_keys=True)
    what = f"{shape.name} ({shape.function_id})" if shape.function_id else shape.name
    return f"Allow {what} with {arguments}? It may not be undoable."


def approves(answer: Any) -> bool:
    return (
        isinstance(answer, types.ElicitResult)
        and answer.action == "accept"
        and (answer.content or {}).get(ANSWER_KEY) is True
    )
