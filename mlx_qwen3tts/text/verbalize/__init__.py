"""One module a language, each with `read(text) -> str`: the text with that language's semiotic classes
(numbers, dates, times, money, measures, ordinals, abbreviations, symbols) said as words. The alphabetic
languages share `common`; `..normalize` does the language-independent part and picks the module."""
