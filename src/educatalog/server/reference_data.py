"""Static data behind the demo catalogue: the real reference lists and the generator's word lists.

The reference lists follow ``docs/catalogue-schema.md`` (KURSNET code lists renamed
into English). Postcodes are real postcodes of the cities they are listed with; each city also
carries its telephone area code (without the leading 0), used for believable phone numbers.
Certifier ids other than 24, 25, 31, 34 and 504 are illustrative, as are the systematics codes
below the top groups.

Everything here is plain data: tuples and strings, no randomness, so the demo generator is
deterministic by construction.
"""

from __future__ import annotations

from typing import NamedTuple

# ---------------------------------------------------------------------------------------
# Reference lists

STATES: tuple[tuple[int, str, str], ...] = (
    (1, "Baden-Württemberg", "DE-BW"),
    (2, "Bayern", "DE-BY"),
    (3, "Berlin", "DE-BE"),
    (4, "Brandenburg", "DE-BB"),
    (5, "Bremen", "DE-HB"),
    (6, "Hamburg", "DE-HH"),
    (7, "Hessen", "DE-HE"),
    (8, "Mecklenburg-Vorpommern", "DE-MV"),
    (9, "Niedersachsen", "DE-NI"),
    (10, "Nordrhein-Westfalen", "DE-NW"),
    (11, "Rheinland-Pfalz", "DE-RP"),
    (12, "Saarland", "DE-SL"),
    (13, "Sachsen", "DE-SN"),
    (14, "Sachsen-Anhalt", "DE-ST"),
    (15, "Schleswig-Holstein", "DE-SH"),
    (16, "Thüringen", "DE-TH"),
)
"""The 16 states: id (alphabetical), name, ISO 3166-2 code."""

STATE_EVENT_SHARES: dict[int, float] = {
    10: 26.0,
    2: 12.5,
    1: 11.9,
    9: 9.4,
    7: 8.3,
    13: 5.4,
    11: 4.3,
    3: 3.1,
    14: 3.0,
    15: 2.9,
    4: 2.8,
    16: 2.6,
    6: 2.4,
    8: 1.8,
    5: 1.5,
    12: 1.2,
}
"""Share of events by state in percent (KURSNET, rounded); sums to 99.1."""

INSTRUCTION_FORM_CATEGORIES: dict[int, str] = {
    1: "Präsenz",
    2: "Digital",
    3: "Kombiniert",
    4: "Fernunterricht",
}
"""Category of an instruction form by the hundreds digit of its id."""

INSTRUCTION_FORMS: tuple[tuple[int, str], ...] = (
    (101, "Präsenzveranstaltung"),
    (102, "Seminar"),
    (103, "Workshop"),
    (104, "Praxistraining"),
    (105, "Sonstige Präsenzveranstaltung"),
    (201, "Virtuelles Klassenzimmer"),
    (202, "Online-Seminar"),
    (203, "Online-Coaching"),
    (204, "Selbstlernmodul"),
    (206, "Sonstige digitale Lernformen"),
    (301, "Blended Learning"),
    (302, "Combined Learning"),
    (303, "Hybrid Learning"),
    (304, "Sonstige kombinierte Lernformen"),
    (401, "Fernunterricht"),
    (402, "Fernlehrgang"),
    (403, "Sonstiger Fernunterricht"),
)

INSTRUCTION_TIMES: tuple[tuple[int, str], ...] = ((1, "Vollzeit"), (2, "Teilzeit"))

DURATIONS: tuple[tuple[int, str], ...] = (
    (0, "Keine Angabe"),
    (1, "bis 3 Tage"),
    (2, "mehr als 3 Tage bis 1 Woche"),
    (3, "mehr als 1 Woche bis 1 Monat"),
    (4, "mehr als 1 Monat bis 3 Monate"),
    (5, "mehr als 3 Monate bis 6 Monate"),
    (6, "mehr als 6 Monate bis 1 Jahr"),
    (7, "mehr als 1 Jahr bis 2 Jahre"),
    (8, "mehr als 2 Jahre bis 3 Jahre"),
    (9, "mehr als 3 Jahre"),
)

DURATION_SPANS: dict[int, tuple[int, int]] = {
    1: (0, 2),
    2: (3, 6),
    3: (7, 27),
    4: (31, 88),
    5: (92, 180),
    6: (184, 364),
    7: (366, 729),
    8: (731, 1094),
    9: (1096, 1460),
}
"""Duration class -> (min, max) days from the first to the last day of an event: spans
that fall into the class by calendar months and years whatever the start date (a month
has 28 to 31 days, three months 89 to 92, a year 365 or 366)."""

EDUCATION_TYPES: tuple[tuple[int, str], ...] = (
    (0, "Keine Zuordnung möglich"),
    (100, "Allgemeinbildung"),
    (101, "Teilqualifizierung"),
    (102, "Berufsausbildung"),
    (103, "Gesetzlich/gesetzesähnlich geregelte Fortbildung/Qualifizierung"),
    (104, "Fortbildung/Qualifizierung"),
    (105, "Abschluss nachholen"),
    (106, "Rehabilitation"),
    (107, "Studienangebot – grundständig"),
    (108, "Studienangebot – weiterführend"),
    (109, "Umschulung"),
    (110, "Integrationssprachkurse (BAMF)"),
)

INSTITUTION_TYPES: tuple[tuple[int, str], ...] = (
    (0, "Keine Zuordnung möglich"),
    (100, "Allgemeinbildende Schule/Einrichtung"),
    (101, "Berufsakademie/Duale Hochschule"),
    (102, "Berufsbildende Schule/Einrichtung"),
    (103, "Berufsbildungswerk"),
    (104, "Berufsförderungswerk"),
    (105, "Einrichtung der beruflichen Weiterbildung"),
    (106, "Fachhochschule/Hochschule für angewandte Wissenschaften"),
    (107, "Kunst- und Musikhochschule"),
    (108, "Universität"),
    (109, "vergleichbare Rehabilitationseinrichtung"),
    (110, "med.-berufl. Rehabilitationseinrichtung"),
    (111, "Verwaltungshochschule"),
    (112, "Kirchliche Hochschule"),
    (113, "Private Hochschule"),
    (114, "Hochschule eigenen Typs"),
)

COURSE_TYPES: tuple[tuple[int, str], ...] = (
    (1, "Bildungsangebot"),
    (2, "Studienangebot"),
    (3, "Maßnahmeangebot AVGS"),
    (4, "Angebot zur Sprachförderung"),
    (5, "Weiterbildungsangebot"),
)

CERTIFIERS: tuple[tuple[int, str], ...] = (
    (11, "CERTQUA GmbH"),
    (12, "DEKRA Certification GmbH"),
    (16, "TÜV Rheinland Cert GmbH"),
    (18, "TÜV SÜD Management Service GmbH"),
    (20, "TÜV NORD CERT GmbH"),
    (24, "Cert-IT GmbH"),
    (25, "GUT Certifizierungsgesellschaft für Managementsysteme mbH"),
    (31, "HZA Hanseatische Zertifizierungsagentur GmbH"),
    (34, "DQS GmbH"),
    (40, "Kiwa GmbH"),
    (45, "ZertSozial GmbH"),
    (504, "acadCERT GmbH"),
)

FUNDING_TYPES_FEDERALS: tuple[tuple[int, str], ...] = (
    (1, "Bildungsgutschein"),
    (2, "Weiterbildungsförderung Beschäftigter"),
    (3, "Qualifizierungsgeld"),
    (4, "Aktivierungs- und Vermittlungsgutschein"),
    (5, "Aufstiegs-BAföG"),
    (6, "BAföG"),
    (7, "Weiterbildungsstipendium"),
    (8, "Deutsche Rentenversicherung (Teilhabe)"),
    (9, "Berufsgenossenschaft"),
    (10, "Berufsförderungsdienst der Bundeswehr"),
    (11, "BAMF Berufssprachkurs"),
    (12, "ESF-Programme"),
)

FUNDING_TYPES_REGIONS: tuple[tuple[int, str, int], ...] = (
    (1, "Bildungszeit Baden-Württemberg", 1),
    (2, "ESF-Fachkursförderung Baden-Württemberg", 1),
    (3, "Meisterbonus Bayern", 2),
    (4, "Bildungsurlaub Berlin", 3),
    (5, "Bildungsfreistellung Brandenburg", 4),
    (6, "Bildungsscheck Brandenburg", 4),
    (7, "Bildungsurlaub Bremen", 5),
    (8, "Weiterbildungsscheck Bremen", 5),
    (9, "Bildungsurlaub Hamburg", 6),
    (10, "Weiterbildungsbonus Hamburg", 6),
    (11, "Bildungsurlaub Hessen", 7),
    (12, "Qualifizierungsscheck Hessen", 7),
    (13, "Bildungsfreistellung Mecklenburg-Vorpommern", 8),
    (14, "Bildungsscheck Mecklenburg-Vorpommern", 8),
    (15, "Bildungsurlaub Niedersachsen", 9),
    (16, "IWiN Niedersachsen", 9),
    (17, "Bildungsurlaub NRW", 10),
    (18, "Bildungsscheck NRW", 10),
    (19, "Bildungsfreistellung Rheinland-Pfalz", 11),
    (20, "QualiScheck Rheinland-Pfalz", 11),
    (21, "Bildungsfreistellung Saarland", 12),
    (22, "Kompetenz durch Weiterbildung Saarland", 12),
    (23, "Weiterbildungsscheck Sachsen", 13),
    (24, "Bildungsfreistellung Sachsen-Anhalt", 14),
    (25, "Weiterbildung Direkt Sachsen-Anhalt", 14),
    (26, "Bildungsfreistellung Schleswig-Holstein", 15),
    (27, "Weiterbildungsbonus Schleswig-Holstein", 15),
    (28, "Bildungsfreistellung Thüringen", 16),
    (29, "Weiterbildungsrichtlinie Thüringen", 16),
)
"""Regional funding: id, name, state. Education leave exists in all states but Bayern, Sachsen."""

EDUCATION_LEAVE_PREFIXES: tuple[str, ...] = ("Bildungsurlaub", "Bildungszeit", "Bildungsfreist")

HANDICAPS: tuple[tuple[int, str], ...] = (
    (1, "Sehbehinderung"),
    (2, "Blindheit"),
    (3, "Hörbehinderung"),
    (4, "Gehörlosigkeit"),
    (5, "Körperbehinderung (rollstuhlgerecht)"),
    (6, "Lernbehinderung"),
    (7, "psychische Erkrankung"),
    (8, "chronische Erkrankung"),
    (9, "Autismus-Spektrum-Störung"),
)

SYSTEMATICS: tuple[tuple[str, str, str | None], ...] = (
    ("C", "Berufliche Weiterbildung: Anpassung und Qualifizierung", None),
    ("C 11", "Wirtschaft, Verwaltung, Büro", "C"),
    ("C 1110-10-10", "Büro- und Sekretariatsarbeit", "C 11"),
    ("C 1120-20-10", "Personalwesen, Lohn und Gehalt", "C 11"),
    ("C 1130-10-10", "Projekt- und Qualitätsmanagement", "C 11"),
    ("C 12", "Finanz- und Rechnungswesen", "C"),
    ("C 1210-10-10", "Buchführung, Bilanzierung", "C 12"),
    ("C 1230-10-10", "Steuern", "C 12"),
    ("C 14", "Informatik, Informationstechnik", "C"),
    ("C 1410-10-10", "Office-Anwendungen", "C 14"),
    ("C 1420-10-10", "Netzwerk- und Systemadministration", "C 14"),
    ("C 1435-10-10", "Softwareentwicklung, Programmierung", "C 14"),
    ("C 1440-10-10", "SAP-Anwendungen", "C 14"),
    ("C 1450-10-10", "Datenanalyse, Data Science", "C 14"),
    ("C 1460-10-10", "IT-Sicherheit", "C 14"),
    ("C 15", "Marketing, Medien, Vertrieb", "C"),
    ("C 1510-10-10", "Online-Marketing, Social Media", "C 15"),
    ("C 1520-10-10", "Vertrieb, Verkauf", "C 15"),
    ("C 17", "Metall, Maschinenbau, Elektrotechnik", "C"),
    ("C 1710-10-10", "CNC-Technik", "C 17"),
    ("C 1720-10-10", "Schweißtechnik", "C 17"),
    ("C 1730-10-10", "Elektrotechnik", "C 17"),
    ("C 1740-10-10", "CAD, technisches Zeichnen", "C 17"),
    ("C 21", "Lager, Logistik, Verkehr", "C"),
    ("C 2110-10-10", "Lagerwirtschaft, Flurförderzeuge", "C 21"),
    ("C 2120-10-10", "Berufskraftfahrer, Güterverkehr", "C 21"),
    ("C 23", "Gesundheit, Pflege", "C"),
    ("C 2310-10-10", "Pflegehilfe, Betreuung", "C 23"),
    ("C 2320-10-10", "Medizinische Verwaltung und Abrechnung", "C 23"),
    ("C 24", "Soziales, Pädagogik", "C"),
    ("C 2410-10-10", "Kinderbetreuung, Erziehung", "C 24"),
    ("C 26", "Sicherheit, Arbeitsschutz", "C"),
    ("C 2610-10-10", "Bewachung, Sicherheitsdienste", "C 26"),
    ("C 2620-10-10", "Arbeitsschutz, Erste Hilfe, Brandschutz", "C 26"),
    ("C 28", "Sprachen", "C"),
    ("C 2810-10-10", "Deutsch als Fremd- und Zweitsprache", "C 28"),
    ("C 2820-10-10", "Englisch", "C 28"),
    ("C 29", "Umschulung, Berufsabschluss für Erwachsene", "C"),
    ("C 2910-10-10", "Kaufmännische Berufe", "C 29"),
    ("C 2920-10-10", "IT-Berufe", "C 29"),
    ("C 2930-10-10", "Gewerblich-technische Berufe", "C 29"),
    ("C 2940-10-10", "Gesundheits- und Sozialberufe", "C 29"),
    ("D", "Aufstiegsweiterbildung: geregelte Fortbildung", None),
    ("D 10", "Fortbildung nach BBiG/HwO", "D"),
    ("D 1010-10-10", "Fachwirt/in", "D 10"),
    ("D 1020-10-10", "Meister/in", "D 10"),
    ("D 1030-10-10", "Betriebswirt/in", "D 10"),
    ("D 1040-10-10", "Ausbildereignung (AEVO)", "D 10"),
    ("D 1050-10-10", "Bilanzbuchhalter/in", "D 10"),
    ("D 20", "Landesrechtlich geregelte Fortbildung", "D"),
    ("D 2010-10-10", "Staatlich geprüfte/r Techniker/in", "D 20"),
    ("D 2020-10-10", "Erzieher/in, Heilerziehungspflege", "D 20"),
    ("EC", "Berufliche Orientierung und Eingliederung", None),
    ("EC 10", "Bewerbung und Orientierung", "EC"),
    ("EC 1010-10-10", "Bewerbungstraining", "EC 10"),
    ("EC 1020-10-10", "Berufliche Orientierung, Kompetenzfeststellung", "EC 10"),
    ("SA", "Maßnahmen zur Aktivierung und beruflichen Eingliederung", None),
    ("SA 10", "Coaching (AVGS)", "SA"),
    ("SA 1010-10-10", "Individuelles Jobcoaching", "SA 10"),
    ("SA 1020-10-10", "Existenzgründungscoaching", "SA 10"),
    ("HA", "Studienangebote: grundständig", None),
    ("HA 10", "Wirtschaftswissenschaften", "HA"),
    ("HA 1010-10-10", "Betriebswirtschaftslehre (Bachelor)", "HA 10"),
    ("HA 20", "Informatik", "HA"),
    ("HA 2010-10-10", "Wirtschaftsinformatik (Bachelor)", "HA 20"),
    ("HC", "Studienangebote: weiterführend", None),
    ("HC 10", "Wirtschaft und Management", "HC"),
    ("HC 1010-10-10", "Master of Business Administration", "HC 10"),
    ("HC 20", "Informatik und Data Science", "HC"),
    ("HC 2010-10-10", "Data Science (Master)", "HC 20"),
)
"""KURSNET-style systematics: code, name, parent code; ids follow this order (parents first)."""

# ---------------------------------------------------------------------------------------
# Locations: per state, one line per city: "City|area code|postcode postcode ...".

_LOCATIONS_BY_STATE: dict[int, str] = {
    1: """
Stuttgart|711|70173 70176 70184 70188 70193
Karlsruhe|721|76131 76133 76135 76137 76139
Mannheim|621|68159 68161 68163 68165 68167
Freiburg im Breisgau|761|79098 79102 79106 79110 79114
Heidelberg|6221|69115 69117 69120 69123 69124
Ulm|731|89073 89075 89077 89079
Heilbronn|7131|74072 74074 74076 74078 74080
Pforzheim|7231|75172 75173 75175 75177 75179
Reutlingen|7121|72760 72762 72764 72766 72768
Tübingen|7071|72070 72072 72074 72076
Esslingen am Neckar|711|73728 73730 73732 73733 73734
Ludwigsburg|7141|71634 71636 71638 71640 71642
Konstanz|7531|78462 78464 78465 78467
Villingen-Schwenningen|7721|78048 78050 78052 78054 78056
Aalen|7361|73430 73431 73432 73433 73434
Sindelfingen|7031|71063 71065 71067 71069
Friedrichshafen|7541|88045 88046 88048
Offenburg|781|77652 77654 77656
Göppingen|7161|73033 73035 73037
Ravensburg|751|88212 88213 88214
Schwäbisch Hall|791|74523
Baden-Baden|7221|76530 76532 76534
Waiblingen|7151|71332 71334 71336
Böblingen|7031|71032 71034
Lörrach|7621|79539 79540 79541
Heidenheim an der Brenz|7321|89518 89520 89522
Biberach an der Riß|7351|88400
Rastatt|7222|76437
Singen (Hohentwiel)|7731|78224
""",
    2: """
München|89|80331 80336 80538 80686 80797 80807 80993 81373 81671 81735
Nürnberg|911|90402 90409 90439 90449 90471
Augsburg|821|86150 86152 86157 86161 86167
Regensburg|941|93047 93049 93051 93055 93057
Ingolstadt|841|85049 85051 85053 85055 85057
Würzburg|931|97070 97072 97076 97078 97082
Fürth|911|90762 90763 90765 90766 90768
Erlangen|9131|91052 91054 91056 91058
Bamberg|951|96047 96049 96050 96052
Bayreuth|921|95444 95445 95447 95448
Landshut|871|84028 84030 84032 84034 84036
Aschaffenburg|6021|63739 63741 63743
Kempten (Allgäu)|831|87435 87437 87439
Rosenheim|8031|83022 83024 83026
Passau|851|94032 94034 94036
Schweinfurt|9721|97421 97422 97424
Neu-Ulm|731|89231 89233
Hof|9281|95028 95030 95032
Straubing|9421|94315
Memmingen|8331|87700
Kaufbeuren|8341|87600
Coburg|9561|96450
Weiden in der Oberpfalz|961|92637
Amberg|9621|92224
Deggendorf|991|94469
Freising|8161|85354 85356
Dachau|8131|85221
Traunstein|861|83278
Ansbach|981|91522
Garmisch-Partenkirchen|8821|82467
""",
    3: """
Berlin|30|10115 10435 10709 10999 12159 12489 12683 13089 13467 13593
""",
    4: """
Potsdam|331|14467 14469 14473 14476 14480
Cottbus|355|03042 03044 03048 03051 03053
Brandenburg an der Havel|3381|14770 14772 14774 14776
Frankfurt (Oder)|335|15230 15232 15234 15236
Oranienburg|3301|16515
Eberswalde|3334|16225 16227
Falkensee|3322|14612
Bernau bei Berlin|3338|16321
Königs Wusterhausen|3375|15711
Fürstenwalde/Spree|3361|15517
Neuruppin|3391|16816
Schwedt/Oder|3332|16303
Senftenberg|3573|01968
Eisenhüttenstadt|3364|15890
Luckenwalde|3371|14943
Strausberg|3341|15344
Prenzlau|3984|17291
Rathenow|3385|14712
Ludwigsfelde|3378|14974
Teltow|3328|14513
Hennigsdorf|3302|16761
Wittenberge|3877|19322
Spremberg|3563|03130
""",
    5: """
Bremen|421|28195 28203 28219 28277 28357
Bremerhaven|471|27568 27570 27572 27576 27578
""",
    6: """
Hamburg|40|20095 20149 20354 21073 22043 22143 22179 22307 22455 22529
""",
    7: """
Frankfurt am Main|69|60306 60314 60385 60433 60529
Wiesbaden|611|65183 65185 65191 65195 65201
Kassel|561|34117 34119 34125 34127 34131
Darmstadt|6151|64283 64285 64289 64291 64295
Offenbach am Main|69|63065 63067 63069 63071 63073
Hanau|6181|63450 63452 63454 63456 63457
Gießen|641|35390 35392 35394 35396 35398
Marburg|6421|35037 35039 35041 35043
Fulda|661|36037 36039 36041 36043
Rüsselsheim am Main|6142|65428
Bad Homburg vor der Höhe|6172|61348 61350 61352
Wetzlar|6441|35576 35578 35579
Limburg an der Lahn|6431|65549
Bad Hersfeld|6621|36251
Oberursel (Taunus)|6171|61440
Rodgau|6106|63110
Dreieich|6103|63303
Bensheim|6251|64625
Hofheim am Taunus|6192|65719
Friedberg (Hessen)|6031|61169
""",
    8: """
Rostock|381|18055 18057 18069 18107 18119
Schwerin|385|19053 19055 19057 19059 19061
Neubrandenburg|395|17033 17034 17036
Stralsund|3831|18435 18437 18439
Greifswald|3834|17489 17491 17493
Wismar|3841|23966 23968 23970
Güstrow|3843|18273
Waren (Müritz)|3991|17192
Neustrelitz|3981|17235
Parchim|3871|19370
Ludwigslust|3874|19288
Anklam|3971|17389
Pasewalk|3973|17309
Bergen auf Rügen|3838|18528
Ribnitz-Damgarten|3821|18311
""",
    9: """
Hannover|511|30159 30165 30179 30453 30559
Braunschweig|531|38100 38102 38110 38114 38120
Oldenburg (Oldb)|441|26121 26122 26125 26127 26131
Osnabrück|541|49074 49076 49080 49082 49086
Wolfsburg|5361|38440 38442 38444 38446 38448
Göttingen|551|37073 37075 37077 37081 37083
Salzgitter|5341|38226 38228 38229 38239 38259
Hildesheim|5121|31134 31135 31137 31139 31141
Delmenhorst|4221|27749 27751 27753 27755
Wilhelmshaven|4421|26382 26384 26386 26388 26389
Lüneburg|4131|21335 21337 21339
Celle|5141|29221 29223 29225 29227 29229
Garbsen|5131|30823 30826 30827
Hameln|5151|31785 31787 31789
Lingen (Ems)|591|49808 49809 49811
Langenhagen|511|30851 30853 30855
Nordhorn|5921|48527 48529 48531
Wolfenbüttel|5331|38300 38302 38304
Goslar|5321|38640 38642 38644
Peine|5171|31224 31226 31228
Emden|4921|26721 26723 26725
Cuxhaven|4721|27472 27474 27476 27478
Stade|4141|21680 21682 21684
Leer (Ostfriesland)|491|26789
Aurich|4941|26603 26605 26607
Gifhorn|5371|38518
Cloppenburg|4471|49661
Vechta|4441|49377
Meppen|5931|49716
Uelzen|581|29525
""",
    10: """
Köln|221|50667 50672 50677 50739 50823 50931 50937 50969 51067 51105
Düsseldorf|211|40210 40215 40233 40470 40549
Dortmund|231|44135 44141 44229 44267 44329
Essen|201|45127 45133 45145 45239 45309
Duisburg|203|47051 47057 47166 47178 47229
Bochum|234|44787 44791 44799 44805 44867
Wuppertal|202|42103 42107 42119 42279 42327
Bielefeld|521|33602 33605 33613 33619 33689
Bonn|228|53111 53115 53123 53127 53177
Münster|251|48143 48145 48151 48155 48161
Mönchengladbach|2161|41061 41063 41068 41169 41199
Gelsenkirchen|209|45879 45881 45886 45889 45894
Aachen|241|52062 52064 52068 52072 52076
Krefeld|2151|47798 47799 47803 47804 47809
Oberhausen|208|46045 46047 46117 46119 46147
Hagen|2331|58089 58091 58095 58097 58119
Hamm|2381|59063 59065 59069 59071 59075
Mülheim an der Ruhr|208|45468 45470 45473 45475 45478
Leverkusen|214|51371 51373 51375 51377 51379
Solingen|212|42651 42653 42657 42659 42699
Herne|2323|44623 44625 44628 44629 44651
Neuss|2131|41460 41462 41466 41468 41470
Paderborn|5251|33098 33100 33102 33104 33106
Recklinghausen|2361|45657 45659 45661 45663 45665
Bottrop|2041|46236 46238 46240 46242 46244
Remscheid|2191|42853 42855 42857 42859 42897
Siegen|271|57072 57074 57076 57078 57080
Bergisch Gladbach|2202|51427 51429 51465 51467 51469
Gütersloh|5241|33330 33332 33334 33335
Witten|2302|58452 58453 58454 58455 58456
Iserlohn|2371|58636 58638 58640 58642 58644
Düren|2421|52349 52351 52353 52355
Ratingen|2102|40878 40880 40882 40883 40885
Lünen|2306|44532 44534 44536
Marl|2365|45768 45770 45772
Velbert|2051|42549 42551 42553 42555
Minden|571|32423 32425 32427 32429
Viersen|2162|41747 41748 41749 41751
Rheine|5971|48429 48431 48432
Detmold|5231|32756 32758 32760
Lüdenscheid|2351|58507 58509 58511 58513 58515
Bocholt|2871|46395 46397 46399
Dorsten|2362|46282 46284 46286
Castrop-Rauxel|2305|44575 44577 44579
Gladbeck|2043|45964 45966 45968
Herford|5221|32049 32051 32052
Troisdorf|2241|53840 53842 53844
Unna|2303|59423 59425 59427
Wesel|281|46483 46485 46487
Soest|2921|59494
Lippstadt|2941|59555 59556 59557 59558
Arnsberg|2931|59755 59757 59759 59821 59823
""",
    11: """
Mainz|6131|55116 55118 55124 55126 55129
Ludwigshafen am Rhein|621|67059 67061 67063 67067 67069
Koblenz|261|56068 56070 56072 56075 56076
Trier|651|54290 54292 54293 54294 54295
Kaiserslautern|631|67655 67657 67659 67661 67663
Worms|6241|67547 67549 67550 67551
Neuwied|2631|56564 56566 56567
Speyer|6232|67346
Neustadt an der Weinstraße|6321|67433 67434 67435
Bad Kreuznach|671|55543 55545
Frankenthal (Pfalz)|6233|67227
Landau in der Pfalz|6341|76829
Pirmasens|6331|66953 66954 66955
Zweibrücken|6332|66482
Idar-Oberstein|6781|55743
Andernach|2632|56626
Bingen am Rhein|6721|55411
Mayen|2651|56727
Wittlich|6571|54516
Alzey|6731|55232
Ingelheim am Rhein|6132|55218
""",
    12: """
Saarbrücken|681|66111 66115 66123 66126 66130
Neunkirchen|6821|66538 66539 66540
Homburg|6841|66424
Völklingen|6898|66333
Saarlouis|6831|66740
St. Ingbert|6894|66386
Merzig|6861|66663
St. Wendel|6851|66606
Dillingen/Saar|6831|66763
Blieskastel|6842|66440
Lebach|6881|66822
Sulzbach/Saar|6897|66280
Püttlingen|6898|66346
Bexbach|6826|66450
""",
    13: """
Dresden|351|01067 01099 01157 01187 01259
Leipzig|341|04103 04129 04205 04249 04317
Chemnitz|371|09111 09113 09119 09122 09127
Zwickau|375|08056 08058 08060 08062 08064
Plauen|3741|08523 08525 08527 08529
Görlitz|3581|02826 02827 02828
Freiberg|3731|09599
Bautzen|3591|02625
Pirna|3501|01796
Freital|351|01705
Hoyerswerda|3571|02977
Radebeul|351|01445
Riesa|3525|01587 01589 01591
Meißen|3521|01662
Zittau|3583|02763
Grimma|3437|04668
Delitzsch|34202|04509
Markkleeberg|341|04416
Döbeln|3431|04720
Limbach-Oberfrohna|3722|09212
Glauchau|3763|08371
Annaberg-Buchholz|3733|09456
Torgau|3421|04860
Kamenz|3578|01917
Borna|3433|04552
""",
    14: """
Magdeburg|391|39104 39106 39114 39118 39124
Halle (Saale)|345|06108 06110 06116 06120 06126
Dessau-Roßlau|340|06842 06844 06846 06847 06849
Lutherstadt Wittenberg|3491|06886
Halberstadt|3941|38820
Stendal|3931|39576
Weißenfels|3443|06667
Bitterfeld-Wolfen|3493|06749 06766
Merseburg|3461|06217
Bernburg (Saale)|3471|06406
Naumburg (Saale)|3445|06618
Wernigerode|3943|38855
Schönebeck (Elbe)|3928|39218
Zeitz|3441|06712
Sangerhausen|3464|06526
Köthen (Anhalt)|3496|06366
Quedlinburg|3946|06484
Aschersleben|3473|06449
Burg|3921|39288
Salzwedel|3901|29410
Lutherstadt Eisleben|3475|06295
Hettstedt|3476|06333
""",
    15: """
Kiel|431|24103 24106 24113 24116 24146
Lübeck|451|23552 23554 23560 23562 23568
Flensburg|461|24937 24939 24941 24943 24944
Neumünster|4321|24534 24536 24537 24539
Norderstedt|40|22844 22846 22848 22850 22851
Elmshorn|4121|25335 25336 25337
Pinneberg|4101|25421
Itzehoe|4821|25524
Wedel|4103|22880
Ahrensburg|4102|22926
Geesthacht|4152|21502
Rendsburg|4331|24768
Henstedt-Ulzburg|4193|24558
Reinbek|40|21465
Bad Oldesloe|4531|23843
Schleswig|4621|24837
Husum|4841|25813
Heide|481|25746
Eckernförde|4351|24340
Bad Segeberg|4551|23795
Quickborn|4106|25451
Kaltenkirchen|4191|24568
Eutin|4521|23701
Ratzeburg|4541|23909
Mölln|4542|23879
""",
    16: """
Erfurt|361|99084 99085 99089 99092 99097
Jena|3641|07743 07745 07747 07749 07751
Gera|365|07545 07546 07549 07551 07554
Weimar|3643|99423 99425 99427
Gotha|3621|99867
Eisenach|3691|99817
Nordhausen|3631|99734
Suhl|3681|98527 98528 98529
Mühlhausen/Thüringen|3601|99974
Altenburg|3447|04600
Ilmenau|3677|98693
Saalfeld/Saale|3671|07318
Arnstadt|3628|99310
Sonneberg|3675|96515
Sömmerda|3634|99610
Rudolstadt|3672|07407
Meiningen|3693|98617
Apolda|3644|99510
Bad Salzungen|3695|36433
Greiz|3661|07973
Schmalkalden|3683|98574
Hildburghausen|3685|98646
Heilbad Heiligenstadt|3606|37308
Leinefelde-Worbis|3605|37327
""",
}


class Location(NamedTuple):
    """A real postcode with its city, state id and telephone area code."""

    zip: str
    city: str
    state: int
    area_code: str


def _parse_locations() -> tuple[Location, ...]:
    out: list[Location] = []
    for state, block in _LOCATIONS_BY_STATE.items():
        for line in block.strip().splitlines():
            city, area, zips = line.split("|")
            out.extend(Location(z, city, state, area) for z in zips.split())
    out.sort(key=lambda loc: (loc.zip, loc.city))
    return tuple(out)


LOCATIONS: tuple[Location, ...] = _parse_locations()
"""All locations, sorted by postcode; a location's id is its position + 1."""

# ---------------------------------------------------------------------------------------
# Word lists for people and places


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


FEMALE_FIRST_NAMES: tuple[str, ...] = _words(
    """Anna Maria Julia Laura Sarah Lisa Katharina Christina Sandra Stefanie Nicole Melanie
    Sabine Claudia Petra Andrea Susanne Birgit Monika Kerstin Anja Tanja Silke Heike Jana Nadine
    Daniela Martina Ulrike Karin Franziska Lena Hannah Leonie Sophie Marie Johanna Carina Vanessa
    Jessica Jennifer Kathrin Miriam Simone Bettina Gabriele Renate Elke Yvonne Ines Aylin Elif
    Fatma Natalia Olga Agnieszka Irina Svetlana Mareike Antje Friederike Charlotte Emma Clara Paula
    Ramona Manuela Doreen Peggy Cornelia Annett"""
)

MALE_FIRST_NAMES: tuple[str, ...] = _words(
    """Thomas Michael Andreas Stefan Christian Markus Martin Frank Peter Jürgen Klaus Uwe Ralf
    Jörg Dirk Sven Torsten Matthias Alexander Daniel Tobias Florian Sebastian Jan Tim Lukas Felix
    Jonas Maximilian Philipp Dennis Marco Oliver Patrick Holger Bernd Wolfgang Hans Rainer Dieter
    Björn Kai Nils Moritz Benjamin David Simon Fabian Mehmet Ahmet Mustafa Ali Murat Sergej Alexej
    Piotr Tomasz Ivan Niklas Leon Paul Jens Carsten Volker Heiko Mario Ronny Steffen
    Henrik"""
)

DIVERSE_FIRST_NAMES: tuple[str, ...] = ("Alex", "Kim", "Robin", "Luca", "Sascha", "Kai", "Toni")

LAST_NAMES: tuple[str, ...] = _words(
    """Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch
    Bauer Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann
    Lange Schmitt Werner Schmitz Krause Meier Lehmann Schmid Schulze Maier Köhler Herrmann König
    Walter Mayer Huber Kaiser Fuchs Peters Lang Scholz Möller Weiß Jung Hahn Schubert Vogel
    Friedrich Keller Günther Frank Berger Winkler Roth Beck Lorenz Baumann Franke Albrecht Schuster
    Simon Ludwig Böhm Winter Kraus Martin Schumacher Krämer Vogt Stein Jäger Otto Sommer Groß
    Seidel Heinrich Brandt Haas Schreiber Graf Schulte Dietrich Ziegler Kuhn Kühn Pohl Engel Horn
    Busch Bergmann Thomas Voigt Sauer Arnold Wolff Pfeiffer Yılmaz Kaya Demir Şahin Çelik Öztürk
    Nowak Kowalski Wiśniewski Popović Ivanov Lindner Brinkmann Hansen Petersen Jansen Janssen
    Thiele Ahrens Behrens Gerdes Kessler Ernst Hübner Kruse Schilling Zander"""
)

STREETS: tuple[str, ...] = (
    "Hauptstraße",
    "Bahnhofstraße",
    "Schulstraße",
    "Gartenstraße",
    "Bergstraße",
    "Lindenstraße",
    "Kirchstraße",
    "Waldstraße",
    "Ringstraße",
    "Friedrichstraße",
    "Goethestraße",
    "Schillerstraße",
    "Mozartstraße",
    "Am Markt",
    "Industriestraße",
    "Gewerbestraße",
    "Am Bahnhof",
    "Poststraße",
    "Wilhelmstraße",
    "Kaiserstraße",
    "Berliner Straße",
    "Hamburger Straße",
    "Frankfurter Straße",
    "Leipziger Straße",
    "Dresdner Straße",
    "Kölner Straße",
    "Bismarckstraße",
    "Lessingstraße",
    "Beethovenstraße",
    "Rosenstraße",
    "Birkenweg",
    "Feldstraße",
    "Mühlenweg",
    "Parkstraße",
    "Rathausplatz",
    "Rathausstraße",
    "Talstraße",
    "Uhlandstraße",
    "August-Bebel-Straße",
    "Friedrich-Ebert-Straße",
    "Konrad-Adenauer-Straße",
    "Willy-Brandt-Platz",
    "Europaplatz",
    "Theodor-Heuss-Straße",
    "Hafenstraße",
    "Neue Straße",
    "Lange Straße",
    "Breite Straße",
    "Kantstraße",
    "Humboldtstraße",
    "Robert-Koch-Straße",
    "Carl-Zeiss-Straße",
    "Siemensstraße",
    "Daimlerstraße",
    "Max-Planck-Straße",
    "Im Technologiepark",
    "Marktplatz",
    "Karlstraße",
    "Ludwigstraße",
    "Sophienstraße",
    "Steinweg",
    "Am Stadtpark",
    "Gutenbergstraße",
    "Otto-Hahn-Straße",
    "Westfalendamm",
    "Hansaring",
    "Königsallee",
    "Hohe Straße",
)

INSTITUTION_WORDS: tuple[str, ...] = (
    "Perspektive",
    "Kompetenz",
    "Fokus",
    "Aufwind",
    "Lernraum",
    "Talent",
    "Weitblick",
    "Zukunft",
    "Wissenswert",
    "Impuls",
    "Brückenschlag",
    "Neustart",
    "Karriere",
    "Profil",
    "Horizont",
    "Praxis",
)

NATIONWIDE_NAMES: tuple[str, ...] = (
    "Deutsche Akademie für Berufsbildung",
    "Bildungswerk Deutschland",
    "BerufsPlus Bildungsgruppe",
    "Zukunft Bildung Deutschland",
    "Lernwerk Deutschland",
    "Neustart Bildungsgruppe",
    "QualiPlus Akademie",
    "Bundesakademie für Weiterbildung",
)

# ---------------------------------------------------------------------------------------
# Course building blocks


class CourseTemplate(NamedTuple):
    """One kind of course: what a course built from it looks like.

    ``funding`` is one of ``voucher`` (AZAV measure, Bildungsgutschein), ``avgs``, ``aufstieg``
    (Aufstiegs-BAföG), ``bamf``, ``bafoeg``, ``none``. ``lessons_per_day`` is for full-time.
    """

    title: str
    classes: tuple[int, ...]  # possible duration classes
    education_type: int
    course_type: int
    systematic: str  # leaf code in SYSTEMATICS
    keywords: tuple[str, ...]
    degree: tuple[str, int, str | None, str | None] | None  # title, type, addl. quals, entitled
    funding: str = "voucher"
    about: str = ""


def _t(
    title: str,
    classes: tuple[int, ...],
    systematic: str,
    keywords: str,
    degree: tuple[str, int, str | None, str | None] | None = None,
    *,
    edu: int = 104,
    ctype: int = 1,
    funding: str = "voucher",
    about: str = "",
) -> CourseTemplate:
    return CourseTemplate(
        title, classes, edu, ctype, systematic, tuple(keywords.split(",")), degree, funding, about
    )


_PROVIDER_CERT = ("Zertifikat des Bildungsträgers", 3, None, None)
_IHK_CERT = ("IHK-Zertifikat", 1, None, None)

COURSE_TEMPLATES: tuple[CourseTemplate, ...] = (
    # --- short courses (classes 1-2)
    _t(
        "Staplerschein",
        (1, 2),
        "C 2110-10-10",
        "Gabelstapler,Flurförderzeuge,Lager,DGUV Grundsatz 308-001",
        ("Fahrausweis für Flurförderzeuge", 1, None, "Führen von Flurförderzeugen"),
        funding="none",
        about="Theorie und Praxis für das sichere Führen von Gabelstaplern nach DGUV Grundsatz "
        "308-001.",
    ),
    _t(
        "Ersthelfer-Ausbildung",
        (1,),
        "C 2620-10-10",
        "Erste Hilfe,Betriebshelfer,Arbeitsschutz",
        (
            "Bescheinigung Erste-Hilfe-Ausbildung",
            1,
            None,
            "Tätigkeit als betriebliche/r Ersthelfer/in",
        ),
        funding="none",
        about="Lebensrettende Sofortmaßnahmen und Erste Hilfe im Betrieb.",
    ),
    _t(
        "Brandschutzhelfer-Ausbildung",
        (1,),
        "C 2620-10-10",
        "Brandschutz,Arbeitsschutz,ASR A2.2",
        ("Teilnahmebescheinigung Brandschutzhelfer", 1, None, None),
        funding="none",
        about="Grundlagen des Brandschutzes und praktische Löschübungen nach ASR A2.2.",
    ),
    _t(
        "Excel für Fortgeschrittene",
        (1, 2, 3),
        "C 1410-10-10",
        "Excel,Pivot-Tabellen,SVERWEIS,Microsoft Office",
        _PROVIDER_CERT,
        funding="none",
        about="Pivot-Tabellen, Verweisfunktionen, Diagramme und Datenanalyse mit Excel.",
    ),
    _t(
        "Zeitmanagement und Selbstorganisation",
        (1,),
        "C 1130-10-10",
        "Zeitmanagement,Selbstorganisation,Soft Skills",
        funding="none",
        about="Methoden für Prioritäten, Planung und ein entspanntes Arbeiten.",
    ),
    _t(
        "Datenschutz-Grundlagen (DSGVO) für Beschäftigte",
        (1,),
        "C 1460-10-10",
        "Datenschutz,DSGVO,Compliance",
        funding="none",
        about="Was die Datenschutz-Grundverordnung im Arbeitsalltag bedeutet.",
    ),
    _t(
        "Sachkunde nach § 34a GewO – Unterrichtungsverfahren",
        (2,),
        "C 2610-10-10",
        "Bewachung,Sicherheitsdienst,§ 34a GewO,IHK",
        ("Unterrichtungsnachweis nach § 34a GewO", 0, None, "Tätigkeit im Bewachungsgewerbe"),
        about="40 Unterrichtsstunden Unterrichtungsverfahren für das Bewachungsgewerbe.",
    ),
    _t(
        "Ladungssicherung nach VDI 2700",
        (1, 2),
        "C 2120-10-10",
        "Ladungssicherung,VDI 2700,Berufskraftfahrer,Logistik",
        _PROVIDER_CERT,
        funding="none",
        about="Physikalische Grundlagen, Rechtsvorschriften und Praxis der Ladungssicherung.",
    ),
    _t(
        "Projektmanagement Grundlagen",
        (2, 3),
        "C 1130-10-10",
        "Projektmanagement,Scrum,Agile Methoden",
        _PROVIDER_CERT,
        about="Projekte planen, steuern und abschließen – klassisch und agil.",
    ),
    _t(
        "Microsoft 365 im Büroalltag",
        (2, 3),
        "C 1410-10-10",
        "Microsoft 365,Teams,Outlook,Office",
        _PROVIDER_CERT,
        about="Zusammenarbeit mit Teams, Outlook, OneDrive und SharePoint.",
    ),
    _t(
        "Hygieneschulung nach § 4 LMHV",
        (1,),
        "C 2620-10-10",
        "Hygiene,Lebensmittel,LMHV",
        funding="none",
        about="Lebensmittelhygiene für Beschäftigte in Küche, Gastronomie und Handel.",
    ),
    # --- class 3
    _t(
        "Gabelstaplerfahrer/in mit Lagerwirtschaft",
        (3,),
        "C 2110-10-10",
        "Gabelstapler,Lagerlogistik,Kommissionierung,Warenwirtschaft",
        ("Fahrausweis für Flurförderzeuge", 1, "Lagerwirtschaft", "Führen von Flurförderzeugen"),
        about="Staplerschein, Lagerorganisation, Kommissionierung und Warenwirtschaftssysteme.",
    ),
    _t(
        "SAP S/4HANA Grundlagen",
        (3, 4),
        "C 1440-10-10",
        "SAP,S/4HANA,ERP",
        ("SAP-Anwenderzertifikat", 2, None, None),
        about="Navigation, Stammdaten und Geschäftsprozesse in SAP S/4HANA.",
    ),
    _t(
        "Microsoft Office Specialist (MOS) Excel",
        (3,),
        "C 1410-10-10",
        "Excel,MOS,Microsoft Office,Zertifizierung",
        ("Microsoft Office Specialist", 2, None, None),
        about="Vorbereitung auf die MOS-Prüfung Excel Associate.",
    ),
    _t(
        "Buchhaltung mit DATEV",
        (3, 4),
        "C 1210-10-10",
        "DATEV,Buchhaltung,Finanzbuchhaltung,Rechnungswesen",
        ("DATEV-Anwenderzertifikat", 2, None, None),
        about="Finanzbuchführung mit DATEV Kanzlei-Rechnungswesen.",
    ),
    _t(
        "Lohn- und Gehaltsabrechnung mit DATEV",
        (3, 4),
        "C 1120-20-10",
        "Lohnabrechnung,DATEV,Personalwesen,Sozialversicherung",
        ("DATEV-Anwenderzertifikat Lohn und Gehalt", 2, None, None),
        about="Entgeltabrechnung, Sozialversicherung und Lohnsteuer mit DATEV LODAS.",
    ),
    _t(
        "Bewerbungscoaching",
        (3, 4),
        "EC 1010-10-10",
        "Bewerbung,Coaching,Arbeitsmarkt,AVGS",
        ctype=3,
        funding="avgs",
        about="Individuelle Bewerbungsstrategie, Unterlagen und Vorstellungsgespräche.",
    ),
    _t(
        "Individuelles Jobcoaching",
        (3, 4, 5),
        "SA 1010-10-10",
        "Jobcoaching,Einzelcoaching,AVGS,Vermittlung",
        ctype=3,
        funding="avgs",
        about="Einzelcoaching zur beruflichen Neuorientierung und Vermittlung in Arbeit.",
    ),
    _t(
        "Existenzgründungscoaching",
        (3, 4),
        "SA 1020-10-10",
        "Existenzgründung,Selbstständigkeit,Businessplan,AVGS",
        ctype=3,
        funding="avgs",
        about="Vom Geschäftsmodell zum tragfähigen Businessplan.",
    ),
    _t(
        "Kompetenzfeststellung und berufliche Orientierung",
        (3,),
        "EC 1020-10-10",
        "Kompetenzfeststellung,Orientierung,Profiling",
        ctype=3,
        funding="avgs",
        about="Stärken erkennen, Berufsziele entwickeln, Praktikum vorbereiten.",
    ),
    _t(
        "Grundlagen der Buchführung",
        (3,),
        "C 1210-10-10",
        "Buchführung,Rechnungswesen,Bilanz",
        _PROVIDER_CERT,
        about="Doppelte Buchführung, Kontenrahmen und Jahresabschluss.",
    ),
    _t(
        "Online-Marketing Grundlagen",
        (3, 4),
        "C 1510-10-10",
        "Online-Marketing,SEO,Social Media,Google Ads",
        _PROVIDER_CERT,
        about="Suchmaschinenoptimierung, Social Media, E-Mail-Marketing und Web-Analyse.",
    ),
    _t(
        "Python-Programmierung Grundlagen",
        (3, 4),
        "C 1435-10-10",
        "Python,Programmierung,Softwareentwicklung",
        ("Python Institute PCEP", 2, None, None),
        about="Syntax, Datenstrukturen, Funktionen und objektorientierte Programmierung.",
    ),
    _t(
        "Scrum Master – Vorbereitung auf die PSM-I-Zertifizierung",
        (3,),
        "C 1130-10-10",
        "Scrum,Agile,Projektmanagement,PSM I",
        ("Professional Scrum Master I", 2, None, None),
        about="Scrum-Rollen, Ereignisse und Artefakte, Prüfungsvorbereitung.",
    ),
    # --- class 4
    _t(
        "Deutsch B1 Berufssprachkurs",
        (4, 5),
        "C 2810-10-10",
        "Deutsch,Berufssprachkurs,DeuFöV,B1",
        ("Deutsch-Test für den Beruf B1", 0, None, None),
        ctype=4,
        funding="bamf",
        about="Berufsbezogene Deutschsprachförderung nach DeuFöV.",
    ),
    _t(
        "Deutsch B2 Berufssprachkurs",
        (4, 5),
        "C 2810-10-10",
        "Deutsch,Berufssprachkurs,DeuFöV,B2,DTB",
        ("Deutsch-Test für den Beruf B2", 0, None, None),
        ctype=4,
        funding="bamf",
        about="Berufsbezogene Deutschsprachförderung nach DeuFöV mit Abschlussprüfung DTB B2.",
    ),
    _t(
        "Deutsch C1 Berufssprachkurs",
        (4, 5),
        "C 2810-10-10",
        "Deutsch,Berufssprachkurs,C1,telc",
        ("telc Deutsch C1 Beruf", 0, None, None),
        ctype=4,
        funding="bamf",
        about="Sprachliche Handlungsfähigkeit in anspruchsvollen beruflichen Situationen.",
    ),
    _t(
        "Englisch B1 für den Beruf",
        (3, 4),
        "C 2820-10-10",
        "Englisch,Business English,B1",
        ("telc English B1 Business", 2, None, None),
        ctype=4,
        about="Telefonieren, E-Mails und Meetings auf Englisch.",
    ),
    _t(
        "Business English B2",
        (3, 4),
        "C 2820-10-10",
        "Englisch,Business English,B2,Präsentation",
        ("LCCI English for Business Level 2", 2, None, None),
        ctype=4,
        about="Verhandeln, Präsentieren und Korrespondenz im internationalen Geschäft.",
    ),
    _t(
        "Pflegehilfe Basisqualifizierung",
        (4, 5),
        "C 2310-10-10",
        "Pflege,Pflegehilfe,Altenpflege,Praktikum",
        ("Zertifikat Pflegebasiskurs", 3, None, "Tätigkeit als Pflegehilfskraft"),
        about="Grundpflege, Hygiene, Kommunikation mit Pflegebedürftigen, Pflegepraktikum.",
    ),
    _t(
        "Betreuungskraft nach § 53b SGB XI",
        (4,),
        "C 2310-10-10",
        "Betreuungskraft,Alltagsbegleitung,Demenz,§ 53b SGB XI",
        (
            "Qualifikation Betreuungskraft nach § 53b SGB XI",
            1,
            None,
            "Tätigkeit als zusätzliche Betreuungskraft",
        ),
        about="Qualifizierung mit Orientierungspraktikum und Betreuungspraktikum (160 UE).",
    ),
    _t(
        "Kaufmännische Grundlagen",
        (4,),
        "C 1110-10-10",
        "Büro,Kaufmännisch,Office,Korrespondenz",
        _PROVIDER_CERT,
        about="Bürokommunikation, Rechnungswesen und Office-Anwendungen.",
    ),
    _t(
        "AutoCAD 2D/3D",
        (3, 4),
        "C 1740-10-10",
        "AutoCAD,CAD,Konstruktion,Technisches Zeichnen",
        ("Autodesk Certified User", 2, None, None),
        about="2D-Zeichnungen, 3D-Modellierung und Layouts mit AutoCAD.",
    ),
    _t(
        "Webentwicklung mit HTML, CSS und JavaScript",
        (4, 5),
        "C 1435-10-10",
        "HTML,CSS,JavaScript,Webentwicklung,Frontend",
        _PROVIDER_CERT,
        about="Moderne Websites von der Struktur bis zur Interaktion.",
    ),
    _t(
        "Qualitätsmanagementbeauftragte/r (QMB)",
        (3, 4),
        "C 1130-10-10",
        "Qualitätsmanagement,ISO 9001,Audit,QMB",
        ("Qualitätsmanagementbeauftragte/r (TÜV)", 2, None, None),
        about="Normforderungen der ISO 9001, Prozessmanagement und interne Audits.",
    ),
    _t(
        "Berufskraftfahrer/in Grundqualifikation beschleunigt",
        (4,),
        "C 2120-10-10",
        "Berufskraftfahrer,BKrFQG,Führerschein C,LKW",
        (
            "Beschleunigte Grundqualifikation nach BKrFQG",
            0,
            "Führerschein Klasse C/CE",
            "Gewerblicher Güterkraftverkehr",
        ),
        about="140 Stunden Unterricht und IHK-Prüfung, auf Wunsch mit Fahrerlaubnis C/CE.",
    ),
    _t(
        "Ausbildung der Ausbilder (AdA) nach AEVO",
        (3, 4),
        "D 1040-10-10",
        "AEVO,Ausbilderschein,AdA,IHK",
        ("Ausbildereignungsprüfung nach AEVO", 0, None, "Ausbildung im Betrieb"),
        edu=103,
        funding="aufstieg",
        about="Vorbereitung auf die Ausbildereignungsprüfung vor der IHK.",
    ),
    _t(
        "Medizinische Abrechnung (EBM/GOÄ)",
        (4,),
        "C 2320-10-10",
        "Abrechnung,EBM,GOÄ,Arztpraxis",
        _PROVIDER_CERT,
        about="Abrechnung ärztlicher Leistungen nach EBM und GOÄ.",
    ),
    _t(
        "Data Analytics mit Python und SQL",
        (4, 5),
        "C 1450-10-10",
        "Data Analytics,Python,SQL,Power BI",
        _PROVIDER_CERT,
        about="Daten aufbereiten, analysieren und visualisieren.",
    ),
    _t(
        "AWS Certified Solutions Architect – Vorbereitung",
        (4,),
        "C 1420-10-10",
        "Cloud,AWS,Cloud Computing,Zertifizierung",
        ("AWS Certified Solutions Architect – Associate", 2, None, None),
        about="Cloud-Architekturen auf Amazon Web Services entwerfen und betreiben.",
    ),
    _t(
        "Steuerrecht kompakt",
        (3, 4),
        "C 1230-10-10",
        "Steuern,Umsatzsteuer,Einkommensteuer",
        _PROVIDER_CERT,
        about="Einkommen-, Umsatz- und Gewerbesteuer für die Praxis.",
    ),
    # --- class 5
    _t(
        "Fachkraft für Buchhaltung",
        (5,),
        "C 1210-10-10",
        "Buchhaltung,Finanzbuchhaltung,DATEV,Lexware",
        _IHK_CERT,
        about="Finanz- und Anlagenbuchhaltung, Jahresabschluss und DATEV-Praxis.",
    ),
    _t(
        "Online-Marketing-Manager/in",
        (5, 6),
        "C 1510-10-10",
        "Online-Marketing,SEO,SEA,Social Media,Content-Marketing",
        _IHK_CERT,
        about="SEO, SEA, Social Media, Content- und Performance-Marketing mit Praxisprojekt.",
    ),
    _t(
        "SAP-Anwender/in Logistik (MM/SD)",
        (5,),
        "C 1440-10-10",
        "SAP,SAP MM,SAP SD,Logistik",
        ("SAP Certified Associate", 2, None, None),
        about="Materialwirtschaft und Vertrieb in SAP mit Zertifizierungsprüfung.",
    ),
    _t(
        "IT-Administrator/in Linux",
        (5,),
        "C 1420-10-10",
        "Linux,Systemadministration,LPIC,Netzwerk",
        ("LPIC-1", 2, None, None),
        about="Linux-Systeme installieren, konfigurieren und absichern.",
    ),
    _t(
        "Projektmanager/in (IHK)",
        (5,),
        "C 1130-10-10",
        "Projektmanagement,IHK,Agile Methoden,PRINCE2",
        _IHK_CERT,
        about="Klassisches und agiles Projektmanagement mit IHK-Zertifikat.",
    ),
    _t(
        "Office-Management und Assistenz",
        (5,),
        "C 1110-10-10",
        "Büromanagement,Assistenz,Office,Organisation",
        _PROVIDER_CERT,
        about="Büroorganisation, Korrespondenz, Office-Anwendungen und Buchhaltung.",
    ),
    _t(
        "Elektrofachkraft für festgelegte Tätigkeiten",
        (4, 5),
        "C 1730-10-10",
        "Elektrotechnik,EFKffT,DGUV Vorschrift 3",
        (
            "Elektrofachkraft für festgelegte Tätigkeiten",
            1,
            None,
            "Festgelegte elektrotechnische Tätigkeiten",
        ),
        about="Elektrotechnische Grundlagen und Prüfungen nach DGUV Vorschrift 3.",
    ),
    _t(
        "CNC-Fachkraft Drehen und Fräsen",
        (5,),
        "C 1710-10-10",
        "CNC,Drehen,Fräsen,Heidenhain,Siemens",
        ("CNC-Zertifikat", 3, None, None),
        about="CNC-Programmierung mit Heidenhain und Siemens ShopMill/ShopTurn.",
    ),
    _t(
        "Schweißer/in MAG/WIG mit Prüfung nach DIN EN ISO 9606-1",
        (4, 5),
        "C 1720-10-10",
        "Schweißen,MAG,WIG,DIN EN ISO 9606-1",
        ("Schweißerprüfung nach DIN EN ISO 9606-1", 1, None, None),
        about="Schweißtechnik mit Prüfungen durch eine anerkannte Prüfstelle.",
    ),
    _t(
        "Kaufmännische/r Sachbearbeiter/in",
        (5,),
        "C 1110-10-10",
        "Sachbearbeitung,Büro,Kaufmännisch,SAP",
        _PROVIDER_CERT,
        about="Auftragsabwicklung, Buchhaltung und Personalwesen in der Praxis.",
    ),
    _t(
        "Personalsachbearbeiter/in",
        (5,),
        "C 1120-20-10",
        "Personalwesen,HR,Arbeitsrecht,Lohnabrechnung",
        _IHK_CERT,
        about="Arbeitsrecht, Personaladministration und Entgeltabrechnung.",
    ),
    _t(
        "Verkäufer/in im Einzelhandel – Qualifizierung",
        (4, 5),
        "C 1520-10-10",
        "Verkauf,Einzelhandel,Kundenberatung",
        _PROVIDER_CERT,
        about="Kundenberatung, Kasse, Warenpräsentation und Praktikum im Handel.",
    ),
    _t(
        "Kinderpfleger/in – Qualifizierung zur pädagogischen Assistenz",
        (5, 6),
        "C 2410-10-10",
        "Kinderbetreuung,Kita,Pädagogik",
        _PROVIDER_CERT,
        about="Pädagogische Grundlagen für die Arbeit in Kindertageseinrichtungen.",
    ),
    # --- class 6
    _t(
        "Geprüfte/r Fachwirt/in im Sozial- und Gesundheitswesen (IHK)",
        (6, 7),
        "D 1010-10-10",
        "Fachwirt,IHK,Gesundheitswesen,Aufstiegs-BAföG",
        ("Geprüfte/r Fachwirt/in im Sozial- und Gesundheitswesen", 0, None, None),
        edu=103,
        funding="aufstieg",
        about="Vorbereitung auf die IHK-Fortbildungsprüfung (DQR-Niveau 6).",
    ),
    _t(
        "Geprüfte/r Wirtschaftsfachwirt/in (IHK)",
        (6, 7),
        "D 1010-10-10",
        "Fachwirt,IHK,Wirtschaft,Aufstiegs-BAföG",
        ("Geprüfte/r Wirtschaftsfachwirt/in", 0, None, None),
        edu=103,
        funding="aufstieg",
        about="Volks- und Betriebswirtschaft, Recht, Führung und Zusammenarbeit.",
    ),
    _t(
        "Geprüfte/r Industriemeister/in Metall",
        (6, 7),
        "D 1020-10-10",
        "Industriemeister,Metall,IHK,Aufstiegs-BAföG",
        ("Geprüfte/r Industriemeister/in Fachrichtung Metall", 0, "AEVO", None),
        edu=103,
        funding="aufstieg",
        about="Basisqualifikationen, handlungsspezifische Qualifikationen und AEVO.",
    ),
    _t(
        "Geprüfte/r Bilanzbuchhalter/in (IHK)",
        (6, 7),
        "D 1050-10-10",
        "Bilanzbuchhalter,IHK,Jahresabschluss,Aufstiegs-BAföG",
        ("Geprüfte/r Bilanzbuchhalter/in", 0, None, None),
        edu=103,
        funding="aufstieg",
        about="Jahresabschlüsse nach HGB und IFRS, Steuerrecht, Kosten- und Leistungsrechnung.",
    ),
    _t(
        "Teilqualifizierung Fachlagerist/in",
        (6,),
        "C 2110-10-10",
        "Teilqualifizierung,Fachlagerist,Lager,IHK",
        ("Kompetenzfeststellung Teilqualifikation", 1, None, None),
        edu=101,
        about="Modulare Nachqualifizierung in Teilqualifikationen bis zum Berufsabschluss.",
    ),
    _t(
        "Full-Stack Web Developer",
        (6,),
        "C 1435-10-10",
        "Webentwicklung,JavaScript,React,Node.js,Full Stack",
        _PROVIDER_CERT,
        about="Frontend mit React, Backend mit Node.js und Datenbanken, Abschlussprojekt.",
    ),
    _t(
        "Data Scientist",
        (6,),
        "C 1450-10-10",
        "Data Science,Machine Learning,Python,Statistik",
        _PROVIDER_CERT,
        about="Statistik, maschinelles Lernen und Datenvisualisierung mit Python.",
    ),
    _t(
        "Cyber Security Specialist",
        (5, 6),
        "C 1460-10-10",
        "IT-Sicherheit,Cyber Security,Netzwerksicherheit,CompTIA",
        ("CompTIA Security+", 2, None, None),
        about="Angriffe erkennen, Systeme härten, Sicherheitsvorfälle behandeln.",
    ),
    _t(
        "Digital Marketing Manager/in",
        (6,),
        "C 1510-10-10",
        "Digital Marketing,Social Media,Content,Analytics",
        _IHK_CERT,
        about="Strategie, Kampagnen und Erfolgsmessung im digitalen Marketing.",
    ),
    _t(
        "Kaufmännische Qualifizierung mit Praktikum",
        (5, 6),
        "C 1110-10-10",
        "Kaufmännisch,Praktikum,Büro,Wiedereinstieg",
        _PROVIDER_CERT,
        about="Kaufmännische Grundlagen mit betrieblichem Praktikum für den Wiedereinstieg.",
    ),
    _t(
        "Integrationskurs (allgemein)",
        (6,),
        "C 2810-10-10",
        "Integrationskurs,Deutsch,BAMF,Orientierungskurs",
        ("Deutsch-Test für Zuwanderer (DTZ)", 0, "Leben in Deutschland", None),
        edu=110,
        ctype=4,
        funding="bamf",
        about="Sprachkurs und Orientierungskurs nach der Integrationskursverordnung.",
    ),
    _t(
        "Integrationskurs mit Alphabetisierung",
        (6, 7),
        "C 2810-10-10",
        "Integrationskurs,Alphabetisierung,Deutsch,BAMF",
        ("Deutsch-Test für Zuwanderer (DTZ)", 0, None, None),
        edu=110,
        ctype=4,
        funding="bamf",
        about="Alphabetisierung in lateinischer Schrift und Deutsch bis Niveau B1.",
    ),
    _t(
        "Hauptschulabschluss für Erwachsene",
        (6,),
        "EC 1020-10-10",
        "Schulabschluss,Hauptschulabschluss,Zweiter Bildungsweg",
        ("Erster allgemeinbildender Schulabschluss", 0, None, None),
        edu=105,
        about="Vorbereitung auf die Externenprüfung zum Hauptschulabschluss.",
    ),
    _t(
        "Berufliche Rehabilitation – Integrationsmaßnahme Büro",
        (5, 6),
        "C 1110-10-10",
        "Rehabilitation,Integration,Büro,Teilhabe",
        _PROVIDER_CERT,
        edu=106,
        about="Individuelle Qualifizierung mit sozialpädagogischer und psychologischer Begleitung.",
    ),
    # --- class 7 and longer
    _t(
        "Fachinformatiker/in Anwendungsentwicklung (Umschulung)",
        (7,),
        "C 2920-10-10",
        "Umschulung,Fachinformatiker,Anwendungsentwicklung,IHK,Programmierung",
        ("Fachinformatiker/in für Anwendungsentwicklung (IHK)", 0, None, None),
        about="Umschulung mit betrieblichem Praktikum und IHK-Abschlussprüfung.",
    ),
    _t(
        "Fachinformatiker/in Systemintegration (Umschulung)",
        (7,),
        "C 2920-10-10",
        "Umschulung,Fachinformatiker,Systemintegration,IHK,Netzwerk",
        ("Fachinformatiker/in für Systemintegration (IHK)", 0, None, None),
        about="Umschulung mit betrieblichem Praktikum und IHK-Abschlussprüfung.",
    ),
    _t(
        "Kaufmann/-frau für Büromanagement (Umschulung)",
        (7,),
        "C 2910-10-10",
        "Umschulung,Büromanagement,IHK,Kaufmännisch",
        ("Kaufmann/-frau für Büromanagement (IHK)", 0, None, None),
        about="Umschulung mit Praktikum und IHK-Abschlussprüfung.",
    ),
    _t(
        "Industriekaufmann/-frau (Umschulung)",
        (7,),
        "C 2910-10-10",
        "Umschulung,Industriekaufmann,IHK",
        ("Industriekaufmann/-frau (IHK)", 0, None, None),
        about="Umschulung mit Praktikum und IHK-Abschlussprüfung.",
    ),
    _t(
        "Fachkraft für Lagerlogistik (Umschulung)",
        (7,),
        "C 2930-10-10",
        "Umschulung,Lagerlogistik,IHK,Staplerschein",
        ("Fachkraft für Lagerlogistik (IHK)", 0, "Staplerschein", None),
        about="Umschulung mit Praktikum, Staplerschein und IHK-Abschlussprüfung.",
    ),
    _t(
        "Elektroniker/in für Betriebstechnik (Umschulung)",
        (7,),
        "C 2930-10-10",
        "Umschulung,Elektroniker,Betriebstechnik,IHK",
        ("Elektroniker/in für Betriebstechnik (IHK)", 0, None, None),
        about="Umschulung mit Praktikum und IHK-Abschlussprüfung.",
    ),
    _t(
        "Kaufmann/-frau im Gesundheitswesen (Umschulung)",
        (7,),
        "C 2940-10-10",
        "Umschulung,Gesundheitswesen,IHK,Kaufmännisch",
        ("Kaufmann/-frau im Gesundheitswesen (IHK)", 0, None, None),
        about="Umschulung mit Praktikum und IHK-Abschlussprüfung.",
    ),
    _t(
        "Geprüfte/r Technische/r Betriebswirt/in (IHK)",
        (7,),
        "D 1030-10-10",
        "Betriebswirt,IHK,Technik,Aufstiegs-BAföG",
        ("Geprüfte/r Technische/r Betriebswirt/in", 0, None, None),
        edu=103,
        funding="aufstieg",
        about="Vorbereitung auf die IHK-Prüfung auf DQR-Niveau 7, berufsbegleitend.",
    ),
    _t(
        "Pflegefachfrau/-mann (Ausbildung für Erwachsene)",
        (8,),
        "C 2940-10-10",
        "Pflege,Pflegefachfrau,Pflegefachmann,Generalistik",
        ("Pflegefachfrau/Pflegefachmann", 0, None, "Erlaubnis zum Führen der Berufsbezeichnung"),
        edu=102,
        about="Generalistische Pflegeausbildung nach dem Pflegeberufegesetz.",
    ),
    _t(
        "Staatlich anerkannte/r Erzieher/in (berufsbegleitend)",
        (8, 9),
        "D 2020-10-10",
        "Erzieher,Kita,Pädagogik,berufsbegleitend",
        ("Staatlich anerkannte/r Erzieher/in", 0, None, None),
        edu=103,
        funding="aufstieg",
        about="Berufsbegleitende Fachschulausbildung mit Praxis in der Einrichtung.",
    ),
    _t(
        "Staatlich geprüfte/r Techniker/in Maschinentechnik (Teilzeit)",
        (9,),
        "D 2010-10-10",
        "Techniker,Maschinentechnik,Fachschule,Aufstiegs-BAföG",
        ("Staatlich geprüfte/r Techniker/in", 0, "Fachhochschulreife", None),
        edu=103,
        funding="aufstieg",
        about="Fachschule für Technik in Teilzeit, Abschluss auf DQR-Niveau 6.",
    ),
)
"""The course kinds of the general pool (any provider)."""

STUDY_TEMPLATES: tuple[CourseTemplate, ...] = (
    _t(
        "Betriebswirtschaftslehre (B.A.) berufsbegleitend",
        (9,),
        "HA 1010-10-10",
        "Studium,Bachelor,BWL,berufsbegleitend",
        ("Bachelor of Arts", 0, None, None),
        edu=107,
        ctype=2,
        funding="bafoeg",
        about="Berufsbegleitendes Bachelorstudium mit 180 ECTS.",
    ),
    _t(
        "Wirtschaftsinformatik (B.Sc.) im Fernstudium",
        (9,),
        "HA 2010-10-10",
        "Studium,Bachelor,Wirtschaftsinformatik,Fernstudium",
        ("Bachelor of Science", 0, None, None),
        edu=107,
        ctype=2,
        funding="bafoeg",
        about="Fernstudium mit Präsenzphasen, 180 ECTS.",
    ),
    _t(
        "Master of Business Administration (MBA)",
        (7, 8),
        "HC 1010-10-10",
        "Studium,Master,MBA,Management",
        ("Master of Business Administration", 0, None, None),
        edu=108,
        ctype=2,
        funding="bafoeg",
        about="Weiterbildender Masterstudiengang für Fach- und Führungskräfte, 90 ECTS.",
    ),
    _t(
        "Data Science (M.Sc.) berufsbegleitend",
        (7, 8),
        "HC 2010-10-10",
        "Studium,Master,Data Science,berufsbegleitend",
        ("Master of Science", 0, None, None),
        edu=108,
        ctype=2,
        funding="bafoeg",
        about="Weiterbildender Master, 120 ECTS, Online-Vorlesungen und Präsenzwochenenden.",
    ),
    _t(
        "Zertifikatsprogramm Digitale Transformation",
        (5, 6),
        "HC 1010-10-10",
        "Hochschulzertifikat,Digitalisierung,Management",
        ("Hochschulzertifikat", 3, None, None),
        edu=108,
        ctype=2,
        funding="none",
        about="Hochschulzertifikat mit 15 ECTS, anrechenbar auf den MBA.",
    ),
)
"""Courses of universities and universities of applied sciences."""

LANGUAGE_TEMPLATE_TITLES: tuple[str, ...] = (
    "Deutsch B1 Berufssprachkurs",
    "Deutsch B2 Berufssprachkurs",
    "Deutsch C1 Berufssprachkurs",
    "Englisch B1 für den Beruf",
    "Business English B2",
    "Integrationskurs (allgemein)",
    "Integrationskurs mit Alphabetisierung",
)
"""Courses that language schools mostly offer."""

TITLE_SUFFIXES_FULL_TIME: tuple[str, ...] = (" – Vollzeit", " inkl. Zertifikatsprüfung")
TITLE_SUFFIX_PRACTICAL = " mit Praktikum"
TITLE_SUFFIX_CERTIFIED = " (AZAV-zertifiziert)"
TITLE_SUFFIX_COMPACT = " – Kompaktkurs"
TITLE_SUFFIXES_PART_TIME: tuple[str, ...] = (
    " – Teilzeit",
    " – berufsbegleitend",
    " – Abendkurs",
    " – Wochenendkurs",
)
TITLE_SUFFIXES_ONLINE: tuple[str, ...] = (
    " – Online",
    " (Live-Online)",
    " im virtuellen Klassenzimmer",
)

TARGET_GROUPS: tuple[str, ...] = (
    "Arbeitsuchende und Arbeitslose",
    "Berufsrückkehrende",
    "Beschäftigte",
    "Fach- und Führungskräfte",
    "Quereinsteigende",
    "Menschen mit Migrationsgeschichte",
    "Rehabilitandinnen und Rehabilitanden",
    "Berufseinsteigende",
    "Selbstständige",
    "Alle Interessierten",
)

REQUIREMENTS: tuple[str, ...] = (
    "Gute Deutschkenntnisse (mindestens B2)",
    "Deutschkenntnisse auf Niveau B1",
    "Abgeschlossene Berufsausbildung",
    "PC-Grundkenntnisse",
    "Hauptschulabschluss",
    "Mittlerer Schulabschluss",
    "Mindestalter 18 Jahre",
    "Erfolgreicher Eignungstest",
    "Gesundheitliche Eignung",
    "Führerschein Klasse B",
    "Mehrjährige Berufserfahrung",
    "Keine besonderen Voraussetzungen",
)

ACCESSIBILITY_REMARKS: tuple[str, ...] = (
    "Barrierefreie Schulungsräume",
    "Rollstuhlgerechter Zugang über Rampe",
    "Induktive Höranlage vorhanden",
    "Barrierefreiheit nach Absprache",
    "Aufzug vorhanden, behindertengerechtes WC",
    "Unterlagen in Großdruck auf Anfrage",
)

DESCRIPTION_SENTENCES: tuple[str, ...] = (
    "Der Unterricht findet in kleinen Gruppen statt.",
    "Erfahrene Dozentinnen und Dozenten aus der Praxis begleiten Sie.",
    "Alle Lernmaterialien sind im Preis enthalten.",
    "Ein Laptop wird für die Dauer der Maßnahme gestellt.",
    "Nach erfolgreichem Abschluss erhalten Sie ein aussagekräftiges Zertifikat.",
    "Vor Beginn findet ein persönliches Beratungsgespräch statt.",
    "Ein Einstieg ist nach Absprache auch nach Kursbeginn möglich.",
    "Die Inhalte orientieren sich eng an den Anforderungen des Arbeitsmarkts.",
    "Wir unterstützen Sie bei der Suche nach einem Praktikumsplatz.",
    "Der Lehrgang schließt mit einer Prüfung ab.",
)

KEYWORDS_GENERIC: tuple[str, ...] = (
    "Weiterbildung",
    "Qualifizierung",
    "Bildungsgutschein",
    "AZAV",
    "Online",
    "Teilzeit",
    "Vollzeit",
    "Zertifikat",
    "Praxis",
    "Karriere",
)

EVENT_REMARKS: tuple[str, ...] = (
    "Einstieg jederzeit möglich",
    "Anmeldung erforderlich",
    "Kostenloses Informationsgespräch vorab",
    "Nur noch wenige Plätze frei",
    "Findet ab 6 Anmeldungen statt",
    "Ferienzeiten siehe Website",
    "Praktikum im zweiten Kursabschnitt",
)

EVENT_COMMENTS: tuple[str, ...] = (
    "Unterricht in Kleingruppen",
    "Laptop wird gestellt",
    "Kinderbetreuung auf Anfrage",
    "Parkplätze vorhanden",
    "Gute Anbindung an den ÖPNV",
    "Prüfungsgebühren inklusive",
)

TIME_COMMENTS_FULL: tuple[str, ...] = (
    "Mo–Fr 08:00–15:30 Uhr",
    "Mo–Fr 08:30–16:00 Uhr",
    "Mo–Do 08:30–16:00 Uhr, Fr 08:30–13:00 Uhr",
    "täglich 8 Unterrichtsstunden",
)
TIME_COMMENTS_PART: tuple[str, ...] = (
    "Mo–Fr 17:30–20:45 Uhr",
    "Di und Do 18:00–21:15 Uhr",
    "Samstags 09:00–16:00 Uhr",
    "Mo–Fr 08:30–12:30 Uhr",
    "Freitagabend und Samstag",
)

COST_REMARKS: tuple[str, ...] = (
    "inkl. Lernmittel",
    "zzgl. Prüfungsgebühr",
    "Ratenzahlung möglich",
    "umsatzsteuerbefreit nach § 4 Nr. 21 UStG",
    "Frühbucherrabatt 10 %",
)

ADDRESS_REMARKS: tuple[str, ...] = (
    "Eingang über den Hof",
    "2. OG, Aufzug vorhanden",
    "Parkplätze im Hof",
    "Nähe Hauptbahnhof",
    "Schulungsräume im Erdgeschoss",
    "Zugang über die Rückseite des Gebäudes",
)

CONTACT_REMARKS: tuple[str, ...] = (
    "Erreichbar Mo–Do 9–15 Uhr",
    "Ansprechpartnerin für Bildungsgutscheine",
    "Beratung nach Terminvereinbarung",
    "Auch per Videocall erreichbar",
    "Zuständig für Firmenkunden",
)

CONTACT_LABELS: tuple[str, ...] = (
    "Beratung",
    "Anmeldung",
    "Verwaltung",
    "Geschäftsführung",
    "Kursleitung",
    "Vertrieb",
)

CONTACT_POINTS: tuple[tuple[str, str], ...] = (
    ("Kundenservice", "kundenservice"),
    ("Team Weiterbildung", "weiterbildung"),
    ("Bildungsberatung", "beratung"),
    ("Anmeldung", "anmeldung"),
)
"""Contacts that are desks rather than people: last name, e-mail local part."""

MOBILE_PREFIXES: tuple[str, ...] = (
    "151",
    "152",
    "157",
    "159",
    "160",
    "162",
    "163",
    "170",
    "171",
    "172",
    "173",
    "175",
    "176",
    "177",
    "178",
    "179",
)

AGENCY_NUMBERS: tuple[str, ...] = (
    "911",
    "921",
    "927",
    "934",
    "943",
    "952",
    "962",
    "971",
    "978",
    "985",
)
"""Prefixes of measure numbers (``962/123/2025``)."""
