"""Text as the command reads it: arguments, files and stdin, as UTF-8, with a message naming where a bad
byte is."""

import codecs
import sys

from ..errors import InputError


def checked_utf8(text: str, where: str) -> str:
    """argv arrives with undecodable bytes as surrogates; say so instead of failing later."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InputError(f"{where} is not valid UTF-8 (byte {text[e.start].encode('utf-8', 'surrogateescape')!r} "
                         f"at character {e.start}); check the terminal's or file's encoding") from None
    return text


def _not_utf8(where: str, e: UnicodeDecodeError, offset: int = 0) -> InputError:
    return InputError(f"{where} is not valid UTF-8 (byte {e.object[e.start:e.start + 1]!r} at offset "
                      f"{offset + e.start}); convert it to UTF-8")


def decode_utf8(data: bytes, where: str) -> str:
    """The text of UTF-8 bytes, without the byte-order mark some editors put first (it is not text to speak)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise _not_utf8(where, e) from None


def stdin_deltas(stream=None, size: int = 64):
    """Text from stdin as it arrives (UTF-8 decoded incrementally, so split characters are fine).

    Leading whitespace is held back until some text follows, so input with no text at all is an
    error before any speech starts.
    """
    from ..request import clean_text

    stream = stream or sys.stdin.buffer
    decoder = codecs.getincrementaldecoder("utf-8")()
    read = getattr(stream, "read1", stream.read)
    held, offset, has_text = "", 0, False
    while True:
        data = read(size)
        try:
            held += decoder.decode(data, final=not data)
        except UnicodeDecodeError as e:
            raise _not_utf8("stdin", e, offset) from None
        offset += len(data)
        has_text = has_text or bool(clean_text(held).strip())  # control characters are dropped anyway: not text
        if has_text and held:
            yield held
            held = ""
        if not data:
            break
    if not has_text:
        raise InputError("--text-stream read no text from stdin; pipe some text in")
