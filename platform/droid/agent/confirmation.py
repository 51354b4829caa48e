"""Human in the loop: ask the user before a destructive function runs.

``HitlConfirmationTool(delegate, on_confirm)`` is the decorator of seeds/000,
ready to use. ``on_confirm(tool_name, args)`` returns True to go ahead (it may be
async). Declined, the model receives ``CANCELLED_BY_USER`` and nothing runs.
The arguments the user approved are the ones that run: the tool works on a
private copy taken before it asks.

Without ``on_confirm`` the wrapper asks through a Genkit-style interrupt instead:
the run ends ``Interrupted`` with metadata ``{"confirmation_required": True, ...}``,
and the caller answers ``interrupt.confirm()`` (run it: a restart with resumed_metadata
``{"approved": True}``) or ``interrupt.deny()`` (``CANCELLED_BY_USER``), in
``session.send(restart=[...], respond=[...])``. A restart whose resumed_metadata has another
key is refused before anything runs, naming the one it reads.

Which tools are destructive is a predicate, ``is_destructive(tool) -> bool``;
``require_confirmation(tools, on_confirm, is_destructive=...)`` wraps exactly
those. The default, ``DestructivePolicy()``, decides in this order:

1. a tool's explicit ``destructive=True/False`` (set on it or on a wrapper) wins;
2. a ``destructive`` / ``is_destructive`` field on the AppFunction metadata, when
   the metadata model has one and it is set;
3. an id in ``function_ids`` (full id, short id or tool name);
4. the function's description says so: "destructive", "cannot be undone", "irreversible"
   (``DESTRUCTIVE_MARKERS``; the platform's metadata has no such field, so this is how a Kotlin
   app says it);
5. the function name starts with a destructive verb (cancel, delete, remove,
   pay, purchase, transfer, send, ... see ``DESTRUCTIVE_VERBS``).

``DestructivePolicy.only(ids)`` is the strict alternative: exactly those ids.
"""

from __future__ import annotations

import copy
import inspect
import re
from typing import Any, Awaitable, Callable, Iterable

from droid.agent.errors import AgentError
from droid.agent.interrupts import (  # noqa: F401 - CANCELLED_BY_USER: exported here, defined beside the interrupts
    APPROVED,
    CANCELLED_BY_USER,
    Interrupt,
    cancelled_by_user,
    current_tool_context,
)
from droid.agent.tools import AgentTool, call_tool

DESTRUCTIVE_VERBS = frozenset({
    "cancel", "delete", "remove", "erase", "wipe", "destroy", "purge", "clear", "reset",
    "pay", "purchase", "buy", "checkout", "transfer", "send", "revoke", "unsubscribe", "terminate",
})

DESTRUCTIVE_MARKERS = ("destructive", "cannot be undone", "can't be undone", "irreversible", "irreversibly")

ConfirmCallback = Callable[[str, dict[str, Any]], "bool | Awaitable[bool]"]
DestructivePredicate = Callable[[AgentTool], bool]


def name_words(name: str) -> list[str]:
    """``cancel_order`` / ``cancelOrder`` / ``CancelOrder`` -> ['cancel', 'order']."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]


class DestructivePolicy:
    """The default rule for "ask before running this" (see the module docstring)."""

    def __init__(
        self,
        function_ids: Iterable[str] = (),
        *,
        verbs: Iterable[str] = DESTRUCTIVE_VERBS,
        description_markers: Iterable[str] = DESTRUCTIVE_MARKERS,
    ) -> None:
        self.function_ids = frozenset(function_ids)
        self.verbs = frozenset(v.lower() for v in verbs)
        self.markers = tuple(m.lower() for m in description_markers)

    @classmethod
    def only(cls, function_ids: Iterable[str]) -> "DestructivePolicy":
        """Exactly the listed ids (full, short or tool names) and tools marked explicitly."""
        return cls(function_ids, verbs=(), description_markers=())

    def __call__(self, tool: AgentTool) -> bool:
        explicit = _explicit_flag(tool)
        if explicit is not None:
            return explicit
        metadata = tool.metadata
        marked = _metadata_flag(metadata)
        if marked:
            return True
        short = tool.function_id.rsplit("#", 1)[-1] if tool.function_id else tool.name
        if {tool.name, short, tool.function_id} & self.function_ids:
            return True
        if says_destructive(tool.description or "", self.markers):
            return True
        words = name_words(short)
        return bool(words) and words[0] in self.verbs


default_is_destructive: DestructivePredicate = DestructivePolicy()


def says_destructive(description: str, markers: Iterable[str] = DESTRUCTIVE_MARKERS) -> bool:
    """Whether a description says the function is destructive, in one of ``markers``' words."""
    text = description.lower()
    return any(re.search(rf"\b{re.escape(m)}\b", text) for m in markers)


def _explicit_flag(tool: AgentTool | None) -> bool | None:
    while tool is not None:
        if tool.destructive is not None:
            return tool.destructive
        tool = tool.delegate
    return None


def _metadata_flag(metadata: Any) -> bool:
    """Forward-compatible: honour a destructive marker once the metadata model has one."""
    if metadata is None:
        return False
    fields = getattr(getattr(metadata, "DESCRIPTOR", None), "fields_by_name", {})
    return any(name in fields and bool(getattr(metadata, name)) for name in ("destructive", "is_destructive"))


class HitlConfirmationTool(AgentTool):
    """Asks before running its delegate; declined, returns ``CANCELLED_BY_USER``."""

    def __init__(self, delegate: AgentTool, on_confirm: ConfirmCallback | None = None) -> None:
        super().__init__(delegate, destructive=True)
        self.on_confirm = on_confirm

    async def execute(self, args: dict[str, Any]) -> dict[str, Any]:
        approved_args = copy.deepcopy(args)
        if self.on_confirm is None:
            confirmed = self._confirmation_from_interrupt(approved_args)
        else:
            confirmed = self.on_confirm(self.name, copy.deepcopy(approved_args))
            if inspect.isawaitable(confirmed):
                confirmed = await confirmed
            if not isinstance(confirmed, bool):  # a callback that forgot to answer must not decline in silence
                raise AgentError(f"on_confirm for {self.name} returned {confirmed!r}, not True or False: nothing ran; "
                                 "return True to run it, False to decline")
        if not confirmed:
            return cancelled_by_user()
        return await call_tool(self.delegate, approved_args)

    def resume_problem(self, resumed_metadata: dict[str, Any]) -> str | None:
        return confirmation_answer_problem(self.name, resumed_metadata)

    def _confirmation_from_interrupt(self, args: dict[str, Any]) -> bool:
        context = current_tool_context()
        if context is not None and context.resumed:
            approved = context.resumed_metadata.get(APPROVED)
            if not isinstance(approved, bool):
                raise AgentError(confirmation_answer_problem(self.name, context.resumed_metadata))
            return approved
        raise Interrupt({
            "confirmation_required": True,
            "tool": self.name,
            "function_id": self.function_id,
            "args": args,
            "message": f"Allow {self.name} with {args}?",
        })


def confirmation_answer_problem(name: str, resumed_metadata: dict[str, Any]) -> str | None:
    """Why ``resumed_metadata`` is no answer to ``name``'s confirmation, or None."""
    unknown = sorted(set(resumed_metadata) - {APPROVED})
    if not unknown and isinstance(resumed_metadata.get(APPROVED), bool):
        return None
    got = f"got the key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}" if unknown else (
        f"got approved={resumed_metadata.get(APPROVED)!r}")
    return (f"the confirmation of {name} reads resumed_metadata {{'{APPROVED}': True or False}}, {got}: answer it "
            f"with interrupt.confirm() or interrupt.deny(), or restart(resumed_metadata={{'{APPROVED}': True}})")


def require_confirmation(
    tools: Iterable[AgentTool],
    on_confirm: ConfirmCallback | None = None,
    *,
    is_destructive: DestructivePredicate = default_is_destructive,
) -> list[AgentTool]:
    """The same tools, with each destructive one wrapped in HitlConfirmationTool."""
    wrapped = []
    for tool in tools:
        if is_destructive(tool) and not is_confirmed(tool):
            tool = HitlConfirmationTool(tool, on_confirm)
        wrapped.append(tool)
    return wrapped


def is_confirmed(tool: AgentTool | None) -> bool:
    """Whether a HitlConfirmationTool guards ``tool`` (it, or a delegate it wraps)."""
    while tool is not None:
        if isinstance(tool, HitlConfirmationTool):
            return True
        tool = tool.delegate
    return False
