"""Issue 63, the electronic class in the ten languages (sentences of our own): web and e-mail addresses, handles,
bare host names and card numbers read as each language's text-normalization standard (NeMo's electronic grammars)
says them, in Python (`text.spoken`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the
model path given does not exist, none is loaded); a file name or an abbreviation with a dot stays what it is."""

from reading_cases import class_tests, said_together

# (language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("en", "Download it from https://www.example.net/tools/v2-beta today.",
     ["H T T P S colon slash slash W W W dot example dot net slash tools slash v two dash beta today"], ["://"]),
    ("en", "Mail help_desk@corp-mail.org for a key.", ["help underscore desk at corp dash mail dot org"], ["@"]),
    ("en", "Follow @rivertown42 for news.", ["at rivertown four two for news"], ["@", "forty"]),
    ("en", "The card ending in 4071 was declined.", ["card ending in four zero seven one"], ["thousand"]),
    ("en", "Open myshop.com/cart?id=7 to pay, then edit main.c again.",
     ["myshop dot com slash cart question mark id equal sign seven to pay"], ["main dot c"]),
    ("en", "Save image.jpg first.", ["image dot jpeg first"], [".jpg"]),
    ("de", "Infos unter https://www.stadtwerke-beispiel.de/strom?tarif=2 lesen.",
     ["H T T P S Doppelpunkt Slash Slash W W W Punkt stadtwerke Bindestrich beispiel Punkt de Slash strom "
      "Fragezeichen tarif Gleichheitszeichen zwei lesen"], ["://"]),
    ("de", "Fragen an kunden-service@firma.de senden.", ["kunden Bindestrich service at firma Punkt de"], ["@"]),
    ("es", "Visite www.tienda-ejemplo.es/ofertas hoy.",
     ["W W W punto tienda guión ejemplo punto es barra ofertas hoy"], ["www."]),
    ("es", "Escriba a ventas_2@ejemplo.com ya.", ["ventas barra baja dos arroba ejemplo punto com"], ["@"]),
    ("it", "Scarica https://www.esempio.it/guida.pdf ora.",
     ["H T T P S due punti slash slash W W W punto esempio punto it slash guida punto pdf ora"], ["://"]),
    ("it", "Seguite @museo_civico su tutti i social.", ["chiocciola museo trattino basso civico"], ["@"]),
    ("it", "La sig.ra Bianchi visita comune.roma.it ogni giorno.",
     ["signora Bianchi visita comune punto roma punto it"], ["sig punto"]),
    ("pt", "Acesse http://loja-exemplo.com.br/ajuda agora.",
     ["H T T P dois pontos barra barra loja traço exemplo ponto com ponto br barra ajuda"], ["://"]),
    ("pt", "Siga @cafe2024 no Instagram.", ["arroba cafe dois zero dois quatro"], ["@", "mil"]),
    ("fr", "Voir @librairie_du_coin et le site librairie.fr/agenda.",
     ["arobase librairie du coin et le site librairie point fr slash agenda"], ["@"]),
    ("ru", "Подробности на сайте museum.ru/visit и у @museum_ru.",
     ["museum точка ru слэш visit и у собака museum ru"], ["@"]),
    ("ko", "자세한 내용은 @hanbit_books 계정을 보세요.", ["골뱅이 hanbit books 계정을"], ["@"]),
    ("zh", "请关注 @tech_news 获取更新。", ["at tech news 获取更新"], ["@"]),
    ("ja", "詳細は @sakura_shop をフォローしてください。", ["アット sakura shop を"], ["@"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)
