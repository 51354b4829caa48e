"""Tool names: MCP's rules, unique, and stable while the server runs."""

from __future__ import annotations

import re

from sim.mcp.naming import MAX_NAME_LENGTH, ToolNames, safe_name

MCP_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def test_a_short_id_is_the_name_while_no_other_function_has_it():
    names = ToolNames()
    assert names.name_for("com.example.orders", "Orders#cancel", "cancel") == "cancel"
    assert names.name_for("com.example.booking", "Booking#cancel", "cancel") == "com.example.booking.cancel"


def test_a_name_stays_with_its_function():
    names = ToolNames()
    first = names.name_for("com.b", "S#run", "run")
    names.name_for("com.a", "S#run", "run")  # installed later: it does not take the name over
    assert names.name_for("com.b", "S#run", "run") == first == "run"


def test_two_services_of_one_package_with_the_same_short_id_differ():
    names = ToolNames()
    got = {names.name_for("com.p", f"{service}#run", "run") for service in ("A", "B", "C")}
    assert got == {"run", "com.p.run", "com.p.C_run"}


def test_names_keep_to_mcp_rules_even_from_long_or_odd_ids():
    long_id = "com.example." + "x" * 80 + "#function with spaces/and#signs"
    for text in (long_id, "#", "a" * MAX_NAME_LENGTH, "ü"):
        assert MCP_NAME.match(safe_name(text)), safe_name(text)
    assert safe_name(long_id + "1") != safe_name(long_id + "2")
    assert safe_name("a" * MAX_NAME_LENGTH) == "a" * MAX_NAME_LENGTH
