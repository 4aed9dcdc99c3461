# ruff: noqa: E501  (term tables read better unwrapped)
"""English special-category terms by family of wording, for what English writers say about
themselves and others that the other tables leave out: a condition named by its drug (brand or
generic), its clinic, its device or its leave; a faith by its feast, fast, pilgrimage, clergy,
rite or dietary rule; dress that shows a belief; a party by its short name or its campaigning;
a union by its steward, its local, its bargaining unit or its strike; a record by its prison,
its sentence, its court or its check; a body read by a machine or a lab. Folded form like
lexicon_special ('*' = any ending, spaces = a phrase, '*' alone = any one word).

Everyday words that are topics only in some uses are listed inside a phrase that fixes the
use ('on strike', 'union local', 'in her habit', 'prison sentence', 'for lent', 'go to mass'),
never alone: a coffee habit, a local shop, a sentence in grammar, a strike in bowling stay
public. The few uses a phrase cannot rule out are dropped by everyday_english.py ('in her habit
of ...', 'served 5 years as CEO', 'probation period', 'with conviction'). Written from the
categories of KVKK Art. 6, not from sentences seen anywhere. As every topic term, none decides
anything: it only makes the second stage ask whom its sentence concerns."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

_HEALTH = (
    # mental health: conditions, crises, services and leave
    "depressive episode*", "panic attack*", "panic disorder*", "anxiety disorder*", "generalised anxiety",
    "generalized anxiety", "ptsd", "c-ptsd", "cptsd", "ocd", "adhd", "add diagnosis", "bipolar*", "psychosis",
    "psychotic episode*", "manic episode*", "hypomani*", "borderline personality*", "personality disorder*",
    "anorexi*", "bulimi*", "binge eating", "suicide attempt*", "attempted suicide", "tried to kill himself",
    "tried to kill herself", "overdosed", "suicidal thought*", "sectioned under", "been sectioned", "got sectioned",
    "was sectioned", "mental health act", "crisis team", "cmht", "iapt", "talking therapies", "cbt session*",
    "dbt group", "emdr", "psychiatric ward", "psychiatric unit", "psychiatric hospital", "mental health leave",
    "stress leave", "signed off sick", "signed off with", "signed me off", "signed her off", "signed him off",
    "fit note*", "sick note*", "sick leave", "medical leave", "long-term sick*", "occupational health referral*",
    "mental health crisis", "nervous breakdown", "grief counsel*", "psychotherap*", "psychiatrist*",
    # addiction and recovery
    "alcoholism", "alcohol dependen*", "alcohol addiction", "drug addiction", "sober for", "sober since", "sobriety",
    "aa meeting*", "alcoholics anonymous", "narcotics anonymous", "na meeting*", "12-step*", "twelve-step*",
    "detox clinic", "detox programme", "detox program", "in detox", "medical detox", "opioid addiction",
    "opioid use disorder", "substance use disorder", "substance misuse", "heroin", "crack cocaine", "naloxone",
    "narcan", "vivitrol", "sublocade", "relapsed",
    # psychiatric, sleep and ADHD drugs
    "zyprexa*", "haloperidol*", "haldol*", "latuda*", "lurasidone*", "clozaril*", "lamictal*", "lamotrigine*",
    "depakote*", "prozac*", "fluoxetine*", "sertraline*", "citalopram*", "escitalopram*", "paroxetine*",
    "venlafaxine*", "effexor*", "cymbalta*", "duloxetine*", "mirtazapine*", "remeron*", "trazodone*", "xanax*",
    "alprazolam*", "valium*", "diazepam*", "lorazepam*", "ativan*", "clonazepam*", "klonopin*", "vyvanse*",
    "elvanse*", "methylphenidate*", "dexamfetamine*", "lisdexamfetamine*", "ssris", "antidepressant*",
    "mood stabiliser*", "mood stabilizer*",
    # HIV, PrEP and PEP
    "hiv", "hiv-positive", "hiv positive", "on prep", "taking prep", "started prep", "prep prescription*",
    "prep clinic", "pre-exposure prophylaxis", "post-exposure prophylaxis", "pep course", "stribild*", "odefsey*",
    "juluca*", "cabenuva*", "apretude*", "symtuza*", "prezista*", "darunavir*", "rilpivirine*", "abacavir*",
    "lamivudine*", "zidovudine*", "undetectable viral", "viral load",
    # diabetes, weight and hormones
    "metformin*", "glucophage*", "jardiance*", "forxiga*", "farxiga*", "trulicity*", "victoza*", "saxenda*",
    "wegovy*", "mounjaro*", "zepbound*", "tirzepatide*", "semaglutide*", "liraglutide*", "novorapid*", "humalog*",
    "humulin*", "levemir*", "tresiba*", "toujeo*", "fiasp*", "insulin pen*", "insulin pump*", "omnipod*",
    "glucometer*", "glucose meter*", "continuous glucose", "had a hypo", "hypos", "type 1 diabetic*",
    "type 2 diabetic*", "t1d", "t2d", "diabetic", "diabetics", "hrt patch*", "testosterone injection*", "thyroxine",
    # cancer: agents, treatment and its places
    "rituximab*", "rituxan*", "keytruda*", "pembrolizumab*", "opdivo*", "nivolumab*", "yervoy*", "avastin*",
    "bevacizumab*", "trastuzumab*", "capecitabine*", "xeloda*", "oxaliplatin*", "gemcitabine*", "cytarabine*",
    "imatinib*", "gleevec*", "glivec*", "anastrozole*", "arimidex*", "letrozole*", "radiotherapy*",
    "radiation therapy", "radiation treatment*", "proton beam*", "stem cell transplant*", "bone marrow transplant*",
    "picc line*", "hickman line*", "port-a-cath*", "macmillan nurse*", "lumpectomy*", "mastectomy*", "tumour*",
    "metasta*", "cancer*", "chemo ward", "oncology ward", "2ww referral*",
    # oncology said short ('mom's onco appt'), and chemotherapy's side effect on the blood
    "onco", "neutropeni*", "febrile neutropeni*",
    # heart, blood, brain
    "warfarin*", "apixaban*", "rivaroxaban*", "clopidogrel*", "plavix*", "statin", "statins", "atorvastatin*",
    "simvastatin*", "rosuvastatin*", "lipitor*", "crestor*", "bisoprolol*", "ramipril*", "lisinopril*", "amlodipine*",
    "beta blocker*", "gtn spray", "angina", "arrhythmi*", "atrial fibrillation", "afib", "a-fib", "heart attack*",
    "cardiac arrest", "bypass surgery", "triple bypass", "angioplasty", "heart failure", "mini-stroke",
    "had a stroke", "suffered a stroke", "epilep*", "multiple sclerosis", "ms relapse", "parkinson*", "dementia*",
    "alzheimer*", "donepezil*", "aricept*", "memantine*", "sumatriptan*", "brain injury", "concussion*",
    # other conditions, written as people write them
    "long covid", "chronic fatigue", "me/cfs", "endometriosis", "pcos", "psoriasis", "eczema", "ulcerative colitis",
    "kidney failure", "dialysis", "cirrhosis", "hepatitis*", "tuberculosis", "asthma*", "copd", "emphysema",
    "sleep apnoea", "sleep apnea", "tinnitus", "glaucoma", "cataract*", "macular degeneration", "osteoporosis",
    "incontinen*", "hysterectomy*", "ostomy*", "colostomy*", "allergic to", "anaphyla*", "epipen*", "nut allergy",
    "coeliac disease",
    # clinics, wards and services that name what someone is treated for
    "memory clinic", "fracture clinic", "sexual health clinic", "gum clinic", "std clinic", "fertility clinic",
    # an infusion given by a clinic ('infusion' alone is tea or money: only with the place,
    # the drug or the patient's own)
    "infusion centre", "infusion center", "infusion clinic", "infusion unit", "infusion suite",
    "fit to fly letter*", "fit to fly certificate*", "fit to fly note*",
    "iron infusion*", "iv infusion*", "infusion appointment*", "an infusion at",
    "infusions every",
    "pain clinic", "diabetes clinic", "eating disorder unit", "methadone clinic", "dialysis unit", "maternity ward",
    "labour ward", "emergency room", "urgent care", "in hospital", "discharged from hospital",
    "outpatient appointment*", "inpatient stay", "consultant appointment*", "specialist referral*",
    # pregnancy, fertility and loss
    "pregnan*", "expecting a baby", "expecting twins", "maternity leave", "antenatal*", "prenatal*",
    "midwife appointment*", "booking scan", "12-week scan", "20-week scan", "anomaly scan", "dating scan",
    "morning sickness", "weeks pregnant", "ivf", "egg retrieval", "egg freezing", "embryo transfer",
    "fertility treatment*", "miscarri*", "stillbirth*", "stillborn", "ectopic*", "termination of pregnancy",
    "abortion*", "gestational diabetes", "pre-eclampsia", "preeclampsia", "hyperemesis*", "postnatal depression",
    "postpartum depression",
    # disability: benefits, aids, adjustments and conditions
    "blue badge*", "pip assessment*", "pip claim*", "personal independence payment", "disability living allowance",
    "reasonable adjustment*", "ehcp", "wheelchair user*", "guide dog*", "white cane", "hearing loss",
    "sign language interpreter*", "bsl interpreter*", "hard of hearing", "visually impaired", "partially sighted",
    "registered blind", "legally blind", "learning disabilit*", "learning difficult*", "down syndrome",
    "down's syndrome", "autis*", "asperger*", "dyslexi*", "dyspraxi*", "dyscalculi*", "tourette*", "neurodivergent",
    "disabled person", "disabled son", "disabled daughter", "disabled child", "disabled employee*",
    "disabled worker*", "disabled veteran*", "registered disabled", "i am disabled", "i m disabled", "my disabled",
    "access to work grant", "access to work scheme", "first trimester", "second trimester", "third trimester",
    "hospitalised", "hospitalized", "hospitalisation", "hospitalization", "had a seizure", "has seizures",
    "seizure disorder", "absence seizure*", "tonic-clonic", "recovering alcoholic*", "recovering addict*",
    "in recovery from", "disability benefit*", "disability leave", "mobility aid*",
    # a pregnancy told by its weeks, its leave, its scans or its birth ('22 weeks along',
    # 'mat leave', 'her 20-week scan', 'on bed rest')
    "weeks along", "months along", "weeks gone", "mat leave", "on maternity", "going on maternity",
    "maternity cover", "baby is due", "baby s due", "baby due", "expecting her first",
    "expecting their first", "expecting our first", "expecting a boy", "expecting a girl",
    "baby bump", "bed rest", "week scan*", "growth scan*", "nuchal scan*", "caesarean*",
    "cesarean*", "midwife", "midwives", "birth plan*", "postnatal", "post-natal",
    "haemodialysis", "hemodialysis", "renal unit",
    "glucose tab*", "check glucose", "check my glucose", "check his glucose", "check her glucose",
)

_RELIGION = (
    # feasts, fasts and holy days, kept by someone
    "eid", "eid al-adha", "eid al-fitr", "eid ul-fitr", "eid ul-adha", "ramadan", "for lent", "during lent",
    "up for lent", "ash wednesday", "rosh hashana*", "hanukkah", "chanukah", "passover", "sukkot", "shabbat",
    "shabbos", "navratri", "vaisakhi", "baisakhi", "gurpurab", "vesak", "wesak", "holy week", "breaking the fast",
    "break my fast", "break their fast", "keep the fast", "observing ramadan", "observes ramadan", "pilgrimage*",
    "makkah", "mosque*", "church", "churches", "churchgoer*", "church service*", "synagogue*", "mandir", "parish*",
    "congregation*", "jummah", "jumu ah", "friday prayer*", "salat", "wudu", "prayer mat*", "prayer break*",
    "prayer room", "fajr", "dhuhr", "zuhr", "maghrib", "asr prayer*", "isha prayer*", "tahajjud",
    "qurbani", "udhiyah",
    # rites, study and giving
    "go to mass", "goes to mass", "went to mass", "attend mass", "attends mass", "sunday mass", "midnight mass",
    "first communion", "holy communion", "communion", "baptis*", "christening*", "bat mitzvah",
    "confirmation classes", "sermon*", "bible study", "torah", "talmud", "yeshiva*", "madrasa*", "madrassa*",
    "sunday school", "tithe*", "tithing", "zakat", "sadaqah", "religious grounds", "religious reasons",
    "religious belief*", "religious holiday*", "religious observance", "person of faith", "born-again", "apostate*",
    "apostasy", "excommunicat*",
    # dietary rules
    "no pork", "pork-free", "porcine", "pork gelatin*", "beef-free", "no beef", "jain diet", "halal meal*",
    "kosher meal*",
    # clergy and religious life
    "nun", "nuns", "vicar*", "reverend", "monk", "monks", "monastic*", "monastery", "convent", "convents", "nunnery",
    "friar*", "chaplain*", "ordained", "ordination", "seminary", "seminarian*", "mullah*", "granthi", "swami",
    "clergy*", "missionar*", "parishioner*",
    # faiths and denominations
    "evangelical*", "pentecostal*", "baptist*", "methodist*", "anglican*", "presbyterian*", "lutheran*",
    "orthodox jew*", "orthodox christian*", "greek orthodox", "russian orthodox", "coptic*", "hasidic", "haredi",
    "chassid*", "sikh*", "hindu*", "buddhis*", "muslim*", "islamic", "catholic*", "protestant*", "jewish", "jehovah*",
    "mormon*", "shia", "shiite*", "sunni*", "sufi*", "ahmadi*", "wiccan*", "pagan*", "rastafari*", "zoroastrian*",
    "parsi", "unitarian*", "opus dei", "christians", "christianity", "a christian", "devout christian",
    "practising christian", "practicing christian", "christian faith", "to mecca", "in mecca", "to lourdes",
    "to chapel", "at chapel", "went to the temple", "go to temple", "goes to temple", "observant jew*",
    "observant muslim*", "religiously observant", "person of faith", "practise their faith", "practice their faith",
    "practising my faith",
    # worship, study and rules of a faith kept week by week
    "shul", "to shul", "minyan", "kaddish", "sitting shiva", "sat shiva", "mikvah", "mikveh",
    "kosher kitchen", "keeps kosher", "keep kosher", "eats halal", "eat halal", "halal only",
    "suhoor", "sehri", "iftar", "taraweeh", "tarawih", "church fellowship", "christian fellowship",
    "bible fellowship", "youth fellowship", "prayer meeting*", "prayer group*", "church choir",
    "sunday service*", "sattvic", "ekadashi", "karva chauth", "puja", "gurdwara",
    "lds church", "lds member*", "lds mission*", "two-year mission",
    "kingdom hall",
    "candles every friday", "touch a light switch", "surp",
)

_APPEARANCE = (
    # a garment, a covering or a sign worn for a faith
    "in her habit", "in his habit", "in their habit", "nun's habit", "religious habit", "wears a habit",
    "wearing a habit", "wearing her habit", "kippa", "skullcap*", "kufi*", "taqiyah", "dastar", "patka", "kirpan*",
    "chador*", "jilbab*", "khimar*", "sheitel*", "shaitel*", "tichel*", "headcovering*", "head covering*",
    "covers her hair", "cover her hair", "covering her hair", "modest dress", "modest clothing", "tzitzit", "payot",
    "peyot", "sidelock*", "cassock*", "clerical collar*", "wimple*", "tilak", "mangalsutra", "sindoor",
    "saffron robe*", "monk's robe*", "religious attire", "religious dress", "religious clothing",
    "religious headwear", "religious symbol*", "wears a cross", "wears a crucifix", "her hijab", "wears hijab",
    "wear hijab", "hijabi*", "niqabi*",
    "franciscan habit*", "monastic habit*", "religious habit*", "nun s habit",
)

_ETHNICITY = (
    "ethnicity", "ethnicities", "racial*", "racially", "bame", "bipoc", "person of colour", "people of colour",
    "person of color", "people of color", "woman of colour", "woman of color", "man of colour", "man of color",
    "white british", "white irish", "white other", "mixed heritage", "dual heritage", "indigenous", "aboriginal*",
    "torres strait", "maori*", "native american*", "alaska native*", "hispanic*", "latino*", "latina*",
    "afro-caribbean", "african american*", "of * descent", "of * heritage", "of * ancestry", "romani", "gypsy",
    "gypsies", "gypsy traveller*", "han chinese", "ethnic minorit*", "racial abuse", "racial slur*", "racist abuse",
    "racially abused", "caste", "dalit*", "brahmin*", "jewish heritage", "arab heritage", "amazigh",
    "kurdish heritage", "roma community", "roma family", "roma families", "roma heritage", "roma origin", "of roma",
    # a people by its own names, its tribe or its community ('Ngāi Tahu', 'iwi', 'Peranakan')
    "iwi", "hapu", "ngai tahu", "ngati", "tangata whenua", "pasifika", "peranakan*", "nyonya",
    "metis", "sami people", "tribal affiliation*", "tribal member*", "tribal enrol*",
    "tribal citizen*", "enrolled member of the", "first nation", "traveller heritage",
    "traveller family", "traveller families", "greek community", "armenian community",
    "kurdish community", "kurdish family", "greek minority", "armenian minority",
    # Travellers and the two communities of Cyprus ('traveller' alone is anyone on a trip)
    "irish traveller*", "traveller community", "traveller communities", "traveller family",
    "traveller families", "traveller heritage", "greek cypriot*", "turkish cypriot*",
    # where Irish Travellers are housed
    "halting site*",
    # a person told to leave for where their people come from
    # (written from 'back': 'go' fills every text)
    "back to your country", "back to your own country", "back to where you came from",
    "back where you came from", "home to your country",
    "yolngu", "garifuna", "speaks hakka", "hakka chinese", "hakka family", "hakka heritage", "mhallami", "mhallemi", "northern sami", "sami reindeer*",
    "marae", "pepeha", "te reo",
    "romanichal", "appleby fair", "mixtec*", "zapotec*", "tu un savi", "quechua", "aymara",
)

_POLITICAL = (
    # membership and support
    "party card", "card-carrying", "member of the * party", "joined the * party", "conservative party",
    "labour party", "green party", "lib dems", "reform party", "democratic party", "republican party", "gop",
    "trump supporter*", "biden supporter*", "harris supporter*", "young conservatives", "young labour",
    "young republicans", "young democrats", "constituency party", "party conference", "party whip",
    # campaigning and standing
    "campaign volunteer*", "phone banking", "phonebanking", "door-knocking", "door knocking", "leafleting",
    "leafletting", "polling agent*", "election agent*", "stood for council", "standing for council", "councillor*",
    "council candidate*", "parliamentary candidate*", "signed the petition", "on the march", "joined the march",
    "socialist*", "communist*", "marxist*", "trotskyist*", "left-leaning", "right-leaning", "centrist*", "zionis*",
    "anti-zionis*", "pro-palestin*", "pro-israel*", "pro-life", "pro-choice", "anti-abortion", "nationalist*",
    "separatist*", "royalist*", "monarchist*", "loyalist*", "republicanism", "leftist*", "rightwinger*", "fascist*",
    # money, signs and shifts given to a party or a candidate
    "committee to elect", "yard sign*", "lawn sign*", "campaign donation*", "campaign contribution*",
    "political donation*", "donation to the * campaign", "donated to the * campaign", "super pac",
    "canvasser*", "canvassing shift*", "precinct captain*", "precinct chair*", "precinct committee*",
    "youth branch", "youth wing", "party youth", "party member card*", "signed a petition",
    "signed that petition", "protest march*", "anti-corruption foundation",
    # standing for office as an act
    "stood as a candidate", "stood for election", "ran for council", "party delegate*",
    "convention delegate*", "constituency party", "palestine action",
    "working families party",
    "calling for a ceasefire", "ceasefire march*", "ceasefire rall*", "ceasefire protest*", "phone bankers", "volunteer phone bank*",
)

_PHILOSOPHY = (
    "pacifis*", "humanist*", "secularist*", "freethinker*", "rationalist*", "existentialist*", "effective altruis*",
    "anti-natalis*", "antinatalis*", "conscientious objector*", "gender-critical", "gender critical",
    "climate activist*", "environmentalist*", "eco-activist*", "objectivist*", "transhumanis*", "stoicism",
    "ethical vegan*", "i m vegan", "i am vegan", "he is vegan", "she is vegan", "he s vegan", "she s vegan",
    "they re vegan", "vegans", "veganism", "went vegan", "gone vegan", "strict vegan", "lifelong vegan",
    "i m vegetarian", "i am vegetarian", "he is vegetarian", "she is vegetarian", "he s vegetarian",
    "she s vegetarian", "vegetarians", "vegetarianism", "went vegetarian", "strict vegetarian", "anti-vax*",
    "antivax*", "anti-vaccine", "freeganism",
    "conscience grounds", "grounds of conscience", "reasons of conscience", "anti-consumeris*",
    # the anarchist schools by their compound names ('primitive' is an everyday word: only
    # the -ist forms)
    "anarcho-primitivis*", "anarcho-capitalis*", "anarcho-syndicalis*", "anarcho-communis*",
    "anarko primitivis*", "anarko kapitalis*", "primitivist*", "ancap", "ancaps",
    # a way of life refused on principle, said of someone ('hasn't used any animal products')
    "used any animal product*", "use any animal product*", "uses no animal product*",
    "eat any animal product*", "eats no animal product*",
    "theosoph*", "anthroposoph*", "objektivizm*", "ahimsa",
    "anything from animals",
    "antroposof*", "waldorf pedagog*",
)

_MEMBERSHIP = (
    # a union, its officers, its local and its action
    "union official*", "union branch", "branch secretary", "union steward*", "shop stewards", "chief steward*",
    "steward for the union", "union local", "local union", "the local chapter", "bargaining unit*", "on strike",
    "going on strike", "go on strike", "strike action", "striking workers", "strike ballot*", "strike day*",
    "picket line*", "industrial action", "union card*", "union membership", "unionised", "unionized",
    "trade unionist*", "crossed the picket", "walkout*", "work-to-rule", "union meeting*", "union ballot*",
    "union convention*",
    # unions, professional bodies and fraternities by name
    "unite member*", "rcn", "royal college of nursing", "bma", "british medical association", "nea member*",
    "afl-cio", "seiu", "uaw", "ibew", "afscme", "unison member*", "unison rep*", "unison branch", "joined unison",
    "member of unison", "usdaw", "bectu", "nasuwt", "neu", "pcs union", "rmt", "aslef", "musicians union",
    "nurses association", "teachers association", "police federation", "fraternal order of police",
    "federation member*", "masonic", "rotary club", "lions club", "elks lodge", "knights of columbus",
    "member of the * union", "joined the * union", "member of the * association", "association member*",
    "membership dues", "our elected rep", "elected rep", "staff side rep*", "workplace rep*",
    # dues taken from pay, and the unions whose names are everyday words ('Unite', 'ver.di')
    "union subs", "union subscription*", "union deduction*", "dues deduction*", "dues checkoff",
    "dues check-off", "unite dues", "gmb dues", "unison dues", "unite branch", "unite steward*",
    "unite union", "unite the union", "ver di", "ig metall", "shop steward", "on the picket",
    "iww", "wobblies", "cwa dues", "cwa local", "dues to the union",
    "unite subscription*",
    "unite office", "rep for our depot", "rep for our branch",
    # a union being organised, by the drive cards are signed for
    "organizing drive*", "organising drive*", "union drive*",
)

_SEXUAL = (
    "gay", "lesbian*", "bisexual*", "pansexual*", "asexual*", "homosexual*", "closeted", "his husband",
    "his boyfriend", "her wife", "civil partner*", "grindr*", "extramarital*", "infidelity", "one-night stand*",
    "sexual relationship*", "romantic relationship*", "intimate relationship*", "personal relationship with",
    "past relationship with", "previous relationship with", "relationship with the client",
    "relationship with a client", "relationship with a patient", "relationship with a student", "dating a colleague",
    "dating a coworker", "dating his", "dating her", "sex worker*", "sex work", "gender transition",
    "gender reassignment", "gender-affirming", "gender affirming", "gender dysphoria", "top surgery",
    "bottom surgery", "deadname*", "intersex", "genderqueer", "genderfluid", "two-spirit", "polyamorous", "fetish*",
    "coming out as", "transitioning to male", "transitioning to female", "medically transitioning",
    "socially transitioning", "started transitioning", "relationship with a subordinate", "sexually transmitted",
    "std test*", "sti test*",
    "not out at work", "isn t out", "he s not out", "she s not out", "came out to",
    # adultery named as such ('adulterated' is food: listed by its forms)
    "an affair", "adultery", "adulterous", "adulterer*", "adulteress*", "sex toy*",
    # a night or an affair by its slang ('hooked up with the new guy')
    "hooked up with", "hooking up with", "hook up with", "been sleeping with",
    "planetromeo", "planet romeo", "ashley madison", "dominatrix*", "swinger", "lifestyle club*", "leather scene", "folsom street", "on hornet",
    "two grooms", "two brides", "bi guy", "bi girl", "bi man", "bi woman", "bi dude",
    "non-monogam*", "nonmonogam*", "likes girls", "likes boys", "mr and mr", "mrs and mrs",
    "open marrige", "ace spectrum",
    # a partner's orientation said short, the clinic's words for a sexual history and the
    # pill taken against HIV ('prep' alone is preparing a meal)
    "bf is bi", "gf is bi", "husband is bi", "wife is bi", "msm", "on prep", "prep prescription*",
    "prep refill*", "started prep", "starting prep",
)

_CRIMINAL = (
    # prisons and time served
    "hmp", "hmyoi", "young offender*", "youth offending", "penitentiary", "correctional facility",
    "correctional centre", "correctional center", "federal prison", "county jail", "state prison", "rikers",
    "behind bars", "served * years", "served a * sentence", "served his sentence", "served her sentence",
    "custodial sentence*", "suspended sentence*", "prison sentence*", "jail sentence*", "life sentence*",
    "jail term*", "prison term*", "year sentence", "month sentence", "years in prison", "months in prison",
    "years in jail", "months in jail", "imprisoned", "incarcerat*", "jailed for", "released from prison",
    "released from jail", "on licence", "recalled to prison", "spent conviction*", "unspent conviction*",
    "previous conviction*", "criminal conviction*", "dbs check*", "dbs certificate*", "enhanced dbs", "crb check*",
    "disclosure and barring", "police record", "police check*", "given a caution", "received a caution",
    "accepted a caution", "conditional caution",
    # custody, bail and the court
    "on remand", "in police custody", "taken into custody", "held in custody", "on bail", "bail hearing*",
    "made bail", "posted bail", "arraign*", "indicted", "indictment*", "pleaded not guilty", "plead guilty",
    "pled guilty", "guilty plea", "guilty verdict", "found guilty", "acquitted", "magistrates court",
    "magistrates' court", "crown court", "criminal court", "court appearance*", "faces charges", "facing charges",
    "criminal charge*", "pressed charges", "press charges", "arrest warrant", "warrant for his arrest",
    "warrant for her arrest",
    # offences and offenders
    "criminal offence*", "criminal offense*", "sexual offence*", "sex offender*", "offender*", "reoffend*",
    "re-offend*", "ex-offender*", "ex-prisoner*", "felon", "felons", "misdemeanor*", "misdemeanour*",
    "fraud conviction*", "convicted of", "drink driving", "drink-driving", "driving ban", "banned from driving",
    "disqualified from driving", "ankle monitor*", "ankle tag*", "electronic tag*", "unpaid work requirement",
    "community order", "non-molestation order", "asbo", "criminal behaviour order", "gang member*", "was locked up",
    "got locked up", "been locked up", "police bail", "released under investigation", "jailed for",
    "probation officer*", "parole board", "parole officer*",
    "deferred prosecution", "in the cells", "police cells", "criminal background",
    "questioned by police", "questioned by the police", "police questioned", "interviewed under caution",
    "voluntary interview", "to the prosecutor", "prosecutor's office", "charging decision",
    "possession charge*", "charged with possession",
    # a drug offence named by its charge ('possession' alone is ownership: only with the
    # police step or the drug)
    "caution for possession", "arrested for possession", "cautioned for possession",
    "possession of cannabis", "possession of class a", "possession of class b",
    "possession with intent", "possession of a controlled",
    # police steps short of a charge, supervision after release, lists and removal
    "charged over", "charged in connection", "police custody", "police caution*", "cautioned by police",
    "caution from police", "interview under caution", "interviewed under caution", "voluntary interview",
    "wanted by police", "wanted by the police", "pending trial", "youth court", "youth caution*",
    "fined by the court", "fined by magistrates", "court fine*", "criminal defence", "criminal defense",
    "halfway house*", "half-way house*", "probation hostel*", "mappa", "prevent referral*",
    "referred to prevent", "terror watchlist", "no-fly list", "stop and search", "stopped and searched",
    "strip search*", "strip-search*", "deportation order*", "deported", "immigration detention",
    "removal centre",
    "community service order*", "hrs community service", "hours community service", "hours of community service", "comunity service",
    "pentonville", "wormwood scrubs", "belmarsh", "strangeways", "san quentin", "sing sing", "people with a record", "someone with a record",
    "pelican bay", "folsom prison", "leavenworth",
)

_BIOMETRIC = (
    "face match*", "facematch*", "auth face", "face login", "face auth*", "face unlock", "face template*", "facial biometric*",
    "facial geometry", "face embedding*", "face vector*", "face encoding*", "faceid", "touch id", "touchid",
    "windows hello", "finger vein*", "speaker verification", "speaker recognition", "voice enrolment",
    "voice enrollment", "gait recognition", "signature dynamics", "biometric template*", "enrolled face",
    "face enrolment", "face enrollment", "liveness",
    # a template enrolled or enrolled again for a reader ('palm template', 're-enrol')
    "palm template*", "palm vein*", "palm-vein*", "fingerprint template*", "fp template*",
    "voice template*", "iris template*", "finger template*", "re-enrol*", "re-enroll*", "reenrol*",
    "biometric turnstile*", "biometric enrol*", "biometric enroll*", "face id enrol*",
    "face id enroll*", "face scan*", "facial scan*", "finger scan*",
    "face map*", "facemap*", "palm scan*", "scanned my palm", "scanned his palm", "scanned her palm", "amazon one", "ten-print*", "tenprint*",
    "facial template*",
    "register our face*", "register my face*", "registered my face*", "registered our face*", "enrolled my face*", "enrol my face*",
    "facial landmark*", "face landmark*", "landmark koordinat*",
    # a face recogniser named short ('face rec')
    "face rec", "facial rec",
)

_GENETIC = (
    "47 xx", "47 xy", "46 xx", "46 xy", "45 xo", "trisomy*", "carriers of", "carrier status", "carrier screening",
    "brca1", "brca2", "whole genome", "genome sequencing", "dna sequencing",
    "exome sequencing", "snp array", "microarray", "deletion syndrome", "22q11*", "digeorge", "williams syndrome",
    "prader-willi", "angelman", "marfan*", "ehlers-danlos", "spinal muscular atrophy", "muscular dystrophy",
    "newborn screening", "heel prick*", "heel-prick*", "guthrie test", "pku", "harmony test", "panorama test",
    "cffdna", "vus", "polygenic", "ancestry test*", "dna kit*", "dna match*",
    "genotyp*", "haplogroup*", "g6pd*", "cftr", "hla typing", "hla-b27", "hla match*", "sickle cell trait",
    "thalassaemia trait", "thalassemia trait", "gene panel*",
    "paternity result*", "probability of paternity", "alleged father", "maternity test*",
    "sibship*", "sibling index", "paternity index", "kinship analys*",
    "htt expansion", "cag repeat*", "predictive test*",
    # a person's response to drugs read from their genes
    "pharmacogen*", "pgx", "cyp2c19", "cyp2d6", "cyp2c9", "slco1b1", "poor metaboliz*",
    "ultrarapid metaboliz*",
    # the Lynch syndrome genes and a variant read from a genome
    "mlh1", "msh2", "msh6", "pms2", "lynch syndrome", "clinvar", "pathogenic variant*",
)

# A phrase is found from its first word, so a first word that fills every text ('the', 'his',
# 'of', a two-digit number) would cost a look-up at each of its thousands of occurrences on the
# path where no topic fires: such phrases wait until they are written from a rarer word.
_COMMON_FIRST: Final = frozenset(
    "the a i he she his her my of to at for was has go goes got been our 12 20 45 46 47".split()
)


def _cheap(terms: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(t for t in terms if t.replace("-", " ").split()[0] not in _COMMON_FIRST)


ENGLISH_TERMS: Final = MappingProxyType(
    {
        "health": _cheap(_HEALTH),
        "religion": _cheap(_RELIGION),
        "appearance": _cheap(_APPEARANCE),
        "ethnicity": _cheap(_ETHNICITY),
        "political_opinion": _cheap(_POLITICAL),
        "philosophical_belief": _cheap(_PHILOSOPHY),
        "membership": _cheap(_MEMBERSHIP),
        "sexual_life": _cheap(_SEXUAL),
        "criminal_record": _cheap(_CRIMINAL),
        "biometric": _cheap(_BIOMETRIC),
        "genetic": _cheap(_GENETIC),
    }
)
