"""A YAML loader that refuses aliases: one line of them can stand for gigabytes once expanded
(nine anchors of nine aliases each, a billion laughs), and nothing droidsim reads from a user
(a cassette, an eval suite) needs them. Refused where the composer meets the first alias,
before anything is expanded, with its line."""

from __future__ import annotations

from typing import Any

import yaml


class NoAliasLoader(yaml.SafeLoader):
    """yaml.SafeLoader that raises a ComposerError at the first alias; ``what`` names the kind
    of document in the message ("a cassette")."""

    what = "this file"

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, f"anchors and aliases are not allowed in {self.what}",
                                              self.peek_event().start_mark)
        return super().compose_node(parent, index)
