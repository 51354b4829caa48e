"""The suite file: cases as data, validated with pydantic before anything runs.

See docs/eval.md for the format. ``load_suite(path)`` returns a ``Suite`` or
raises ``SuiteError`` naming the file, the line and the field, so a typo costs
no model call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

from droid.agent.confirmation import name_words
from sim.eval.apps import AppSource
from sim.eval.categories import CATEGORIES
from sim.eval.matchers import Matcher, MatcherError, compile_fields, compile_matcher, plain_value
from sim.eval.pairing import MAX_EXPECTED
from sim.eval.phrases import check_patterns
from sim.eval.yaml_lines import YamlError, line_of, load_with_lines
from sim.platform_version import VERSIONS
from sim.pm.app_folders import NotAnAppFolder, app_folders_in
from sim.responses.installed import ON_MISS_CHOICES

Category = Literal[CATEGORIES]  # type: ignore[valid-type] - the tuple's values, checked by pydantic
_TURN_KEYS = ("user", "calls", "abstain", "ask", "about", "allow")
# A function named like a read changes nothing (the AppFunction metadata has no read-only flag).
READ_VERBS = ("get", "fetch", "list", "search", "find", "read", "lookup", "look", "check", "query", "show", "view")
_KIND_HINTS = {"apk": " (an app folder is folder: DIR)", "folder": " (an APK is apk: FILE)"}
_ANSWER_WORDS = {"yes": "Yes, go ahead.", "no": "No, don't do that."}
DEFAULT_AGENT = "com.example.assistant"
PROJECT_APPS = Path(__file__).resolve().parents[2] / "apps"


class SuiteError(ValueError):
    """A suite that cannot run: where (file, line, field) and why."""

    def __init__(self, file: Path | str, line: int, field: str, message: str) -> None:
        where = f"{file}:{line}" if line > 0 else str(file)
        where += f": {field}" if field else ""
        super().__init__(f"{where}: {message}")
        self.file, self.line, self.field, self.message = str(file), line, field, message


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)


class ForSdks(_Strict):
    """Something of a suite that applies on some SDKs only: ``sdk: 37`` or ``sdk: [36, 37]``
    (left out: every SDK). Elsewhere it is left out of the run, as if not written."""

    sdk: tuple[int, ...] | None = None

    @field_validator("sdk", mode="before")
    @classmethod
    def _sdks(cls, value: Any) -> Any:
        values = [value] if isinstance(value, int) and not isinstance(value, bool) else value
        if not isinstance(values, (list, tuple)) or not values or any(v not in VERSIONS for v in values):
            raise ValueError(f"sdk is one of {', '.join(map(str, VERSIONS))} or a list of them, not {value!r}")
        return tuple(values)

    def applies(self, sdk: int) -> bool:
        return self.sdk is None or sdk in self.sdk


class Call(ForSdks):
    """A call the suite makes itself (setup, state checks, probes), as the shell."""

    function: str = Field(min_length=1)
    args: dict[str, Any] = Field(default_factory=dict)

    @field_validator("args", mode="before")
    @classmethod
    def _plain_args(cls, value: Any) -> Any:
        # YAML reads 2025-06-14 as a date; a call carries the ISO string.
        if isinstance(value, dict):
            return {k: plain_value(v) for k, v in value.items()}
        return value


class ExpectedCall(ForSdks):
    """A call the agent must make: the function (short or full id) and argument matchers."""

    function: str = Field(min_length=1)
    args: dict[str, Matcher] = Field(default_factory=dict)
    # Destructive calls: must the agent ask first, and what does the user answer?
    confirmation: Literal["required", "not-required"] | None = None
    answer: Literal["yes", "no"] = "yes"
    # What the user says when the model asks in words (confirmation mode ``model``).
    reply: str | None = Field(default=None, min_length=1)
    # The device's answer the case expects, by error code name.
    error: str | None = Field(default=None, pattern=r"^ERROR_[A-Z_]+$")
    # False: the device answers but does not do it (a shipped order is not cancelled); the reply must say so.
    done: bool = True
    # The fields of the answer the reply must tell the user (a lookup's status, temperature...).
    tell: list[str] = Field(default_factory=list)

    @property
    def approves(self) -> bool:
        return self.answer == "yes"

    @property
    def reply_text(self) -> str:
        return self.reply or _ANSWER_WORDS[self.answer]

    @field_validator("args", mode="before")
    @classmethod
    def _matchers(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            raise ValueError("args is a mapping of argument name to matcher")
        try:
            return compile_fields(value)
        except MatcherError as error:
            raise ValueError(str(error)) from None


class Turn(_Strict):
    """One user message and what the agent must do in answer to it."""

    user: str = Field(min_length=1)
    calls: list[ExpectedCall] | None = None
    abstain: bool = False
    ask: bool = False
    # For ask: words the question must mention (any one), e.g. [title, name] when the title is missing.
    about: list[str] = Field(default_factory=list)
    allow: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_expectation(self) -> "Turn":
        given = [name for name, on in (("calls", self.calls is not None), ("abstain", self.abstain), ("ask", self.ask)) if on]
        if len(given) > 1:
            raise ValueError(f"a turn expects calls, abstain or ask, not {' and '.join(given)}")
        if self.calls is not None and not self.calls:
            raise ValueError("calls is empty: write abstain: true for a turn that must make no call")
        if self.calls is not None and len(self.calls) > MAX_EXPECTED:
            raise ValueError(f"a turn expects at most {MAX_EXPECTED} calls")
        if self.about and not self.ask:
            raise ValueError("about: names what an ask turn's question is about; this turn has no ask: true")
        return self

    @property
    def expects(self) -> str | None:
        if self.calls:
            return "calls"
        return "abstain" if self.abstain else "ask" if self.ask else None


class StateCheck(ForSdks):
    """A read-only call after the conversation whose result must match (or fail with ``error``)."""

    function: str = Field(min_length=1)
    args: dict[str, Any] = Field(default_factory=dict)
    expect: Matcher | None = None
    error: str | None = None

    @field_validator("expect", mode="before")
    @classmethod
    def _matcher(cls, value: Any) -> Any:
        try:
            return compile_matcher(value)
        except MatcherError as error:
            raise ValueError(str(error)) from None

    @field_validator("args", mode="before")
    @classmethod
    def _plain_args(cls, value: Any) -> Any:
        return Call._plain_args(value)

    @model_validator(mode="after")
    def _something_to_check(self) -> "StateCheck":
        if (self.expect is None) == (self.error is None):
            raise ValueError("a state check has expect (the result) or error (an error code name), one of them")
        return self

    def call(self) -> Call:
        return Call(function=self.function, args=self.args)


class Case(ForSdks):
    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    category: Category
    description: str = ""
    language: str | None = None
    setup: list[Call] = Field(default_factory=list)
    turns: list[Turn] = Field(min_length=1)
    state: list[StateCheck] = Field(default_factory=list)
    unchanged: bool = False

    @model_validator(mode="before")
    @classmethod
    def _single_turn_shorthand(cls, data: Any) -> Any:
        """``user:`` with ``calls:``/``abstain:``/``ask:`` on the case itself is its one turn."""
        if isinstance(data, dict) and "user" in data:
            if "turns" in data:
                raise ValueError("write user: (one turn) or turns: (several), not both")
            data = dict(data)
            data["turns"] = [{k: data.pop(k) for k in _TURN_KEYS if k in data}]
        return data

    @model_validator(mode="after")
    def _checks_something(self) -> "Case":
        if not any(t.expects for t in self.turns) and not self.state:
            raise ValueError("the case checks nothing: give a turn calls, abstain or ask, or add state checks")
        if self.category == "non-English" and not self.language:
            raise ValueError("a non-English case names its language (language: th, zh, fr, ...)")
        return self

    def expected_calls(self) -> list[ExpectedCall]:
        return [c for t in self.turns for c in t.calls or []]

    def changes_state(self) -> list[str]:
        """The expected calls that change the device (by name: see ``READ_VERBS``)."""
        return [c.function for c in self.expected_calls() if not is_read(c.function)]

    def functions(self) -> list[str]:
        """Every function id the case names, for the up-front check against the device."""
        names = [c.function for c in self.setup] + [c.function for c in self.expected_calls()]
        names += [s.function for s in self.state] + [f for t in self.turns for f in t.allow]
        return names

    def for_sdk(self, sdk: int) -> "Case":
        """The case as it runs on ``sdk``: its setup calls, expected calls and state checks for
        other SDKs left out (a turn left with no call expects nothing)."""
        turns = [t if not t.calls else t.model_copy(update={"calls": [c for c in t.calls if c.applies(sdk)] or None})
                 for t in self.turns]
        return self.model_copy(update={"setup": [c for c in self.setup if c.applies(sdk)], "turns": turns,
                                       "state": [c for c in self.state if c.applies(sdk)]})


class AppEntry(_Strict):
    """An ``apps:`` entry: an APK or an app folder (or a folder of them), and where a code-less
    app's answers come from, as ``droidsim install`` takes them (docs/responses.md)."""

    apk: str | None = Field(default=None, min_length=1)
    folder: str | None = Field(default=None, min_length=1)
    responses: str | None = Field(default=None, min_length=1)
    double: str | None = Field(default=None, min_length=1)
    on_miss: Literal[ON_MISS_CHOICES] | None = None  # type: ignore[valid-type]

    @model_validator(mode="after")
    def _one_app(self) -> "AppEntry":
        if (self.apk is None) == (self.folder is None):
            raise ValueError("an apps entry names one app: apk: FILE or folder: DIR")
        return self


class PhraseCues(_Strict):
    """A language's extra cues for scoring the agent's words (sim/eval/phrases.py)."""

    success: list[str] = Field(default_factory=list)
    negation: list[str] = Field(default_factory=list)
    failure: list[str] = Field(default_factory=list)
    retry: list[str] = Field(default_factory=list)
    question: list[str] = Field(default_factory=list)

    @field_validator("success", "negation", "failure", "retry", "question")
    @classmethod
    def _patterns(cls, value: list[str]) -> list[str]:
        check_patterns(value)
        return value


class Suite(_Strict):
    suite: str = Field(min_length=1)
    description: str = ""
    apps: list[AppEntry] | None = None
    agent: str = DEFAULT_AGENT
    phrases: dict[str, PhraseCues] = Field(default_factory=dict)
    probes: list[Call] = Field(default_factory=list)
    cases: list[Case] = Field(min_length=1)
    path: Path | None = None
    _lines: dict = PrivateAttr(default_factory=dict)
    _data: dict = PrivateAttr(default_factory=dict)

    def locate(self, loc: tuple[Any, ...]) -> tuple[int, str]:
        """The line and field name of a place in the suite, as the file has it."""
        loc = _file_loc(loc, self._data)
        return line_of(self._lines, loc), _field(loc)

    @model_validator(mode="after")
    def _unique_ids(self) -> "Suite":
        seen: set[str] = set()
        for case in self.cases:
            if case.id in seen:
                raise ValueError(f"two cases have the id {case.id!r}")
            seen.add(case.id)
        return self

    @field_validator("apps", mode="before")
    @classmethod
    def _folder_of_apps(cls, value: Any) -> Any:
        """``apps: DIR``, the first form, is one folder entry."""
        return [{"folder": value}] if isinstance(value, str) else value

    def app_sources(self) -> tuple[AppSource, ...]:
        """What the device installs, paths resolved beside the suite (default: the project's apps/);
        SuiteError at the entry's line for a path that is not what its field says."""
        if self.apps is None:
            return (AppSource(str(PROJECT_APPS)),)
        base = self.path.parent if self.path else Path.cwd()
        return tuple(self._app_source(n, entry, base) for n, entry in enumerate(self.apps))

    def _app_source(self, n: int, entry: AppEntry, base: Path) -> AppSource:
        def path(field: str, want: str) -> str | None:
            given = getattr(entry, field)
            if given is None:
                return None
            resolved = (base / given).resolve()
            if not resolved.exists():
                self._refuse(("apps", n, field), f"{given}: no such file or folder")
            if resolved.is_dir() != (want == "folder"):
                self._refuse(("apps", n, field), f"{given} is a {'file' if want == 'folder' else 'folder'}, not a "
                                                 f"{want}{_KIND_HINTS.get(field, '')}")
            return str(resolved)

        app = path("apk", "file") or path("folder", "folder")
        try:
            several = len(app_folders_in(Path(app))) if entry.folder else 1
        except NotAnAppFolder as error:
            self._refuse(("apps", n, "folder"), str(error))
        if several > 1 and (entry.responses or entry.double or entry.on_miss):
            self._refuse(("apps", n), f"{entry.folder} holds {several} app folders, and a response source answers "
                                      "for one app: give that app an entry of its own")
        line, field = self.locate(("apps", n))
        return AppSource(app, path("responses", "file"), path("double", "folder"), entry.on_miss,
                         where=f"{self.path or 'suite'}:{line}: {field}")

    def _refuse(self, loc: tuple[Any, ...], message: str) -> None:
        line, field = self.locate(loc)
        raise SuiteError(self.path or "suite", line, field, message)

    def functions(self) -> list[str]:
        return [c.function for c in self.probes] + [f for case in self.cases for f in case.functions()]

    def phrase_cues(self) -> dict[str, dict[str, list[str]]]:
        return {language: cues.model_dump() for language, cues in self.phrases.items()}

    def warnings(self, ray: bool = False) -> list[str]:
        """What the suite can run with but should not: a case that changes the device and checks
        nothing of what changed (its verdict would rest on the calls alone); apps from outside
        the suite's own folder, whose Python the run executes with the user's rights, and which
        ``ray`` uploads to the cluster (the app folders in a folder named, not the folder whole)."""
        out = []
        home = self.path.parent.resolve() if self.path is not None else None
        for n, source in enumerate(self.app_sources() if self.apps is not None and home else ()):
            line, _ = self.locate(("apps", n))
            for path in (p for p in (source.path, source.responses, source.double) if p):
                said = [] if Path(path).is_relative_to(home) else _outside_the_suite(path, path == source.path, ray)
                if said:
                    out.append(f"{self.path}:{line}: apps: {path} is outside the suite's folder: {', and '.join(said)} "
                               "(docs/security.md, \"Eval suites\")")
        for n, case in enumerate(self.cases):
            changing = case.changes_state()
            if changing and not case.state:
                line, _ = self.locate(("cases", n, "id"))
                out.append(f"{self.path or 'suite'}:{line}: case {case.id}: it expects {', '.join(dict.fromkeys(changing))}, "
                           "which changes the device, but has no state check (add state: to read what changed)")
        return out

    def sdk_skips(self, sdk: int) -> dict[str, str]:
        """The cases that do not run on ``sdk``, and why: written for other SDKs (``sdk:``), or
        left with nothing to check once their calls for other SDKs are left out."""
        skips = {}
        for case in self.cases:
            adapted = case.for_sdk(sdk)
            if not case.applies(sdk):
                skips[case.id] = (f"the case is for SDK {' and '.join(map(str, case.sdk or ()))} only (sdk:), and "
                                  f"this run's devices are SDK {sdk}")
            elif not any(t.expects for t in adapted.turns) and not adapted.state:
                skips[case.id] = f"on SDK {sdk} the case checks nothing: its calls and state checks are for other SDKs (sdk:)"
        return skips

    def for_sdk(self, sdk: int, skipped: dict[str, str]) -> "Suite":
        """The suite as it runs on ``sdk``: its cases for that SDK (each as ``Case.for_sdk``), but
        those in ``skipped``; its probes for that SDK."""
        cases = [c.for_sdk(sdk) for c in self.cases if c.applies(sdk) and c.id not in skipped]
        suite = self.model_copy(update={"cases": cases, "probes": [p for p in self.probes if p.applies(sdk)]})
        suite._lines, suite._data = self._lines, self._data
        return suite

    def select(self, ids: list[str] | None = None, categories: list[str] | None = None) -> list[Case]:
        cases = [c for c in self.cases if (not ids or c.id in ids) and (not categories or c.category in categories)]
        unknown = sorted(set(ids or ()) - {c.id for c in self.cases})
        if unknown:
            raise SuiteError(self.path or "suite", 0, "cases", f"no case with id {', '.join(unknown)}")
        return cases


def _outside_the_suite(path: str, app: bool, ray: bool) -> list[str]:
    """What the run does with a file or folder of the suite's apps from outside its folder."""
    folder = Path(path).is_dir()
    said = ["its Python runs as code with your rights"] if folder else []  # an APK's DEX and a cassette do not run
    if ray:
        said.append(f"--ray uploads {'its app folders' if app and folder else 'it'} to the Ray cluster")
    return said


def skipped_lines(summary: dict[str, Any]) -> list[str]:
    """What a run's report and terminal say of the cases it skipped (Suite.sdk_skips, check_suite)."""
    return [f"case {case_id} skipped: {reason}" for case_id, reason in (summary.get("skipped") or {}).items()]


def is_read(function: str) -> bool:
    """A function whose short name starts with a read verb, whatever its case
    (``fetch_order_details``, ``getAccountBalance``, ``ListLights``)."""
    words = name_words(function.rpartition("#")[2])
    return bool(words) and words[0] in READ_VERBS


def load_suite(path: str | Path) -> Suite:
    """Read and validate a suite file; SuiteError names the file, the line and the field."""
    path = Path(path)
    try:
        data, lines = load_with_lines(path)
    except FileNotFoundError:
        raise SuiteError(path, 0, "", "no such file") from None
    except YamlError as error:
        raise SuiteError(path, error.line, "", f"not valid YAML: {error.message}") from None
    if not isinstance(data, dict):
        raise SuiteError(path, 1, "", "a suite is a mapping with suite: and cases:")
    try:
        suite = Suite.model_validate({**data, "path": None})
    except ValidationError as error:
        first = error.errors()[0]
        loc = _file_loc(first["loc"], data)
        raise SuiteError(path, line_of(lines, loc), _field(loc), _message(first)) from None
    suite = suite.model_copy(update={"path": path.resolve()})
    suite._lines, suite._data = lines, data
    suite.app_sources()  # each app's paths checked now, at its line, before any device boots
    return suite


def _file_loc(loc: tuple[Any, ...], data: dict[str, Any]) -> tuple[Any, ...]:
    """pydantic's location as it is in the file: a shorthand case has no turns[0]."""
    loc = tuple(p for p in loc if not (isinstance(p, str) and p.startswith("function-")))
    if loc[:1] == ("apps",) and isinstance(data.get("apps"), str):  # apps: DIR, read as one folder entry
        return ("apps",)
    if len(loc) >= 4 and loc[0] == "cases" and loc[2:4] == ("turns", 0):
        case = data.get("cases", [None] * (loc[1] + 1))[loc[1]] if isinstance(data.get("cases"), list) else None
        if isinstance(case, dict) and "user" in case:
            return loc[:2] + loc[4:]
    return loc


def _field(loc: tuple[Any, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _message(error: dict[str, Any]) -> str:
    message = error["msg"]
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    if error["type"] == "extra_forbidden":
        return "unknown field"
    if error["type"] == "literal_error" and error["loc"] and error["loc"][-1] == "category":
        return f"unknown category {error.get('input')!r}; the categories are: {', '.join(CATEGORIES)}"
    return message

