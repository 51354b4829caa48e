"""android.net.Uri: an immutable URI reference, parsed leniently as on Android.

``Uri.parse`` never fails: like Android it keeps the string it was given and
answers questions about it (scheme, authority, path, query, fragment). Two Uris
are equal when their strings are equal.
"""

from __future__ import annotations

from typing import Iterable
from urllib.parse import parse_qsl, quote, unquote, urlsplit


class Uri:
    """An immutable URI reference. Build one with ``Uri.parse``, ``Uri.from_parts``
    or ``Uri.Builder``; read it with the properties below."""

    __slots__ = ("_string",)

    EMPTY: "Uri"

    def __init__(self, string: str) -> None:
        if not isinstance(string, str):
            raise TypeError(f"Uri needs a str, not {type(string).__name__}")
        self._string = string

    # Factories -----------------------------------------------------------------
    @staticmethod
    def parse(uri_string: str) -> "Uri":
        """A Uri for ``uri_string``, which is kept verbatim (Android never rejects one)."""
        return Uri(uri_string)

    @staticmethod
    def from_parts(scheme: str, ssp: str, fragment: str | None = None) -> "Uri":
        """``scheme:ssp#fragment``, encoding the scheme-specific part and the fragment."""
        safe = "/:@!$&'()*+,;=?"
        text = f"{scheme}:{quote(ssp, safe=safe)}"
        if fragment is not None:
            text += "#" + quote(fragment, safe=safe)
        return Uri(text)

    @staticmethod
    def encode(s: str, allow: str = "") -> str:
        """Percent-encode everything but letters, digits, ``_-!.~'()*`` and ``allow``."""
        return quote(s, safe="_-!.~'()*" + allow)

    @staticmethod
    def decode(s: str) -> str:
        return unquote(s)

    @staticmethod
    def with_appended_path(base: "Uri", path_segment: str) -> "Uri":
        return base.build_upon().append_path(path_segment).build()

    # Parts ---------------------------------------------------------------------
    def _split(self):  # noqa: ANN202 - urllib's SplitResult
        return urlsplit(self._string, allow_fragments=True)

    @property
    def scheme(self) -> str | None:
        head, sep, _ = self._string.partition(":")
        if not sep or not head or "/" in head or "?" in head or "#" in head:
            return None
        return head

    @property
    def is_absolute(self) -> bool:
        return self.scheme is not None

    @property
    def is_relative(self) -> bool:
        return self.scheme is None

    @property
    def is_hierarchical(self) -> bool:
        """True for ``scheme://...`` and relative references, False for ``mailto:a@b``."""
        if self.scheme is None:
            return True
        return self._string[len(self.scheme) + 1 :].startswith("/")

    @property
    def is_opaque(self) -> bool:
        return not self.is_hierarchical

    @property
    def scheme_specific_part(self) -> str:
        text = self._string.split("#", 1)[0]
        scheme = self.scheme
        return unquote(text[len(scheme) + 1 :] if scheme else text)

    @property
    def authority(self) -> str | None:
        if not self.is_hierarchical:
            return None
        return unquote(self._split().netloc) or None

    @property
    def user_info(self) -> str | None:
        authority = self.authority
        if authority and "@" in authority:
            return authority.rsplit("@", 1)[0]
        return None

    @property
    def host(self) -> str | None:
        if not self.is_hierarchical:
            return None
        return self._split().hostname

    @property
    def port(self) -> int:
        """The port, or -1 when none is given (or it is not a number)."""
        if not self.is_hierarchical:
            return -1
        try:
            port = self._split().port
        except ValueError:
            return -1
        return -1 if port is None else port

    @property
    def path(self) -> str | None:
        if not self.is_hierarchical:
            return None
        return unquote(self._split().path) or None

    @property
    def path_segments(self) -> list[str]:
        path = self._split().path if self.is_hierarchical else ""
        return [unquote(s) for s in path.split("/") if s]

    @property
    def last_path_segment(self) -> str | None:
        segments = self.path_segments
        return segments[-1] if segments else None

    @property
    def query(self) -> str | None:
        if not self.is_hierarchical:
            return None
        return unquote(self._split().query) or None

    @property
    def encoded_query(self) -> str | None:
        if not self.is_hierarchical:
            return None
        return self._split().query or None

    @property
    def query_parameter_names(self) -> list[str]:
        names: list[str] = []
        for key, _ in parse_qsl(self.encoded_query or "", keep_blank_values=True):
            if key not in names:
                names.append(key)
        return names

    def get_query_parameter(self, key: str) -> str | None:
        """The first value of ``key`` in the query, decoded; None when absent."""
        for name, value in parse_qsl(self.encoded_query or "", keep_blank_values=True):
            if name == key:
                return value
        return None

    def get_query_parameters(self, key: str) -> list[str]:
        return [v for k, v in parse_qsl(self.encoded_query or "", keep_blank_values=True) if k == key]

    @property
    def fragment(self) -> str | None:
        _, sep, fragment = self._string.partition("#")
        return unquote(fragment) if sep else None

    def build_upon(self) -> "Uri.Builder":
        parts = self._split()
        builder = Uri.Builder()
        if self.scheme:
            builder.scheme(self.scheme)
        if self.is_opaque:
            builder.opaque_part(self.scheme_specific_part)
        else:
            if parts.netloc:
                builder.encoded_authority(parts.netloc)
            if parts.path:
                builder.encoded_path(parts.path)
            if parts.query:
                builder.encoded_query(parts.query)
        if self.fragment is not None:
            builder.fragment(self.fragment)
        return builder

    # Value semantics ----------------------------------------------------------
    def __str__(self) -> str:
        return self._string

    def __repr__(self) -> str:
        return f"Uri.parse({self._string!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Uri) and other._string == self._string

    def __hash__(self) -> int:
        return hash(("Uri", self._string))

    def __bool__(self) -> bool:
        return bool(self._string)

    class Builder:
        """Assembles a Uri part by part, encoding as it goes (``Uri.Builder``)."""

        def __init__(self) -> None:
            self._scheme: str | None = None
            self._opaque: str | None = None
            self._authority: str | None = None
            self._path = ""
            self._query: list[str] = []
            self._fragment: str | None = None

        def scheme(self, scheme: str) -> "Uri.Builder":
            self._scheme = scheme
            return self

        def opaque_part(self, opaque_part: str) -> "Uri.Builder":
            self._opaque = Uri.encode(opaque_part, allow="@:")
            return self

        def authority(self, authority: str) -> "Uri.Builder":
            self._authority = Uri.encode(authority, allow="@:")
            return self

        def encoded_authority(self, authority: str) -> "Uri.Builder":
            self._authority = authority
            return self

        def path(self, path: str) -> "Uri.Builder":
            self._path = Uri.encode(path, allow="/")
            return self

        def encoded_path(self, path: str) -> "Uri.Builder":
            self._path = path
            return self

        def append_path(self, segment: str) -> "Uri.Builder":
            base = self._path.rstrip("/")
            self._path = f"{base}/{Uri.encode(segment)}"
            return self

        def append_query_parameter(self, key: str, value: str) -> "Uri.Builder":
            self._query.append(f"{Uri.encode(key)}={Uri.encode(value)}")
            return self

        def encoded_query(self, query: str) -> "Uri.Builder":
            self._query = [query] if query else []
            return self

        def clear_query(self) -> "Uri.Builder":
            self._query = []
            return self

        def fragment(self, fragment: str) -> "Uri.Builder":
            self._fragment = Uri.encode(fragment, allow="/?:@")
            return self

        def build(self) -> "Uri":
            text = f"{self._scheme}:" if self._scheme else ""
            if self._opaque is not None:
                text += self._opaque
            else:
                if self._authority is not None:
                    text += "//" + self._authority
                    if self._path and not self._path.startswith("/"):
                        text += "/"
                text += self._path
                if self._query:
                    text += "?" + "&".join(self._query)
            if self._fragment is not None:
                text += "#" + self._fragment
            return Uri(text)


Uri.EMPTY = Uri("")


def has_scheme(uri: Uri, schemes: Iterable[str]) -> bool:
    """Whether ``uri``'s scheme is one of ``schemes`` (schemes compare case-insensitively)."""
    scheme = (uri.scheme or "").lower()
    return any(scheme == s.lower() for s in schemes)
