"""droidsim's ``isDestructive`` lives in its own XML namespace (issue 16 row 16).

Neither the platform's nor androidx's schema has the property. The platform's
reader (AppSearch ``AppFunctionStaticMetadataParserImpl``) skips a child of
``<appfunction>`` its schema does not name; a namespaced name can never be taken
for a property a later platform adds. droidsim writes ``droidsim:isDestructive``,
reads only that, and validates it through schemas/droidsim_appfunctions.xsd.
"""

from __future__ import annotations

import pytest
from lxml import etree

from droid.appfunctions import AppFunctionSearchSpec
from droid.appfunctions.metadata import DROIDSIM_XML_NAMESPACE
from sim.device import Device
from sim.pm.function_xml import parse_function_xml
from sim.xmlsafe import XmlError
from tests.helpers import REPO

SAMPLE_XML = sorted(REPO.glob("apps/*/assets/*.xml"))
XS = "{http://www.w3.org/2001/XMLSchema}"

FUNCTION = """<?xml version="1.0" encoding="UTF-8"?>
<appfunctions>
    <appfunction>
        <id>com.example.app.Functions#wipe</id>
        <enabledByDefault>true</enabledByDefault>
        {extension}
        <functionId>com.example.app.Functions#wipe</functionId>
    </appfunction>
</appfunctions>
"""


def platform_properties(reference_dir) -> set[str]:
    """The properties of androidx's AppFunctionStaticMetadata document type, plus the
    document id the compiler writes as <id>."""
    schema = etree.parse(str(reference_dir / "androidx-assets" / "app_functions_schema.xsd"))
    static = next(e for e in schema.iter(f"{XS}documentType") if e.get("name") == "AppFunctionStaticMetadata")
    return {e.get("name") for e in static.iter(f"{XS}element")} | {"id"}


def read(tmp_path, extension: str):
    path = tmp_path / "functions.xml"
    path.write_text(FUNCTION.format(extension=extension))
    (function,) = parse_function_xml(path, "com.example.app", "com.example.app.Functions").functions
    return function


def test_sample_apps_write_no_property_the_platform_schema_lacks_outside_droidsims_namespace(reference_dir):
    known = platform_properties(reference_dir)
    destructive = 0
    for path in SAMPLE_XML:
        for function in etree.parse(str(path)).getroot().iter("appfunction"):
            for child in function:
                if etree.QName(child).namespace == DROIDSIM_XML_NAMESPACE:
                    destructive += 1
                    continue
                assert child.tag in known, f"{path.name}: <{child.tag}> is in neither the platform's schema nor droidsim's namespace"
    assert destructive >= 2  # orders' cancel_order and booking's cancel_booking


def test_the_namespaced_property_marks_a_function_destructive(tmp_path):
    marked = f'<droidsim:isDestructive xmlns:droidsim="{DROIDSIM_XML_NAMESPACE}">true</droidsim:isDestructive>'
    assert read(tmp_path, marked).is_destructive is True


def test_a_plain_isdestructive_is_no_platform_property_and_is_skipped(tmp_path):
    # As AppSearch's reader does with a property its schema lacks.
    assert read(tmp_path, "<isDestructive>true</isDestructive>").is_destructive is False


def test_the_namespaced_property_is_validated(tmp_path):
    bad = f'<d:isDestructive xmlns:d="{DROIDSIM_XML_NAMESPACE}">maybe</d:isDestructive>'
    with pytest.raises(XmlError, match="isDestructive.*'maybe' is not a valid value of the atomic type 'xs:boolean'"):
        read(tmp_path, bad)


def test_an_installed_app_is_indexed_destructive_from_its_namespaced_property(tmp_path):
    # Through the installer and the index, as agents (HITL), MCP and the shell read it.
    with Device(tmp_path / "data", isolated_apps=False) as device:
        device.install(REPO / "apps" / "orders")
        manager = device.shell_context().app_function_manager
        found = manager.search_app_functions(AppFunctionSearchSpec(package_names=frozenset({"com.example.orders"})))
    assert {f.id.rsplit("#", 1)[1]: f.is_destructive for f in found} == {"fetch_order_details": False, "cancel_order": True}
