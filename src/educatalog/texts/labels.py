"""The English names of the labels a reader meets in every report (and the German names of
educatalog's own codes), for :func:`educatalog.texts.label`."""

from __future__ import annotations

EN_LABELS: dict[str, str] = {
    # states (Destatis' English names)
    "Baden-Württemberg": "Baden-Württemberg",
    "Bayern": "Bavaria",
    "Berlin": "Berlin",
    "Brandenburg": "Brandenburg",
    "Bremen": "Bremen",
    "Hamburg": "Hamburg",
    "Hessen": "Hesse",
    "Mecklenburg-Vorpommern": "Mecklenburg-Western Pomerania",
    "Niedersachsen": "Lower Saxony",
    "Nordrhein-Westfalen": "North Rhine-Westphalia",
    "Rheinland-Pfalz": "Rhineland-Palatinate",
    "Saarland": "Saarland",
    "Sachsen": "Saxony",
    "Sachsen-Anhalt": "Saxony-Anhalt",
    "Schleswig-Holstein": "Schleswig-Holstein",
    "Thüringen": "Thuringia",
    # instruction-form categories
    "Präsenz": "In person",
    "Digital": "Digital",
    "Kombiniert": "Combined",
    "Fernunterricht": "Distance learning",
    # instruction forms (KURSNET)
    "Präsenzveranstaltung": "Classroom course",
    "Seminar": "Seminar",
    "Workshop": "Workshop",
    "Praxistraining": "Practical training",
    "Sonstige Präsenzveranstaltung": "Other in-person format",
    "Virtuelles Klassenzimmer": "Virtual classroom",
    "Online-Seminar": "Online seminar",
    "Online-Coaching": "Online coaching",
    "Selbstlernmodul": "Self-study module",
    "Sonstige digitale Lernformen": "Other digital formats",
    "Blended Learning": "Blended learning",
    "Combined Learning": "Combined learning",
    "Hybrid Learning": "Hybrid learning",
    "Sonstige kombinierte Lernformen": "Other combined formats",
    "Fernlehrgang": "Correspondence course",
    "Sonstiger Fernunterricht": "Other distance learning",
    # instruction times
    "Vollzeit": "Full time",
    "Teilzeit": "Part time",
    # duration classes (KURSNET)
    "bis 3 Tage": "up to 3 days",
    "mehr als 3 Tage bis 1 Woche": "over 3 days to 1 week",
    "mehr als 1 Woche bis 1 Monat": "over 1 week to 1 month",
    "mehr als 1 Monat bis 3 Monate": "over 1 month to 3 months",
    "mehr als 3 Monate bis 6 Monate": "over 3 months to 6 months",
    "mehr als 6 Monate bis 1 Jahr": "over 6 months to 1 year",
    "mehr als 1 Jahr bis 2 Jahre": "over 1 year to 2 years",
    "mehr als 2 Jahre bis 3 Jahre": "over 2 years to 3 years",
    "mehr als 3 Jahre": "over 3 years",
    # funding levels
    "federal": "federal",
    "regional": "regional",
    # federal funding types: nationwide instruments, in English with the German name a
    # reader searches for; the states' programmes keep their names ("Meisterbonus Bayern")
    "Bildungsgutschein": "Education voucher (Bildungsgutschein)",
    "Weiterbildungsförderung Beschäftigter": "Training support for employees",
    "Qualifizierungsgeld": "Qualification allowance (Qualifizierungsgeld)",
    "Aktivierungs- und Vermittlungsgutschein": "Activation and placement voucher (AVGS)",
    "Aufstiegs-BAföG": "Upgrading training grant (Aufstiegs-BAföG)",
    "BAföG": "Student grant (BAföG)",
    "Weiterbildungsstipendium": "Continuing education scholarship",
    "Deutsche Rentenversicherung (Teilhabe)": "German Pension Insurance (participation)",
    "Berufsgenossenschaft": "Statutory accident insurance (Berufsgenossenschaft)",
    "Berufsförderungsdienst der Bundeswehr": "Armed Forces vocational support",
    "BAMF Berufssprachkurs": "BAMF job-related language course",
    "ESF-Programme": "ESF programmes",
    # degree types (educatalog.frames.course_links.DEGREE_TYPES)
    "öffentlich-rechtlich anerkannt": "publicly recognised",
    "Kompetenznachweis": "certificate of competence",
    "Herstellerzertifikat": "vendor certificate",
    "Anbieterzertifikat": "provider certificate",
    # the KURSNET systematics' top groups and subject areas (their single subjects, some
    # hundreds, stay as the catalogue names them); "BBiG/HwO", "AVGS": the laws' names
    "Berufliche Weiterbildung: Anpassung und Qualifizierung": (
        "Continuing vocational training: adaptation and qualification"
    ),
    "Wirtschaft, Verwaltung, Büro": "Business, administration, office",
    "Finanz- und Rechnungswesen": "Finance and accounting",
    "Informatik, Informationstechnik": "Computer science, information technology",
    "Marketing, Medien, Vertrieb": "Marketing, media, sales",
    "Metall, Maschinenbau, Elektrotechnik": "Metal, mechanical and electrical engineering",
    "Lager, Logistik, Verkehr": "Warehousing, logistics, transport",
    "Gesundheit, Pflege": "Health, care",
    "Soziales, Pädagogik": "Social work, education",
    "Sicherheit, Arbeitsschutz": "Security, occupational safety",
    "Sprachen": "Languages",
    "Umschulung, Berufsabschluss für Erwachsene": "Retraining, vocational degrees for adults",
    "Aufstiegsweiterbildung: geregelte Fortbildung": (
        "Advancement training: regulated further training"
    ),
    "Fortbildung nach BBiG/HwO": "Further training under BBiG/HwO",
    "Landesrechtlich geregelte Fortbildung": "Further training regulated by state law",
    "Berufliche Orientierung und Eingliederung": "Vocational orientation and integration",
    "Bewerbung und Orientierung": "Applications and orientation",
    "Maßnahmen zur Aktivierung und beruflichen Eingliederung": (
        "Activation and vocational integration measures"
    ),
    "Coaching (AVGS)": "Coaching (AVGS)",
    "Studienangebote: grundständig": "Degree programmes: undergraduate",
    "Wirtschaftswissenschaften": "Economics and business studies",
    "Informatik": "Computer science",
    "Studienangebote: weiterführend": "Degree programmes: postgraduate",
    "Wirtschaft und Management": "Business and management",
    "Informatik und Data Science": "Computer science and data science",
}
"""English names of the labels every report shows; other labels stay as the catalogue
names them (they are names, like a course title)."""

EN_QUALIFIERS: dict[str, str] = {", Stadt": ", city", ", Landkreis": ", district"}
"""The words that tell two districts of one name apart ("München, Stadt" and "München,
Landkreis", :func:`educatalog.frames.districts.district_table`), in English; the names
themselves stay as they are."""

DE_LABELS: dict[str, str] = {
    "federal": "Bund",
    "regional": "Land/Region",
    # why an event has no district (educatalog.frames.districts.DISTRICT_PROBLEMS)
    "no postal code": "keine Postleitzahl",
    "postal code not in the table": "Postleitzahl nicht im Verzeichnis",
    "postal code and place name several districts": "Postleitzahl und Ort in mehreren Kreisen",
    "district in another state": "Kreis in einem anderen Bundesland",
}
