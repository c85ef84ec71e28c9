"""Issue 63, the electronic class (sentences of our own): handles with a dot or a hyphen in their name, hashtags, a
Korean host's path and card number after a cue read whole, in Python (`text.spoken`, `text.normalize.normalize`)
and through the command line's dry run."""

from reading_cases import class_tests, said_together

# (language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("it", "Scrivete a @mario-rossi o a @anna.bianchi per avere i biglietti.",
     ["chiocciola mario trattino rossi o a chiocciola anna punto bianchi per"], ["@", "-rossi", ".bianchi"]),
    ("es", "Sigue a @ana.garcia y a @luis-perez en las redes.",
     ["arroba ana punto garcia y a arroba luis guión perez en"], ["@", ".garcia"]),
    ("pt", "Siga @joao-silva e @maria.souza no Instagram.",
     ["arroba joao traço silva e arroba maria ponto souza no"], ["@", "-silva"]),
    ("de", "Folgen Sie @max.muster und @erika-beispiel für Neuigkeiten.",
     ["at max Punkt muster und at erika Bindestrich beispiel für"], ["@", ".muster"]),
    ("en", "Tag @jane.doe and @bob-smith in the post.", ["at jane dot doe and at bob dash smith in"], ["@"]),
    ("it", "Ascoltate @2pac_fan stasera.", ["chiocciola due pac trattino basso fan stasera"], ["@"]),
    ("it", "La rotta è https://api.esempio.it/v1/{id} qui.",
     ["slash v uno slash apri graffa id chiudi graffa qui"], ["{", "}"]),
    ("pt", "A rota é https://api.exemplo.com.br/v1/{id} aqui.",
     ["barra v um barra chave esquerda id chave direita aqui"], ["{", "}"]),
    ("it", "Usate #estate2024 nei vostri post.", ["hashtag estate due zero due quattro nei"], ["#"]),
    ("es", "Publica con #Verano2024 tus fotos.", ["hashtag verano dos cero dos cuatro tus"], ["#"]),
    ("pt", "Use #cafe_da_manha nas fotos.", ["hashtag cafe underscore da underscore manha nas"], ["#"]),
    ("de", "Teilt eure Bilder mit #Sommerfest.", ["mit Hashtag Sommerfest"], ["#"]),
    ("fr", "Partagez vos photos avec #vacances.", ["avec hashtag vacances"], ["#"]),
    ("en", "Post it with #TBT today, not as item #1.", ["with hashtag TBT today"], ["#TBT"]),
    ("ru", "Ставьте тег #отпуск под фото.", ["тег хэштег отпуск под"], ["#"]),
    ("ko", "사진은 #여름휴가 태그로 올려 주세요.", ["해시태그 여름휴가 태그로"], ["#"]),
    ("ko", "자세한 내용은 example.co.kr/help/faq 에서 보세요.",
     ["example 닷 씨오 닷 케이알 슬래시 help 슬래시 faq 에서"], ["/"]),
    ("ko", "신용카드 1234567890123456 으로 결제했어요.", ["신용카드 일이삼사 오육칠팔 구영일이 삼사오육 으로"], ["조", "억"]),
    ("ko", "카드번호 4321 8765 2109 6543 를 확인하세요.", ["카드번호 사삼이일 팔칠육오 이일영구 육오사삼 를"], ["천"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)
