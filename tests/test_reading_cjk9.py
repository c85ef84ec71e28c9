"""Issue 63, Korean, Chinese and Italian classes read as a native reader says them (sentences of our own, in the
style of the real-sentence corpus' manuals, FAQs and recipes), in Python (`text.spoken`) and through the command
line's dry run (`mlx_qwen3tts.generate --dry-run`, the model path given does not exist, none is loaded). What is
said is compared after casefolding and keeping letters and digits."""

from reading_cases import class_tests, said_together

# (class, language, written, words that must be said in this order, written forms that must not be said)
CASES = [
    ("abbreviation", "ko", "사과 vs 배를 비교해 보세요.", ["사과 대 배를"], ["vs"]),
    ("abbreviation", "ko", "PDF, HTML etc 형식으로 저장합니다.", ["HTML 등 형식으로"], ["etc"]),
    ("abbreviation", "ko", "ex) 홍길동, 김철수", ["예 홍길동"], ["ex"]),
    ("abbreviation", "ko", "문의는 Tel. 02-123-4567로 하세요.", ["전화 영이 일이삼 사오육칠"], ["Tel"]),
    ("abbreviation", "ko", "이번 Vol.3 특집을 보세요.", ["볼륨 삼 특집"], ["Vol"]),
    ("abbreviation", "ko", "업계 No.1 제품입니다.", ["넘버 일 제품"], ["No."]),
    ("telephone", "ko", "웹 서버는 포트 8080을 씁니다.", ["포트 팔영팔영을"], ["팔천"]),
    ("telephone", "ko", "chmod 644 명령을 실행합니다.", ["육사사 명령을"], ["육백"]),
    ("electronic", "ko", "노래.mp3 파일을 엽니다.", ["노래 닷 엠피쓰리 파일을"], ["mp"]),
    ("abbreviation", "ko", "도움말을 보려면 F1 키를 누르세요.", ["에프원 키를"], ["F1", "F일"]),
    ("money", "ko", "수식에서 셀 $B$2를 고정합니다.", ["B$이를"], ["달러"]),
    ("abbreviation", "ko", "새 휴대폰은 5G 통신과 4K 화면을 지원합니다.", ["파이브지 통신과 포케이 화면을"], ["5G", "4K"]),
    ("range", "ko", "영업시간은 오전 10시~오후 7시입니다.", ["오전 열시 부터 오후 일곱시"], ["~"]),
    ("cardinal", "ko", "이 프로그램은 486 (또는 그 이상의) PC에서 돌아갑니다.", ["사팔육"], ["사백"]),
    ("cardinal", "ko", "IBM PC는 Intel 8088 칩을 썼습니다.", ["팔영팔팔 칩을"], ["팔천"]),
    ("cardinal", "zh", "它最初为 486（或更快的）PC 编写。", ["它最初为四八六"], ["百"]),
    ("cardinal", "zh", "Intel 8086 是十六位处理器。", ["Intel 八零八六"], ["千"]),
    ("cardinal", "zh", "本协议遵循 RFC 2616 的规定。", ["RFC 二六一六"], ["千"]),
    ("cardinal", "zh", "波音 737 客机已经起飞。", ["七三七客机"], ["百"]),
    ("money", "zh", "公式中引用单元格 $C$3 的值。", ["C$三的值"], ["美元"]),
    ("money", "ja", "数式でセル$D$4の値を使います。", ["D$四の値"], ["ドル"]),
    ("time", "zh", "计时器显示 08:15:42.5 时停止。", ["八点十五分四十二点五秒"], [".五"]),
    ("time", "zh", "持续时间 36:20:05 表示一天半。", ["三十六小时二十分五秒"], ["比"]),
    ("time", "ko", "기록은 01:02:03.5로 측정되었습니다.", ["한시 이분 삼점오초로"], ["초."]),
    ("time", "ko", "총 재생 시간은 30:15:00입니다.", ["삼십시간 십오분"], ["대"]),
    ("time", "ja", "記録は 01:02:03.5 でした。", ["一時二分三点五秒"], ["秒."]),
    ("telephone", "zh", "执行 chmod 755 以后即可运行。", ["chmod 七五五"], ["百"]),
    ("range", "zh", "每次烘烤需要 2-3 个小时。", ["两到三个小时"], ["二到"]),
    ("range", "zh", "夜间气温 -5~5℃，注意保暖。", ["负五到五摄氏度"], ["~"]),
    ("telephone", "zh", "客服电话请拨打 (010) 6275 1234。", ["零幺零六二七五幺二三四"], ["千"]),
    ("telephone", "zh", "有问题请加 QQ 123456789 联系。", ["QQ 一二三四五六七八九"], ["亿"]),
    ("cardinal", "zh", "本书 ISBN 978-7-111-54321-0，定价另计。", ["九七八 七 一一一 五四三二一 零"], ["到"]),
    ("cardinal", "zh", "软件只支持 i386 架构。", ["i三八六"], ["百"]),
    ("range", "zh", "%M 表示分钟 (00..59)。", ["零零到五十九"], [".."]),
    ("range", "ko", "%M은 분을 나타냅니다 (00..59).", ["영영 부터 오십구"], [".."]),
    ("range", "ja", "%Mは分を表します (00..59)。", ["から五十九"], [".."]),
    ("range", "zh", "客服在线时间为 9am-6pm。", ["上午九点到下午六点"], ["-"]),
    ("range", "ko", "상담 시간은 9:00 AM~6:00 PM입니다.", ["오전 아홉시 부터 오후 여섯시"], ["~"]),
    ("time", "it", "Il negozio apre alle 9,30 ogni giorno.", ["alle nove e trenta ogni"], ["virgola"]),
    ("time", "it", "Dalle 14,15 alle 16 siamo chiusi.", ["dalle quattordici e quindici alle sedici"], ["virgola"]),
    ("range", "it", "Il corso è per bambini da 1 a 3 anni.", ["da uno a tre anni"], ["da un a"]),
    ("cardinal", "it", "Lasciate lievitare tra 1 e 2 ore.", ["tra una e due ore"], ["uno e"]),
    ("cardinal", "it", "Il tavolo è per 1 o 2 persone.", ["per una o due persone"], ["uno o"]),
    ("abbreviation", "it", "Si vedano pp. 12-14 del testo.", ["pagine dodici a quattordici"], ["pp."]),
    ("abbreviation", "it", "Art. 7 della legge sul lavoro.", ["articolo sette della"], ["Art."]),
    ("range", "it", "Cuocete la pasta 10/15 minuti.", ["dieci a quindici minuti"], ["quindicesimi"]),
    ("range", "it", "Bevetene 2/3 volte al giorno.", ["due a tre volte"], ["terzi"]),
    ("score", "it", "La Roma ha vinto 3-1 in casa.", ["vinto tre a uno in casa"], ["-"]),
    ("money", "it", "Il biglietto costa 12.50 € a testa.", ["dodici euro e cinquanta centesimi a testa"], ["punto", "€"]),
    ("money", "it", "Un caffè a New York costa $2.75 ormai.", ["due dollari e settantacinque centesimi"], ["$"]),
    ("money", "it", "Il premio è di € 50 mila in tutto.", ["cinquanta mila euro in tutto"], ["euro mila"]),
]


test_read_right_in_python, test_read_right_on_the_command_line = class_tests(CASES, said_together)
