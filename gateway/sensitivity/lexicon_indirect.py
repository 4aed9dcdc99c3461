"""Special-category terms that name a category indirectly, in folded form like
lexicon_special: a condition named by its drug, its clinic or its procedure; a sick note; a
union, party or association named by its own name; a religious practice or order; an ethnic
group named by a word that is also a nationality. Such a term is no evidence on its own ('the
price of Keytruda', 'Unite's new campaign'): as every topic term, it only makes the second
stage ask whom its sentence concerns."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

_HEALTH = (
    "ortez*", "knee brace", "anatomy scan", "anomaly scan", "20-week scan", "dating scan",
    # medicines people name instead of their condition (brand and generic)
    "keytruda*", "pembrolizumab*", "opdivo*", "nivolumab*", "imatinib*", "glivec*", "rituximab*",
    "avastin*", "bevacizumab*", "capecitabin*", "xeloda*", "zoladex*", "anastrozol*", "arimidex*",
    "donepezil*", "aricept*", "memantin*", "ebixa*", "rivastigmin*", "exelon*", "levodopa*",
    "madopar*", "sinemet*", "pramipeksol*", "pramipexole*", "glucophage*", "jardiance*", "forxiga*",
    "trulicity*", "victoza*", "saxenda*", "mounjaro*", "wegovy*", "novorapid*", "humalog*",
    "levemir*", "tresiba*", "insulin pen*", "insulin pomp*", "insulin pump*", "glukometre*",
    "atorvastatin*", "rosuvastatin*", "lipitor*", "crestor*", "beloc*", "norvasc*", "amlodipin*",
    "ramipril*", "losartan*", "beta blocker*", "plavix*", "klopidogrel*", "clopidogrel*",
    "warfarin*", "heparin*", "clexane*", "alprazolam*", "diazepam*", "rivotril*", "klonazepam*",
    "clonazepam*", "lorazepam*", "ativan*", "zyprexa*", "haloperidol*", "cymbalta*", "duloksetin*",
    "duloxetine*", "efexor*", "remeron*", "mirtazapin*", "trazodon*", "desyrel*", "pregabalin*",
    "gabapentin*", "neurontin*", "tramadol*", "oxycodone*", "oksikodon*", "fentanyl*",
    "naltrekson*", "naltrexone*", "buprenorfin*", "buprenorphine*", "antabuse*", "disulfiram*",
    "descovy*", "genvoya*", "dolutegravir*", "tivicay*", "tenofovir*", "sovaldi*", "harvoni*",
    "interferon*", "enbrel*", "remicade*", "stelara*", "dupixent*", "ocrevus*", "tecfidera*",
    "gilenya*", "copaxone*", "avonex*", "rebif*", "spiriva*", "symbicort*", "seretide*",
    "singulair*", "pulmicort*", "roaccutane*", "accutane*", "isotretinoin*", "clomid*", "klomifen*",
    "gonal-f", "menopur*", "utrogestan*", "duphaston*", "viagra*", "cialis*", "sildenafil*",
    "tadalafil*", "vyvanse*", "strattera*", "modafinil*", "lamictal*", "tegretol*", "trileptal*",
    "topamax*", "depakote*", "sertraline*", "fluoxetine*", "escitalopram*", "citalopram*",
    "paroxetine*", "venlafaxine*", "quetiapine*", "olanzapine*", "risperidone*", "aripiprazole*",
    "methylphenidate*", "metilfenidat*", "levothyroxine*", "levotiroksin*", "prednisolone*",
    "prednizolon*", "prednisone*", "hydroxychloroquine*", "plaquenil*", "hrt",
    "hormone replacement", "hormone therapy", "testosteron*",
    # clinics, wards, departments and procedures that reveal a condition
    "dahiliye*", "gastroenteroloji*", "uroloji*", "jinekoloji*", "kadin dogum*", "ortopedi*",
    "gogus hastaliklari*", "enfeksiyon hastaliklari*", "cocuk psikiyatri*", "acil servis*",
    "acile*", "ambulans*", "hastanede", "hastaneye yat*", "serviste yat*", "yatisi yapil*",
    "oncology", "neurology", "cardiology", "psych ward", "mental health unit", "emergency room",
    "inpatient*", "outpatient*", "detox*", "sober*", "sobriety", "aa meeting*",
    "alcoholics anonymous", "narcotics anonymous", "memory clinic", "fertility clinic",
    "hip replacement", "knee replacement", "kalca protez*", "diz protez*", "kateter*", "catheter*",
    "kolostomi*", "colostomy*", "stoma", "trakeostomi*", "tracheostomy", "amputee*",
    # leave and certificates that say someone is ill
    "signed off", "sick note*", "fit note*", "medical leave", "medical certificate",
    "hastalik izn*", "istirahat raporu*", "istirahatli*", "heyet raporu*", "engelli karti*",
    "malulen*", "malulluk*",
    # conditions written the way people type them
    "apandisit*", "appendicitis", "pnomoni*", "pneumonia*", "zaturre*", "bronsit*", "bronchitis",
    "sinuzit*", "gorme kaybi*", "isitme kaybi*", "hearing loss", "sight loss", "vision loss",
    "gorme engelli*", "isitme engelli*", "dilsiz*", "tssb", "melanom*", "carcinoma*", "karsinom*",
    "sarcoma*", "sarkom*", "myeloma*", "miyelom*", "glioma*", "glioblastom*", "metastat*", "evre 3",
    "evre 4", "evre iv", "long covid", "endometriozis*", "endometriosis", "pcos", "polikistik*",
    "preeklampsi*", "preeclampsia", "concussion*", "beyin sarsinti*", "alerji*", "allerg*",
    "anemi*", "anaemi*", "kansizlik*", "sara nobet*", "sarasi*", "sekeri var", "sekeri yuksek*",
    "sekeri dus*", "tansiyonu yuksel*", "tansiyonu dus*", "kalp hasta*", "kalp ameliyat*",
    "heart surgery", "open heart", "diabetic", "diabetes", "asthmatic", "epileptic", "anorexi*",
    "bulimi*", "stroke", "felc gecir*", "crohns", "colitis", "psoriasis", "vitiligo*", "egzama*",
    "eczema", "hemoroid*", "basur*", "prostat*", "mamografi*", "mammogram*", "smear test*",
    "pap smear*", "meds", "ilac kullan*", "ilaclarini*", "hormon*", "nervous breakdown",
    "stress leave", "counselling", "counseling", "grief counsel*", "ptsd", "panic disorder",
    "social anxiety", "intrusive thoughts", "self-medicat*", "lumpektomi*", "lumpectomy", "psa",
    "urology", "urolog*", "dermatolog*", "gynaecolog*", "gynecolog*", "rheumatolog*",
    "endocrinolog*", "gastroenterolog*", "haematolog*", "hematolog*", "nephrolog*", "pulmonolog*",
    "orthopaed*", "orthoped*", "cardiolog*", "neurolog*", "kardiyolog*", "norolog*", "onkolog*",
    "jinekolog*", "endokrinolog*", "romatolog*", "nefrolog*", "ortopedist*", "fizyoterapist*",
    "referred to", "referral to", "sevk edil*", "faranjit*", "larenjit*", "menenjit*", "artrit*",
    "sistit*", "nefrit*", "pankreatit*", "tonsillit*", "konjonktivit*", "dermatit*", "kolit*",
    "vaskulit*", "ensefalit*", "gingivit*", "rinit*", "perikardit*", "miyokardit*", "tendinit*",
    "prostatit*", "osteoporoz*", "skleroz*", "tromboz*", "fibroz*", "nevroz*", "glokom*",
    "katarakt*", "hematom*", "lipom*", "adenom*", "miyom*", "kist*", "hx of", "known case of",
    "concor", "lyrica", "sedef hastalig*", "premature birth", "premature baby", "prematüre bebek*",
)

_POLITICAL = (
    "cumhur ittifak*", "millet ittifak*", "refah partisi*", "emep*", "vatan partisi*",
    "memleket partisi*", "gelecek partisi*", "huda par*", "hudapar*", "milliyetci hareket*",
    "cumhuriyet halk partisi*", "adalet ve kalkinma*", "halklarin demokratik*", "erdoganci*",
    "reisci*", "genclik kolu*", "kadin kolu*", "gosteriye*", "gosterilere*", "yuruyuse katil*",
    "boykot*", "oy vermem", "oy vermedim", "oy vermeyecek*", "labour member*", "tory member*",
    "tory councillor*", "labour councillor*", "conservative councillor*", "lib dem*",
    "liberal democrat*", "snp", "ukip", "reform uk", "sinn fein", "gop", "antifa", "nationalist*",
    "alt-right", "neo-nazi*", "zionis*", "anti-zionis*", "pro-palestin*", "pro-israel*",
    "filistin destek*", "separatist*", "ayrilikci*", "bolucu*", "royalist*", "monarchist*",
    "libertarian*", "left-leaning", "right-leaning", "sola yakin*", "saga yakin*", "ataturkcu*",
    "anti-government", "pro-government", "hukumet yanlisi*", "supports trump", "biden supporter*",
    "trump voter*", "biden voter*", "democratic party", "republican party", "political party",
    "siyasi parti*", "partisinin uye*", "partisine uye*", "party's youth", "politically active",
    "nazi", "nazis", "green voter*", "siyasi faaliyet*", "siyasetle ugras*", "siyaset*",
    "political affiliation*", "political leaning*", "politically*", "partisan*",
    "campaign volunteer*", "volunteered for the", "kampanya gonullu*", "secim kampanyasinda*",
    "iktidar partisi*", "erdogan hayran*", "erdogan destekci*", "erdogan'a oy*", "akp destekci*",
    "chp destekci*", "mhp destekci*", "parti destekcisi*", "partisi destekcisi*",
    "party supporter*",
)

_SEXUAL = (
    "asexual*", "married to a man", "married to a woman", "same-sex marriage", "gizli iliski*",
    "gizli bir iliski*", "iliskisi oldug*", "iliskisi var", "iliski yasiyor*", "extramarital*",
    "aldat*", "metres*", "tek gecelik*", "tinder", "grindr", "polyamor*", "poliamor*", "swinger*",
    "bdsm", "fetis*", "fetish*", "kink*", "porn*", "celibate", "bakire*", "bekaret*", "pansexual*",
    "panseksuel*", "intersex*", "interseks*", "genderqueer*", "gender identity", "cinsiyet kimlig*",
    "cinsiyet uyum*", "closeted", "sexual relationship*", "sleeping with", "sleeps with",
    "slept with", "sex with", "cinsel birliktelik*", "seks", "seks hayat*", "seks yap*",
    "virginity", "bi-curious", "birlikte olmadik", "birlikte olmuyoruz", "intimacy",
    "intimate relationship*", "mahrem iliski*",
)

_MEMBERSHIP = (
    "joined unite", "unite member*", "member of unite", "unison member*", "member of unison",
    "unison rep*", "gmb rep*", "usdaw", "rmt member*", "aslef", "afl-cio", "nurses' union",
    "teachers' union", "union card", "card-carrying", "tez-koop-is", "metal-is", "birlesik metal*",
    "turk metal*", "petrol-is", "genel-is", "tumbel-sen", "saglik-sen", "saglik-is", "egitim-is",
    "haber-sen", "tumtis", "liman-is", "belediye-is", "hizmet-is", "ttb", "turk tabipleri*",
    "tabipler birlig*", "tmmob", "eczaci odasi*", "greenpeace", "amnesty", "af orgutu*",
    "tema vakf*", "mazlumder", "insan haklari dernegi*", "kaos gl", "spod", "pir sultan abdal*",
    "cem vakf*", "hizmet hareket*", "gulen hareket*", "rotaract*", "round table",
    "knights of columbus", "odd fellows", "scout leader*", "izcilik*", "rcn", "bma member*",
    "unison", "neu member*", "ucu member*", "tum bel-sen", "tum bel sen", "stk", "ngo",
    "sivil toplum*", "federasyon*", "konfederasyon*", "cemiyet*", "meslek orgut*", "meslek birlig*",
    "uye kayd*", "uyelik kart*", "uyelik numara*", "membership card", "membership number",
    "club member*", "trustee*", "fraternity", "sorority", "guild member*", "staff association",
    "works council", "professional body", "sendikacı*", "sendikaci*", "membership fee*",
    "member of the association", "member of a union", "member of an association",
)

_ETHNICITY = (
    "kurt aile*", "kurt bir*", "kurt vatandas*", "kurt kiz*", "kurt genc*", "kurt isci*",
    "kurt oldug*", "kurtlugu*", "cerkes*", "hazara*", "pestun*", "pashtun*", "ozbek*", "uzbek*",
    "cecen*", "chechen*", "gagavuz*", "berber*", "amazigh*", "tamil*", "rohingya*", "persian",
    "iranian descent", "iraqi descent", "mixed heritage", "asian woman", "asian man", "south asian",
    "east asian", "black guy", "black girl", "black colleague*", "black employee*",
    "black candidate*", "dark-skinned", "dark skinned", "light-skinned", "fair-skinned",
    "kara derili*", "beyaz tenli*", "musevi asilli*", "yahudi asilli*", "pakistani*",
    "bangladeshi*", "punjabi*", "gujarati*", "bengali*", "person of colour", "people of colour",
    "person of color", "people of color", "poc", "bame", "minority background", "white british",
    "roman vatandas*", "roman aile*", "roman mahalle*",
)

_RELIGION = (
    "musevi*", "naksibendi*", "suleymanci*", "ismailaga*", "nurcu*", "selefi*", "salafi*",
    "vehhabi*", "wahhabi*", "sufi*", "bahai*", "baha'i", "scientolog*", "hare krishna*", "quaker*",
    "mennonite*", "amish", "orthodox jew*", "hasidic*", "din degistir*", "dinini degistir*",
    "muhtedi*", "apostate*", "murtad*", "dinsiz*", "non-believer*", "goes to mass", "attends mass",
    "bible study", "sunday school", "gurdwara*", "kippa*", "takke*", "cemevine*", "mescid*",
    "dine gec*", "dinine gec*", "dinini degis*", "haci", "hac ziyaret*", "mukaddes*",
    "kutsal kitab*", "safii*", "hanefi*", "worship*", "bar mitzvah", "bat mitzvah", "communion",
    "shabbat*", "lent", "eid", "pagan*", "wicca*", "druid*", "spiritual*", "maneviyat*",
    "ilahiyatci*", "kilisesine*", "camiye*", "camide*", "tesbih*", "ruhban*", "rahibe*", "nun",
    "monk", "monks", "kesis", "kesisler*", "kesislik*",
)

_GENETIC = (
    "down sendrom*", "down syndrome", "trisomy*", "turner sendrom*", "turner syndrome",
    "klinefelter*", "fragile x", "frajil x", "lynch sendrom*", "lynch syndrome", "marfan*",
    "hemofili*", "haemophil*", "hemophil*", "duchenne*", "fenilketonuri*", "pku", "gaucher*",
    "tay-sachs", "wilson hastalig*", "prenatal test*", "prenatal genetic", "amniyosentez*",
    "amniocentesis", "nipt", "biological father", "biyolojik baba*", "biological mother",
    "biyolojik anne*", "genotip*", "genotype*", "gene panel", "gen paneli*", "exome*", "ekzom*",
)

_PHILOSOPHY = (
    "derin ekoloji*", "deep ecolog*",
    "dunya gorus*", "hayat felsefe*", "yasam felsefe*", "worldview*", "world view", "secular*",
    "sekuler*", "spiritualist*", "reenkarnasyon*", "reincarnation", "antinatalis*", "transhuman*",
    "varolusc*", "existential*", "ekolojist*", "ecologist*", "antispesis*", "freethinker*",
    "ozgur dusunur*", "rationalist*", "rasyonalist*", "utilitarian*", "faydaci*", "objectivis*",
    "stoaci*", "stoacilik*", "stoicism", "taoist*", "taoizm*", "etik nedenle*", "etik sebeple*",
    "ethical reasons", "moral grounds", "vicdani gerekce*", "inanclarim geregi", "inancim geregi",
    "beliefs", "felsefi*", "felsefe*", "philosophical*",
)

_CRIMINAL = (
    "ceza dava*", "suc duyuru*", "suclama*", "suclu bulun*", "polise yakalan*", "suc ustu*",
    "sucustu*", "agir ceza*", "asliye ceza*", "tck", "iddianame*", "hagb", "adli para ceza*",
    "yakalama karari*", "firari*", "aranan*", "police record*", "police caution*", "cautioned by",
    "spent conviction*", "unspent", "dbs check*", "criminal background", "rap sheet", "warrant",
    "warrants",
    "bail", "bailed", "bail hearing*", "remand*", "detained", "detention", "offence*", "offense*",
    "offender*", "pleaded", "guilty", "court case*", "tried for", "misdemeanour*", "custodial",
    "community service", "kamu hizmeti ceza*", "cezai*", "hukum giy*",
)

_BIOMETRIC = (
    "yuz dogrulama*", "face verification", "selfie dogrulama*", "canlilik testi*",
    "fingerprint record*", "hand geometry", "face geometry", "facial geometry", "yuz geometri*",
    "face embedding*", "facial features", "keystroke dynamic*", "tus vurus*", "faceid", "touch id",
    "touchid", "windows hello", "face unlock", "parmak okut*", "parmak izi okut*",
    "parmagini okut*", "parmak izimi*", "pdks", "yuz okut*", "yuzunu okut*", "imza ornek*",
    "ses ornek*", "biyometrik imza*", "palm-vein", "iris template*", "face template*",
    "fingerprint template*", "voice template*", "parmak izi sablon*", "yuz sablon*",
    "yuz tanima kayd*", "yuz eslesme*", "yuz eslesti*", "yuzu eslesti*", "ses kaydi ile dogrulama*",
)

_APPEARANCE = (
    "covering my hair", "started covering", "cover her hair", "covers her hair",
    "sac orgu*", "rasta sac*", "nose ring*", "burun piercing*", "burun halka*", "hizma*",
    "makyajli*", "etek giy*", "crop top*", "mini skirt*", "kupe tak*", "cover my tattoo*",
    "cover his tattoo*", "cover her tattoo*", "cuppe*",
    # a turban's forms spelt out: 'sarik*' and its 'sarig*' would take the surnames Sarıkaya
    # and Sarıgül
    "sarik", "sarikli*", "sarigi*", "sarigin*", "sariga", "sarikla", "salvar*", "fes", "kilt",
    "saree",
    "abaya*", "jilbab*", "chador*", "cador*", "kaftan*", "hac kolye*", "wore a", "dressed in",
    "dresses like", "giyiyor*", "giyinir*", "giyindi*", "lipstick", "ruj*", "oje*", "nail polish",
    "hair colour", "hair color", "sac boya*", "sacini boya*", "mavi sac*", "pembe sac*", "mor sac*",
    "sort giy*",
)

INDIRECT_TERMS: Final = MappingProxyType(
    {
        "health": _HEALTH,
        "political_opinion": _POLITICAL,
        "sexual_life": _SEXUAL,
        "membership": _MEMBERSHIP,
        "ethnicity": _ETHNICITY,
        "religion": _RELIGION,
        "genetic": _GENETIC,
        "biometric": _BIOMETRIC,
        "appearance": _APPEARANCE,
        "philosophical_belief": _PHILOSOPHY,
        "criminal_record": _CRIMINAL,
    }
)
