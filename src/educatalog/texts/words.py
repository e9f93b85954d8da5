"""The words of :mod:`educatalog.texts`: every reader-facing text in German and English (the
English names of the catalogue's labels are in :mod:`educatalog.texts.labels`)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # key: (German, English)
    "yes": ("ja", "yes"),
    "no": ("nein", "no"),
    "total": ("Insgesamt", "Total"),
    "total.germany": ("Deutschland", "Germany"),
    "and": (" und ", " and "),
    "period.quarter": ("{quarter}. Quartal {year}", "Q{quarter} {year}"),
    "tick.quarter": ("{quarter}. Q.", "Q{quarter}"),
    "not_selected": ("nicht ausgewählt", "not selected"),
    "dimension.key": ("Schlüssel", "Key"),
    # dimensions (in titles and axis labels)
    "dimension.state": ("Bundesland", "state"),
    "dimension.snapshot_date": ("Stichtag", "snapshot date"),
    "dimension.state_code": ("Bundesland", "state"),
    "dimension.city": ("Ort", "city"),
    "dimension.zip": ("Postleitzahl", "postcode"),
    "dimension.institution": ("Bildungsanbieter", "institution"),
    "dimension.instruction_form": ("Unterrichtsform", "instruction form"),
    "dimension.instruction_form_category": ("Lernform", "instruction form category"),
    "dimension.instruction_time": ("Unterrichtszeit", "instruction time"),
    "dimension.duration_class": ("Dauer", "duration class"),
    "dimension.education_type": ("Bildungsart", "education type"),
    "dimension.course_type": ("Kursart", "course type"),
    "dimension.institution_type": ("Anbieterart", "institution type"),
    "dimension.funding_type": ("Förderart", "funding type"),
    "dimension.funding_level": ("Förderebene", "funding level"),
    "dimension.barrier_free": ("Barrierefreiheit", "barrier-free access"),
    "dimension.education_voucher": ("Bildungsgutschein", "education voucher"),
    "dimension.is_part_time": ("Teilzeit", "part time"),
    "dimension.has_individual_start": ("individueller Einstieg", "individual start"),
    "dimension.is_inhouse": ("Inhouse-Angebot", "in-house"),
    "dimension.year": ("Startjahr", "start year"),
    "dimension.quarter": ("Startquartal", "start quarter"),
    "dimension.month": ("Startmonat", "start month"),
    "dimension.currency": ("Währung", "currency"),
    "dimension.check": ("Prüfung", "check"),
    # measures: title, axis label
    "measure.events": ("Veranstaltungen", "Events"),
    "measure.courses": ("Kurse", "Courses"),
    "measure.institutions": ("Bildungsanbieter", "Institutions"),
    "measure.capacity": ("Plätze", "Places"),
    "measure.events_per_100k": (
        "Veranstaltungen je 100.000 Einwohner",
        "Events per 100,000 inhabitants",
    ),
    "axis.events": ("Anzahl der Veranstaltungen", "Number of events"),
    "axis.courses": ("Anzahl der Kurse", "Number of courses"),
    "axis.institutions": ("Anzahl der Bildungsanbieter", "Number of institutions"),
    "axis.capacity": (
        "Plätze (Summe der Höchstteilnehmerzahlen)",
        "Places (sum of maximum participants)",
    ),
    "axis.events_per_100k": (
        "Veranstaltungen je 100.000 Einwohner",
        "Events per 100,000 inhabitants",
    ),
    "axis.share": ("Anteil der Veranstaltungen (%)", "Share of events (%)"),
    "axis.share_within": (
        "Anteil der Veranstaltungen je {name} (%)",
        "Share of events within each {name} (%)",
    ),
    "axis.share_all": ("Anteil an allen Veranstaltungen (%)", "Share of all events (%)"),
    "axis.starts": ("Beginnende Veranstaltungen je {freq}", "Events starting per {freq}"),
    "axis.start": ("Beginn ({freq})", "Start {freq}"),
    "axis.cost": ("Kosten ({currency})", "Cost ({currency})"),
    "freq.month": ("Monat", "month"),
    "freq.quarter": ("Quartal", "quarter"),
    "freq.year": ("Jahr", "year"),
    # titles
    "title.by": ("{measure} nach {dimension}", "{measure} by {dimension}"),
    "title.trend": ("{measure} im Zeitverlauf", "{measure} over time"),
    "title.trend_by": (
        "{measure} im Zeitverlauf nach {dimension}",
        "{measure} over time by {dimension}",
    ),
    "axis.snapshot_date": ("Stichtag", "Snapshot date"),
    "note.snapshots": ("{n} Stichtage, {first} bis {last}.", "{n} snapshots, {first} to {last}."),
    "measure.share": ("Anteil", "Share"),
    "measure.listed": ("Gelistete", "Listed"),
    "measure.entered": ("Neu gelistete", "Entered"),
    "measure.exited": ("Nicht mehr gelistete", "Exited"),
    "measure.net": ("Saldo", "Net change"),
    "title.top": ("{title} (die {top} größten)", "{title} (top {top})"),
    "title.shares": (
        "Anteil der Veranstaltungen nach {columns} je {rows}",
        "Share of events by {columns} within each {rows}",
    ),
    "title.shares_columns": (
        "Anteil der Veranstaltungen nach {rows} je {columns}",
        "Share of events by {rows} within each {columns}",
    ),
    "title.shares_all": (
        "Anteil an allen Veranstaltungen nach {rows} und {columns}",
        "Share of all events by {rows} and {columns}",
    ),
    "title.counts_2d": (
        "Veranstaltungen nach {rows} und {columns}",
        "Events by {rows} and {columns}",
    ),
    "title.starts": ("Veranstaltungen nach {freq}", "Events by {freq}"),
    "title.starts_by": (
        "Veranstaltungen nach {freq} und {dimension}",
        "Events by {freq} and {dimension}",
    ),
    "title.costs": ("Kosten nach {dimension} ({currency})", "Costs by {dimension} ({currency})"),
    "title.costs_per_course": (
        "Kosten je Kurs nach {dimension} ({currency})",
        "Costs per course by {dimension} ({currency})",
    ),
    "title.costs_per_event": (
        "Kosten je Veranstaltung nach {dimension} ({currency})",
        "Costs per event by {dimension} ({currency})",
    ),
    "title.measure_by_2d": (
        "{measure} nach {rows} und {columns}",
        "{measure} by {rows} and {columns}",
    ),
    "title.line": ("Veranstaltungen", "Events"),
    # footers and notes
    "source": ("Quelle: {source}", "Source: {source}"),
    "source.demo": (
        "synthetische Demodaten (educatalog), abgerufen am {date}",
        "synthetic demo data (educatalog), retrieved {date}",
    ),
    "source.demo_undated": (
        "synthetische Demodaten (educatalog)",
        "synthetic demo data (educatalog)",
    ),
    "source.demo_named": ("{name}, abgerufen am {date}", "{name}, retrieved {date}"),
    "source.demo_catalogue": (
        "synthetischer Demo-Katalog von educatalog (Seed {seed}, Maßstab {scale}{as_of})",
        "educatalog's synthetic demo catalogue (seed {seed}, scale {scale}{as_of})",
    ),
    "source.demo_as_of": (", Stand des Katalogs {date}", ", the catalogue as of {date}"),
    "source.url": ("{url}, abgerufen am {date}", "{url}, retrieved {date}"),
    "source.named": ("{name}", "{name}"),
    "source.unknown": (
        "nicht bekannt – die Daten sagen nicht, woher sie stammen",
        "not known – the data do not say where they come from",
    ),
    "source.unknown_url": ("unbekannter Dienst", "unknown service"),
    "demo_mark": ("SYNTHETISCHE DEMODATEN", "SYNTHETIC DEMO DATA"),
    "population": ("Einwohner: {source}", "Inhabitants: {source}"),
    "population.source": (
        "{publisher}, {statistic}{basis} (Tabelle {table}), Stand {date}",
        "{publisher}, {statistic}{basis} (table {table}), as of {date}",
    ),
    "population.on_basis": (" auf Basis des {basis}", " based on the {basis}"),
    "population.own": ("{source}, Stand {date}", "{source}, as of {date}"),
    "population.own_nodate": ("{source} (ohne Stichtag)", "{source} (no reference date)"),
    "population.caller": ("vom Nutzer angegeben", "given by the user"),
    "note.without_start": (
        "Nicht dargestellt: {events} ohne Beginndatum.",
        "Not shown: {events} without a start date.",
    ),
    "note.without_state": (
        "Nicht dargestellt: {events} ohne Bundesland.",
        "Not shown: {events} without a state.",
    ),
    "note.not_selected": (
        "Schraffiert: nicht ausgewählte Bundesländer (nicht Teil der Auswahl, nicht 0).",
        "Hatched: states not selected (not part of the selection, not 0).",
    ),
    "note.capacity_unknown": (
        "Ohne Balken: {groups} – keine Veranstaltung nennt eine Höchstteilnehmerzahl.",
        "No bar: {groups} – no event states a maximum number of participants.",
    ),
    "note.rates_without_state": (
        "Nicht in den Raten: {events} ohne Bundesland.",
        "Not in the rates: {events} without a state.",
    ),
    "note.costs_per_course": (
        "Je Kurs: Jeder Kurs zählt einmal mit seinen Kosten (der Summe seiner Preisangaben), "
        "auch wenn er mehrere Veranstaltungen hat; n = Kurse.",
        "Per course: each course counts once with its cost (the sum of its prices), however "
        "many events it has; n = courses.",
    ),
    "note.costs_per_event": (
        "Je Veranstaltung: Jede Veranstaltung zählt einmal mit den Kosten ihres Kurses; ein "
        "Kurs mit zehn Veranstaltungen zählt zehnfach; n = Veranstaltungen.",
        "Per event: each event counts once with its course's cost; a course with ten events "
        "counts ten times; n = events.",
    ),
    "note.costs_zero": (
        "Kosten von 0 zählen als Preisangabe: {n} der {total} Kurse geben 0 an und sind in "
        "Minimum und Quartilen enthalten.",
        "A cost of 0 counts as a stated price: {n} of the {total} courses state 0 and are part "
        "of the minimum and the quartiles.",
    ),
    "note.costs_zero_events": (
        "Kosten von 0 zählen als Preisangabe: {n} der {total} Veranstaltungen haben einen Kurs "
        "mit Kosten von 0 und sind in Minimum und Quartilen enthalten.",
        "A cost of 0 counts as a stated price: {n} of the {total} events belong to a course "
        "stating 0 and are part of the minimum and the quartiles.",
    ),
    "note.not_applicable": (
        "x: Tabellenfach gesperrt, weil Aussage nicht sinnvoll ({why}).",
        "x: not applicable, no meaningful value ({why}).",
    ),
    "note.not_applicable.flows": (
        "der erste Stichtag hat keinen Vorgänger, und Gelistete ergeben über die Stichtage "
        "keine Summe",
        "the first snapshot has no previous one, and listed counts do not add up across snapshots",
    ),
    "no_funding": ("keine Förderart", "no funding type"),
    "note.box": (
        "Kasten: erstes bis drittes Quartil; Linie: Median; Raute: Mittelwert; "
        "Antennen: Minimum bis Maximum.",
        "Box: first to third quartile; line: median; diamond: mean; whiskers: min to max.",
    ),
    "events.one": ("{n} Veranstaltung", "{n} event"),
    "events.many": ("{n} Veranstaltungen", "{n} events"),
    "n": ("{label} (n = {n})", "{label} (n = {n})"),
    "less_than_1": ("<1 %", "<1%"),
    "less_than": ("<\u00a0{share}", "<{share}"),
    "more_than": (">\u00a0{share}", ">{share}"),
    "empty.title": ("Keine Veranstaltung passt zu den Filtern.", "No offers match the filters."),
    "empty.capacity": (
        "Keine Veranstaltung nennt eine Höchstteilnehmerzahl.",
        "No event states a maximum number of participants.",
    ),
    "empty.hint": ("Filter ändern oder zurücksetzen.", "Change or clear them."),
    # alt texts of charts
    "alt.bars": (
        "Balkendiagramm: {title}. Größter Wert: {top} ({top_value}); "
        "kleinster: {low} ({low_value}); {n} Gruppen.",
        "Bar chart: {title}. Largest: {top} ({top_value}); smallest: {low} ({low_value}); "
        "{n} groups.",
    ),
    "alt.stacked": (
        "Gestapelte Balken zu 100 %: {title}. {n} Balken, Anteile von {parts}.",
        "100% stacked bars: {title}. {n} bars, shares of {parts}.",
    ),
    "alt.heatmap": (
        "Heatmap: {title}. {rows} Zeilen ({row_name}) und {columns} Spalten ({column_name}); "
        "höchster Wert {top_value} bei {top}.",
        "Heatmap: {title}. {rows} rows ({row_name}) by {columns} columns ({column_name}); "
        "highest value {top_value} at {top}.",
    ),
    "alt.lines": (
        "Liniendiagramm: {title}, {first} bis {last}. Höchststand {top_value} im {top}.",
        "Line chart: {title}, {first} to {last}. Peak of {top_value} in {top}.",
    ),
    "alt.trend": (
        "Liniendiagramm: {title}, {first} bis {last}. Am letzten Stichtag: {lines}.",
        "Line chart: {title}, {first} to {last}. On the last snapshot: {lines}.",
    ),
    "alt.trend_area": (
        "Gestapeltes Flächendiagramm: {title}, {first} bis {last}. Am letzten Stichtag: {lines}.",
        "Stacked area chart: {title}, {first} to {last}. On the last snapshot: {lines}.",
    ),
    "alt.boxes": (
        "Boxplots: {title}. Median je Gruppe: {medians}.",
        "Box plots: {title}. Median per group: {medians}.",
    ),
    "alt.tiles": (
        "Kachelkarte der 16 Bundesländer: {title}. Höchster Wert: {top} ({top_value}); "
        "niedrigster: {low} ({low_value}).",
        "Tile map of the 16 German states: {title}. Highest: {top} ({top_value}); "
        "lowest: {low} ({low_value}).",
    ),
    "alt.not_selected": (
        "{n} Bundesländer nicht ausgewählt (schraffiert).",
        "{n} states not selected (hatched).",
    ),
    "alt.demo": ("Synthetische Demodaten.", "Synthetic demo data."),
    "alt.chart": ("Diagramm: {title}.", "Chart: {title}."),
    # table columns (headers with their unit)
    "column.events": ("Veranstaltungen", "Events"),
    "column.courses": ("Kurse", "Courses"),
    "column.median_days": ("Median der Tage im Katalog", "Median days listed"),
    "column.institutions": ("Bildungsanbieter", "Institutions"),
    "column.capacity": ("Plätze", "Places"),
    "column.events_with_capacity": ("Veranstaltungen mit Platzangabe", "Events stating places"),
    "column.mean_capacity": ("Plätze je Veranstaltung (Mittel)", "Places per event (mean)"),
    "column.share": ("Anteil", "Share"),
    "column.share_of_events": ("Anteil der Veranstaltungen", "Share of events"),
    "column.share_within": (
        "Anteil der Veranstaltungen je {dimension}",
        "Share of events within each {dimension}",
    ),
    "column.share_of_stated": (
        "Anteil an den {n} Veranstaltungen mit {dimension}",
        "Share of the {n} events with {article} {dimension}",
    ),
    # a flag's share() names its base: all events, or those that state yes or no
    "column.share_yes_all": ("Anteil ja (an allen)", "Share yes (of all)"),
    "column.share_yes_stated": (
        "Anteil ja (unter denen mit Angabe)",
        "Share yes (of those stated)",
    ),
    "column.share_no": ("Anteil nein (an allen)", "Share no (of all)"),
    "column.share_unknown": ("Anteil ohne Angabe (an allen)", "Share not stated (of all)"),
    "column.yes": ("ja", "yes"),
    "column.no": ("nein", "no"),
    "column.unknown": ("ohne Angabe", "not stated"),
    "column.population": ("Einwohner am {date}", "Inhabitants on {date}"),
    "column.key": ("Schlüssel", "Key"),
    "column.population_nodate": ("Einwohner", "Inhabitants"),
    "column.events_per_100k": (
        "Veranstaltungen je 100.000 Einwohner",
        "Events per 100,000 inhabitants",
    ),
    "column.count": ("Betroffene", "Affected"),
    "column.total": ("von insgesamt", "of total"),
    "column.min": ("Minimum ({unit})", "Minimum ({unit})"),
    "column.q1": ("1. Quartil ({unit})", "1st quartile ({unit})"),
    "column.median": ("Median ({unit})", "Median ({unit})"),
    "column.q3": ("3. Quartil ({unit})", "3rd quartile ({unit})"),
    "column.max": ("Maximum ({unit})", "Maximum ({unit})"),
    "column.mean": ("Mittelwert ({unit})", "Mean ({unit})"),
    "column.description": ("Beschreibung", "Description"),
    "unit.currency": ("in der Währung", "in the currency"),
    # quality checks
    "check.events_without_address": ("Veranstaltungen ohne Adresse", "events without an address"),
    "check.events_without_state": (
        "Veranstaltungen ohne bekanntes Bundesland",
        "events whose location has no known state",
    ),
    "check.addresses_without_state": (
        "Veranstaltungen, deren Adresse kein Bundesland nennt",
        "events whose address has no state",
    ),
    "check.unknown_state": (
        "Veranstaltungen mit unbekannter Bundesland-ID",
        "events whose address names an unknown state id",
    ),
    "check.missing_start_date": ("Veranstaltungen ohne Beginndatum", "events without a start date"),
    "check.missing_end_date": ("Veranstaltungen ohne Enddatum", "events without an end date"),
    "check.end_before_start": (
        "Veranstaltungen, die vor ihrem Beginn enden",
        "events that end before they start",
    ),
    "check.no_duration": (
        "Veranstaltungen ohne bestimmbare Dauer",
        "events whose duration cannot be told",
    ),
    "check.empty_participants": (
        "Veranstaltungen ohne Mindest- und Höchstteilnehmerzahl",
        "events with neither minimum nor maximum participants",
    ),
    "check.min_above_max": (
        "Veranstaltungen mit mehr Mindest- als Höchstteilnehmern",
        "events with more minimum than maximum participants",
    ),
    "check.unknown_instruction_form": (
        "Veranstaltungen mit unbekannter Unterrichtsform",
        "events with an unknown instruction form id",
    ),
    "check.unknown_instruction_time": (
        "Veranstaltungen mit unbekannter Unterrichtszeit",
        "events with an unknown instruction time id",
    ),
    "check.unknown_education_type": (
        "Veranstaltungen mit unbekannter Bildungsart",
        "events whose course has an unknown education type id",
    ),
    "check.unknown_course_type": (
        "Veranstaltungen mit unbekannter Kursart",
        "events whose course has an unknown course type id",
    ),
    "check.unknown_institution_type": (
        "Veranstaltungen mit unbekannter Anbieterart",
        "events whose course has an unknown institution type id",
    ),
    "check.events_without_cost": (
        "Veranstaltungen ohne Kostenangabe (oder mit gemischten Währungen)",
        "events without a cost (or with mixed currencies)",
    ),
    "check.cost_without_currency": (
        "Veranstaltungen mit Kosten ohne Währung",
        "events whose cost has no currency",
    ),
    "check.courses_without_events": ("Kurse ohne Veranstaltung", "courses without any event"),
    # Excel
    "excel.about": ("Über diese Daten", "About these data"),
    "excel.heading": ("Über diese Tabellen", "About these tables"),
    "excel.title": ("Titel", "Title"),
    "excel.source": ("Quelle", "Source"),
    "excel.service": ("Dienst (URL)", "Service (URL)"),
    "excel.retrieved": ("Abgerufen", "Retrieved"),
    "excel.stand": ("Stand", "As of"),
    "excel.filters": ("Filter", "Filters"),
    "excel.none": ("keine (alle Veranstaltungen)", "none (all events)"),
    "excel.note": ("Hinweis", "Note"),
    "excel.demo": (
        "SYNTHETISCHE DEMODATEN: erzeugte Beispieldaten von educatalog, nicht das echte "
        "Kursangebot.",
        "SYNTHETIC DEMO DATA: generated by educatalog, not the real course supply.",
    ),
    "excel.population": ("Einwohnerzahlen", "Population figures"),
    "excel.written": ("Erstellt", "Written"),
    "excel.sheets": ("Tabellenblätter", "Sheets"),
    "excel.table": ("Tabelle", "Table"),
    "excel.measure": ("Maß", "Measure"),
    # the report
    "report.title": ("Bericht zum Kursangebot", "Course supply report"),
    "report.demo": (
        "**Synthetische Demodaten**: Diese Zahlen beschreiben den erzeugten "
        "Demo-Katalog von educatalog, nicht das echte Kursangebot.",
        "**Synthetic demo data**: these numbers describe educatalog's generated demo "
        "catalogue, not the real course supply.",
    ),
    "report.intro": ("Quelle: {source}. {events}{scope}.", "Source: {source}. {events}{scope}."),
    "report.scope.states": ("Bundesländer: {states}", "states: {states}"),
    "report.scope.dates": ("Beginn {start} bis {end}", "start dates {start} to {end}"),
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
    "report.forms": ("Lernformen", "Instruction forms"),
    "report.durations": ("Dauer", "Durations"),
    "report.starts": ("Beginn im Zeitverlauf", "Starts over time"),
    "report.starts.table": ("Veranstaltungen nach Startquartal", "Events by start quarter"),
    "report.costs": ("Kosten", "Costs"),
    "report.costs.text": (
        "Kosten der Kurse mit Preisangabe, in Euro, je Kurs (nicht je Veranstaltung).",
        "Costs of the priced courses, in euro, per course (not per event).",
    ),
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
        "überein: {events} nach Bundesland wie oben.",
        "On its last snapshot ({date}) the archive agrees with the catalogue of this report: "
        "{events}, by state as above.",
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
    "report.lifetimes.all": ("alle Kurse", "all courses"),
    "report.lifetimes.complete": (
        "im Archiv neu gelistet und wieder entfernt",
        "entered and exited within the archive",
    ),
    "report.table.states": ("Angebot nach Bundesland", "Offers by state"),
    "report.table.per_capita": (
        "Veranstaltungen je 100.000 Einwohner nach Bundesland",
        "Events per 100,000 inhabitants by state",
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
"""The reader-facing texts: key -> (German, English); ``{name}`` fields are filled in."""
