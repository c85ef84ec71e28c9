"""What the studio page (static/) reads beyond the OpenAI API: the model's facts in /health and
the notices of a request (an ignored instruction, an x-vector-only clone) as response headers."""

from ..model.speakers import NATIVE_LANGUAGES
from ..request import instructions_honoured

NOTICE_HEADER = "X-Notice"


def health_facts(facts) -> dict:
    """/health fields for the page: the size, the speakers with their native language (None where
    the model card names none) and whether instructions are followed."""
    return {"size": facts.size, "instructions": instructions_honoured(facts),
            "speakers": [{"id": name, "language": NATIVE_LANGUAGES.get(name)} for name in facts.speakers]}


def notice_headers(notices) -> dict:
    """One header holding every notice; headers are Latin-1, so other characters become '?'."""
    if not notices:
        return {}
    text = " | ".join(notices)
    text = "".join(c if c.isprintable() else " " for c in text)
    return {NOTICE_HEADER: text.encode("latin-1", "replace").decode("latin-1")}
