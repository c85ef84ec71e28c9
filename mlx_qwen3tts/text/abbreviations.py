"""Common abbreviations per language (ISO 639-1 code -> {as written: as said}). A sentence is never cut
at one of their dots (`cutting`), and the normalizer says them in full (`normalize`). Entries are written
as the language's readers write them, with the space inside where they write one ("z. B."); the variant
without the space is matched too."""

ABBREVIATIONS = {
    "en": {"e.g.": "for example", "i.e.": "that is", "Fig.": "figure", "Eq.": "equation", "approx.": "approximately"},
    "de": {"z. B.": "zum Beispiel", "u. a.": "unter anderem", "bzw.": "beziehungsweise", "d. h.": "das heißt",
           "Nr.": "Nummer"},
    "fr": {"p. ex.": "par exemple", "c.-à-d.": "c'est-à-dire"},
    "es": {"p. ej.": "por ejemplo", "pág.": "página"},
    "it": {"pag.": "pagina", "sig.": "signor"},
    "pt": {"p. ex.": "por exemplo", "pág.": "página"},
    "ru": {"т. е.": "то есть", "т. д.": "так далее"},
    "zh": {}, "ja": {}, "ko": {},
}
