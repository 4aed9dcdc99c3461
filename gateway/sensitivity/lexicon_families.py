"""Special-category terms by family of wording, for the words the other tables leave out: a
condition named by a drug sold in Turkey (brand or generic), a scan, a device, a symptom or a
state; an origin by a people, a skin or a migration; a vote by a party's short name; religious
dress by the garment; a faith by its order or its rite; a relationship by its shape; a genetic
finding by its syndrome; an association by its name. Folded form like lexicon_special; a stem
that begins everyday words is listed by its forms ('sakat', 'sakatim', never 'sakat*', which
would take 'sakatat'). Written from the categories of KVKK Art. 6, not from sentences seen
anywhere. As every topic term, none decides anything: it only makes the second stage ask whom
its sentence concerns."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

_HEALTH = (
    # psychiatric, sleep and addiction drugs (Turkish brands first, then generics)
    "xanor*", "diazem*", "nervium*", "atarax*", "hidroksizin*", "hydroxyzine*", "dormicum*",
    "midazolam*", "stilnox*", "zolpidem*", "ambien", "cipram*", "escitil*", "eslorex*", "seralin*",
    "depreks*", "faverin*", "fluvoksamin*", "luvox*", "paxera*", "seroxat*", "paxil*", "anafranil*",
    "klomipramin*", "laroxyl*", "amitriptilin*", "amitriptyline*", "bupropion*", "modafinil*",
    "strattera*", "invega*", "paliperidon*", "klozapin*", "clozapin*", "leponex*", "solian*",
    "amisulprid*", "rispolept*", "ketilept*", "ketya*", "quetiapin*", "norodol*", "lithuril*",
    "convulex*", "antipsikotik*", "antipsychotic*", "benzodiazepin*", "champix*", "vareniklin*",
    "varenicline*", "antabus*", "naltrekson*", "naltrexone*", "buprenorfin*", "buprenorphine*",
    "subutex*",
    # epilepsy and neurology
    "tegretol*", "trileptal*", "okskarbazepin*", "oxcarbazepine*", "topamax*", "topiramat*",
    "gabapentin*", "neurontin*", "epdantoin*", "fenitoin*", "phenytoin*", "valproik*",
    "antiepileptik*", "antiepileptic*", "tecfidera*", "gilenya*", "ocrevus*", "copaxone*", "rebif*",
    "avonex*", "betaferon*", "tysabri*", "aubagio*", "mavenclad*",
    # HIV
    "triumeq*", "genvoya*", "descovy*", "dovato*", "tivicay*", "dolutegravir*", "tenofovir*",
    "emtrisitabin*", "emtricitabine*", "efavirenz*", "raltegravir*", "isentress*", "atripla*",
    "viral yuk*", "viral load", "cd4",
    # oncology
    "tagrisso*", "osimertinib*", "ibrance*", "palbociclib*", "kisqali*", "verzenio*", "lenvima*",
    "sorafenib*", "nexavar*", "sutent*", "temodal*", "temozolomid*", "cisplatin*", "karboplatin*",
    "carboplatin*", "paklitaksel*", "paclitaxel*", "taxol", "dosetaksel*", "docetaxel*",
    "doksorubisin*", "doxorubicin*", "siklofosfamid*", "cyclophosphamide*", "folfox*", "folfiri*",
    "revlimid*", "lenalidomid*", "velcade*", "bortezomib*", "tecentriq*", "atezolizumab*",
    "imfinzi*", "enhertu*", "kadcyla*", "perjeta*", "faslodex*", "fulvestrant*", "femara*",
    "aromasin*", "eksemestan*", "exemestane*", "lucrin*", "lupron*", "zytiga*", "abirateron*",
    "abiraterone*", "xtandi*", "enzalutamid*", "neoplazi*", "neoplasm*", "malign*", "karsinom*",
    "carcinoma*", "adenokarsinom*", "sarkom*", "sarcoma*", "melanom*", "glioma*", "glioblastom*",
    "miyelom*", "myeloma*",
    # diabetes, thyroid, heart, blood
    "galvus*", "janumet*", "amaryl", "diamicron*", "gliklazid*", "gliclazide*", "glucobay*",
    "dapagliflozin*", "empagliflozin*", "sitagliptin*", "levotiroksin*", "levothyroxine*",
    "eutirox*", "tiamazol*", "thiamazole*", "propiltiourasil*", "sintrom*", "lanoxin*", "digoksin*",
    "digoxin*", "cordarone*", "amiodaron*", "isordil*", "lasix*", "furosemid*", "furosemide*",
    "aldactone*", "spironolakton*", "spironolactone*", "delix*", "coversyl*", "diovan*",
    "micardis*", "exforge*", "concor", "dideral*",
    # immune, bone, stomach, pain, breathing, sexual health
    "enbrel*", "remicade*", "stelara*", "cosentyx*", "cimzia*", "actemra*", "plaquenil*",
    "hidroksiklorokin*", "salazopyrin*", "imuran*", "azatiyoprin*", "azathioprine*", "cellcept*",
    "prograf", "takrolimus*", "tacrolimus*", "sandimmun*", "siklosporin*", "prednol*",
    "deltacortril*", "dekort*", "medrol*", "prolia*", "fosamax*", "aclasta*", "nexium*",
    "esomeprazol*", "pantpas*", "lansor*", "omeprazol*", "arveles*", "majezik*", "novalgin*",
    "apranax*", "tramadol*", "contramal*", "oksikodon*", "oxycodone*", "oxycontin*", "fentanil*",
    "fentanyl*", "zyrtec*", "xyzal*", "montelukast*", "singulair*", "epipen*", "seretide*",
    "symbicort*", "spiriva*", "pulmicort*", "cialis*", "viagra*", "levitra*", "sildenafil*",
    "tadalafil*", "ellaone*", "postinor*", "norlevo*",
    # scans, tests and procedures
    "mamografi*", "mammogra*", "smear testi*", "smear test*", "pap smear*", "kolposkopi*",
    "colposcop*", "histerektomi*", "hysterectom*", "vazektomi*", "vasectom*", "sintigrafi*",
    "pet ct*", "pet scan*", "ekokardiyografi*", "echocardiogra*", "holter*", "efor testi*",
    "beyin mr*", "lezyon*", "lesion*", "quantiferon*", "tuberkulin*", "tuberculin*",
    "fizyoterapi*", "pansuman*", "dikis atil*", "kanal tedavi*",
    "serum takil*", "serum takt*",
    # devices and aids
    "stoma", "stomasi*", "stomam*", "stoma bag*", "stoma torba*", "kolostomi*", "colostom*",
    "ileostomi*", "ileostom*", "trakeostomi*", "tracheostom*", "feeding tube*", "beslenme tupu*",
    "peg tupu*", "nazogastrik*", "kateter*", "catheter*", "cpap*", "bipap*",
    "oksijen konsantrator*", "oxygen concentrator*", "dexcom*", "freestyle libre*",
    "glukoz sensor*", "glucose monitor*", "insulin kalem*", "koklear*", "cochlear*",
    "koltuk degnek*", "yurutec*", "mobility scooter*", "prosthetic*", "prosthesis", "defibrilator*",
    "defibrillator*",
    # symptoms and states in the first person or about someone
    "gece terleme*", "night sweats", "kilo kaybim*", "kilo kaybi yasa*", "unexplained weight",
    "carpinti*", "palpitation*", "uyusma", "uyusmasi", "uyusmam*", "karincalanma*", "uyusuyor*",
    "numbness", "kanli idrar*", "kan tukur*", "kanli balgam*", "idrar kacir*", "unutkanlig*",
    "hafiza kayb*", "bayginlik*", "bayilip*", "kusuyorum", "kusuyor", "bebek bekli*", "emziriyorum",
    "emziriyor*", "emzirme izn*", "breastfeeding", "erken dogum*", "adetim gecik*",
    "pregnancy test*", "gebelik testi*", "sertlesme sorun*", "iktidarsiz*", "impotans*",
    "impotence",
    # disability named another way
    "sakat", "sakatim", "sakat kal*", "sakatlik raporu*", "ozurlu*", "malul*", "maluliyet*",
    "zihinsel engel*", "bedensel engel*", "ortopedik engel*", "isitme engel*", "ram raporu*",
    "ozel egitim raporu*", "kekemelik*", "kekeme", "stammer*", "serebral palsi*", "cerebral palsy",
    "spina bifida", "duchenne*", "kas hastalig*", "als hastas*", "motor neuron*", "motor noron*",
    # a treatment told by the machine or the unit it ties someone to ('makineye bağlı kaldım')
    "makineye bagli kal*", "makineye baglaniyor*", "makineye baglandim",
    "cihaza bagli kal*", "hemodiyaliz*", "periton diyaliz*",
    # care that says someone is ill or disabled: a carer's allowance, a companion on the ward,
    # special needs, staying sober
    "ozel gereksinim*", "bakim maasi*", "evde bakim maas*", "refakatci*", "ayik kal*", "ayikim",
    "ayiklik*",
    # memory, breath or a limb lost, said of someone
    "hafizasini kaybed*", "hafizasini kaybet*", "hafizami kaybed*", "nefessiz kal*",
    "uyku apne*", "kolum yok", "kolu yok", "bacagim yok", "bacagi yok",
)

_ETHNICITY = (
    # a people or a heritage written with a nationality ('Mexican-American'), a generation
    # or a community
    "mexican american*", "korean american*", "chinese american*", "japanese american*",
    "italian american*", "irish american*", "arab american*", "indian american*",
    "filipino american*", "vietnamese american*", "cuban american*", "puerto rican*", "latinx",
    "chicano*", "chicana*", "first-generation immigrant*", "second-generation immigrant*",
    "first generation immigrant*", "british asian*", "british indian*", "british pakistani*",
    "british bangladeshi*", "black caribbean", "black african", "windrush*", "irish traveller*",
    "traveller community", "romany", "sinti", "pacific islander*", "first nations", "inuit",
    "brown skin*", "darker skin*",
    # a migration or a refuge (an origin read from it)
    "refugee*", "asylum seeker*", "multeci*", "siginmaci*", "gecici koruma*",
    # Turkish: skin, languages and peoples the other tables do not name
    "tenimin rengi*", "teninin rengi*", "tenin rengi*", "koyu tenli*", "siyah tenli*",
    "siyah derili*", "beyaz derili*", "abhazca*", "kabardey*", "cecence*", "bosnakca", "arnavutca*",
    "lazca*", "zazaca*", "suryanice*", "ermenice*", "rumca*", "ladino*", "kurmanci*", "kirmancki*",
    "azerice*", "turkmence*", "uygurca*",
    # a language of home named without its name ('kendi dilinde konuşuyor'); peoples in English
    "kendi dilinde konus*", "kendi dillerinde konus*", "kendi dilimizde konus*",
    "kendi anadil*",
    "hemsin*", "hemshin*", "georgian*", "circassian*", "abkhaz*", "pontic*", "pontus rum*",
    "bosniak*", "albanian*", "kurmanji", "assyrian*", "yazidi*", "uyghur*", "crimean tatar*",
    "gocmen aile*", "gocmeni", "gocmeniyim", "muhacir*",
)

_POLITICAL = (
    # parties, blocs and movements the other tables do not name
    "hudapar*", "huda par*", "yeniden refah*", "memleket partisi*", "gelecek partisi*", "bbp'li*",
    "bbpli*", "dsp'li*", "dspli*", "tkp'li*", "tkpli*", "emep*", "odp'li*", "sol parti*",
    "cumhur ittifak*", "millet ittifak*", "emek ve ozgurluk ittifak*", "ulku ocak*", "halkevleri*",
    "biber gazi*", "sinn fein*", "plaid cymru", "lib dem*", "libdem*", "reform uk", "ukip",
    "libertarian*", "antifa", "black lives matter", "extinction rebellion", "just stop oil",
    "proud boys", "tea party",
    # standing for office and running a campaign
    "aday oldu*", "adayligini*", "aday adayi*", "aday adayligi*", "il genel meclis*",
    "belediye meclis*", "meclis uyeligi*", "muhtar aday*", "muhtarliga aday*",
    "secim kurul*", "secim kampanya*", "secim brosur*", "secim ofis*", "secim burosu*",
    "kampanya slogan*", "parti binasi*", "parti binasina*", "parti il binasi*",
    "parti teskilat*", "siyasi paylasim*", "elestiren paylasim*", "iktidari elestir*",
    "mayoral*", "running for mayor", "running for council", "running for office",
    "ran for office", "ran for mayor", "signature campaign*", "petition drive*",
    "musahit*",
)

_APPEARANCE = (
    # religious dress and head covering, in the forms the other tables miss
    "esarbi*", "esarbin*", "hasema*", "burkini*", "nikap*", "nikab*", "abaya*", "takke*", "cubbe*",
    "cuppe*", "kipa takar*", "kipa tak*", "bindi", "star of david", "crucifix*", "hac kolye*",
    "hac takiyor*", "hac tasiyor*", "basini ortu*", "basini kapat*", "basortusunu cikar*",
    "tesetture gir*",
    # covering named by its style, by covering or no longer covering, or by who is covered
    "sikmabas*", "ortmuyo*", "ortmuyor*", "ortunuyor*", "ortunme*", "kizim kapali*",
    "esim kapali*", "karim kapali*", "karisi kapali*", "annem kapali*", "annesi kapali*",
    "hanim kapali*", "hanimi kapali*",
)

_RELIGION = (
    # orders, rites and places of a faith
    "tekke*", "dergah*", "zikir*", "zikre", "zikirde", "mevlevi*", "kadirilik*", "kadiri tarikat*",
    "rifailik*", "rifai tarikat*", "naksi*", "nurcu*", "suleymanci*", "ismailaga*",
    "menzil cemaat*", "menzilci*", "muezzin*", "vaaz*", "hatim indir*", "hatim dua*", "mukabele*",
    "mushaf*", "jain", "jains", "jainism", "gurdwara*", "quaker*", "mennonite*", "amish",
    "scientolog*", "bahai*", "baha'i*", "druze", "durzi*", "nusayri*", "latter-day saint*",
    "lds church", "bar mitzvah*", "bat mitzvah*", "yom kippur", "rosh hashanah", "passover seder",
    "confession on", "confirmation class*",
    # the pilgrimage in its case forms and what pilgrims bring back
    "hacdan", "hactan", "hacda", "hacci", "haccini", "haccin*", "zemzem*",
)

_SEXUAL = (
    # relationships by their shape, dating apps, sexual health
    "throuple*", "polyamor*", "poliamor*", "swinger*", "acik iliski*", "acik evlilik*",
    "open relationship*", "open marriage*", "hemcins*", "ikimiz de erkek*", "ikimiz de kadin*",
    "ikisi de erkek*", "ikisi de kadin*", "ikisinin de erkek*", "ikisinin de kadin*", "bumble",
    "hinge app", "okcupid*", "happn", "badoo*", "genital sigil*", "genital wart*", "sugar daddy",
    "sugar baby", "genelev*", "bekaret*", "bakire*", "virginity", "celibate", "celibacy",
    # a match on an app, a relationship of years ('2 yıldır beraberiz')
    "tinder*", "met on hinge", "matched on hinge", "hinge date*", "hinge profile*",
    "hinge match*", "dating app*", "dating site*", "dating profile*", "flort uygulama*",
    "arkadaslik uygulama*", "arkadaslik sitesi*", "yildir beraberiz", "yildir birlikteyiz",
    "aydir beraberiz", "aydir birlikteyiz", "ev arkadasi saniyor*",
)

_MEMBERSHIP = (
    # associations, chambers and unions by their names; a strike as a member takes it
    "cydd*", "tema vakfi*", "akut'ta", "akut gonullu*", "losev*", "kizilay gonullu*", "ihd",
    "ihd'li*", "mazlumder*", "tihv", "kaos gl*", "spod", "lambdaistanbul*", "tbb", "tmmob*", "ttb",
    "amnesty international", "greenpeace*", "strike committee*", "strike vote*", "strike pay",
    "strike fund*", "picketing", "grevdeyiz", "grevdeyim", "grevde", "grevdeki*",
    # joining, dues taken from pay, leaving; guilds
    "aidat kesil*",
    "aidat * kesil*", "aidatim kesil*", "aidati kesil*", "aidatimi maas*", "aidat kesinti*",
    "writers guild", "actors guild", "sag-aftra", "guild member*",
    "isci temsilci*", "lokavt*", "direnis cadir*",
)

_GENETIC = (
    # syndromes and tests that say what a body carries
    "turner sendrom*", "klinefelter*", "fragile x", "frajil x*", "lynch sendrom*", "lynch syndrome",
    "tay-sachs", "tay sachs", "gaucher*", "fenilketonuri*", "phenylketonuri*", "hemokromatoz*",
    "haemochromatosis", "hemochromatosis", "mthfr*", "factor v leiden", "faktor v leiden", "nipt*",
    "amniyosentez*", "amniocentesis", "cvs test*", "exome*", "ekzom*", "wes analiz*",
    "variant of uncertain", "pathogenic variant*", "patojenik*", "heterozigot*", "heterozygous",
    "homozigot*", "homozygous",
)

_BIOMETRIC = (
    # a voice, a face, a hand or typing kept to recognise someone
    "ses imza*", "sesli imza*", "ses kimlig*", "voice id", "voice signature*",
    "voice biometric*", "voice authentication", "yuzumu taratt*", "yuzumu kaydet*",
    "parmagimi okut*", "parmak okut*", "palm scan*", "vein scan*",
    "el geometri*", "hand geometry", "keystroke dynamics", "tus vurus dinamig*",
)

_CRIMINAL = (
    # conditions of a case while it runs: signing in, a travel ban, bail
    "judicial control", "judicial supervision", "sign in at the police station",
    "report to the police station", "bail condition*", "released on bail", "remanded*",
    "police caution*", "community service order*", "imza yukumlulug*", "karakola imza*",
    "yurt disi cikis yasag*", "yurt disina cikis yasag*", "yurtdisi cikis yasag*",
)

FAMILY_TERMS: Final = MappingProxyType(
    {
        "health": _HEALTH,
        "ethnicity": _ETHNICITY,
        "political_opinion": _POLITICAL,
        "appearance": _APPEARANCE,
        "religion": _RELIGION,
        "sexual_life": _SEXUAL,
        "membership": _MEMBERSHIP,
        "genetic": _GENETIC,
        "biometric": _BIOMETRIC,
        "criminal_record": _CRIMINAL,
    }
)
