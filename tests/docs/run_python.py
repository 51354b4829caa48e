"""Runs a doc file's python blocks in order, in one namespace, as a reader pasting them would.

stdin: a JSON list of {"file", "line", "source"}; exit 1 naming the first block that fails.
"""

from __future__ import annotations

import json
import sys
import traceback


def main() -> int:
    namespace: dict = {"__name__": "__main__"}
    for block in json.load(sys.stdin):
        # Padded so that a traceback's line numbers are the Markdown file's.
        code = compile("\n" * block["line"] + block["source"], block["file"], "exec")
        try:
            exec(code, namespace)
        except BaseException:  # a block that exits or is interrupted fails too
            traceback.print_exc()
            print(f"FAILED: the python block at {block['file']}:{block['line']}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
