"""parse_xml refuses hostile and broken input with an XmlError naming the file and a line."""

from __future__ import annotations

import pathlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.xmlsafe import MAX_DEPTH, XmlError, parse_xml

LOCATED = re.compile(r"^(?P<file>.+):(?P<line>[1-9][0-9]*): (?P<reason>.+)$", re.DOTALL)

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE manifest [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<manifest>&xxe;</manifest>
"""

BILLION_LAUGHS = (
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n'
    + b"".join(
        b'<!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10) for i in range(1, 10)
    )
    + b"]>\n<lolz>&lol9;</lolz>\n"
)


def refused(source: pathlib.Path | bytes, **kwargs) -> XmlError:
    with pytest.raises(XmlError) as caught:
        parse_xml(source, what="test document", **kwargs)
    error = caught.value
    match = LOCATED.match(str(error))
    assert match, f"not file:line: reason: {error}"
    assert match["file"] == error.file and int(match["line"]) == error.line and match["reason"] == error.reason
    return error


def write(tmp_path: pathlib.Path, data: bytes, name: str = "doc.xml") -> pathlib.Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_parses_elements_and_drops_comments_and_processing_instructions(tmp_path):
    path = write(tmp_path, b'<?xml version="1.0"?>\n<a x="1"><!-- note --><?pi data?><b>text</b></a>')
    root = parse_xml(path, what="test document")
    assert root.tag == "a" and root.get("x") == "1"
    assert [child.tag for child in root] == ["b"]
    assert root.findtext("b") == "text"


def test_error_is_a_value_error_located_at_the_element(tmp_path):
    root = parse_xml(write(tmp_path, b"<a>\n\n<b/></a>"), what="test document")
    error = XmlError.at(root[0], "bad b")
    assert isinstance(error, ValueError)
    assert str(error) == f"{tmp_path / 'doc.xml'}:3: bad b"


def test_external_entity_is_refused_and_never_read(tmp_path):
    error = refused(write(tmp_path, XXE))
    assert error.file == str(tmp_path / "doc.xml")
    assert "entities" in error.reason
    assert "root:" not in str(error)


@pytest.mark.timeout(10)
def test_billion_laughs_is_refused():
    error = refused(BILLION_LAUGHS)
    assert error.file == "<test document>"
    assert "entit" in error.reason.lower()


def test_small_internal_entity_is_refused_too():
    error = refused(b'<!DOCTYPE a [<!ENTITY x "hello">]><a>&x;</a>')
    assert "must not declare entities" in error.reason


def test_parameter_entity_is_refused():
    refused(b'<!DOCTYPE a [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><a/>')


def test_external_dtd_is_refused():
    error = refused(b'<!DOCTYPE a SYSTEM "http://example.com/evil.dtd"><a/>')
    assert "external DTD" in error.reason


def test_doctype_without_entities_is_accepted():
    assert parse_xml(b"<!DOCTYPE a><a/>", what="test document").tag == "a"


def test_oversized_file_is_refused_by_size_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "huge.xml"
    with path.open("wb") as f:
        f.truncate(50 * 1024 * 1024)  # sparse: 50 MB on paper, nothing written

    def no_reading(*args, **kwargs):
        raise AssertionError("the file was opened")

    monkeypatch.setattr(pathlib.Path, "open", no_reading)
    error = refused(path)
    assert error.file == str(path) and error.line == 1
    assert "larger than" in error.reason


def test_oversized_bytes_are_refused():
    error = refused(b"<a>" + b" " * 100 + b"</a>", max_bytes=64)
    assert "64-byte limit" in error.reason


def test_document_at_the_size_limit_is_accepted(tmp_path):
    data = b"<a>" + b" " * 57 + b"</a>"
    assert len(data) == 64
    assert parse_xml(write(tmp_path, data), what="test document", max_bytes=64).tag == "a"


def test_nesting_beyond_the_limit_is_refused_at_the_offending_line(tmp_path):
    depth = MAX_DEPTH + 1
    data = b"".join(b"<e>\n" for _ in range(depth)) + b"</e>" * depth
    error = refused(write(tmp_path, data))
    assert error.line == depth
    assert f"deeper than {MAX_DEPTH}" in error.reason


def test_nesting_at_the_limit_is_accepted():
    assert parse_xml(b"<e>" * MAX_DEPTH + b"</e>" * MAX_DEPTH, what="test document").tag == "e"


def test_pathologically_deep_nesting_is_refused():
    refused(b"<e>" * 100_000 + b"</e>" * 100_000)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b'<?xml version="1.0" encoding="UTF-8"?>\n<a>caf\xe9</a>', id="latin-1 bytes declared utf-8"),
        pytest.param(b'<?xml version="1.0" encoding="klingon"?><a/>', id="unknown encoding"),
        pytest.param(b'<?xml version="1.0" encoding="UTF-16"?><a/>', id="utf-16 declared, utf-8 given"),
    ],
)
def test_wrong_encoding_is_refused(data):
    error = refused(data)
    assert "could not be parsed" in error.reason


def test_declared_latin_1_is_decoded():
    root = parse_xml(b'<?xml version="1.0" encoding="ISO-8859-1"?><a>caf\xe9</a>', what="test document")
    assert root.text == "café"


@pytest.mark.parametrize(
    "data",
    [b"", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", b"hello, world", b"<a><b></a>", b"<a/><b/>", b"{}"],
    ids=["empty", "png", "text", "mismatched tags", "two roots", "json"],
)
def test_garbage_is_refused(data):
    refused(data)


def test_syntax_error_names_its_line(tmp_path):
    error = refused(write(tmp_path, b"<a>\n<b>\n</c>\n</a>"))
    assert error.file == str(tmp_path / "doc.xml") and error.line == 3


def test_missing_file_is_an_xml_error(tmp_path):
    error = refused(tmp_path / "absent.xml")
    assert "cannot read" in error.reason


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=512))
def test_random_bytes_give_an_element_or_an_xml_error(data):
    try:
        parse_xml(data, what="fuzz")
    except XmlError:
        pass


XMLISH = st.lists(
    st.sampled_from(
        ["<a>", "</a>", "<b x='1'>", "</b>", "<c/>", "<!DOCTYPE a [", "<!ENTITY e 'x'>", "]>", "&e;", "&amp;",
         "&#0;", "<![CDATA[", "]]>", "<!--", "-->", "<?xml version='1.0'?>", "<?pi?>", "\n", " ", "\x00", "é"]
    )
    | st.text(max_size=8),
    max_size=40,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(XMLISH, st.sampled_from(["utf-8", "utf-16", "latin-1"]))
def test_random_xml_like_text_gives_an_element_or_an_xml_error(text, encoding):
    try:
        parse_xml(text.encode(encoding, errors="replace"), what="fuzz")
    except XmlError:
        pass
