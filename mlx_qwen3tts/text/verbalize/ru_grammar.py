"""Russian agreement: the case a number takes from the preposition before it and the noun after it, and a noun
phrase inflected to agree with a number ("2 книги" две книги, "в 75 городах" в семидесяти пяти городах,
"3 ч. л." три чайные ложки). Word forms come from pymorphy3 (OpenCorpora's dictionary, MIT licensed code,
CC BY-SA dictionary), loaded on first use (about 0.1 s, ~20 MB)."""

import re
from functools import lru_cache
from typing import Optional, Tuple

# The cases a preposition governs, in the order they are tried when the noun after the number allows several
# (num2words' letters: n g d a i p). The first is taken where no noun follows ("с 5 до 7": с пяти до семи).
PREPOSITIONS = {
    "в": "ap", "во": "ap", "на": "ap", "о": "p", "об": "p", "обо": "p", "при": "p", "с": "gi", "со": "gi",
    "к": "d", "ко": "d", "по": "ad", "до": "g", "от": "g", "ото": "g", "из": "g", "изо": "g", "для": "g",
    "без": "g", "у": "g", "около": "g", "после": "g", "кроме": "g", "среди": "g", "свыше": "g", "более": "g",
    "менее": "g", "порядка": "g", "вокруг": "g", "против": "g", "вместо": "g", "из-за": "g", "накануне": "g",
    "за": "ai", "под": "ai", "над": "i", "перед": "i", "между": "i", "через": "a", "про": "a", "сквозь": "a",
    "включая": "a", "равно": "d", "согласно": "d", "благодаря": "d", "навстречу": "d", "равен": "d", "равна": "d",
    "равны": "d", "больше": "g", "меньше": "g", "течение": "g", "районе": "g", "пределах": "g", "размере": "g",
    "продолжение": "g", "ходе": "g", "количестве": "g", "возрасте": "g",  # "в продолжение 20 лет" двадцати лет
    "протяжении": "g", "радиусе": "g", "глубине": "g", "высоте": "g", "расстоянии": "g", "объёме": "g",
    "объеме": "g",  # "на протяжении 5 лет" пяти лет, "на высоте 100 метров" ста метров
    # a comparative governs what it is compared with in the genitive ("старше 18 лет" старше восемнадцати лет)
    **dict.fromkeys(("старше", "моложе", "младше", "дороже", "дешевле", "позже", "позднее", "раньше", "дальше",
                     "выше", "ниже", "длиннее", "короче", "тяжелее", "легче", "быстрее", "медленнее", "теплее",
                     "холоднее", "глубже", "шире"), "g"),
    **dict.fromkeys(("кратно", "кратен", "кратна", "кратны", "пропорционально"), "d"),  # "кратно 8" восьми
    # "стоимость, равная 7 500" равная семи тысячам пятистам: the adjective governs as "равна" does
    **dict.fromkeys(("равный", "равная", "равное", "равные", "равного", "равной", "равному", "равную", "равным",
                     "равном", "равных", "равными"), "d"),
}
_CASES = {"n": "nomn", "g": "gent", "d": "datv", "a": "accs", "i": "ablt", "p": "loct"}
_LETTER = {v: k for k, v in _CASES.items()}
_LETTER.update({"gen2": "g", "acc2": "a", "loc2": "p", "voct": "n"})
_GENDER = {"masc": "m", "femn": "f", "neut": "n"}
# Loanwords the dictionary files as neuter that the norm (and every speaker) makes masculine: "21 евро" двадцать один
_MASCULINE = {"евро", "песо"}
_NOT_SAID = {"быть"}  # a copula before a date leaves it in the nominative ("Это было девятое мая")
_WORD_BEFORE = re.compile(r"([А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)?)[\s\u00a0]+$")
_WORD_AFTER = re.compile(r"[\s\u00a0]+([А-Яа-яЁё]+)")


@lru_cache(maxsize=1)
def morph():
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


@lru_cache(maxsize=8192)
def _parses(word: str):
    return tuple(morph().parse(word))


# Verbs whose object is in a case of its own: "достигла 5 тысяч" пяти тысяч, "равняется 10" десяти.
_GOVERNING = {"достичь": "g", "достигнуть": "g", "достигать": "g", "лишиться": "g", "лишаться": "g",
              "равняться": "d"}


# A number that follows another in a list ("из 90% воды и 10% косметики", "2 часов, 43 минут и 9 секунд"): the
# number before it, what it counts (up to three words: "1/2 ч. л. соли") and the "и", "или" or comma between.
_LISTED = re.compile(r"[-−]?\d[\d.,/:]*\s?%?(?:[\s\u00a0]+[А-Яа-яЁё.]+){0,3}(?:,|[\s\u00a0]+(?:и|или))[\s\u00a0]+$")


def preposition(before: str, depth: int = 3) -> Optional[str]:
    """The cases the preposition before a number governs (None where there is none): the word right before it, or
    before the adjectives between ("от лишних 80 кг"), or the one the first number of a list takes ("из 90% воды и
    10% косметики": из ... десяти процентов)."""
    m = _WORD_BEFORE.search(before[-24:])
    if m and m.group(1).lower() in ("с", "со") and word_before(before[:len(before) - len(m.group(0))]).lower() \
            in _SIZE_WITH:
        return "a"  # "размером с 5 футбольных полей": с пять, about as large as
    if m and m.group(1).lower() in PREPOSITIONS:
        return PREPOSITIONS[m.group(1).lower()]
    if m and m.group(1)[0].islower() and lemma(m.group(1)) in _GOVERNING:  # "достигла 2,3 млрд" двух целых трёх
        return _GOVERNING[lemma(m.group(1))]
    if m and m.group(1)[0].islower() and is_adjective(m.group(1), plural=True) and depth:
        # "от лишних 80 кг": the preposition before the adjectives; none: the adjective's own oblique cases
        # ("первых 5 строк" первых пяти строк, "последних 10 лет" последних десяти)
        rest = before[:len(before) - len(m.group(0))] + " "
        return preposition(rest, 0) or (None if is_verb(word_before(rest)) else _oblique_plural(m.group(1)))
    listed = _LISTED.search(before[-80:]) if depth else None
    return preposition(before[:len(before) - len(listed.group(0))], depth - 1) if listed else None


_SIZE_WITH = {"размером", "величиной", "ростом", "весом", "длиной", "высотой", "толщиной", "объёмом", "объемом"}


def _oblique_plural(adjective: str) -> Optional[str]:
    """The oblique cases (g d i p) `adjective` stands in as a plural, None where it can be a nominative ("первые")."""
    cases = {p.tag.case for p in _parses(adjective.lower()) if p.tag.POS in ("ADJF", "PRTF") and p.tag.number == "plur"}
    if not cases or "nomn" in cases:
        return None
    return "".join(letter for letter in "gdip" if _CASES[letter] in cases) or None


def word_before(before: str) -> str:
    m = _WORD_BEFORE.search(before[-32:])
    return m.group(1) if m else ""


def word_after(after: str) -> str:
    m = _WORD_AFTER.match(after[:40])
    return m.group(1) if m else ""


def noun_form(n: int, case: str, decimal: bool = False) -> Tuple[str, str]:
    """(case, 'sing'/'plur') of a noun counted by `n` in the number's `case`: 1 книга, 2 книги, 5 книг, двум книгам."""
    if decimal:  # a fraction's noun is in the genitive singular whatever its case: до 1,5 килограмма
        return "g", "sing"
    if n % 10 == 1 and n % 100 != 11:
        return case, "sing"
    if case in "na":
        return ("g", "sing") if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else ("g", "plur")
    return case, "plur"


def counted(n: int, noun: str, cases: Optional[str], decimal: bool = False) -> Optional[Tuple[str, str]]:
    """(case, gender) of the number `n` before the word `noun` (after a preposition governing `cases`, if any),
    or None where `noun` is no noun that agrees with it in any case allowed. The gender is "anim" for a masculine
    animate noun in the accusative singular (its number takes the genitive's form: одного кота), "pltm" for a noun
    with no singular (сутки: одни сутки, двое суток)."""
    parses = _parses(noun) if noun else ()
    nouns = [p for p in parses if p.tag.POS == "NOUN" and p.tag.case and "Abbr" not in p.tag and p.score >= 0.05]
    if not nouns or parses[0].tag.POS in ("PREP", "CONJ", "PRCL", "VERB", "INFN", "ADVB"):  # not "1 уже": уж
        return None
    for case in cases or "nagdip":
        if case == "a" and n in (2, 3, 4) and not decimal and any(
                "anim" in p.tag and p.tag.number == "plur" and p.tag.case == "gent" for p in nouns):
            return "g", "m"  # an animate accusative: "на 2 человек" на двух человек, "вижу 3 кошек" трёх
        want = noun_form(n, case, decimal)
        for p in nouns:
            if _LETTER.get(p.tag.case) == want[0] and (p.tag.number or "sing") == want[1]:
                if case == "a" and want[1] == "sing" and "anim" in p.tag and p.tag.gender == "masc" \
                        and n % 10 == 1 and n % 100 != 11:
                    # an animate accusative: "вижу 1 кота" одного кота; not after 22 ("видел 22 студента" двадцать
                    # два: a compound number ending in 2-4 keeps its nominative)
                    return "a", "anim"
                return case, "m" if p.normal_form in _MASCULINE else _GENDER.get(p.tag.gender, "m")
            # сутки, ножницы: where the likeliest reading is one ("2 котов" is cats, not the shoes коты)
            if "Pltm" in p.tag and p is nouns[0] and _LETTER.get(p.tag.case) == want[0]:
                return case, "pltm"  # counted by the collective: "2 суток" двое суток
    return None


# Nouns a number ending in 1 names rather than counts ("в 21 веке" в двадцать первом веке, "1 этаж" первый этаж).
ORDINAL_NOUNS = {"век", "этаж", "класс", "курс", "место", "квартал", "съезд", "созыв", "тур", "раунд", "номер"}


def plural_case(noun: str) -> bool:
    """Whether the likeliest reading of `noun` is a plural in the nominative or accusative ("классы", "тома")."""
    parses = _parses(noun.lower()) if noun else ()
    return bool(parses) and parses[0].tag.POS == "NOUN" and parses[0].tag.number == "plur" \
        and parses[0].tag.case in ("nomn", "accs")


def plurale_tantum(noun: str) -> bool:
    """Whether `noun` has no singular ("сутки", "ножницы"): counted by the collective ("двое суток")."""
    parses = _parses(noun.lower()) if noun else ()
    return bool(parses) and parses[0].tag.POS == "NOUN" and "Pltm" in parses[0].tag


def plural_instrumental(noun: str) -> bool:
    """Whether `noun` can be a plural in the instrumental ("классами", "друзьями")."""
    return any(p.tag.POS == "NOUN" and p.tag.number == "plur" and p.tag.case == "ablt"
               for p in (_parses(noun.lower()) if noun else ()))


def singular_noun(word: str) -> bool:
    """Whether the likeliest reading of `word` is a singular noun ("издание", "место")."""
    parses = _parses(word.lower()) if word else ()
    return bool(parses) and parses[0].tag.POS == "NOUN" and parses[0].tag.number == "sing"


def named_plural(noun: str) -> Optional[str]:
    """The case of `noun` where it is the plural of a noun a number names ("1–4 классы", "в 5-9 классах": the
    numbers ordinals), else None."""
    parses = _parses(noun) if noun else ()
    found = next((p for p in parses if p.tag.POS == "NOUN" and p.tag.number == "plur" and p.normal_form in
                  ORDINAL_NOUNS - {"век", "номер", "место"} and p.score >= 0.1), None)
    return _LETTER.get(found.tag.case) if found else None


_TIMES_OF_DAY = {"утро", "вечер", "день", "ночь", "полдень", "полночь"}


def names(n: int, noun: str) -> bool:
    """Whether `n` before `noun` is an ordinal however the noun agrees: a century, or 1 (21, 31...) before a floor,
    a class, a place."""
    lemma = _parses(noun)[0].normal_form if _parses(noun) else ""
    return lemma in ORDINAL_NOUNS and (lemma == "век" or n % 10 == 1 and n % 100 != 11)


def ordinal_use(noun: str, cases: Optional[str]) -> Optional[Tuple[str, str]]:
    """(case, gender) of a number read as an ordinal before a singular noun it cannot count ("в 5 классе" в пятом
    классе, "с 3 пути" с третьего пути, "на 2 этаже" на втором этаже), or None."""
    parses = _parses(noun)
    if not parses or parses[0].tag.POS != "NOUN" or not noun[0].islower() or not parses[0].is_known \
            or parses[0].normal_form in _TIMES_OF_DAY and parses[0].tag.case == "gent":
        return None  # a capital starts a name or a heading; "до 5 утра" counts hours ("на 7 день" names a day)
    for p in parses:
        case = _LETTER.get(p.tag.case)
        if p.tag.POS == "NOUN" and p.tag.number == "sing" and case and (not cases or case in cases) \
                and "Abbr" not in p.tag and p.score >= 0.05:
            return case, _GENDER.get(p.tag.gender, "m")
    return None


def ordinal_ending_form(mark: str, noun: str) -> Optional[Tuple[str, str]]:
    """(case, gender) of an ordinal whose written ending says two things, taken from the noun after it: "-й" is a
    masculine nominative or a feminine oblique case ("5-й класс" пятый, "на 5-й минуте" пятой), "-м" a
    prepositional or an instrumental ("на 3-м уроке" третьем, "перед 3-м уроком" третьим, "к 5-м классам" пятым).
    None where the noun does not decide (the ending's first reading stands)."""
    parses = [p for p in _parses(noun.lower()) if p.tag.POS == "NOUN" and p.tag.case and p.score >= 0.05] \
        if noun else []
    if not parses:
        return None
    if mark in ("й", "ой"):
        if any(p.tag.case == "nomn" and p.tag.gender == "masc" for p in parses):
            return None
        oblique = {"gent", "datv", "ablt", "loct", "gen2", "loc2"}
        # a plural noun after ordinals joined: "на 15-й и 78-й минутах" на пятнадцатой и семьдесят восьмой
        feminine = next((p for p in parses if p.tag.gender == "femn" and p.tag.case in oblique), None)
        return (_LETTER[feminine.tag.case], "f") if feminine else None
    if mark == "м" and not any(p.tag.case in ("loct", "loc2") for p in parses):
        if any(p.tag.case == "ablt" and p.tag.number == "sing" or p.tag.case == "datv" and p.tag.number == "plur"
               for p in parses):
            return "i", "m"  # the masculine instrumental singular and the dative plural are one form: пятым
    return None


def lemma(word: str) -> str:
    """The dictionary form of `word`'s likeliest reading ('' for none)."""
    parses = _parses(word.lower()) if word else ()
    return parses[0].normal_form if parses else ""


def plural_noun(word: str) -> bool:
    """Whether `word` can be a noun in the plural ("главы", "разделах")."""
    return any(p.tag.POS == "NOUN" and p.tag.number == "plur" for p in (_parses(word.lower()) if word else ()))


def is_noun(word: str) -> bool:
    parses = _parses(word.lower()) if word else ()
    return bool(parses) and parses[0].tag.POS == "NOUN"


def is_adjective(word: str, plural: bool = False) -> bool:
    """Whether `word`'s likeliest reading is an adjective (a participle, a numeral's); `plural`: one in the plural,
    as an adjective counted with a number is ("от лишних 80 кг"; not "с мобильного 103", a noun left out)."""
    parses = _parses(word.lower())
    if not parses or parses[0].tag.POS not in ("ADJF", "PRTF", "NUMR"):
        return False
    return not plural or parses[0].tag.POS == "NUMR" or any(p.tag.number == "plur" for p in parses
                                                              if p.tag.POS in ("ADJF", "PRTF"))


def adjective_likelier(word: str) -> bool:
    """Whether `word`'s readings as an adjective together outweigh the others: "часовой" after "24-" (a sentry
    first, but an adjective in most of its forms)."""
    parses = _parses(word.lower())
    return sum(p.score for p in parses if p.tag.POS in ("ADJF", "PRTF")) > 0.5


def parallel_case(before: str, noun: str) -> Optional[str]:
    """The case of a number joined by "и"/"или" to a numeral written out before it that counts the same noun
    ("не более пяти слов для первой и 25 слов для второй": двадцати пяти, as пяти), else None."""
    words = re.findall(r"[А-Яа-яЁё]+|\d+", before[-160:])
    if not noun or len(words) < 3 or words[-1].lower() not in ("и", "или"):
        return None
    for i in range(len(words) - 3, max(-1, len(words) - 14), -1):
        if words[i + 1].lower() != noun.lower() or words[i].isdigit():
            continue
        cases = [p.tag.case for p in _parses(words[i].lower()) if p.tag.POS == "NUMR"]
        if any("inan" in p.tag for p in _parses(noun.lower())[:1]):
            cases = [c for c in cases if c != "accs"]  # "трёх строк": the accusative is an animate noun's only
        oblique = [c for c in cases if c in _LETTER and c not in ("nomn", "accs")]
        return _LETTER[oblique[0]] if oblique and len(oblique) == len(cases) else None
    return None


def noun_case(word: str) -> Optional[str]:
    """The case (n g d a i p) of `word` where its likeliest reading is a noun, else None."""
    parses = _parses(word.lower())
    if not parses or parses[0].tag.POS != "NOUN" or parses[0].tag.case not in _LETTER:
        return None
    return _LETTER[parses[0].tag.case]


def described_form(adjective: str, noun: str) -> Optional[str]:
    """`adjective` (its dictionary form) in the case, gender and number of `noun`, where `noun` is most likely a
    noun outside the genitive ("100% непрозрачностью": стопроцентной); None where it is not ("5% населения")."""
    parses = _parses(noun.lower())
    if not parses or parses[0].tag.POS != "NOUN" or parses[0].tag.case in ("gent", "gen2", None):
        return None
    tag = parses[0].tag
    grammemes = {tag.case, tag.number} | ({tag.gender} if tag.number == "sing" and tag.gender else set())
    if tag.case == "accs" and tag.animacy and (tag.number == "plur" or tag.gender == "masc"):
        grammemes.add(tag.animacy)  # "вижу 100% новых" / "100% результат": the accusative's animate or not
    form = next((p for p in _parses(adjective) if p.tag.POS == "ADJF"), None)
    form = form.inflect(grammemes) if form else None
    return form.word if form else None


def is_verb(word: str) -> bool:
    """Whether `word` is most likely a verb other than "быть" (after which a date is in the genitive)."""
    parses = _parses(word.lower()) if word else ()
    return bool(parses) and parses[0].tag.POS in ("VERB", "INFN", "PRTS", "GRND") \
        and parses[0].normal_form not in _NOT_SAID


def name_form(word: str) -> Optional[Tuple[str, str]]:
    """(case, gender) of `word` where its likeliest reading is a first name ("Петра": genitive, masculine), else
    None."""
    parses = _parses(word.lower()) if word else ()
    if not parses or "Name" not in parses[0].tag or not parses[0].tag.case:
        return None
    return _LETTER.get(parses[0].tag.case, "n"), _GENDER.get(parses[0].tag.gender, "m")


# Particles that limit an amount and stand between a verb and its object ("съел всего 2 яблока", "выпил ещё 1/2
# стакана")
_LIMITING = {"лишь", "только", "всего", "ещё", "еще", "уже", "почти", "примерно", "приблизительно", "ровно"}
_PRICED = {"стоить"}  # an intransitive verb whose price is in the accusative


def object_of_verb(before: str, depth: int = 3) -> bool:
    """Whether a number after `before` is the object of the verb before it ("Съешь 1/2 яблока" одну вторую, "выпил
    1,5 литра" одну целую пять десятых), or before the first of a list it ends ("Возьмите 2 яйца, 1 стакан муки и 1/2
    ч. л. соды": одну вторую): a transitive verb, not one in the feminine or neuter past that the number is the
    subject of ("прошла 1/3 жизни" одна третья)."""
    word = word_before(before)
    if word.lower() in _LIMITING and depth:  # "используем лишь 1/10 мозга" одну десятую: the verb before the particle
        return object_of_verb(before[:before.rstrip().rfind(word)], depth - 1)
    parses = _parses(word.lower()) if word else ()
    if parses and parses[0].normal_form in _PRICED:
        return True  # "стоит 1 000 ₽" тысячу рублей, "книга стоила 1 000 ₽" тысячу
    if not parses or parses[0].tag.POS not in ("VERB", "INFN") or "tran" not in parses[0].tag:
        listed = _LISTED.search(before[-80:]) if depth else None
        return bool(listed) and object_of_verb(before[:len(before) - len(listed.group(0))], depth - 1)
    if "past" in parses[0].tag and parses[0].tag.gender in ("femn", "neut"):
        # the subject named before the verb leaves the number its object ("Она съела 1/4 торта" одну четвёртую)
        return _subject(before[:before.rstrip().rfind(word)], parses[0].tag.gender)
    return True


def _subject(before: str, gender: str) -> bool:
    """Whether the word before a verb is a noun or pronoun in the nominative of `gender` (its subject)."""
    word = word_before(before)
    parses = _parses(word.lower()) if word else ()
    return bool(parses) and parses[0].tag.POS in ("NOUN", "NPRO") and parses[0].tag.case == "nomn" \
        and parses[0].tag.number == "sing" and parses[0].tag.gender == gender


def is_preposition_use(word: str) -> bool:
    """Whether "с" before `word` is the preposition ("2 с половиной", "10 с лишним"), not seconds."""
    if not word or not word[0].islower():
        return False
    best = _parses(word)[0].tag
    return best.POS not in ("VERB", "INFN") and best.case in ("ablt", "gent")


@lru_cache(maxsize=4096)
def inflected(phrase: str, case: str, number: str, few: bool = False) -> str:
    """A noun phrase ("чайная ложка", "градус Цельсия") in `case` and `number`: its adjectives and its first noun
    inflected, the words after that (a complement) as they are. Two to four of a feminine noun take the
    nominative plural adjective (`few`: "две чайные ложки")."""
    words, out, done = phrase.split(), [], False
    feminine = any("femn" in p.tag for w in words for p in _parses(w)[:1] if p.tag.POS == "NOUN")
    animate = any("anim" in p.tag for w in words for p in _parses(w)[:1] if p.tag.POS == "NOUN")
    masculine = any("masc" in p.tag for w in words for p in _parses(w)[:1] if p.tag.POS == "NOUN")
    for i, word in enumerate(words):
        if done:
            out.append(word)
            continue
        parses = _parses(word)
        # a word before the last is an adjective where it can be one ("столовая ложка", not the dining room)
        parse = (i + 1 < len(words) and next((p for p in parses if p.tag.POS == "ADJF"), None)
                 or next((p for p in parses if p.tag.POS == "NOUN" and p.normal_form == word.lower()), None)
                 or parses[0])
        grammemes = {_CASES[case], number}
        if parse.tag.POS == "ADJF" and case == "a" and not animate and (masculine or number == "plur"):
            grammemes.add("inan")  # "купил 1 кв. м" один квадратный метр, not квадратного
        if parse.tag.POS == "ADJF" and few:
            grammemes = {"nomn" if feminine else "gent", "plur"}
        form = parse.inflect(grammemes) if parse.tag.POS in ("NOUN", "ADJF") else None
        out.append(form.word if form else word)
        done = parse.tag.POS == "NOUN"
    return " ".join(out)


def agreeing(phrase: str, n: int, case: str, decimal: bool = False) -> str:
    """`phrase` (its dictionary form) as it follows the number `n` in `case`."""
    form_case, number = noun_form(n, case, decimal)
    few = not decimal and case in "na" and 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14
    return inflected(phrase, form_case, number, few)


def genitive_noun(word: str) -> bool:
    """Whether the likeliest reading of `word` is a noun in the genitive ("воды", "продукта")."""
    parses = _parses(word.lower()) if word else ()
    return bool(parses) and parses[0].tag.POS == "NOUN" and parses[0].tag.case in ("gent", "gen2")


def genitive_word(word: str) -> bool:
    """Whether `word`'s likeliest reading is in the genitive, a noun's, an adjective's used as one or a pronoun's
    ("данных", "всего")."""
    parses = _parses(word) if word and word[0].islower() else ()
    return bool(parses) and parses[0].tag.POS in ("NOUN", "ADJF", "NPRO") and parses[0].tag.case == "gent"


def feminine_before(before: str) -> Optional[str]:
    """The case of a feminine singular adjective or possessive in the nominative or accusative right before ("моя 1/2"
    моя половина), or None."""
    parses = _parses(word_before(before).lower()) if word_before(before) else ()
    if parses and parses[0].tag.POS == "ADJF" and parses[0].tag.gender == "femn" and parses[0].tag.number == "sing" \
            and parses[0].tag.case in ("nomn", "accs"):
        return _LETTER.get(parses[0].tag.case)
    return None


def time_of_day(word: str) -> bool:
    """Whether `word` is a time of day ("утра", "дня", "вечера", "ночи")."""
    return lemma(word) in _TIMES_OF_DAY


def noun_gender(word: str) -> Optional[str]:
    """The gender of `word` where its likeliest reading is a noun in the genitive singular (what follows "полтора",
    "2 с половиной": часа, минуты), else None."""
    parses = _parses(word.lower()) if word else ()
    if not parses or parses[0].tag.POS != "NOUN":
        return None
    found = next((p for p in parses if p.tag.POS == "NOUN" and p.tag.case == "gent" and p.tag.number == "sing"), None)
    return _GENDER.get(found.tag.gender, "m") if found else None


def gender(phrase: str) -> str:
    """The gender of the first noun of `phrase` ('m' where it has none)."""
    for word in phrase.split():
        for p in _parses(word):
            if p.tag.POS == "NOUN" and p.normal_form == word.lower():
                return "m" if p.normal_form in _MASCULINE else _GENDER.get(p.tag.gender, "m")
    return "m"
