"""The words of the report (``educatalog report``, :mod:`educatalog.publication`): its
headings, paragraphs, tables' titles and sheet names, and the notes under its tables and
charts, in German and English; part of ``educatalog.texts.words.TEXTS``."""

from __future__ import annotations

REPORT_TEXTS: dict[str, tuple[str, str]] = {
    # the report
    "report.title": ("Bericht zum Kursangebot", "Course supply report"),
    "report.demo": (
        "**Synthetische Demodaten**: Diese Zahlen beschreiben den erzeugten "
        "Demo-Katalog von educatalog, nicht das echte Kursangebot.",
        "**Synthetic demo data**: these numbers describe educatalog's generated demo "
        "catalogue, not the real course supply.",
    ),
    "report.intro": ("Quelle: {source}. {events}{scope}.", "Source: {source}. {events}{scope}."),
    "report.dates": (
        "Stand der Daten: {stand}. Erstellt: {created}.",
        "Data as of {stand}. Created: {created}.",
    ),
    "report.scope.states": ("Bundesländer: {states}", "states: {states}"),
    "report.scope.dates": ("Beginn {start} bis {end}", "start dates {start} to {end}"),
    "report.scope.dates_from": ("Beginn ab {start}", "start dates from {start}"),
    "report.scope.dates_until": ("Beginn bis {end}", "start dates up to {end}"),
    "report.states": ("Angebot nach Bundesland", "Offers by state"),
    "report.states.text": (
        "Veranstaltungen nach dem Bundesland ihrer Adresse; Veranstaltungen ohne Adresse "
        "oder Bundesland stehen unter „ohne Angabe“.",
        "Events by the state of their address; events without an address or state are "
        "shown as “not stated”.",
    ),
    "report.per_capita": ("Je 100.000 Einwohner", "Per 100,000 inhabitants"),
    "report.per_capita.text": (
        "Veranstaltungen je 100.000 Einwohner des Bundeslandes ihrer Adresse; die Zeile "
        "„{total}“ gilt für {states}.",
        "Events per 100,000 inhabitants of the state of their address; the row “{total}” "
        "is that of {states}.",
    ),
    "report.per_capita.all": ("alle 16 Länder zusammen", "all 16 states together"),
    "report.per_capita.chosen": (
        "die ausgewählten Länder zusammen",
        "the selected states together",
    ),
    "report.districts": ("Angebot nach Kreisen", "Supply by district"),
    "report.districts.text": (
        "Veranstaltungen je 100.000 Einwohner des Kreises (Landkreis oder kreisfreie Stadt) "
        "ihrer Adresse; den Kreis bestimmen Postleitzahl und Ort der Adresse. Die Karte "
        "zeigt alle {n} Kreise, ihre Zahlen stehen mit den Summen der Länder in der Tabelle "
        "zur Karte und im Arbeitsblatt „{sheet}“; die Listen darunter nennen die {top} "
        "Kreise mit den meisten und die {top} mit den wenigsten Veranstaltungen je Einwohner.",
        "Events per 100,000 inhabitants of the district (rural district or district-free "
        "city) of their address; the postal code and place of the address decide the "
        "district. The map shows all {n} districts, their numbers with the states' totals "
        "are in the map's table and on the sheet “{sheet}”; the lists below name the {top} "
        "districts with the most and the {top} with the fewest events per inhabitant.",
    ),
    "report.districts.few": (
        "Veranstaltungen je 100.000 Einwohner des Kreises (Landkreis oder kreisfreie Stadt) "
        "ihrer Adresse; den Kreis bestimmen Postleitzahl und Ort der Adresse. Karte und "
        "Liste zeigen die Kreise der Auswahl ({n}), mit den Summen ihrer Länder stehen sie in "
        "der Tabelle zur Karte und im Arbeitsblatt „{sheet}“.",
        "Events per 100,000 inhabitants of the district (rural district or district-free "
        "city) of their address; the postal code and place of the address decide the "
        "district. The map and the list show the districts of the selection ({n}); with their "
        "states' totals they are in the map's table and on the sheet “{sheet}”.",
    ),
    "report.districts.why.district_no_postal_code": (
        "Adresse ohne Postleitzahl",
        "the address has no postal code",
    ),
    "report.districts.why.district_unknown_postal_code": (
        "Postleitzahl nicht im Verzeichnis (Postfach, Großkunde, neu oder fehlerhaft)",
        "postal code not in the table (PO box, large customer, new or malformed)",
    ),
    "report.districts.why.district_ambiguous": (
        "Postleitzahl in mehreren Kreisen, der Ort entscheidet nicht",
        "the postal code lies in several districts and the place does not decide",
    ),
    "report.districts.why.district_other_state": (
        "der Kreis der Postleitzahl liegt in einem anderen Bundesland als die Adresse",
        "the postal code's district lies in another state than the address",
    ),
    "note.districts.why": (
        "Ohne Kreis (siehe „Datenqualität“): {reasons}.",
        "Without a district (see “Data quality”): {reasons}.",
    ),
    "note.districts.all_known": (
        "Jede Veranstaltung hat einen Kreis.",
        "Every event has a district.",
    ),
    "note.districts.source": (
        "Der Kreis einer Veranstaltung folgt aus Postleitzahl und Ort ihrer Adresse, nach den "
        "Postleitzahlgebieten von OpenStreetMap (© OpenStreetMap contributors, ODbL 1.0).",
        "An event's district follows from the postal code and place of its address, by "
        "OpenStreetMap's postal-code areas (© OpenStreetMap contributors, ODbL 1.0).",
    ),
    "note.districts.small": (
        "Kleine Kreise: Die Kreise sind sehr verschieden groß ({small}: {small_population} "
        "Einwohner; {large}: {large_population}), eine einzige Veranstaltung ändert die "
        "Rate von {small} um {step}. Eine Rate, die auf wenigen Veranstaltungen beruht, "
        "schwankt stark: Jede steht deshalb neben der Zahl ihrer Veranstaltungen.",
        "Small districts: districts differ greatly in size ({small}: {small_population} "
        "inhabitants; {large}: {large_population}), and a single event moves the rate of "
        "{small} by {step}. A rate resting on few events swings widely: each stands beside "
        "the number of events it rests on.",
    ),
    "note.districts.most": (
        "Die höchste Rate zuerst; bei gleicher Rate entscheidet der Kreisschlüssel (aufsteigend).",
        "Highest rate first; districts with the same rate in the order of their keys.",
    ),
    "note.districts.fewest": (
        "Die niedrigste Rate zuerst; bei gleicher Rate entscheidet der Kreisschlüssel "
        "(aufsteigend).",
        "Lowest rate first; districts with the same rate in the order of their keys.",
    ),
    "note.districts.tie": (
        "Gleichstand am Ende der Liste: {tied} Kreise haben {rate} Veranstaltungen je "
        "100.000 Einwohner; gezeigt sind die ersten {shown} davon nach Kreisschlüssel, alle "
        "stehen in der Tabelle „{table}“.",
        "A tie at the end of the list: {tied} districts have {rate} events per 100,000 "
        "inhabitants; the list shows the first {shown} of them by key, the table “{table}” "
        "all of them.",
    ),
    "note.districts.compare": (
        "Zum Vergleich – {where}: {rate} Veranstaltungen je 100.000 Einwohner.",
        "For comparison – {where}: {rate} events per 100,000 inhabitants.",
    ),
    "note.districts.selection": (
        "alle ausgewählten Kreise zusammen",
        "all selected districts together",
    ),
    "report.subjects": ("Angebot nach Fachgebieten", "Supply by subject area"),
    "report.subjects.text": (
        "Was angeboten wird: die Fachgebiete der KURSNET-Systematik (ihre zweite Ebene), "
        "denen die Kurse der Veranstaltungen zugeordnet sind. Die Tabelle nennt alle {n} "
        "Fachgebiete der Systematik in ihrer Reihenfolge, das Diagramm die {top} "
        "größten nach Veranstaltungen; die Tabelle darunter zählt sie je Bundesland.",
        "What is offered: the subject areas of the KURSNET systematics (its second level) "
        "that the events' courses belong to. The table lists all {n} subject areas of the "
        "systematics in its order, the chart the {top} largest by events; the table "
        "below counts them within each state.",
    ),
    "note.subjects.order": (
        "Fachgebiete in der Reihenfolge der KURSNET-Systematik, damit jedes an seinem Platz "
        "steht und Berichte vergleichbar bleiben; die Rangfolge zeigt das Diagramm. Anteil: "
        "an allen Veranstaltungen.",
        "Subject areas in the order of the KURSNET systematics, so that each stands in its "
        "place and reports stay comparable; the chart shows the ranking. Share: of all events.",
    ),
    "note.subjects.unstated": (
        "Ohne Angabe: Veranstaltungen, deren Kurs keinem Fachgebiet zugeordnet ist.",
        "Not stated: events whose course is in no subject area.",
    ),
    "note.subjects.multiple_columns": (
        "Mehrfachzuordnung: die Summe der Spalten einer Zeile übersteigt ihre Gesamtzahl; "
        "{events} gehören mehreren Fachgebieten an und zählen in jedem, in „Insgesamt“ einmal.",
        "Multiple assignment: a row's columns add up to more than its total; {events} belong "
        "to several subject areas and count in each, once in “Total”.",
    ),
    "note.subjects.others": (
        "Spalten: die {top} Fachgebiete mit den meisten Veranstaltungen; „übrige“ zählt die "
        "Veranstaltungen der anderen {n} Fachgebiete (jede einmal). Alle Fachgebiete im "
        "Arbeitsblatt „{sheet}“.",
        "Columns: the {top} subject areas with the most events; “others” counts the events of "
        "the other {n} areas (each once). Every area is on the sheet “{sheet}”.",
    ),
    "report.forms": ("Lernformen", "Instruction forms"),
    "report.durations": ("Dauer", "Durations"),
    "report.starts": ("Beginn im Zeitverlauf", "Starts over time"),
    "report.starts.table": ("Veranstaltungen nach Startquartal", "Events by start quarter"),
    "report.costs": ("Kosten", "Costs"),
    "report.costs.text": (
        "Kosten der Kurse mit Preisangabe, in Euro, je Kurs (nicht je Veranstaltung).",
        "Costs of the priced courses, in euro, per course (not per event).",
    ),
    "report.costs.coverage": ("{coverage}", "{coverage}"),
    "report.quality": ("Datenqualität", "Data quality"),
    "report.trends": ("Das Angebot im Zeitverlauf", "The catalogue over time"),
    "report.trends.text": (
        "Dieser Abschnitt zeigt das Archiv „{folder}“: {span} Quelle: {source}. Jeder "
        "Stichtag zählt das Angebot, wie es an diesem Tag im Katalog stand; neu gelistete "
        "und nicht mehr gelistete Kurse vergleichen zwei aufeinanderfolgende Stichtage.",
        "This section shows the archive “{folder}”: {span} Source: {source}. Each snapshot "
        "counts the offers as the catalogue listed them on that day; entered and exited "
        "courses compare two consecutive snapshots.",
    ),
    "report.trends.one_date": ("ein Stichtag, {date}.", "one snapshot, {date}."),
    "report.trends.source": ("Archiv „{folder}“: {source}", "archive “{folder}”: {source}"),
    "report.trends.same": (
        "Am letzten Stichtag ({date}) stimmt das Archiv mit dem Katalog dieses Berichts "
        "überein: dieselben {events} (dieselben Veranstaltungsnummern), nach Bundesland "
        "wie oben.",
        "On its last snapshot ({date}) the archive agrees with the catalogue of this report: "
        "the same {events} (the same event ids), by state as above.",
    ),
    "report.trends.other": (
        "**Das Archiv zeigt einen anderen Katalog oder Stand als der übrige Bericht**: am "
        "letzten Stichtag ({date}) {theirs}, der Katalog dieses Berichts ({source}) "
        "{ours}. Die Zahlen dieses Abschnitts sind mit denen oben nicht gleichzusetzen.",
        "**The archive shows another catalogue, or another day of it, than the rest of this "
        "report**: on its last snapshot ({date}) {theirs}, the catalogue of this report "
        "({source}) {ours}. The numbers of this section cannot be set against those above.",
    ),
    "report.trends.unfiltered": (
        "Die Filter des Berichts ({filters}) gelten in diesem Abschnitt nicht: Er zeigt das "
        "ganze Archiv.",
        "The report's filters ({filters}) do not apply to this section: it shows the whole "
        "archive.",
    ),
    "report.trends.unfiltered_note": (
        "Das ganze Archiv: Die Filter des Berichts gelten für diese Tabelle nicht.",
        "The whole archive: the report's filters do not apply to this table.",
    ),
    "report.trends.too_few": (
        "Ein einziger Stichtag zeigt keine Entwicklung: Zu- und Abgänge und ein "
        "Zeitverlauf brauchen mindestens zwei Stichtage.",
        "A single snapshot shows no change: entries, exits and a trend need two snapshots or more.",
    ),
    "report.chart_table": ("Tabelle zum Diagramm: {title}", "The chart's table: {title}"),
    "report.chart.entered": ("Neu gelistete Kurse je Stichtag", "Courses entered per snapshot"),
    "report.lifetimes.complete": (
        "im Archiv neu gelistet und wieder entfernt (vollständig)",
        "entered and exited within the archive (complete)",
    ),
    "report.lifetimes.censored": (
        "am ersten oder letzten Stichtag gelistet (mindestens)",
        "listed on the first or the last snapshot (at least)",
    ),
    "report.lifetimes.all": ("alle Kurse (mindestens)", "all courses (at least)"),
    "report.table.states": ("Angebot nach Bundesland", "Offers by state"),
    "report.table.per_capita": (
        "Veranstaltungen je 100.000 Einwohner nach Bundesland",
        "Events per 100,000 inhabitants by state",
    ),
    "report.table.districts_most": (
        "Die {n} Kreise mit den meisten Veranstaltungen je 100.000 Einwohner",
        "The {n} districts with the most events per 100,000 inhabitants",
    ),
    "report.table.districts_fewest": (
        "Die {n} Kreise mit den wenigsten Veranstaltungen je 100.000 Einwohner",
        "The {n} districts with the fewest events per 100,000 inhabitants",
    ),
    "report.table.districts_ranked": (
        "Die Kreise der Auswahl nach Veranstaltungen je 100.000 Einwohner",
        "The districts of the selection by events per 100,000 inhabitants",
    ),
    "report.table.districts": (
        "Veranstaltungen je 100.000 Einwohner nach Kreis",
        "Events per 100,000 inhabitants by district",
    ),
    "report.table.subjects": ("Angebot nach Fachgebiet", "Offers by subject area"),
    "report.table.subjects_by_state": (
        "Veranstaltungen nach Bundesland und Fachgebiet",
        "Events by state and subject area",
    ),
    "report.table.forms": ("Angebot nach Lernform", "Offers by instruction form"),
    "report.table.durations": ("Angebot nach Dauer", "Offers by duration"),
    "report.table.starts": ("Beginn nach Quartal", "Starts by quarter"),
    "report.table.costs": ("Kosten je Kurs nach Lernform", "Costs per course by instruction form"),
    "report.table.quality": ("Datenqualität", "Data quality"),
    "report.table.trend_states": (
        "Veranstaltungen nach Bundesland am ersten und letzten Stichtag",
        "Events by state on the first and the last snapshot",
    ),
    "report.table.trend_all": (
        "Veranstaltungen nach Bundesland an jedem Stichtag",
        "Events by state on every snapshot",
    ),
    "report.table.forms_by_state": (
        "Anteil der Lernformen an den Veranstaltungen je Bundesland",
        "Instruction forms' share of the events within each state",
    ),
    "report.table.durations_by_state": (
        "Anteil der Dauerklassen an den Veranstaltungen je Bundesland",
        "Duration classes' share of the events within each state",
    ),
    "report.table.starts_by_month": (
        "Beginnende Veranstaltungen je Monat",
        "Events starting per month",
    ),
    "report.sheet.states": ("Angebot nach Bundesland", "Offers by state"),
    "report.sheet.per_capita": ("Je 100.000 Einwohner", "Per 100,000 inhabitants"),
    "report.sheet.districts_most": ("Kreise mit den meisten", "Districts with the most"),
    "report.sheet.districts_fewest": ("Kreise mit den wenigsten", "Districts with the fewest"),
    "report.sheet.districts_ranked": ("Kreise nach Rate", "Districts by rate"),
    "report.sheet.districts": ("Kreise je 100.000 Einwohner", "Districts per 100k inhabitants"),
    "report.sheet.subjects": ("Angebot nach Fachgebiet", "Offers by subject area"),
    "report.sheet.subjects_by_state": ("Fachgebiet je Bundesland", "Subject areas by state"),
    "report.sheet.forms": ("Angebot nach Lernform", "Offers by instruction form"),
    "report.sheet.forms_by_state": ("Lernform je Bundesland", "Forms within each state"),
    "report.sheet.durations": ("Angebot nach Dauer", "Offers by duration"),
    "report.sheet.durations_by_state": ("Dauer je Bundesland", "Durations within each state"),
    "report.sheet.starts": ("Beginn nach Quartal", "Starts by quarter"),
    "report.sheet.starts_by_month": ("Beginn nach Monat", "Starts by month"),
    "report.sheet.costs": ("Kosten je Kurs", "Costs per course"),
    "report.sheet.quality": ("Datenqualität", "Data quality"),
    "report.sheet.trend_states": ("Archiv erster und letzter Tag", "Archive first and last day"),
    "report.sheet.trend_all": ("Archiv alle Stichtage", "Archive every snapshot"),
    "report.sheet.flows": ("Archiv Kurse je Stichtag", "Archive courses per snapshot"),
    "report.sheet.lifetimes": ("Archiv Verweildauer", "Archive time listed"),
    "report.table.flows": (
        "Kurse je Stichtag: gelistet, neu, entfernt",
        "Courses per snapshot: listed, entered, exited",
    ),
    "report.table.lifetimes": ("Wie lange Kurse im Katalog stehen", "How long courses stay listed"),
}
"""The report's texts: key -> (German, English); ``{name}`` fields are filled in."""
