"""Languages as the checkpoints and the aligner name them (in English: 'English', 'Chinese') and as
clients name them (ISO 639-1 codes, with or without a region: 'en', 'en-US', 'zh_CN'). `language_key` is
the one mapping of a language given by a caller: the request layer checks it against the model's
languages, the aligner against its own, so a code means the same for speech and for word timing."""

# The checkpoints name languages in English; clients (Home Assistant, browsers) and num2words by ISO 639-1 codes.
LANGUAGE_CODES = {"chinese": "zh", "english": "en", "french": "fr", "german": "de", "italian": "it",
                  "japanese": "ja", "korean": "ko", "portuguese": "pt", "russian": "ru", "spanish": "es"}
_NAMES = {code: name for name, code in LANGUAGE_CODES.items()}


def language_key(language: str) -> str:
    """The lower-case English name of `language`, a name (any case) or an ISO 639-1 code with any region
    ('en', 'en-US', 'en_us'); '' is 'auto'; anything else comes back trimmed and lower-cased."""
    key = language.strip().lower()
    return _NAMES.get(key.replace("_", "-").split("-")[0], key) or "auto"
