"""Words: splitting names, telling verbs apart, finding a description's verb.

The verb vocabularies come from the guide's own examples (get, fetch, list, find,
search, read are read-only; cancel, delete, pay are destructive). Destructive
verbs are the agent runtime's (droid.agent.confirmation), so the lint asks for
exactly the marking the agent would otherwise have to guess from the name.
"""

from __future__ import annotations

import re

from droid.agent.confirmation import DESTRUCTIVE_VERBS, name_words

__all__ = ["DESTRUCTIVE_VERBS", "name_words"]

READ_VERBS = frozenset({
    "get", "fetch", "list", "find", "search", "read", "retrieve", "query", "lookup", "look", "view",
    "count", "browse",
})
WRITE_VERBS = DESTRUCTIVE_VERBS | frozenset({
    "create", "add", "insert", "update", "edit", "modify", "set", "put", "write", "save", "store",
    "append", "extend", "patch", "post", "book", "submit", "upload", "change", "replace", "move",
    "rename", "mark", "assign", "enable", "disable", "toggle", "increment", "decrement", "register",
    "schedule", "commit", "pop", "discard", "push", "drop", "unlink", "rmtree", "truncate",
})
OPEN_VERBS = frozenset({"open", "show", "launch", "navigate", "display", "go"})

# Verbs with one intent; two functions of an app with the same intent and resource compete.
_INTENTS = {
    "get": {"get", "fetch", "read", "retrieve", "load", "lookup", "obtain", "view"},
    "search": {"search", "find", "query", "lookup"},
    "list": {"list", "enumerate", "browse"},
    "create": {"create", "add", "new", "make", "insert", "compose"},
    "update": {"update", "edit", "modify", "change", "patch", "set"},
    "delete": {"delete", "remove", "erase", "drop", "purge", "destroy", "wipe"},
    "cancel": {"cancel", "abort", "revoke", "terminate"},
    "send": {"send", "post", "submit"},
}
INTENT_OF = {verb: intent for intent, verbs in _INTENTS.items() for verb in verbs}

# Words that name no resource ("get_order_details" is about an order).
NON_RESOURCE_WORDS = frozenset({
    "details", "detail", "info", "information", "data", "by", "for", "the", "a", "an", "of", "all",
    "my", "current", "id", "async", "to", "from", "with", "in", "on",
})


def verb(word: str, vocabulary: frozenset[str] | set[str]) -> str | None:
    """``word`` as a verb of ``vocabulary``, read through a third-person s:
    "fetches" -> "fetch", "deletes" -> "delete", "copies" -> "copy"."""
    word = word.lower()
    candidates = [word]
    if word.endswith("ies"):
        candidates.append(word[:-3] + "y")
    if word.endswith("es"):
        candidates.append(word[:-2])
    if word.endswith("s"):
        candidates.append(word[:-1])
    return next((c for c in candidates if c in vocabulary), None)


def first_word(text: str) -> str:
    match = re.search(r"[A-Za-z]+", text)
    return match.group(0).lower() if match else ""


def singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def resource_words(name: str) -> tuple[str, ...]:
    """The words of a function name after its verb, singular: ``list_lights`` -> (light,)."""
    words = name_words(name)
    return tuple(singular(w) for w in words[1:] if w not in NON_RESOURCE_WORDS)


def name_forms(name: str) -> set[str]:
    """The spellings a description may use to name a function: as written,
    snake_case, camelCase and PascalCase."""
    words = name_words(name)
    camel = words[0] + "".join(w.capitalize() for w in words[1:])
    return {name, "_".join(words), camel, camel[:1].upper() + camel[1:]}
