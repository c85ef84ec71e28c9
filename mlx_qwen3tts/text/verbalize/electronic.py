"""Web and e-mail addresses, handles and host names as their languages' text-normalization standards say them (NeMo
text processing's electronic grammars): a scheme spelled and its "://" said ("H T T P S colon slash slash"), "www"
spelled, every symbol by its word in the language (data/electronic.tsv: ".", "/", "@", ":", "-", "_", "?", "=" ...),
a run of digits one digit at a time, the names between as written. `read` finds the addresses written with a
scheme, "www.", an "@" or a handle; `read_hosts` the bare host names ("nvidia.com/drivers"), which only a language's
reader can tell from an abbreviation ("sig.ra", "dott.ssa"); `read_cards` a card number after a cue."""

import re
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).parent / "data"
_NOT = r"\s<>\"'()\[\]«»‹›„“”‘’「」『』（）"  # what ends an address: a space, a bracket, a quote
_CHARS = "[^" + _NOT + "]*[^" + _NOT + ".,;:!?。、]"
# A scheme (RFC 3986: a letter, then letters, digits, "+", "-" or ".": "https", "ssh", "socks5h", "git+ssh") and
# "://", or "www.".
_START = r"(?:[a-z][a-z\d+.-]{1,31}://|www\.)"
_URL = re.compile(r"<(" + _START + _CHARS + r")>|(?<![\w@/])(" + _START + _CHARS + ")", re.I)
_LOCAL = r"\w.!#$%&*+=?^{|}~-"  # the characters of an e-mail address' name ("a-1.b3_c&-d")
_ADDRESS = r"[^\W_][" + _LOCAL + r"]*@[\w-]+(?:\.[\w-]+)+(?:/(?:" + _CHARS + r")?)?"
_EMAIL = re.compile(r"<(?:mailto:)?(" + _ADDRESS + r")>|(?<![" + _LOCAL + r"])(?:mailto:)?(" + _ADDRESS + r")(?!\w)")
# "@jensen", "@wezyr1986", "@2pac", a name with a dot or hyphen inside it ("@anna.bianchi", "@mario-rossi"); a letter
# in its first part (not "@3", "@10:00")
_HANDLE = re.compile(r"(?<![\w@.])@(?=\w*[^\W\d_])\w+(?:[.-]\w+)*")
# A hashtag: "#" before a name that starts with a letter ("#estate2024"; not "#1", "C#", "page#top", "&#39;").
_HASHTAG = re.compile(r"(?<![\w#&/])#([^\W\d_]\w*)")
# A host or file name without scheme, and its path: its last label decides (`is_host`).
_HOST = re.compile(r"(?<![\w@./:-])((?:[A-Za-z0-9][\w-]*\.)+([a-z]{2,}))(/(?:" + _CHARS + r")?)?(?![\w@/-]|\.\w)")
_SCHEME = re.compile(r"([a-z][a-z\d+.-]{1,31})(://+)", re.I)
_VOWEL = re.compile("[aeiouy]", re.I)
_PIECE = re.compile(r"[^\W\d_]+|\d+|\S")  # a run of letters, a run of digits, or one symbol


@lru_cache(maxsize=None)
def words(lang: str) -> dict:
    """The language's words for the symbols of an address and the labels said otherwise after a dot ("jpg":
    "jpeg"), English where the language has none."""
    table = {"en": {}}
    for line in (DATA / "electronic.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            code, written, said = line.split("\t")
            table.setdefault(code, {})[written] = said
    return {**table["en"], **table.get(lang, {})} if lang != "en" else table["en"]


@lru_cache(maxsize=None)
def _names(file: str) -> frozenset:
    lines = (DATA / file).read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def say(lang: str, written: str, digits) -> str:
    """An address as said; `digits` says a run of digits (one by one, or as written for a reader that does)."""
    table, said = words(lang), []
    scheme = _SCHEME.match(written)
    if table.get("(style)") == "short":  # host and path only, as docs/text.md tells
        written = re.split(r"[?#]", written[scheme.end() if scheme else 0:])[0].strip("/")
        written, scheme = (written[4:] if written[:4].lower() == "www." else written), None
    if scheme:
        said += [_scheme(scheme.group(1), table, digits)] + [table[ch] for ch in scheme.group(2)]
        written = written[scheme.end():]
    if written[:4].lower() == "www.":
        said += ["W W W", table["."]]
        written = written[4:]
    after_dot = False
    for piece in _PIECE.findall(written):
        if piece.isdigit():
            said.append(digits(piece))
        elif piece[0].isalpha():
            said.append(table.get(piece.lower(), piece) if after_dot else piece)
        else:
            said.append(table.get(piece, piece))
        after_dot = piece == "."
    return " ".join(word for word in said if word)  # an empty word: a pause


def _scheme(name: str, table: dict, digits) -> str:
    """A scheme's name as said: a run of letters without a vowel spelled ("H T T P S", "S S H"), one with a vowel
    as written ("file", "socks" "five" "H"), digits by `digits`, a symbol by its word ("git plus S S H")."""
    said = []
    for piece in _PIECE.findall(name):
        if piece.isdigit():
            said.append(digits(piece))
        elif piece[0].isalpha():
            said.append(piece.lower() if _VOWEL.search(piece) else " ".join(piece.upper()))
        else:
            said.append(table.get(piece, piece))
    return " ".join(said)


def read(lang: str, text: str, digits) -> str:
    """Web addresses (a scheme or "www."), e-mail addresses, handles and hashtags in `text`, said."""
    if "www" in text.lower() or "://" in text:
        text = _URL.sub(lambda m: say(lang, m.group(1) or m.group(2), digits), text)
    if "@" in text:
        text = _EMAIL.sub(lambda m: say(lang, m.group(1) or m.group(2), digits), text)
        text = _HANDLE.sub(lambda m: say(lang, m.group(0), digits), text)
    if "#" in text:
        text = _HASHTAG.sub(lambda m: words(lang)["(hashtag)"] + " " + say(lang, m.group(1), digits), text)
    return text


@lru_cache(maxsize=None)
def _card(lang: str):
    """The pattern of a card number after one of the language's cues (data/card_cues.tsv), or None."""
    cues = [line.split("\t")[1] for line in (DATA / "card_cues.tsv").read_text(encoding="utf-8").splitlines()
            if line.startswith(lang + "\t")]
    if not cues:
        return None
    cue = "|".join(re.escape(c).replace(r"\ ", r"\s+") for c in sorted(cues, key=len, reverse=True))
    return re.compile(r"(?i:\b(?:" + cue + r"))(?::?\s+)(\d{4}(?:[ -]?\d{4}){0,4})(?![\w.,-]?\d)")


def read_cards(lang: str, text: str, digits) -> str:
    """A payment card's number after a cue ("card ending in 8876"): its digits one by one, group by group."""
    pattern = _card(lang)
    if pattern is None:
        return text
    return pattern.sub(lambda m: m.group(0)[:m.start(1) - m.start()]
                       + ", ".join(digits(g) for g in re.split("[ -]", m.group(1))), text)


def is_host(lang: str, name: str, last: str, path: str) -> bool:
    """Whether a word with dots is a host name: a path follows it ("comdailynews.ab/sm"), its last label is a known
    domain (data/domains.tsv: "nvidia.com") or a file type the language reads ("ciao.html" in Italian), or two or
    three lower-case letters, no file type (data/file_types.tsv), after a name of four characters or more with a
    letter ("test.abc"; not "main.c", "notes.txt", "z.B", "2.ab")."""
    if path or last in _names("domains.tsv") or last in words(lang):
        return True
    first = name.split(".")[0]
    return (len(last) <= 3 and last not in _names("file_types.tsv") and len(first) >= 4
            and any(ch.isalpha() for ch in first))


def read_hosts(lang: str, text: str, digits, abbreviation) -> str:
    """Bare host names in `text` (with their path), said; `abbreviation(word)` tells a word whose dot
    belongs to an abbreviation ("sig.ra", "dott.ssa"), never a host."""
    if "." not in text:
        return text

    def said(m):
        name, last, path = m.groups()
        if not is_host(lang, name, last, path) or abbreviation(name) or abbreviation(name.split(".")[0] + "."):
            return m.group(0)
        return say(lang, m.group(0), digits)
    return _HOST.sub(said, text)
