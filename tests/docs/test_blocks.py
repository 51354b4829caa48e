"""The documentation convention itself: what is run, what is refused (tests/docs/blocks.py)."""

from __future__ import annotations

import pytest

from tests.docs.blocks import DocConventionError, commands, read_blocks


def _doc(tmp_path, text):
    path = tmp_path / "doc.md"
    path.write_text(text)
    return path


def test_kinds_languages_and_lines(tmp_path) -> None:
    blocks = read_blocks(_doc(tmp_path, (
        "```python\nx = 1\n```\n\n"
        "<!-- fragment: an excerpt -->\n```python\n    def f(self): ...\n```\n\n"
        "<!-- pytest -->\n```python\ndef test_it(): pass\n```\n\n"
        "```json\n{}\n```\n"
    )))
    assert [(b.line, b.language, b.kind) for b in blocks] == [
        (1, "python", "run"), (6, "python", "fragment"), (11, "python", "pytest"), (15, "json", "text"),
    ]
    assert blocks[1].reason == "an excerpt"


@pytest.mark.parametrize("text, message", [
    ("<!-- fragment -->\n```python\nx\n```\n", "needs a reason"),
    ("<!-- fragment:   -->\n```python\nx\n```\n", "needs a reason"),
    ("<!-- pytest -->\n```sh\nls\n```\n", "marks a python block"),
    ("<!-- fragmnet: typo -->\n```sh\nls\n```\n", None),
    ("```\ndroidsim shell pm list packages\n```\n", "tag it ```sh"),
])
def test_the_convention_refuses_what_would_hide_a_block(tmp_path, text, message) -> None:
    if message is None:  # an unknown comment is no marker: the block runs
        assert read_blocks(_doc(tmp_path, text))[0].kind == "run"
        return
    with pytest.raises(DocConventionError, match=message):
        read_blocks(_doc(tmp_path, text))


def test_commands_join_continuations_and_keep_hashes_inside_words(tmp_path) -> None:
    [block] = read_blocks(_doc(tmp_path, (
        "```sh\n"
        "droidsim shell cmd app_function execute-app-function \\\n"
        "    --function com.example.orders.OrderFunctionService#fetch_order_details   # a comment\n"
        "make sim     # boots\n"
        "```\n"
    )))
    assert commands(block) == [
        (2, ["droidsim", "shell", "cmd", "app_function", "execute-app-function", "--function",
             "com.example.orders.OrderFunctionService#fetch_order_details"]),
        (4, ["make", "sim"]),
    ]
