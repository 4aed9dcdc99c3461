# ruff: noqa: E501  (vocabulary tables read better unwrapped)
"""Hand-written vocabulary for the second stage's training sentences. Per special category:
what a statement about someone says (third person, Turkish and English), what a first-person
statement says, and the topic as general talk names it. Written from the KVKK Art. 6 category
definitions; nothing here is copied from an evaluation set."""

from __future__ import annotations

from typing import Final, NamedTuple


class Topic(NamedTuple):
    tr_about: tuple[str, ...]  # predicate after a third-person subject: "{S} {p}"
    tr_me: tuple[str, ...]  # a whole first-person clause
    tr_topic: tuple[str, ...]  # the topic as a noun phrase in general talk
    en_about: tuple[str, ...]
    en_me: tuple[str, ...]
    en_topic: tuple[str, ...]


TOPICS: Final[dict[str, Topic]] = {
    "health": Topic(
        tr_about=(
            "kanser", "kanser tedavisi görüyor", "HIV pozitif", "depresyonda", "ağır depresyon geçiriyor",
            "tip 2 diyabet hastası", "insülin kullanıyor", "metformin kullanıyor", "kemoterapi alıyor",
            "epilepsi nöbeti geçirdi", "astım ilacı kullanıyor", "bipolar bozukluk tanısı aldı",
            "şizofreni tedavisi görüyor", "hepatit B taşıyıcısı", "geçen hafta kalp krizi geçirdi",
            "lösemi teşhisi kondu", "hamile", "üç aylık hamile", "düşük yaptı", "panik atak geçiriyor",
            "antidepresan kullanıyor", "Lustral kullanıyor", "Cipralex kullanmaya başladı",
            "Truvada kullanıyor", "psikiyatriste gidiyor", "onkolojide yatıyor", "diyalize giriyor",
            "böbrek nakli bekliyor", "ameliyat oldu", "MS hastası", "Alzheimer başlangıcı var",
            "otizm spektrumunda", "DEHB tanılı", "obezite ameliyatı oldu", "alkol bağımlılığı tedavisi görüyor",
            "AMATEM'de tedavi görüyor", "tiroid hastası", "Parkinson hastası", "migren atakları yaşıyor",
            "yüzde 60 engelli raporu var", "sağlık raporu aldı", "yoğun bakımda", "intihar girişiminde bulundu",
            "kemik iliği nakli oldu", "tüberküloz tedavisi görüyor", "kanser evre 3", "mastektomi oldu",
            "Ozempic kullanıyor", "lityum kullanıyor", "HbA1c değeri 9 çıktı", "biyopsi sonucu kötü huylu çıktı",
            "MR sonucunda tümör görüldü", "covid geçirdi", "ruhsal tedavi görüyor", "depresyon nedeniyle raporlu",
        ),
        tr_me=(
            "kanserim", "HIV pozitifim", "depresyondayım", "diyabet hastasıyım", "insülin kullanıyorum",
            "antidepresan kullanıyorum", "kemoterapi alıyorum", "hamileyim", "epilepsi hastasıyım",
            "panik atak geçiriyorum", "bipolar tanısı aldım", "psikiyatriste gidiyorum",
            "tansiyon ilacı kullanıyorum", "astımım var", "şekerim var", "kalp hastasıyım", "migrenim var",
            "böbrek yetmezliğim var", "ameliyat oldum", "Xanax kullanıyorum", "Prozac kullanıyorum",
            "tiroidim var", "engelli raporum var", "terapiye gidiyorum", "dün biyopsi sonucum geldi",
            "anksiyete bozukluğum var", "hepatit taşıyıcısıyım", "tüp bebek tedavisi görüyorum",
        ),
        tr_topic=(
            "kanser", "HIV", "depresyon", "diyabet", "insülin direnci", "kemoterapi", "epilepsi",
            "astım", "bipolar bozukluk", "şizofreni", "hepatit B", "kalp krizi", "lösemi", "hamilelik",
            "panik atak", "antidepresan kullanımı", "metformin", "diyaliz", "organ nakli", "Alzheimer",
            "otizm", "DEHB", "obezite", "alkol bağımlılığı", "tiroid hastalıkları", "migren",
            "engelli raporu", "sağlık raporu", "tüberküloz", "covid", "meme kanseri", "Ozempic",
        ),
        en_about=(
            "has cancer", "is HIV positive", "is being treated for depression", "has type 2 diabetes",
            "is on insulin", "takes metformin", "is undergoing chemotherapy", "had a seizure yesterday",
            "was diagnosed with bipolar disorder", "has schizophrenia", "is pregnant", "had a miscarriage",
            "is on antidepressants", "takes Prozac", "takes lithium", "is on PrEP", "sees a psychiatrist",
            "is on dialysis", "had surgery last week", "has multiple sclerosis", "has early Alzheimer's",
            "is autistic", "has ADHD", "is in rehab for alcohol addiction", "has a thyroid condition",
            "has Parkinson's", "suffers from migraines", "is on sick leave for burnout", "is in intensive care",
            "attempted suicide", "had a heart attack", "tested positive for hepatitis C", "has stage 3 breast cancer",
            "has a tumour on the MRI", "was admitted to the psychiatric ward", "has an eating disorder",
        ),
        en_me=(
            "I have cancer", "I'm HIV positive", "I was diagnosed with depression", "I have type 2 diabetes",
            "I'm on insulin", "I take metformin", "I'm going through chemo", "I'm pregnant",
            "I take antidepressants", "I've been on Prozac for a year", "I see a therapist every week",
            "I have epilepsy", "I have bipolar disorder", "I had a panic attack at work", "I'm on dialysis",
            "I have ADHD", "I'm autistic", "I'm in recovery from alcohol addiction", "I have asthma",
            "my blood sugar was 250 this morning", "my biopsy came back positive", "I suffer from anxiety",
        ),
        en_topic=(
            "cancer", "HIV", "depression", "type 2 diabetes", "insulin resistance", "chemotherapy", "epilepsy",
            "bipolar disorder", "schizophrenia", "pregnancy", "miscarriage", "antidepressants", "Prozac",
            "PrEP", "dialysis", "multiple sclerosis", "Alzheimer's disease", "autism", "ADHD",
            "alcohol addiction", "thyroid disease", "Parkinson's disease", "migraine", "burnout",
            "suicide prevention", "heart attacks", "hepatitis C", "breast cancer", "eating disorders",
        ),
    ),
    "religion": Topic(
        tr_about=(
            "Alevi", "Müslüman", "Hristiyan", "Yahudi", "ateist", "Sünni", "Şii", "namaz kılıyor",
            "Ramazan'da oruç tutuyor", "her pazar kiliseye gidiyor", "cemevine gidiyor", "Yehova Şahidi",
            "Katolik", "Ortodoks", "Budist", "dinini değiştirdi", "tarikat üyesi", "Nakşibendi cemaatine bağlı",
            "Cuma namazı için izin istiyor", "Süryani Hristiyan", "deist olduğunu söylüyor", "hacca gitti",
        ),
        tr_me=(
            "Aleviyim", "Müslümanım", "Hristiyanım", "ateistim", "Yahudiyim", "namaz kılıyorum",
            "oruç tutuyorum", "kiliseye gidiyorum", "cemevine gidiyorum", "deistim", "dinimi değiştirdim",
            "Budistim", "Katoliğim", "cemaate bağlıyım",
        ),
        tr_topic=(
            "Alevilik", "İslam", "Hristiyanlık", "Yahudilik", "ateizm", "Sünnilik", "Şiilik", "namaz",
            "oruç", "kilise mimarisi", "cemevleri", "Yehova Şahitleri", "Katolik kilisesi", "Budizm",
            "din değiştirme", "tarikatlar", "din özgürlüğü", "inanç özgürlüğü", "Ramazan",
        ),
        en_about=(
            "is Muslim", "is a practising Catholic", "is Jewish", "is an atheist", "converted to Islam",
            "fasts during Ramadan", "goes to church every Sunday", "is a Jehovah's Witness", "is Hindu",
            "prays five times a day", "is Sikh", "attends the mosque on Fridays", "is a Mormon",
        ),
        en_me=(
            "I'm Muslim", "I'm a practising Catholic", "I'm Jewish", "I'm an atheist", "I converted to Islam",
            "I fast during Ramadan", "I go to church every Sunday", "I'm a Jehovah's Witness", "I pray five times a day",
        ),
        en_topic=(
            "Islam", "Catholicism", "Judaism", "atheism", "conversion", "Ramadan", "church attendance",
            "Jehovah's Witnesses", "Hinduism", "religious freedom", "Sikhism", "mosques", "Mormonism",
        ),
    ),
    "ethnicity": Topic(
        tr_about=(
            "Kürt kökenli", "Ermeni asıllı", "Roman", "Çerkez kökenli", "Laz", "Arap asıllı", "Rum",
            "Süryani", "Zaza", "Gürcü kökenli", "Afrika kökenli", "Suriyeli Kürt", "etnik olarak Türkmen",
            "Yahudi asıllı", "Kürt olduğu için dışlandığını söylüyor", "siyahi", "Çingene olduğu için",
        ),
        tr_me=(
            "Kürdüm", "Ermeniyim", "Romanım", "Çerkezim", "Lazım ve memleketim Rize", "Arap asıllıyım",
            "Zazayım", "Kürt kökenliyim", "Rum asıllıyım", "Süryaniyim",
        ),
        tr_topic=(
            "Kürt nüfusu", "Ermeni diasporası", "Roman vatandaşlar", "Çerkez kültürü", "Laz dili",
            "etnik köken", "ırkçılık", "azınlık hakları", "Süryani tarihi", "Zaza dili", "etnik ayrımcılık",
        ),
        en_about=(
            "is Kurdish", "is of Armenian descent", "is Roma", "is Black", "is Hispanic", "is of Arab origin",
            "is Native American", "is of Nigerian descent", "is ethnically Turkmen", "is Latino",
        ),
        en_me=(
            "I'm Kurdish", "I'm of Armenian descent", "I'm Roma", "I'm Black", "I'm Hispanic",
            "I'm half Arab", "my family is Kurdish",
        ),
        en_topic=(
            "Kurdish history", "the Armenian diaspora", "Roma communities", "racial discrimination",
            "ethnic minorities", "Hispanic voters", "Native American culture", "racism", "ethnic origin data",
        ),
    ),
    "political_opinion": Topic(
        tr_about=(
            "AKP'li", "CHP'ye oy verdi", "MHP'li", "HDP'li", "DEM Parti üyesi", "İYİ Parti'ye oy verdi",
            "solcu", "sağcı", "komünist", "ülkücü", "milliyetçi", "muhalif görüşlü", "mitinge katıldı",
            "protestoya katıldığı için gözaltına alındı", "Gezi eylemlerine katıldı", "sosyalist",
            "Kemalist", "muhafazakâr görüşlü", "parti üyesi", "sosyal medyada hükümeti eleştiriyor",
            "TİP üyesi", "seçimde muhalefete oy verdi", "anarşist",
        ),
        tr_me=(
            "AKP'liyim", "CHP'ye oy verdim", "MHP'liyim", "HDP'ye oy verdim", "solcuyum", "sağcıyım",
            "komünistim", "ülkücüyüm", "milliyetçiyim", "sosyalistim", "Kemalistim", "mitinge katıldım",
            "partiye üye oldum", "muhalefete oy verdim", "Gezi eylemlerine katıldım", "anarşistim",
        ),
        tr_topic=(
            "AKP", "CHP", "MHP", "HDP", "DEM Parti", "İYİ Parti", "sol siyaset", "sağ siyaset", "komünizm",
            "milliyetçilik", "seçim barajı", "miting yasakları", "protesto hakkı", "Gezi olayları",
            "sosyalizm", "Kemalizm", "muhafazakârlık", "siyasi partiler", "seçim sonuçları",
        ),
        en_about=(
            "voted for the Labour Party", "is a Republican", "is a Democrat", "is a communist",
            "supports the far right", "is a socialist", "joined the protest", "is a party member",
            "voted for Trump", "is left-wing", "is a Tory voter", "is an anarchist", "is a Green Party activist",
        ),
        en_me=(
            "I voted for Labour", "I'm a Republican", "I'm a Democrat", "I'm a communist", "I'm left-wing",
            "I joined the protest", "I'm a party member", "I voted for Trump", "I'm a socialist",
        ),
        en_topic=(
            "the Labour Party", "the Republican Party", "communism", "the far right", "socialism",
            "protest rights", "party membership", "left-wing politics", "election results", "populism",
        ),
    ),
    "philosophical_belief": Topic(
        tr_about=(
            "vegan", "vejetaryen", "pasifist", "vicdani retçi", "hümanist", "nihilist", "laik görüşlü",
        ),
        tr_me=("veganım", "vejetaryenim", "pasifistim", "vicdani retçiyim", "hümanistim", "nihilistim"),
        tr_topic=("veganlık", "vejetaryenlik", "pasifizm", "vicdani ret", "hümanizm", "nihilizm", "laiklik"),
        en_about=("is vegan", "is a vegetarian", "is a pacifist", "is a conscientious objector", "is a humanist"),
        en_me=("I'm vegan", "I'm vegetarian", "I'm a pacifist", "I'm a conscientious objector", "I'm a humanist"),
        en_topic=("veganism", "vegetarianism", "pacifism", "conscientious objection", "humanism", "nihilism"),
    ),
    "membership": Topic(
        tr_about=(
            "sendika üyesi", "DİSK'e üye oldu", "Eğitim-Sen üyesi", "Türk-İş'e bağlı sendikaya üye",
            "sendika temsilcisi", "mason locasına üye", "Rotary kulübü üyesi", "Hak-İş üyesi",
            "sendikaya katıldı", "dernek üyesi", "Memur-Sen üyesi", "sendika aidatı ödüyor",
        ),
        tr_me=(
            "sendika üyesiyim", "sendikaya üye oldum", "Eğitim-Sen üyesiyim", "masonum",
            "sendika temsilcisiyim", "Rotary üyesiyim", "DİSK üyesiyim",
        ),
        tr_topic=(
            "sendikalar", "sendikal haklar", "Eğitim-Sen", "Türk-İş", "masonluk", "Rotary kulüpleri",
            "toplu sözleşme", "sendika üyeliği", "DİSK", "dernekler kanunu",
        ),
        en_about=(
            "is a union member", "joined the union", "is a union rep", "is a Freemason",
            "is a member of the Teamsters", "pays union dues", "is a shop steward for the union",
        ),
        en_me=("I'm a union member", "I joined the union", "I'm a union rep", "I'm a Freemason"),
        en_topic=("trade unions", "union membership", "the Teamsters", "Freemasonry", "collective bargaining"),
    ),
    "sexual_life": Topic(
        tr_about=(
            "eşcinsel", "gey", "lezbiyen", "biseksüel", "trans birey", "cinsel yolla bulaşan hastalık geçirdi",
            "partneriyle cinsel sorun yaşıyor", "erkek arkadaşıyla yaşıyor (kendisi de erkek)",
            "cinsel yönelimini açıkladı", "LGBT birey", "ereksiyon sorunu yaşıyor",
        ),
        tr_me=(
            "eşcinselim", "geyim", "lezbiyenim", "biseksüelim", "trans bireyim", "cinsel yönelimimi ailem bilmiyor",
            "cinsel hayatımda sorun var", "kız arkadaşımla yaşıyorum, ben de kadınım",
        ),
        tr_topic=(
            "eşcinsellik", "LGBT hakları", "biseksüellik", "cinsel yönelim", "cinsel sağlık",
            "cinsel yolla bulaşan hastalıklar", "trans bireyler", "cinsel eğitim",
        ),
        en_about=(
            "is gay", "is a lesbian", "is bisexual", "is transgender", "came out as gay", "has an STI",
            "has erectile dysfunction", "is in a same-sex relationship",
        ),
        en_me=(
            "I'm gay", "I'm a lesbian", "I'm bisexual", "I'm transgender", "I came out to my parents",
            "I have an STI", "I have erectile dysfunction", "I'm in a same-sex relationship",
        ),
        en_topic=(
            "homosexuality", "LGBT rights", "bisexuality", "sexual orientation", "sexual health",
            "STIs", "transgender rights", "sex education", "same-sex marriage",
        ),
    ),
    "criminal_record": Topic(
        tr_about=(
            "sabıkalı", "tutuklandı", "hırsızlıktan hüküm giydi", "cezaevinden yeni çıktı",
            "adli sicil kaydı var", "dolandırıcılıktan yargılanıyor", "denetimli serbestlikte",
            "gözaltına alındı", "hapis cezası aldı", "elektronik kelepçe takıyor", "uyuşturucudan ceza aldı",
            "ev hapsinde", "kasten yaralamadan sanık", "ehliyetine alkollü araç kullanmaktan el konuldu",
        ),
        tr_me=(
            "sabıkalıyım", "tutuklandım", "hapis yattım", "adli sicil kaydım var", "gözaltına alındım",
            "denetimli serbestlikteyim", "ceza aldım", "cezaevinden çıktım",
        ),
        tr_topic=(
            "sabıka kaydı", "tutukluluk", "hapis cezası", "adli sicil", "denetimli serbestlik",
            "cezaevleri", "gözaltı süreleri", "infaz yasası", "elektronik kelepçe", "beraat kararı",
        ),
        en_about=(
            "has a criminal record", "was arrested", "was convicted of fraud", "served time in prison",
            "is on parole", "is on probation", "was charged with assault", "has a DUI", "is a registered sex offender",
        ),
        en_me=(
            "I have a criminal record", "I was arrested", "I was convicted of theft", "I served time in prison",
            "I'm on parole", "I'm on probation", "I got a DUI",
        ),
        en_topic=(
            "criminal records", "arrest procedures", "fraud convictions", "prison reform", "parole",
            "probation", "assault charges", "DUI laws", "expungement",
        ),
    ),
    "biometric": Topic(
        tr_about=(
            "parmak izi sisteme kaydedildi", "yüz tanıma kaydı alındı", "retina taraması yapıldı",
            "biyometrik verisi toplandı", "ses izi kaydedildi", "avuç içi damar izi kaydedildi",
        ),
        tr_me=("parmak izimi verdim", "yüz tanıma kaydımı yaptırdım", "biyometrik verimi sildirmek istiyorum", "ses izimi kaydettiler"),
        tr_topic=("parmak izi okuyucuları", "yüz tanıma teknolojisi", "retina tarama", "biyometrik doğrulama", "ses izi analizi"),
        en_about=("had their fingerprints taken", "is enrolled in face recognition", "had an iris scan", "gave a voiceprint"),
        en_me=("I gave my fingerprint", "store my face scan", "delete my fingerprint data", "my voiceprint was recorded"),
        en_topic=("fingerprint readers", "facial recognition", "iris scanning", "biometric authentication", "voiceprints"),
    ),
    "genetic": Topic(
        tr_about=(
            "BRCA1 mutasyonu taşıyor", "genetik test sonucu pozitif", "DNA testinde kalıtsal hastalık çıktı",
            "Huntington geni taşıyor", "akdeniz anemisi taşıyıcısı", "genetik analizde risk görüldü",
        ),
        tr_me=("BRCA mutasyonu taşıyorum", "genetik testim pozitif çıktı", "DNA testi yaptırdım", "kalıtsal hastalık taşıyıcısıyım"),
        tr_topic=("BRCA mutasyonları", "genetik testler", "DNA analizi", "kalıtsal hastalıklar", "genom projeleri", "taşıyıcılık testi"),
        en_about=("carries the BRCA1 mutation", "tested positive for a hereditary mutation", "carries the Huntington's gene", "had a genetic test"),
        en_me=("I carry the BRCA1 mutation", "my DNA test showed a hereditary risk", "my genetic test came back positive"),
        en_topic=("BRCA mutations", "genetic testing", "DNA analysis", "hereditary diseases", "genome sequencing"),
    ),
    "appearance": Topic(
        tr_about=(
            "başörtülü", "türbanlı", "çarşaf giyiyor", "sakal bırakmış", "dövmeli", "peçe takıyor",
            "kapalı giyiniyor", "piercingli",
        ),
        tr_me=("başörtülüyüm", "türban takıyorum", "dövmelerim var", "sakal bırakıyorum", "kapalıyım"),
        tr_topic=("başörtüsü yasağı", "kılık kıyafet yönetmeliği", "dövme modası", "sakal serbestisi", "tesettür modası"),
        en_about=("wears a hijab", "wears a headscarf", "has visible tattoos", "wears a niqab", "has a long beard"),
        en_me=("I wear a hijab", "I wear a headscarf", "I have visible tattoos", "I wear a niqab"),
        en_topic=("hijab bans", "dress codes", "tattoo trends", "headscarf debates", "beard policies"),
    ),
}

# who a statement concerns (Turkish): possessives, roles, named people
TR_SUBJECTS: Final = (
    "Hastam", "Hastamız", "Hasta", "Danışanım", "Danışanımız", "Müvekkilim", "Müvekkilimiz",
    "Çalışanımız", "Çalışanım", "Personelimiz", "İşçimiz", "Adayımız", "Başvuran", "Başvuru sahibi",
    "Öğrencimiz", "Müşterimiz", "Kiracım", "Komşum", "Arkadaşım", "İş arkadaşım", "Annem", "Babam",
    "Eşim", "Oğlum", "Kızım", "Kardeşim", "Ablam", "Abim", "Dedem", "Anneannem", "Teyzem", "Kuzenim",
    "Yeğenim", "Kayınvalidem", "Müdürüm", "Stajyerimiz", "Şoförümüz", "Bakıcımız", "Oğlumuz", "Kızımız",
    "{name}", "{name}", "{name}", "{first} Hanım", "{first} Bey", "Sayın {name}", "Hastamız {name}",
    "Çalışanımız {name}", "Müvekkilimiz {name}", "Personelimiz {name}", "Adayımız {name}",
    "Öğrencimiz {name}", "Hasta {name}", "{first}", "Danışan {name}", "Kiracımız {name}",
)
EN_SUBJECTS: Final = (
    "My patient", "Our patient", "The patient", "My client", "Our client", "Our employee", "My employee",
    "The applicant", "The candidate", "Our student", "My tenant", "My neighbour", "My friend",
    "My colleague", "My mother", "My father", "My wife", "My husband", "My son", "My daughter",
    "My brother", "My sister", "My grandfather", "My boss", "My partner", "Our intern",
    "{name}", "{name}", "Mr {last}", "Mrs {last}", "Ms {last}", "Our patient {name}",
    "Our employee {name}", "My client {name}", "The applicant {name}", "Patient {name}", "He", "She",
    "Employee {name}",
)

TR_FIRST = (
    "Ayşe", "Fatma", "Emine", "Hatice", "Zeynep", "Elif", "Merve", "Büşra", "Selin", "Ebru", "Derya",
    "Gül", "Seda", "Özlem", "Nur", "Mehmet", "Mustafa", "Ahmet", "Ali", "Hüseyin", "Hasan", "İbrahim",
    "Murat", "Emre", "Burak", "Hakan", "Kemal", "Serkan", "Oğuz", "Can", "Deniz", "Barış", "Tolga",
)
TR_LAST = (
    "Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Yıldız", "Yıldırım", "Öztürk", "Aydın", "Özdemir",
    "Arslan", "Doğan", "Kılıç", "Aslan", "Çetin", "Kara", "Koç", "Kurt", "Özkan", "Şimşek", "Polat",
    "Erdem", "Aksoy", "Güneş", "Bulut", "Tekin", "Uçar", "Korkmaz",
)
EN_FIRST = (
    "John", "Mary", "James", "Linda", "Robert", "Sarah", "Michael", "Emma", "David", "Laura",
    "Daniel", "Olivia", "Thomas", "Sophie", "Peter", "Anna", "Mark", "Rachel", "Paul", "Kate",
)
EN_LAST = (
    "Smith", "Brown", "Taylor", "Wilson", "Johnson", "Davies", "Evans", "Walker", "Wright",
    "Green", "Hall", "Wood", "Clarke", "Hughes", "Turner", "Baker", "Miller", "Cooper",
)
