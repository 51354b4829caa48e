"""``<think>…</think>`` in the answer text: the model's reasoning, not its answer.

A server without a reasoning parser (vLLM without ``--reasoning-parser``, llama.cpp
with ``--reasoning-format none``, Ollama's raw templates) leaves a reasoning model's
thinking in ``content``. As vLLM's ``deepseek_r1`` parser does, text up to ``</think>``
is reasoning even when the opening tag is missing (the template put it in the prompt),
and an opening tag never closed makes the rest reasoning. ``ThinkSplitter`` does the
same on a stream, holding back only a piece that may be the start of a tag.
"""

from __future__ import annotations

OPEN, CLOSE = "<think>", "</think>"


def split_thinking(text: str) -> tuple[str, str]:
    """(reasoning, answer) of a whole response's text."""
    if CLOSE not in text and OPEN not in text:
        return "", text
    opened = text.find(OPEN)
    splitter = ThinkSplitter(inside=CLOSE in text and (opened < 0 or text.find(CLOSE) < opened))
    pieces = splitter.feed(text) + splitter.flush()
    reasoning = "".join(p for kind, p in pieces if kind == "reasoning")
    answer = "".join(p for kind, p in pieces if kind == "text")
    return reasoning.strip(), answer.strip() if reasoning else answer


class ThinkSplitter:
    """Feeds streamed text; returns ("reasoning" | "text", piece) pairs as soon as they are certain.

    A stream that starts inside a think block without ``<think>`` is only known to at its
    ``</think>``, after its reasoning was streamed as text; ``split_thinking`` on the whole
    response still moves it out of the answer.
    """

    def __init__(self, inside: bool = False) -> None:
        self.inside = inside
        self.pending = ""
        self.closed = False  # just after </think>: the blank lines before the answer are dropped

    def feed(self, text: str) -> list[tuple[str, str]]:
        self.pending += text
        out: list[tuple[str, str]] = []
        while self.pending:
            tag = CLOSE if self.inside else OPEN
            at = self.pending.find(tag)
            if at >= 0:
                self._emit(out, self.pending[:at])
                self.pending = self.pending[at + len(tag):]
                self.closed = self.inside
                self.inside = not self.inside
                continue
            keep = _partial_tag(self.pending, tag)
            self._emit(out, self.pending[:len(self.pending) - keep])
            self.pending = self.pending[len(self.pending) - keep:]
            break
        return out

    def flush(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        self._emit(out, self.pending)
        self.pending = ""
        return out

    def _emit(self, out: list[tuple[str, str]], piece: str) -> None:
        if self.closed and not self.inside:
            piece = piece.lstrip()
            self.closed = not piece
        if piece:
            out.append(("reasoning" if self.inside else "text", piece))


def _partial_tag(text: str, tag: str) -> int:
    """How many characters at the end of ``text`` may be the start of ``tag``."""
    return next((n for n in range(min(len(tag) - 1, len(text)), 0, -1) if text.endswith(tag[:n])), 0)
