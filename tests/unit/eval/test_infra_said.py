"""A trial without a verdict says why where the run is watched: a case's own setup call that failed (a
double that does not answer it yet) is said with the case and the device's words, and the closing line
asks to fix what failed rather than 'the server' (kotlin walk, round 4: the terminal said only
'ERROR base a #0' and 'Fix the server and rerun')."""

from __future__ import annotations

import io
import textwrap

from click.testing import CliRunner
from rich.console import Console

from sim.cli.main import cli
from sim.eval.progress import Progress
from tests.helpers import REPO

APK = REPO / "tests" / "apks" / "travel-signed.apk"
GET = "com.example.travel.bookings.BookingFunctions#getBooking"


def test_progress_says_each_infra_errors_detail_under_its_line():
    out = io.StringIO()
    with Progress(Console(file=out, force_terminal=False, width=400)) as progress:
        progress.update({"passed": False, "config": "base", "case_id": "seat", "trial": 0,
                         "infra_error": {"kind": "crash", "detail": "RuntimeError: setup call getBooking failed"}}, 1, 1)
    assert out.getvalue().splitlines() == ["[1/1] ERROR base seat #0",
                                           "  seat: crash: RuntimeError: setup call getBooking failed"]


def test_a_failed_setup_call_is_said_on_the_terminal_and_the_run_exits_3(tmp_path):
    assert CliRunner().invoke(cli, ["responses", "skeleton", str(APK), str(tmp_path / "double")]).exit_code == 0
    suite = tmp_path / "suite.yaml"
    suite.write_text(textwrap.dedent(f"""\
        suite: travel
        apps:
          - apk: {APK}
            double: double
        cases:
          - id: seat
            category: simple
            setup:
              - function: getBooking
                args: {{bookingId: BK-1042}}
            user: What is my seat on BK-1042?
            calls:
              - function: getBooking
                args: {{bookingId: BK-1042}}
        """))
    result = CliRunner().invoke(cli, ["eval", str(suite), "--model", "scripted", "--out", str(tmp_path / "out")])
    assert result.exit_code == 3, result.output
    lines = result.stderr.splitlines()
    assert lines[lines.index("[1/1] ERROR base seat #0") + 1] == (
        "  seat: crash: RuntimeError: setup call getBooking {'bookingId': 'BK-1042'} failed: "
        f"{GET} is not implemented in this double yet: write BookingFunctions.getBooking in bookings.py "
        "(docs/responses.md) (code 3501)")
    assert lines[-1] == ("1 trial(s) met an infrastructure error (server error, timeout or crash) and have no verdict; "
                         "each is said above and in results.jsonl (infra_error). Fix what failed (the model server, "
                         "or a case's setup call) and rerun, or pass --allow-errors")
