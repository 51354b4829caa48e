"""Every check, in report order. A check reads an ``App`` (and, for the
cross-function rules, the peers it is compared with) and yields ``Issue``s."""

from sim.lint.checks.actions import check_actions
from sim.lint.checks.app import check_app_description
from sim.lint.checks.autonomy import check_action_space, check_self_started_work
from sim.lint.checks.code import check_code
from sim.lint.checks.data import check_data
from sim.lint.checks.descriptions import check_descriptions
from sim.lint.checks.directives import check_directives
from sim.lint.checks.identity import check_duplicates, check_purpose, check_references
from sim.lint.checks.services import check_services

APP_CHECKS = (
    check_app_description,
    check_descriptions,
    check_purpose,
    check_actions,
    check_data,
    check_code,
    check_action_space,
    check_self_started_work,
    check_services,
    check_directives,
)
CROSS_CHECKS = (check_references, check_duplicates)
