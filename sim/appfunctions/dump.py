"""``dumpsys app_function``: the service's whole state as text, for a developer to read."""

from __future__ import annotations

import time

from droid.appfunctions.exceptions import error_name
from droid.appfunctions.manager import ACCESS_REQUEST_STATE_NAMES, access_flag_names
from droid.appfunctions.metadata import ACCESS_LEVEL_ANDROID_TRUSTED, ACCESS_LEVEL_XML
from sim.appfunctions.access_history import RESULT_SUCCESS, AccessHistory
from sim.appfunctions.access_service import AppFunctionAccessService
from sim.appfunctions.agent_allowlist import AgentAllowlist
from sim.appfunctions.index import FunctionIndex
from sim.permissions.service import PermissionManagerService
from sim.pm.installed_from import installed_from_line
from sim.pm.registry import PackageRegistry
from sim.responses.describe import answers_line


def dump_app_functions(
    registry: PackageRegistry,
    index: FunctionIndex,
    permissions: PermissionManagerService,
    access: AppFunctionAccessService,
    allowlist: AgentAllowlist,
    history: AccessHistory,
    isolation: list[str],
) -> str:
    lines = ["APP FUNCTION MANAGER (dumpsys app_function)", "", *isolation, ""]
    # Entries as bound (sim/pm/signed_packages.py): PACKAGE, or PACKAGE:SHA256 of its signer.
    lines.append(f"Agent allowlist: {', '.join(map(str, allowlist.entries()))}")
    lines.append(f"Privileged allowlist: {', '.join(map(str, permissions.privileged_entries())) or '(empty)'}")
    lines += ["", f"Packages ({len(registry.all())}):"]
    for package in registry.all():
        roles = [r for r, yes in (("agent", access.is_valid_agent(package)), ("target", access.is_valid_target(package))) if yes]
        status = "privileged" if permissions.is_privileged(package) else "unprivileged"
        lines.append(f"  {package.package_name} uid={package.uid} {status} roles={','.join(roles) or '-'} "
                     f"{answers_line(package.metadata.answers)} {installed_from_line(package.metadata.installed_from)}")
        for function in package.metadata.app_functions:
            level = ACCESS_LEVEL_XML[function.access_level or ACCESS_LEVEL_ANDROID_TRUSTED]
            enabled = str(index.is_enabled(package.package_name, function)).lower()
            lines.append(f"    {function.id} accessLevel={level} enabled={enabled}")
    pairs = access.pairs()
    lines += ["", f"Access flags ({len(pairs)} pairs):"]
    for (agent, target), flags in pairs.items():
        state = ACCESS_REQUEST_STATE_NAMES[access.access_request_state(agent, target)]
        lines.append(f"  {agent} -> {target}: {'|'.join(access_flag_names(flags))} ({state})")
    entries = history.entries()
    lines += ["", f"Access history ({len(entries)} attempts, oldest first):"]
    for entry in entries:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.access_time_millis / 1000))
        outcome = (
            "SUCCESS" if entry.result_code == RESULT_SUCCESS
            else f"{error_name(entry.result_code)} ({entry.result_code}): {entry.result_message}"
        )
        lines.append(
            f"  {when}.{entry.access_time_millis % 1000:03d} {entry.agent_package_name} (uid {entry.agent_uid}) -> "
            f"{entry.target_package_name or '(none)'} {entry.function_identifier} {entry.duration_millis} ms {outcome}"
        )
    return "\n".join(lines) + "\n"
