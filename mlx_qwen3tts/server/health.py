"""What /health says of the model beyond its limits, for the page (static/) to adapt to: its size, its
speakers with their native language and whether it follows instructions."""

from ..model.speakers import NATIVE_LANGUAGES
from ..request import instructions_honoured


def health_facts(facts) -> dict:
    """/health fields for the page: the size, the speakers with their native language (None where
    the model card names none) and whether instructions are followed."""
    return {"size": facts.size, "instructions": instructions_honoured(facts),
            "speakers": [{"id": name, "language": NATIVE_LANGUAGES.get(name)} for name in facts.speakers]}
