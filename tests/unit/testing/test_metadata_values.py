"""Values typed by an app's metadata alone (sim/testing/metadata_values.py): the forms a test
writes and the values it gets back, for what the test APKs do not declare (a property named
after a Python keyword, two classes of one simple name, bytes, a Uri, a sealed class)."""

from __future__ import annotations

import dataclasses
from datetime import datetime

import pytest

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.metadata import (
    FORMAT_URI,
    AppFunctionComponentsMetadata,
    AppFunctionDataTypeMetadata,
    AppFunctionNamedDataTypeMetadata,
    DataType,
)
from droid.net.uri import Uri
from sim.testing.metadata_values import AppTypes

T = AppFunctionDataTypeMetadata


def _object(name: str, required: list[str], **properties: T) -> AppFunctionNamedDataTypeMetadata:
    return AppFunctionNamedDataTypeMetadata(name=name, data_type=T(
        type=DataType.OBJECT, object_qualified_name=name, required=required,
        properties=[AppFunctionNamedDataTypeMetadata(name=key.rstrip("_"), data_type=t) for key, t in properties.items()],
    ))


def _ref(name: str) -> T:
    return T(type=DataType.REFERENCE, data_type_reference=name)


TRANSFER = "com.acme.pay.Transfer"
COMPONENTS = AppFunctionComponentsMetadata(data_types=[
    _object(TRANSFER, ["from", "amount"], from_=T(type=DataType.STRING), amount=T(type=DataType.DOUBLE),
            when=_ref("java.time.LocalDateTime"), receipt=T(type=DataType.BYTES, is_nullable=True),
            link=T(type=DataType.STRING, format=FORMAT_URI, is_nullable=True)),
    _object("java.time.LocalDateTime", ["year"], year=T(type=DataType.INT), month=T(type=DataType.INT),
            dayOfMonth=T(type=DataType.INT), hour=T(type=DataType.INT), minute=T(type=DataType.INT),
            second=T(type=DataType.INT), nanoOfSecond=T(type=DataType.INT)),
    _object("com.acme.shop.Item", ["sku"], sku=T(type=DataType.STRING)),
    _object("com.acme.stock.Item", ["sku"], sku=T(type=DataType.STRING), count=T(type=DataType.INT)),
    AppFunctionNamedDataTypeMetadata(name="com.acme.shop.AnyItem", data_type=T(
        type=DataType.ONE_OF, one_of=[_ref("com.acme.shop.Item"), _ref("com.acme.stock.Item")])),
])


@pytest.fixture
def types() -> AppTypes:
    return AppTypes(COMPONENTS)


def test_classes_by_simple_name_and_by_qualified_name_where_two_share_one(types) -> None:
    assert sorted(vars(types.namespace())) == ["Transfer", "com_acme_shop_Item", "com_acme_stock_Item"]


def test_a_document_comes_back_with_pythons_types_and_a_keyword_property_gets_an_underscore(types) -> None:
    when = AppFunctionData({"year": 2026, "month": 5, "dayOfMonth": 1, "hour": 9, "minute": 30, "second": 0,
                            "nanoOfSecond": 0}, qualified_name="java.time.LocalDateTime")
    document = AppFunctionData({"from": "ACC-1", "amount": 42.5, "when": when, "receipt": b"\x00\x01",
                                "link": "content://com.acme.pay/receipts/1"}, qualified_name=TRANSFER)
    transfer = types.python_value(_ref(TRANSFER), document)
    assert transfer == types.namespace().Transfer(from_="ACC-1", amount=42.5, when=datetime(2026, 5, 1, 9, 30),
                                                  receipt=b"\x00\x01", link=Uri.parse("content://com.acme.pay/receipts/1"))
    assert [f.name for f in dataclasses.fields(transfer)] == ["from_", "amount", "when", "receipt", "link"]


def test_a_test_value_goes_as_the_json_the_shell_sends(types) -> None:
    Transfer = types.namespace().Transfer
    sent = types.json_form(_ref(TRANSFER), Transfer(from_="ACC-1", amount=42.5, receipt=b"\x00\x01",
                                                     when=datetime(2026, 5, 1, 9, 30)), "transfer")
    assert sent == {"from": "ACC-1", "amount": 42.5, "receipt": "AAE=",  # left-out optional ones are not sent
                    "when": {"year": 2026, "month": 5, "dayOfMonth": 1, "hour": 9, "minute": 30, "second": 0,
                             "nanoOfSecond": 0}}
    assert types.json_form(_ref(TRANSFER), {"from": "ACC-1", "amount": 1, "link": Uri.parse("https://acme.com")},
                           "transfer") == {"from": "ACC-1", "amount": 1, "link": "https://acme.com"}


@pytest.mark.parametrize(("value", "message"), [
    ({"from": "A", "amount": 1, "receipt": "AAE="}, "transfer.receipt must be bytes; not str 'AAE='"),
    ({"from": "A", "amount": 1, "link": "https://acme.com"},
     'transfer.link must be a Uri, for example Uri.parse("content://…"); not str \'https://acme.com\''),
    ({"from": "A", "amount": 1, "when": "2026-05-01T09:30"},
     "transfer.when must be a datetime.datetime, for example datetime.datetime(2025, 6, 14, 19, 30); not str '2026-05-01T09:30'"),
    ({"form": "A"}, "transfer.form is not a property of com.acme.pay.Transfer; did you mean from? "
                    "(its names: from, amount, when, receipt, link)"),
    ("ACC-1", "transfer must be a Transfer: Transfer(from_=…, amount=…, when=…, receipt=…, link=…) or a dict with "
              "those keys; not str 'ACC-1'"),
])
def test_a_value_in_another_form_is_refused_naming_the_forms_accepted(types, value, message) -> None:
    with pytest.raises(TypeError) as raised:
        types.json_form(_ref(TRANSFER), value, "transfer")
    assert str(raised.value) == message


def test_an_instance_of_a_sealed_class_case_goes_as_that_case(types) -> None:
    stock_item = types.namespace().com_acme_stock_Item(sku="SKU-1", count=3)
    assert types.json_form(_ref("com.acme.shop.AnyItem"), stock_item, "item") == {"sku": "SKU-1", "count": 3}
    document = AppFunctionData({"sku": "SKU-1", "count": 3}, qualified_name="com.acme.stock.Item")
    assert types.python_value(_ref("com.acme.shop.AnyItem"), document) == stock_item
