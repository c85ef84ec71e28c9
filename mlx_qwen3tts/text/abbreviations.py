"""Common abbreviations per language (ISO 639-1 code -> {as written: as said}). A sentence is never cut
at one of their dots (`cutting`), and the normalizer says them in full (`normalize`); those said only
before a number ("Nr. 5", "S. 12") or a name ("M. Dupont") are listed here for the cutter and read in
context by `verbalize.<code>`. Entries are written as the language's readers write them, with the space
inside where they write one ("z. B."); the variant without the space is matched too."""

ABBREVIATIONS = {
    "en": {"e.g.": "for example", "i.e.": "that is", "Fig.": "figure", "Eq.": "equation", "approx.": "approximately",
           "etc.": "et cetera", "vs.": "versus", "cf.": "compare", "No.": "number", "Nos.": "numbers",
           "Figs.": "figures", "Eqs.": "equations", "Vol.": "volume", "Ch.": "chapter", "Sec.": "section",
           "pp.": "pages", "pg.": "page", "pgs.": "pages", "Mr.": "Mister", "Mrs.": "Missus", "mr.": "Mister",
           "mrs.": "Missus", "Dr.": "Doctor", "Prof.": "Professor", "St.": "Saint",
           "Jan.": "January", "Feb.": "February", "Mar.": "March", "Apr.": "April", "Jun.": "June", "Jul.": "July",
           "Aug.": "August", "Sep.": "September", "Sept.": "September", "Oct.": "October", "Nov.": "November",
           "Dec.": "December",
           # After NeMo text processing's English whitelist (en/data/whitelist/tts.tsv, Apache License 2.0).
           "Hon.": "Honorable", "Mt.": "Mount", "Maj.": "Major", "Rev.": "Reverend", "Gov.": "Governor",
           "Capt.": "Captain", "Col.": "Colonel", "Gen.": "General", "Lt.": "Lieutenant", "Sgt.": "Sergeant",
           "Drs.": "Doctors", "Esq.": "Esquire", "Ft.": "Fort", "Co.": "Company", "Corp.": "Corporation",
           "Inc.": "Incorporated", "Ltd.": "Limited", "dept.": "department", "Dept.": "Department",
           "est.": "estimated", "bldg.": "building", "Bldg.": "Building", "apt.": "apartment", "Apt.": "Apartment",
           "a.k.a.": "also known as", "Ph.D.": "P H D", "dept": "department", "ltd": "limited", "w/o": "without",
           "c/o": "care of", "int'l": "international", "e. g.": "for example", "i. e.": "that is",
           "a/c number": "account number", "vol": "volume", "vol.": "volume", "SPDR": "spider",
           # Technical names said otherwise than spelled, after NeMo's inverse normalization whitelist
           # (en/data/whitelist.tsv, Apache License 2.0).
           "C++": "C plus plus", "C#": "C sharp", "F#": "F sharp", "c++": "c plus plus", "c#": "c sharp", "IEEE": "I triple E", "AAA": "triple A",
           "I/O": "I O", "TCP/IP": "T C P I P", "A/C": "A C",
           "Sen.": "Senator", "Rep.": "Representative", "Pres.": "President", "Adm.": "Admiral",
           "Cmdr.": "Commander", "Pvt.": "Private", "Cpl.": "Corporal", "Messrs.": "Messieurs",
           "Supt.": "Superintendent", "Univ.": "University", "Bros.": "Brothers", "Ste.": "Suite",
           "Ave.": "Avenue", "Blvd.": "Boulevard", "Rd.": "Road", "Jr.": "Junior", "Sr.": "Senior",
           # Units written with a dot, read after a number only (verbalize.en: in_context).
           "sq. ft.": "square feet", "sq. mi.": "square miles", "oz.": "ounces", "lb.": "pounds", "lbs.": "pounds",
           "ft.": "feet", "mi.": "miles", "yd.": "yards", "gal.": "gallons", "qt.": "quarts", "tsp.": "teaspoons",
           "tbsp.": "tablespoons",
           # Read in context only (verbalize.en): titles in small letters before a word, an extension after a
           # telephone number.
           "dr.": "doctor", "st.": "saint", "prof.": "professor", "ext.": "extension", "Ext.": "Extension",
           # A currency's sign with a dot, said by verbalize.en's money pass ("Rs. 500": "five hundred rupees").
           "Rs.": "rupees"},
    "de": {"z. B.": "zum Beispiel", "u. a.": "unter anderem", "bzw.": "beziehungsweise", "d. h.": "das heißt",
           "Nr.": "Nummer", "usw.": "und so weiter", "ca.": "circa", "S.": "Seite", "Abb.": "Abbildung",
           "vgl.": "vergleiche", "evtl.": "eventuell", "ggf.": "gegebenenfalls", "inkl.": "inklusive",
           "bspw.": "beispielsweise", "sog.": "sogenannte", "z. T.": "zum Teil", "u. U.": "unter Umständen",
           "s. o.": "siehe oben", "s. u.": "siehe unten", "etc.": "et cetera", "Kap.": "Kapitel", "Tab.": "Tabelle",
           "Bd.": "Band", "Abs.": "Absatz", "Art.": "Artikel", "Tel.": "Telefon", "Jh.": "Jahrhundert",
           "Hr.": "Herr", "Fr.": "Frau", "Dr.": "Doktor", "Prof.": "Professor", "St.": "Sankt", "v. a.": "vor allem",
           "o. ä.": "oder ähnlich", "z. Zt.": "zurzeit", "u. v. m.": "und vieles mehr", "Mio.": "Millionen",
           "Mrd.": "Milliarden", "Tsd.": "Tausend", "p. P.": "pro Person", "Essl.": "Esslöffel",
           "Teel.": "Teelöffel"},
    "fr": {"p. ex.": "par exemple", "c.-à-d.": "c'est-à-dire", "etc.": "et cetera", "n°": "numéro", "M.": "Monsieur",
           "MM.": "Messieurs", "Mme": "Madame", "Mlle": "Mademoiselle", "cf.": "confer", "env.": "environ",
           "p.": "page", "pp.": "pages", "vol.": "volume", "chap.": "chapitre", "fig.": "figure", "art.": "article",
           "tél.": "téléphone", "av. J.-C.": "avant Jésus-Christ", "apr. J.-C.": "après Jésus-Christ",
           "éd.": "édition", "c. à soupe": "cuillère à soupe", "c. à café": "cuillère à café",
           "c. à s.": "cuillère à soupe", "c. à c.": "cuillère à café", "cuil. à soupe": "cuillère à soupe",
           "cuil. à café": "cuillère à café"},
    "es": {"p. ej.": "por ejemplo", "pág.": "página", "págs.": "páginas", "Sr.": "señor", "Sra.": "señora",
           "Srta.": "señorita", "Dr.": "doctor", "Dra.": "doctora", "etc.": "etcétera", "núm.": "número",
           "n.º": "número", "aprox.": "aproximadamente", "cap.": "capítulo", "vol.": "volumen", "art.": "artículo",
           "tel.": "teléfono", "fig.": "figura", "Ud.": "usted", "Uds.": "ustedes", "EE. UU.": "Estados Unidos",
           "a. C.": "antes de Cristo", "d. C.": "después de Cristo", "esq.": "esquina", "gr.": "gramos",
           "grs.": "gramos", "cda.": "cucharada", "cdas.": "cucharadas", "cdta.": "cucharadita",
           "cdtas.": "cucharaditas", "cdita.": "cucharadita", "cditas.": "cucharaditas", "ud.": "unidad",
           "uds.": "unidades",
           # titles in small letters, and streets' words as NeMo's Spanish whitelist has them (Apache License 2.0)
           "ee. uu.": "estados unidos", "dr.": "doctor", "dra.": "doctora", "sr.": "señor", "sra.": "señora",
           "srta.": "señorita", "dña.": "doña", "prof.": "profesor", "profa.": "profesora", "Vd.": "usted",
           "Vds.": "ustedes", "gob.": "gobierno", "av.": "avenida", "avda.": "avenida", "blvd.": "bulevar",
           "c.º": "camino", "c.º a.": "camino alto", "c.º b.": "camino bajo", "c.º v.": "camino viejo",
           "carr.ª": "carrera", "ctra.": "carretera", "carret.": "carretera", "pje.": "pasaje", "p.º": "paseo",
           "pza.": "plaza", "plza.": "plaza", "rbla.": "rambla", "Av.": "Avenida", "Avda.": "Avenida",
           "Blvd.": "Bulevar", "C.º": "Camino", "Ctra.": "Carretera", "Pje.": "Pasaje", "P.º": "Paseo",
           "Pza.": "Plaza", "Plza.": "Plaza", "Rbla.": "Rambla"},
    "it": {"a. C.": "avanti Cristo", "d. C.": "dopo Cristo", "pag.": "pagina", "pagg.": "pagine", "sig.": "signor",
           "Sig.": "signor", "sig.ra": "signora", "Sig.ra": "signora", "ecc.": "eccetera", "p. es.": "per esempio",
           "ad es.": "ad esempio",
           "dott.": "dottor", "Dott.": "dottor", "prof.": "professor", "avv.": "avvocato", "cap.": "capitolo",
           "vol.": "volume", "art.": "articolo", "tel.": "telefono", "fig.": "figura", "cfr.": "confronta",
           "ca.": "circa", "n.": "numero", "nr.": "numero", "q.b.": "quanto basta", "gr.": "grammi"},
    "pt": {"a. C.": "antes de Cristo", "d. C.": "depois de Cristo", "p. ex.": "por exemplo", "pág.": "página",
           "págs.": "páginas", "Sr.": "senhor", "Sra.": "senhora",
           "Srta.": "senhorita", "Dr.": "doutor", "Dra.": "doutora", "etc.": "et cetera", "n.º": "número",
           "nº": "número", "cap.": "capítulo", "vol.": "volume", "art.": "artigo", "tel.": "telefone",
           "fig.": "figura", "aprox.": "aproximadamente", "D.": "Dom", "Prof.": "professor",
           "V. Exa.": "Vossa Excelência", "xíc.": "xícara", "xícs.": "xícaras", "colh.": "colher",
           "c. (sopa)": "colher de sopa", "c. (chá)": "colher de chá", "c. (café)": "colher de café"},
    "ru": {"т. е.": "то есть", "т. д.": "так далее", "т. п.": "тому подобное", "и др.": "и другие",
           "т. к.": "так как", "т. н.": "так называемый", "в т. ч.": "в том числе", "напр.": "например",
           "см.": "смотри", "ок.": "около", "стр.": "страница", "рис.": "рисунок", "гл.": "глава", "табл.": "таблица",
           "г.": "год", "гг.": "годы", "им.": "имени", "проф.": "профессор", "№": "номер", "п.": "пункт",
           "д.": "дом", "кв.": "квартира", "корп.": "корпус", "долл.": "доллар", "тел.": "телефон",
           "доб.": "добавочный", "Тел.": "Телефон", "ч.": "часть",
           "в.": "век", "вв.": "века", "разд.": "раздел", "прил.": "приложение"},
    "zh": {}, "ja": {}, "ko": {},
}

# The books' abbreviations as citations write them ("Ezek. 4:12", "Deut. 7:1"), said as the book's name.
BIBLE_ABBREVIATIONS = {"Gen.": "Genesis", "Ex.": "Exodus", "Exod.": "Exodus", "Lev.": "Leviticus",
                       "Num.": "Numbers", "Deut.": "Deuteronomy", "Josh.": "Joshua", "Judg.": "Judges",
                       "Sam.": "Samuel", "Kgs.": "Kings", "Chron.": "Chronicles", "Neh.": "Nehemiah",
                       "Esth.": "Esther", "Ps.": "Psalm", "Psa.": "Psalm", "Prov.": "Proverbs",
                       "Eccl.": "Ecclesiastes", "Eccles.": "Ecclesiastes", "Isa.": "Isaiah", "Jer.": "Jeremiah",
                       "Lam.": "Lamentations", "Ezek.": "Ezekiel", "Dan.": "Daniel", "Hos.": "Hosea",
                       "Obad.": "Obadiah", "Mic.": "Micah", "Nah.": "Nahum", "Hab.": "Habakkuk", "Zeph.": "Zephaniah",
                       "Hag.": "Haggai", "Zech.": "Zechariah", "Mal.": "Malachi", "Matt.": "Matthew",
                       "Mk.": "Mark", "Lk.": "Luke", "Jn.": "John", "Rom.": "Romans", "Cor.": "Corinthians",
                       "Gal.": "Galatians", "Eph.": "Ephesians", "Phil.": "Philippians", "Col.": "Colossians",
                       "Thess.": "Thessalonians", "Tim.": "Timothy", "Heb.": "Hebrews", "Jas.": "James",
                       "Pet.": "Peter", "Rev.": "Revelation"}

# Units and references whose dot ends no sentence where the sentence goes on: a small letter or a number follows
# ("10 min. then stir", "see eq. 3", "2 Std. und mehr"); before a capital it ends one as any dot does ("Wait 10
# min. Then stir."). Those in ABBREVIATIONS that are never an end ("ft.", "Nr.") need not be here.
GO_ON = {"en": ("min.", "mins.", "hr.", "hrs.", "sec.", "secs.", "in.", "cu.", "eq.", "eqs.", "fig.", "figs.", "wk.",
                "wks.", "yr.", "yrs.", "pt.", "pts.", "t.", "T.", "c.", "C.", "Tbs.", "tbs.", "sq.",
                *BIBLE_ABBREVIATIONS),  # "Ezek. 4:12": no end before the chapter
         "de": ("Min.", "min.", "Std.", "Sek.", "Stk.", "Tsd.", "Pkt."),
         "fr": ("min.", "sec.", "env.", "hab."), "es": ("min.", "seg.", "aprox.", "hab."),
         "it": ("min.", "sec.", "ab."),
         "pt": ("min.", "seg.", "hab."), "ru": ("мин.", "сек.", "руб.", "коп.", "тыс.", "млн.", "млрд.", "г."),
         "ko": ("Ver.", "ver.", "max.", "Max.", "min.")}
# Months' abbreviations, no end after a day's number or "de" where a small letter or a number follows ("5 de mar. de
# 2024", "5 gen. 2024"): elsewhere "mar." is the sea, "set." and "out." English words that may end a sentence.
MONTHS_SHORT = {"fr": ("janv.", "févr.", "avr.", "juil.", "sept.", "oct.", "nov.", "déc."),
                "es": ("ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.", "sep.", "sept.", "set.", "oct.",
                       "nov.", "dic."),
                "pt": ("jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.", "dez."),
                "it": ("gen.", "feb.", "mar.", "apr.", "mag.", "giu.", "lug.", "ago.", "set.", "ott.", "nov.", "dic."),
                "ru": ("янв.", "февр.", "фев.", "мар.", "апр.", "авг.", "сент.", "сен.", "окт.", "нояб.", "ноя.",
                       "дек.")}


def _counted(code: str, table_name: str = "counted") -> dict:
    """A language's abbreviations said after a number (verbalize/data/<code>_counted.tsv: "ч. л.", "тыс."), as
    written -> the phrase they stand for; their readers say them in agreement with the number. With
    `table_name` "abbreviations", the language's table of abbreviations of running text (de: "zzgl.", "Hbf.")."""
    from pathlib import Path

    table = {}
    path = Path(__file__).parent / "verbalize" / "data" / f"{code}_{table_name}.tsv"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("#", "written\t")):
            written, phrase = line.split("\t")[:2]
            table[written] = phrase
    return table


# A street's or a square's word before its name ("ул. Ленина", "Ул. Ленина"): never a sentence's end, said before a
# capitalised name only (verbalize.ru: name_abbreviations).
STREETS = {"ru": {"ул.": "улица", "просп.": "проспект", "пер.": "переулок", "наб.": "набережная", "бул.": "бульвар",
                  "пл.": "площадь"}}
for _code, _streets in STREETS.items():
    ABBREVIATIONS[_code].update({**_streets, **{w.capitalize(): s.capitalize() for w, s in _streets.items()}})
# Listed for the cutter too, which never ends a sentence at their dots ("1 ч. л. соли", "300 тыс. человек").
ABBREVIATIONS["ru"].update({w: s for w, s in _counted("ru").items()
                            if w.endswith(".") and w not in ABBREVIATIONS["ru"]})
ABBREVIATIONS["de"].update({w: s for w, s in _counted("de", "abbreviations").items() if w not in ABBREVIATIONS["de"]})
