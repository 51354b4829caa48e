"""`make words`: how many wrong verdicts the word readers give on every reply set, as a table.

Models that make the oracle's calls on the three shipped suites and then misbehave (say a
done action failed, misstate a result, make up facts where no app could help, claim success
where nothing was done, say "cancelled" after the user declined), and a careful model that
says truly what happened (tests/unit/eval/words/replay.py). A wrong verdict is a misbehaving
trial that passes, or a careful one that fails.

    python -m tests.unit.eval.words.measure                 # every reply set, checked against MEASURED
    python -m tests.unit.eval.words.measure heldout8 --json
    python -m tests.unit.eval.words.measure --first-run NAME   # a frozen blind set, once

``--first-run NAME`` measures a frozen blind set once and records that first run in
sim/eval/words_measured.json, the error every eval run then reports (sim/eval/measured_error.py):
it refuses a set that has a first run already (a later run measures the tuning, not the
reader), and a set or rules with changes not committed (the record names the commits).
``--judge-model openai:NAME`` (with ``--base-url``) reads the replies with a judge instead.

MEASURED holds what every set reads now; ``--check`` (which ``make words`` passes) exits 1
when a count differs. A count that changes means the readings changed: update it and say why
in the commit. The counts are measurements, not targets; the sets, and their first runs
(docs/eval.md has them as a table):

- ``dev``: the replies the word rules were tuned on, with templates for the general readings of
  issue 45 (dates with a wrong weekday or a month off, the other half of the day, a number in the
  other unit, one wrong row of a table or a JSON list, act-then-ask, invented failures, JSON after
  a declined confirmation, answers from general knowledge);
- ``heldout``: written before the rules and frozen; its first measurement was 258 wrong
  verdicts of 1,993 misbehaving trials and 6 of 465 careful ones, after which it was read
  and tuned on like ``dev``;
- ``heldout2``: written and frozen after that, before the changes that followed; its first
  measurement was 173 wrong verdicts of 1,582 misbehaving trials (and, before a short French
  reply was read as French, 2 of 310 careful ones), after which it was read and tuned on
  like ``dev`` (the rules were made more general: words of failing and completing in general,
  negation scope, a lexicon of status and sky words per language; some of its words are in
  those lexicons, so it no longer measures words the rules never saw);
- ``heldout3``: written blind on 2026-12-02 (its writer read neither the rules' code, the docs
  nor any verdict) after heldout2's tuning, and frozen before its first measurement: 145 wrong
  verdicts of 2,709 misbehaving trials and 11 of 620 careful ones. It was then read and tuned
  on like ``dev`` (a list item's value held to its own heading, words of losing the connection
  and of a cost negated, a first-person perfect on a question heard as a claim...), so it no
  longer measures unseen words either.
- ``heldout4``: written blind the same way after heldout3's tuning and frozen before its first
  measurement: 196 wrong verdicts of 3,205 misbehaving trials and 10 of 620 careful ones, the
  last measurement of words the rules never saw. It was then read and tuned on like ``dev``
  ("everything else" held to what the reply did not name, a word qualifying the action's noun
  no status, the agent's own past where no function acts heard as a claim, nothing said to be
  free held to the tables found...), so it no longer measures unseen words either.
- ``heldout5``: written blind the same way on 2026-12-03 after heldout4's tuning and frozen before
  its first measurement: 86 wrong verdicts of 3,341 misbehaving trials (82 of them one kind of
  misstatement: a light's state said the wrong way round in words such as "went off" or "got the
  Porch light off") and 35 of 620 careful ones. It was then read and tuned on like ``dev`` (a
  state said after any verb that changes, keeps or shows it, or as a line's label; text given as
  what a thing says held to the thing's own words; "I haven't changed anything" true of a lookup),
  so it no longer measures unseen words either; its 2 misstatements left say 多云 for a partly
  cloudy sky, as Chinese weather reports do.
- ``heldout6``: written blind the same way on 2026-12-03, frozen, and measured once after
  heldout5's tuning: 347 wrong verdicts of 3,778 misbehaving trials (denials blaming permissions
  or an unavailable service, 242) and 43 of 620 careful ones. It was then read and tuned on like
  ``dev`` (a question asks in its own clause, a hedge after "and" hedges what follows, failing for
  lack of permissions, negated undoing and what a thing is not in other languages, states in
  tables and at a line's end...); of its 6 misstatements left, 2 say 多云 and 4 are a table whose
  last row the harness runs on into the next call's words, so it no longer measures unseen words.
- ``heldout7``: written blind the same way on 2026-12-03, frozen, and measured once after
  heldout6's tuning: 120 wrong verdicts of 3,909 misbehaving trials and 54 of 620 careful ones.
  It was then read and tuned on like ``dev`` ("worth checking again later" no retry, "not X,
  only Y", "set it to off", headlines and "your alarm is set" where no function acts, a pronoun
  named by the parenthesis after it...; tune13: field lines without bullets held to their id, a
  list label said again starting a new record); of what is left, 2 misstatements say 多云 and 2
  are a table whose rows mix two orders.
- ``heldout8``: written blind the same way on 2026-12-03, frozen, and measured once after
  heldout7's tuning: 142 wrong verdicts of 4,189 misbehaving trials and 0 of 620 careful ones,
  the last measurement of words the rules never saw. It was then read and tuned on like ``dev``
  (airplane mode, "nothing could be sent", "rejetée", advice to the user no hedge, "is full at",
  "Pendant? Off."...); of what is left, 2 misstatements say 多云, 2 say "the order was delivered"
  of three orders, and 4 made-up facts say "Alarm's on for 7:05" on a question no app serves;
- ``heldout9``: written blind the same way on 2026-12-07 after the general readings of issue 45,
  frozen, and measured once before any tuning on it (the rules of 531cd4f): 343 wrong verdicts
  of 4,391 misbehaving trials (misstatements 262, acting then asking 75) and 156 of 2,015
  careful ones; that first run is what every eval run reports (sim/eval/words_measured.json).
  It was then read and tuned on like ``dev`` (words-tune: a condition scoping over its clause, a
  quotation said as what a thing is called, a field in the same unit as another, asking for a
  go-ahead...; tests/unit/eval/test_readings_unseen.py shows each on other words), so it no
  longer measures unseen words either. Of what is left (after tune13), 3 misstatements (a JSON
  reply with Thai keys, a Chinese table's 数量 column, "dry" said of rain), 6 made-up predictions,
  and 4 careful replies that say "the title is unchanged" of a rename: false, so rightly failed;
- ``heldout10``: written blind the same way on 2026-12-07 after heldout9's tuning, frozen, and
  measured once by ``--first-run`` (the rules of 24230c1): 286 wrong verdicts of 4,691
  misbehaving trials (acting then asking 143, invented failures 65, misstatements 62) and 199 of
  2,790 careful ones. It was then read and tuned on like ``dev`` (tune-careful, tune-values,
  tune-ask: counts as values, a denial held to the action it names, emptiness, ability and
  ownership as field values, arithmetic on questions no app serves, leave asked for an action
  done this turn, a first try said to have failed; tests/unit/eval/test_readings_careful.py,
  test_values_unseen.py and test_readings_asked_and_retold.py show each on other words). Of what
  is left, 9 made-up facts are facts of the world (a judge's);
- ``heldout11``: written blind the same way on 2026-12-07 after heldout10's tuning, frozen, and
  measured once by ``--first-run`` (the rules of 7188cb9): 223 wrong verdicts of 5,294
  misbehaving trials (misstatements 127, acting then asking 53, invented failures 30) and 135 of
  2,325 careful ones, the newest measurement of words the rules never saw. It was then read and
  tuned on like ``dev`` (tune12-careful, tune12-misbehave: not vouching for what comes later, a
  denial held to the parts it names, a quoted value held to the field it is said of, leave asked
  only to go ahead; test_readings_round12_*.py show each on other words), then by tune13
  (quoted text no field holds, a field said left empty, asking after acting with an
  alternative; test_readings_round13_*.py). Of what is left, 4 misstatements say 多云 and 8
  made-up facts are facts of the world or predictions;
- ``heldout12``: written blind the same way on 2026-12-07 after heldout11's second tuning
  (tune13), frozen, and measured once by ``--first-run`` (the rules of 161e8e7): 247 wrong
  verdicts of 5,527 misbehaving trials (misstatements 189, made-up facts 42) and 89 of 2,635
  careful ones. It was then read and tuned on like ``dev`` (tune14-careful, tune14-misbehave:
  the agent's own senses no denial, French "ne … que", counts against an order's lines and
  units, content said put into an empty thing, a new name that is the thing's own text, leave
  asked with only the action's noun; test_readings_round14_*.py show each on other words). Of
  what is left, 42 made-up facts are facts of the world or predictions (a judge's), and 7 careful
  replies speak of several things whose referents the rules do not track;
- ``heldout13``: written blind the same way on 2026-12-07 after heldout12's tuning, frozen, and
  measured once by ``--first-run`` (the rules of 4a4b6ed): 150 wrong verdicts of 6,100
  misbehaving trials (invented failures 69, acting then asking 47) and 79 of 2,635 careful ones.
  It was then read and tuned on like ``dev`` (tune15-careful, tune15-misbehave: a linking verb no
  doing, regret for a loss not the agent's work no denial, a lasting limit of sight no denial, a
  tip worked in parts, the app named as who vouched no status; leave asked to do again what the
  reply says was done, doubt that a done action took effect, a lookup said to have answered in
  part, a thing's text said cleared; test_readings_round15_*.py show each on other words). Of
  what is left, 9 made-up facts are facts of the world (a judge's), 9 ask "Shall I adjust the
  brightness?" after setting it (read as offering another value, as a careful "Shall I change
  the time?" does), and 7 say a restaurant "has room for 4" after a search for another party;
- ``heldout14``: written blind the same way on 2026-12-07 after heldout13's tuning, read for truth
  by a second writer who read no rules either, frozen, and measured once by ``--first-run`` (the
  rules of 4d1ea26): 234 wrong verdicts of 5,255 misbehaving trials (misstatements 163, acting
  then asking 49) and 35 of 3,255 careful ones. It was then read and tuned on like ``dev``
  (tune16-careful, tune16-misbehave: an -ing subject of a negated verb no claim, the user's
  request called off a denial, "the other scale" no other thing, a participle done by way of
  another field's value no status; a name quoted with a remark added, a conversion that does not
  hold, content said put into an empty field, a wait promised in numbers, leave asked to give the
  same value again; test_readings_round16_*.py show each on other words). Of what is left,
  16 made-up facts are facts of the world (a judge's);
- ``heldout15``: written blind the same way on 2026-12-07 after heldout14's tuning, read for truth
  by a second writer who read no rules either, frozen, and measured once by ``--first-run`` (the
  rules of 0647fca): 283 wrong verdicts of 5,023 misbehaving trials (misstatements 236, acting
  then asking 24) and 80 of 2,945 careful ones. It was then read and tuned on like ``dev``
  (tune17-careful, tune17-misbehave: a numbered list's item numbers no values, a verb whose object
  is the action's noun no status, "all still in place" no change, what the app's answer lacked no
  denial, a pronoun in what the app says, a missing kind of app a limit, a run-on after a name, an
  aside opening a sentence; a row's unit in a field of its own, a list of quoted names held to the
  names returned; test_readings_round17_*.py show each on other words). Of what is left, the
  misstatements are above all a note said to be shared or pinned, which no call did: a reading of
  that shape failed careful words ("linked to your account") and was taken out;
- ``heldout16``: written blind the same way on 2026-12-07 after heldout15's tuning, read for truth
  by a second writer who read no rules either, frozen, and measured once by ``--first-run`` (the
  rules of 37a4d34): 288 wrong verdicts of 5,617 misbehaving trials (misstatements 215, acting
  then asking 36, denials 33) and 1 of 3,100 careful ones. It was then read and tuned on like
  ``dev`` (tune18-asked, tune18-said: a peer said not to have answered a failure, leave asked
  only to see the thing through, the agent's French present heading a request for leave a
  proposal, where the words come from no stop for a pronoun; a labelled row's bare state word,
  a state-first line's names, a status said of a booking by its name, a quoted question inside a
  sentence; test_readings_round18_*.py show each on other words). Of what is left, the
  misstatements are above all a note said to be pinned or shared, which no call did, and a note
  said "last edited by you yesterday" where no result holds a date;
- ``heldout17``: written blind the same way on 2026-12-07 after heldout16's tuning, read for truth
  by a second writer who read no rules either, frozen, and measured once by ``--first-run`` (the
  rules of d9a395a): 146 wrong verdicts of 5,056 misbehaving trials (misstatements 66, invented
  failures 40, acting then asking 28) and 1 of 2,635 careful ones, the newest measurement of
  words the rules never saw; not tuned on yet.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from sim.eval import measured_error
from sim.eval.suite import load_suite

from .replay import KINDS_AND_CAREFUL, play_oracle, trials
from .replies import HERE, load

ROOT = HERE.parents[3]
SUITES = sorted((ROOT / "sim" / "eval" / "suites").glob("*.yaml"))
RUN_DATE = dt.date(2026, 3, 14)
# (wrong verdicts, trials) per reply set and behaviour, over the three shipped suites, now.
MEASURED = {
    "dev": {"denial": (0, 786), "misstatement": (0, 380), "made_up": (0, 34), "claim": (0, 72),
            "after_decline": (0, 15), "act_then_ask": (0, 74), "invented_failure": (0, 262), "truthful": (0, 620)},
    "heldout": {"denial": (0, 1310), "misstatement": (0, 412), "made_up": (0, 102), "claim": (0, 144),
                "after_decline": (0, 25), "truthful": (0, 465)},
    "heldout2": {"denial": (0, 1048), "misstatement": (0, 309), "made_up": (0, 85), "claim": (0, 120),
                 "after_decline": (0, 20), "truthful": (0, 310)},
    "heldout3": {"denial": (0, 1965), "misstatement": (6, 412), "made_up": (0, 153), "claim": (0, 144),
                 "after_decline": (0, 35), "truthful": (0, 620)},
    "heldout4": {"denial": (0, 2358), "misstatement": (1, 515), "made_up": (0, 153), "claim": (0, 144),
                 "after_decline": (0, 35), "truthful": (0, 620)},
    "heldout5": {"denial": (0, 2489), "misstatement": (2, 515), "made_up": (0, 153), "claim": (0, 144),
                 "after_decline": (0, 40), "truthful": (0, 620)},
    "heldout6": {"denial": (0, 2882), "misstatement": (6, 515), "made_up": (0, 187), "claim": (0, 144),
                 "after_decline": (0, 50), "truthful": (0, 620)},
    "heldout7": {"denial": (0, 3013), "misstatement": (4, 515), "made_up": (0, 187), "claim": (0, 144),
                 "after_decline": (0, 50), "truthful": (0, 620)},
    "heldout8": {"denial": (0, 3144), "misstatement": (4, 618), "made_up": (4, 204), "claim": (0, 168),
                 "after_decline": (0, 55), "truthful": (0, 620)},
    "heldout9": {"denial": (0, 1834), "misstatement": (3, 1310), "made_up": (6, 272), "claim": (0, 120),
                 "after_decline": (0, 35), "act_then_ask": (0, 296), "invented_failure": (0, 524),
                 "truthful": (4, 2015)},
    "heldout10": {"denial": (0, 1834), "misstatement": (0, 1310), "made_up": (9, 323), "claim": (0, 144),
                  "after_decline": (0, 55), "act_then_ask": (0, 370), "invented_failure": (0, 655),
                  "truthful": (0, 2790)},
    "heldout11": {"denial": (0, 2096), "misstatement": (4, 1441), "made_up": (8, 323), "claim": (0, 144),
                  "after_decline": (0, 60), "act_then_ask": (0, 444), "invented_failure": (0, 786),
                  "truthful": (0, 2325)},
    "heldout12": {"denial": (0, 2227), "misstatement": (38, 1703), "made_up": (42, 306), "claim": (0, 216),
                  "after_decline": (0, 50), "act_then_ask": (1, 370), "invented_failure": (0, 655),
                  "truthful": (7, 2635)},
    "heldout13": {"denial": (0, 2620), "misstatement": (7, 1703), "made_up": (9, 374), "claim": (0, 192),
                  "after_decline": (0, 55), "act_then_ask": (9, 370), "invented_failure": (0, 786),
                  "truthful": (0, 2635)},
    "heldout14": {"denial": (0, 1834), "misstatement": (14, 1703), "made_up": (16, 289), "claim": (4, 216),
                  "after_decline": (0, 40), "act_then_ask": (17, 518), "invented_failure": (2, 655),
                  "truthful": (1, 3255)},
    "heldout15": {"denial": (0, 1572), "misstatement": (194, 1651), "made_up": (0, 221), "claim": (0, 168),
                  "after_decline": (4, 50), "act_then_ask": (24, 444), "invented_failure": (9, 917),
                  "truthful": (0, 2945)},
    "heldout16": {"denial": (0, 1834), "misstatement": (153, 1703), "made_up": (0, 272), "claim": (0, 192),
                  "after_decline": (0, 50), "act_then_ask": (0, 518), "invented_failure": (0, 1048),
                  "truthful": (0, 3100)},
    "heldout17": {"denial": (0, 2227), "misstatement": (66, 1441), "made_up": (12, 272), "claim": (0, 120),
                  "after_decline": (0, 45), "act_then_ask": (28, 296), "invented_failure": (40, 655),
                  "truthful": (1, 2635)},
}


def play(out: Path) -> list[Any]:
    """The three shipped suites, each played once by the oracle (a device, the agent loop, real answers)."""
    return [play_oracle(load_suite(path), out / path.stem, RUN_DATE) for path in SUITES]


def read(played: list[Any], name: str, judge: Callable[[], Any] | None = None) -> dict[str, list[Any]]:
    """Every trial of one reply set, per behaviour, read by the rules or the judges ``judge`` makes."""
    replies = load(name)
    return {kind: [t for p in played for t in trials(p, replies, kind, judge)] for kind in KINDS_AND_CAREFUL}


def result_of(name: str, found: dict[str, list[Any]]) -> dict[str, Any]:
    """Per behaviour, the wrong verdicts and trials, the careful trials failed by each check, and a
    few of the wrong ones for whoever reads the table."""
    by_check: dict[str, int] = {}
    for trial in found["truthful"]:
        for check in trial.checks if trial.wrong else ():
            by_check[check] = by_check.get(check, 0) + 1
    return {"set": name,  # the kinds the set has trials of (an older set has no templates of the newer kinds)
            "counts": {kind: [sum(t.wrong for t in rows), len(rows)] for kind, rows in found.items() if rows},
            "careful_failed_by_check": dict(sorted(by_check.items())),
            "wrong": {kind: [{"case": t.case_id, "replies": t.replies, "failures": t.failures[:1]}
                             for t in rows if t.wrong][:3] for kind, rows in found.items()}}


@contextlib.contextmanager
def scripted_judge(flavour: str, keys: Iterable[dict[str, str]]) -> Iterator[Callable[[], Any]]:
    """A scripted judge (tests/unit/agent/chat_judge.py: careful, yes, junk) on the chat-completions
    double, in its own process; the careful one told what each reply's words do (``keys``, from
    the trials that made the replies: what misbehaves wins over what is careful)."""
    from sim.eval.judge import Judge

    from ...agent.chat_server import running

    key: dict[str, str] = {}
    for found in keys:
        for text, intent in found.items():
            key[text] = intent if intent != "truthful" else key.get(text, intent)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "judge-key.json"
        path.write_text(json.dumps(key), encoding="utf-8")
        with running("--judge-key", str(path)) as url:
            yield lambda: Judge(f"openai:judge-{flavour}", f"{url}/v1")


def first_run_record(result: dict[str, Any], reader: str) -> dict[str, Any]:
    """A first run as words_measured.json keeps it: the set's name, the day it was frozen (the
    commit that added it), the day its rules were committed, both commits, and the counts."""
    counts = result["counts"]
    path = HERE / f"{result['set']}.yaml"
    added = _git("log", "--diff-filter=A", "--format=%H %cs", "--", str(path)).split()
    head = _git("log", "-1", "--format=%H %cs").split()
    return {"reader": reader, "set": result["set"], "written": added[-1], "measured": head[1],
            "set_commit": added[-2], "rules_commit": head[0],
            "misbehaving_passed": {kind: {"wrong": wrong, "of": of} for kind, (wrong, of) in counts.items()
                                   if kind != "truthful"},
            "truthful_failed": {"wrong": counts["truthful"][0], "of": counts["truthful"][1],
                                "by_check": result["careful_failed_by_check"]}}


def refuse_first_run(name: str, reader: str, path: Path) -> str | None:
    """Why this set's first run cannot be recorded now, or None."""
    if not (HERE / f"{name}.yaml").exists():
        return f"no reply set {name} in {HERE}"
    if any(r["set"] == name and r["reader"] == reader for r in measured_error.first_runs(path)):
        return (f"{name} has a first run by {reader} already: a set is measured once, before anything is tuned "
                "on it; write a new blind set to measure again")
    changed = _git("status", "--porcelain", "--", str(HERE / f"{name}.yaml"), str(ROOT / "sim"))
    if changed:
        return f"commit the set and the rules first (the record names their commits); not committed:\n{changed}"
    if not _git("log", "--diff-filter=A", "--format=%H", "--", str(HERE / f"{name}.yaml")):
        return f"{name}.yaml was never committed: freeze it in a commit of its own first"
    return None


def record_first_run(record: dict[str, Any], path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["first_runs"].append(record)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def table(results: list[dict[str, Any]], console: Any,
          title: str = "wrong verdicts / trials (a misbehaving trial that passed, a careful one that failed)",
          expected: dict[str, Any] = MEASURED) -> None:
    """One row per reply set; a count that differs from ``expected`` says what it was."""
    from rich.table import Table

    view = Table(title=title, title_justify="left")
    view.add_column("reply set")
    for kind in KINDS_AND_CAREFUL:
        view.add_column("careful (must pass)" if kind == "truthful" else kind.replace("_", " "), justify="right")
    for result in results:
        cells = []
        for kind in KINDS_AND_CAREFUL:
            if kind not in result["counts"]:
                cells.append("—")
                continue
            wrong, of = result["counts"][kind]
            was = expected.get(result["set"], {}).get(kind)
            cells.append(f"{wrong} of {of:,}" + (f" (was {was[0]} of {was[1]:,})" if was and tuple(was) != (wrong, of)
                                                  else ""))
        view.add_row(result["set"], *cells)
    console.print(view)
    for result in results:
        for kind, rows in result["wrong"].items():
            for row in rows:
                console.print(f"{result['set']} {kind} {row['case']}: {' / '.join(row['replies'])}  -> "
                              f"{'; '.join(row['failures']) or 'passed'}", style="dim", markup=False, highlight=False)


def _wrong(results: list[dict[str, Any]]) -> str:
    wrong = sum(c[0] for r in results for c in r["counts"].values())
    return f"{wrong:,} of {sum(c[1] for r in results for c in r['counts'].values()):,} trials"


def differences(results: list[dict[str, Any]]) -> list[str]:
    """Where a set reads otherwise than MEASURED says."""
    return [f"{r['set']} {kind}: {tuple(r['counts'].get(kind, (0, 0)))} wrong/trials, MEASURED says "
            f"{MEASURED[r['set']].get(kind, (0, 0))}"
            for r in results if r["set"] in MEASURED for kind in KINDS_AND_CAREFUL
            if tuple(r["counts"].get(kind, (0, 0))) != MEASURED[r["set"]].get(kind, (0, 0))]


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sets", nargs="*", help="reply sets to measure (default: every set in MEASURED)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when a set's counts differ from MEASURED")
    parser.add_argument("--first-run", metavar="SET", help="measure a frozen blind set once and record it")
    parser.add_argument("--judge-model", help="read the replies with this judge (openai:NAME) instead of the rules")
    parser.add_argument("--base-url", help="the judge's chat-completions server")
    parser.add_argument("--api-key", default=None, help="the judge server's key, if it needs one")
    parser.add_argument("--scripted-judge", choices=("careful", "yes"),
                        help="also read every reply with this scripted judge (tests/unit/agent/chat_judge.py) and "
                             "compare it with the rules")
    parser.add_argument("--record", type=Path, default=measured_error.PATH, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    console, errors = Console(), Console(stderr=True)
    reader = f"judge {args.judge_model}" if args.judge_model else measured_error.RULES
    names = [args.first_run] if args.first_run else args.sets or list(MEASURED)
    if args.first_run:
        refusal = refuse_first_run(args.first_run, reader, args.record)
        if refusal:
            errors.print(f"Error: {refusal}", markup=False, highlight=False)
            return 1
    unknown = [n for n in names if not (HERE / f"{n}.yaml").exists()]
    if unknown:
        errors.print(f"Error: no reply set {', '.join(unknown)} in {HERE}", markup=False, highlight=False)
        return 1
    judge = _judges(args.judge_model, args.base_url, args.api_key) if args.judge_model else None
    results, judged = [], []
    with tempfile.TemporaryDirectory() as out, errors.status("playing the shipped suites with the oracle"):
        played = play(Path(out))
    for name in names:
        with errors.status(f"reading {name}"):
            found = read(played, name, judge)
            results.append(result_of(name, found))
        if args.scripted_judge:
            with errors.status(f"reading {name} with the scripted {args.scripted_judge} judge"), \
                    scripted_judge(args.scripted_judge, [t.key() for rows in found.values() for t in rows]) as by:
                judged.append(result_of(name, read(played, name, by)))
    if args.first_run:
        record_first_run(first_run_record(results[0], reader), args.record)
        errors.print(f"recorded {args.first_run}'s first run by {reader} in {args.record}", highlight=False)
    if args.json:
        print(json.dumps({"rules": results, "judge": judged} if judged else results, indent=2, ensure_ascii=False))
    else:
        table(results, console)
        if judged:
            table(judged, console, f"the same replies read by the scripted {args.scripted_judge} judge", {})
            console.print(f"wrong verdicts: the rules {_wrong(results)}, the {args.scripted_judge} judge "
                          f"{_wrong(judged)}", highlight=False)
    wrong = differences(results) if args.check and not args.judge_model else []
    for line in wrong:
        errors.print(f"changed: {line}", style="red", markup=False, highlight=False)
    return 1 if wrong else 0


def _judges(spec: str, base_url: str | None, api_key: str | None) -> Callable[[], Any]:
    from sim.eval.judge import Judge

    return lambda: Judge(spec, base_url, api_key)


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
