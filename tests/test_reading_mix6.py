"""Issue 63, French, Portuguese, Italian and Korean classes read as a native reader says them (sentences of our own),
in Python (`text.spoken`) and through the command line's dry run (`mlx_qwen3tts.generate --dry-run`, the model path
given does not exist, none is loaded). What is said is compared after casefolding and keeping letters and digits."""

from reading_cases import class_tests, said_together


# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("decimal", "fr", "La constante vaut 2,718 281 8 environ.", ["deux virgule sept un huit deux huit un huit"],
     ["soixante"]),
    ("decimal", "fr", "Le solde est de -60,240 0 ce mois-ci.", ["moins soixante virgule deux quatre zéro zéro"],
     ["vingt-quatre"]),
    ("telephone", "fr", "Appelez le +33 1 23 45 67 89 demain.",
     ["plus trente-trois un vingt-trois quarante-cinq soixante-sept quatre-vingt-neuf demain"], ["trois trois"]),
    ("telephone", "fr", "Mon portable : +33612345678.", ["plus trente-trois six douze trente-quatre"], ["milliards"]),
    ("cardinal", "pt", "Mais de 200 mil pessoas votaram.", ["duzentas mil pessoas"], ["duzentos"]),
    ("cardinal", "pt", "Tente 2 vezes antes de desistir.", ["duas vezes"], ["dois"]),
    ("cardinal", "pt", "O monitor antigo mostra 2 cores apenas.", ["duas cores"], ["dois"]),
    ("cardinal", "pt", "A regra vale para 2 leis e 2 listas.", ["duas leis e duas listas"], ["dois"]),
    ("telephone", "pt", "Ligue grátis 0800 123 4567 hoje.",
     ["zero oito zero zero um dois três quatro cinco seis sete hoje"], ["cento"]),
    ("telephone", "pt", "O número é +5511987654321 no WhatsApp.",
     ["mais cinco cinco um um nove oito sete seis cinco quatro três dois um"], ["trilhões", "bilhões"]),
    ("cardinal", "pt", "Edite o arquivo conf/rede2.cfg agora.", ["rede dois ponto C F G agora"], [".cfg"]),
    ("money", "pt", "O prêmio é de R$ 1,5 milhão neste ano.", ["um vírgula cinco milhão de reais"], ["milhões"]),
    ("score", "pt", "O placar final foi 2x1 para o Grêmio.", ["dois a um para"], [" x "]),
    ("measure", "pt", "Comprei um tapete de 2x3 m ontem.", ["dois por três metros"], [" x "]),
    ("roman", "pt", "D. Pedro I proclamou a independência.", ["Dom Pedro primeiro proclamou"], [" I "]),
    ("roman", "pt", "A rainha Elizabeth II visitou o Brasil.", ["Elizabeth segunda visitou"], ["segundo"]),
    ("money", "it", "Il debito sale a 3 miliardi di $ nel 2030.", ["tre miliardi di dollari"], ["$"]),
    ("telephone", "it", "Chiamate lo 06 1234 5678 in ufficio.",
     ["zero sei uno due tre quattro cinque sei sette otto in ufficio"], ["mille"]),
    ("telephone", "it", "Il mio cellulare è 333 123 4567.", ["tre tre tre uno due tre quattro cinque sei sette"],
     ["trecento"]),
    ("abbreviation", "ko", "사과 vs. 배 비교", ["사과 대 배 비교"], ["vs"]),
    ("abbreviation", "ko", "연필, 지우개 etc. 준비물", ["지우개 등 준비물"], ["etc"]),
    ("measure", "ko", "글꼴 크기를 12pt로 설정합니다.", ["십이 포인트로"], ["pt"]),
    ("measure", "ko", "해상도는 300dpi입니다.", ["삼백 디피아이입니다"], ["dpi"]),
    ("abbreviation", "ko", "A4 용지 2장을 준비합니다.", ["에이포 용지 두장을"], ["A4", "A사"]),
    ("percent", "ko", "금리가 0.25%p 올랐다.", ["영점이오 퍼센트포인트 올랐다"], ["%", "퍼센트p"]),
    ("measure", "ko", "이 화면은 16 bit 색상을 씁니다.", ["십육 비트 색상을"], ["bit"]),
    ("measure", "ko", "상자는 10 cm x 5 cm 크기입니다.", ["십 센티미터 곱하기 오 센티미터"], [" x "]),
    ("measure", "ko", "사과 2 ea 주문", ["사과 두 개 주문"], ["ea"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)
