"""The words of :mod:`educatalog.texts`: every reader-facing text in German and English (the
English names of the catalogue's labels are in :mod:`educatalog.texts.labels`)."""

from __future__ import annotations

from educatalog.texts.check_words import CHECK_TEXTS
from educatalog.texts.district_words import DISTRICT_TEXTS
from educatalog.texts.explorer_words import EXPLORER_TEXTS
from educatalog.texts.method_words import METHOD_TEXTS
from educatalog.texts.period_words import PERIOD_TEXTS
from educatalog.texts.report_words import REPORT_TEXTS
from educatalog.texts.symbol_words import SYMBOL_TEXTS

TEXTS: dict[str, tuple[str, str]] = {
    # key: (German, English)
    "yes": ("ja", "yes"),
    "no": ("nein", "no"),
    "total": ("Insgesamt", "Total"),
    "total.germany": ("Deutschland", "Germany"),
    "total.with_state": (
        "{total} (Veranstaltungen mit Bundesland)",
        "{total} (events with a state)",
    ),
    "not_meaningful": ("x", "x"),
    "or": (" bzw. ", " or "),
    "and": (" und ", " and "),
    "period.quarter": ("{quarter}. Quartal {year}", "Q{quarter} {year}"),
    "tick.quarter": ("{quarter}. Q.", "Q{quarter}"),
    "not_selected": ("nicht ausgewählt", "not selected"),
    "dimension.key": ("Schlüssel", "Key"),
    # dimensions (in titles and axis labels)
    "dimension.state": ("Bundesland", "state"),
    "dimension.snapshot_date": ("Stichtag", "snapshot date"),
    "dimension.state_code": ("Bundesland", "state"),
    "dimension.district": ("Kreis", "district"),
    "dimension.district_key": ("Kreis", "district"),
    "dimension.district_problem": ("Grund für unbekannten Kreis", "why the district is unknown"),
    "dimension.subject": ("Fachgebiet (Systematik)", "subject (systematics)"),
    "dimension.subject_code": ("Systematik-Code", "systematics code"),
    "dimension.subject_area": ("Fachgebiet", "subject area"),
    "dimension.subject_area_code": ("Fachgebiet (Code)", "subject area (code)"),
    "dimension.subject_group": ("Obergruppe der Systematik", "systematics group"),
    "dimension.subject_group_code": ("Obergruppe (Code)", "systematics group (code)"),
    "dimension.degree_type": ("Abschlussart", "degree type"),
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
    "label.others": ("übrige ({n})", "others ({n})"),
    "note.multiple_subjects": (
        "Mehrfachzuordnung: ein Kurs kann mehreren Fachgebieten angehören und zählt in jedem; "
        "die Summe der Balken übersteigt die Gesamtzahl ({total} Veranstaltungen). Anteile an "
        "allen Veranstaltungen.",
        "Multiple assignment: a course may belong to several subject areas and counts in each; "
        "the bars add up to more than the total ({total} events). Shares of all events.",
    ),
    "note.subject_shares": (
        "Anteile an allen Veranstaltungen ({total}).",
        "Shares of all events ({total}).",
    ),
    "alt.subjects": (
        "Balkendiagramm: {title}. Am meisten: {top} ({top_value}); {n} Fachgebiete mit Angebot.",
        "Bar chart: {title}. Most: {top} ({top_value}); {n} subject areas with offers.",
    ),
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
    "population.no_basis": (" (Zensusbasis nicht angegeben)", " (census basis not stated)"),
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
    "note.without_district": (
        "Nicht dargestellt: {events} ohne Kreis.",
        "Not shown: {events} without a district.",
    ),
    "note.districts_not_selected": (
        "Schraffiert: nicht ausgewählte Kreise (nicht Teil der Auswahl, nicht 0).",
        "Hatched: districts not selected (not part of the selection, not 0).",
    ),
    "note.map_classes": (
        "Farbstufen: etwa gleich viele Kreise je Stufe (Quantile).",
        "Colour classes: about as many districts in each (quantiles).",
    ),
    "note.map_classes_zero": (
        "Farbstufen: Kreise ohne Veranstaltung eine für sich, die übrigen etwa gleich viele "
        "Kreise je Stufe (Quantile).",
        "Colour classes: districts without events one of their own, the others about as "
        "many districts in each (quantiles).",
    ),
    "note.map_shapes": (
        "Kartengrundlage: © GeoBasis-DE / BKG 2021 (Daten verändert); Kreis einer Adresse "
        "aus Postleitzahl und Ort: © OpenStreetMap contributors (ODbL).",
        "Map: © GeoBasis-DE / BKG 2021 (Daten verändert); an address's district from its "
        "postal code and place: © OpenStreetMap contributors (ODbL).",
    ),
    "map.no_data": ("keine Angabe", "no data"),
    "map.below": ("unter {upper}", "under {upper}"),
    "map.between": ("{lower} bis unter {upper}", "{lower} to under {upper}"),
    "map.above": ("{lower} und mehr", "{lower} and over"),
    "map.over_zero": ("über 0 bis unter {upper}", "over 0 to under {upper}"),
    "map.positive": ("über 0", "over 0"),
    "map.range": ("{lower} bis {upper}", "{lower} to {upper}"),
    "title.in": ("{title}: {where}", "{title}: {where}"),
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
    "no_funding": ("keine Förderart", "no funding type"),
    "note.box": (
        "Kasten: erstes bis drittes Quartil; Linie: Median; Raute: Mittelwert; "
        "Antennen: Minimum bis Maximum.",
        "Box: first to third quartile; line: median; diamond: mean; whiskers: min to max.",
    ),
    "note.filters": ("Auswahl: {filters}.", "Selection: {filters}."),
    "note.distinct_totals": (
        "{columns}: in der Zeile „{total}“ jeweils einmal gezählt; da sie in mehreren "
        "Zeilen vorkommen können, ist die Summe der Zeilen größer.",
        "{columns}: counted once each in the row “{total}”; as they can appear in "
        "several rows, the rows add up to more.",
    ),
    "note.multiple_assignment_rows": (
        "Mehrfachzuordnung: {columns} können mehreren Zeilen angehören und zählen in jeder; "
        "die Summe der Zeilen übersteigt daher die Gesamtzahl (Zeile „{total}“, die jede "
        "einmal zählt).",
        "Multiple assignment: {columns} can belong to several rows and count in each; the "
        "rows therefore add up to more than the total (row “{total}”, which counts each "
        "once).",
    ),
    "note.capacity": (
        "Plätze: Summe der Höchstteilnehmerzahlen der Veranstaltungen, die eine nennen "
        "({stated} von {events}); die übrigen Veranstaltungen zählen ohne Plätze.",
        "Places: the sum of the maximum participants of the events that state one "
        "({stated} of {events}); the other events count with no places.",
    ),
    "note.not_meaningful": (
        "x: Tabellenfach gesperrt, weil Aussage nicht sinnvoll ({why}).",
        "x: not meaningful ({why}).",
    ),
    "note.not_meaningful.selection": (
        "die Auswahl enthält nur Veranstaltungen mit {what}",
        "the selection holds only events with {what}",
    ),
    "note.not_meaningful.state": ("bekanntem Bundesland", "a known state"),
    "note.not_meaningful.start": ("Beginndatum", "a start date"),
    "note.not_meaningful.district": ("bekanntem Kreis", "a known district"),
    "note.not_meaningful.flows": (
        "der erste Stichtag hat keinen früheren zum Vergleich; „Gelistet“ hat keine Summe, "
        "ein Kurs steht an vielen Stichtagen",
        "the first snapshot has no earlier one to compare with; “Listed” has no total, a "
        "course is listed on many snapshots",
    ),
    "note.cost_zero": (
        "Darunter Kurse zu 0 {unit}: Kurse, für die der Dienst Kosten von 0 nennt (oft über "
        "einen Bildungsgutschein gefördert); sie zählen als Kosten von 0 mit.",
        "Of which courses at 0 {unit}: courses whose stated cost is 0 (often funded by an "
        "education voucher); they count as a cost of 0.",
    ),
    "note.cost_zero_events": (
        "Darunter Veranstaltungen zu 0 {unit}: Veranstaltungen, deren Kurs laut Dienst Kosten "
        "von 0 hat (oft über einen Bildungsgutschein gefördert); sie zählen als Kosten von 0 "
        "mit.",
        "Of which events at 0 {unit}: events whose course's stated cost is 0 (often funded by "
        "an education voucher); they count as a cost of 0.",
    ),
    "note.cost_coverage": (
        "Kosten in {currency} nennen {priced} von {courses} Kursen mit Veranstaltungen; "
        "die übrigen nennen keine (oder keine in {currency}).",
        "{priced} of {courses} courses with events state a cost in {currency}; the others "
        "state none (or none in {currency}).",
    ),
    "note.lifetimes": (
        "Tage: vom ersten bis zum letzten Stichtag, an dem ein Kurs gelistet war. Kurse, "
        "die schon am ersten oder noch am letzten Stichtag gelistet waren, standen "
        "womöglich länger im Katalog: ihre Tage sind eine Untergrenze (mindestens).",
        "Days: from the first to the last snapshot that listed a course. Courses listed "
        "on the first or still on the last snapshot may have been listed longer: their "
        "days are a lower bound (at least).",
    ),
    "events.one": ("{n} Veranstaltung", "{n} event"),
    "events.many": ("{n} Veranstaltungen", "{n} events"),
    "n": ("{label} (n = {n})", "{label} (n = {n})"),
    "less_than_1": ("<1 %", "<1%"),
    "less_than": ("<\u00a0{share}", "<{share}"),
    "more_than": (">\u00a0{share}", ">{share}"),
    "note.heatmap.unknown": (
        "Graue Felder ohne Zahl: Keine ihrer Veranstaltungen nennt ihre Plätze.",
        "Grey cells without a number: none of their events states its places.",
    ),
    "note.heatmap.no_base.index": (
        "Graue Felder ohne Zahl: kein Anteil, die Zeile zählt nichts.",
        "Grey cells without a number: no share, the row counts nothing.",
    ),
    "note.heatmap.no_base.columns": (
        "Graue Felder ohne Zahl: kein Anteil, die Spalte zählt nichts.",
        "Grey cells without a number: no share, the column counts nothing.",
    ),
    "note.heatmap.no_base.all": (
        "Graue Felder ohne Zahl: kein Anteil, die Tabelle zählt nichts.",
        "Grey cells without a number: no share, the table counts nothing.",
    ),
    "notice.demo_server": (
        "educatalog: Der eingebaute Referenzserver liefert den SYNTHETISCHEN Demokatalog "
        "(Seed {seed}, Maßstab {scale}) unter {url}; setzen Sie EDUCATALOG_URL, um den "
        "echten Dienst zu lesen.",
        "educatalog: serving the SYNTHETIC demo catalogue (seed {seed}, scale {scale}) at "
        "{url}; set EDUCATALOG_URL to use the real service.",
    ),
    "empty.title": ("Keine Veranstaltung passt zu den Filtern.", "No event matches the filters."),
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
    "note.multiple_assignment": (
        "Mehrfachzuordnung: eine Veranstaltung kann mehreren Gruppen angehören und zählt in "
        "jeder; zusammen ergeben die Felder mehr als die Gesamtzahl (mehr als 100 %).",
        "Multiple assignment: an event may belong to several groups and counts in each; the "
        "cells add up to more than the total (more than 100%).",
    ),
    "note.n_events": (
        "n: die Zahl der Veranstaltungen jeder Zeile.",
        "n: the number of events in each row.",
    ),
    "alt.bar": (
        "Balkendiagramm: {title}. Ein Balken: {top} ({top_value}).",
        "Bar chart: {title}. One bar: {top} ({top_value}).",
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
    "alt.districts": (
        "Karte der Kreise: {title}. Höchster Wert: {top} ({top_value}); "
        "niedrigster: {low} ({low_value}).",
        "Map of the districts: {title}. Highest: {top} ({top_value}); lowest: {low} ({low_value}).",
    ),
    "alt.districts_more": ("{name} und {more} weitere Kreise", "{name} and {more} more districts"),
    "alt.districts_value": ("{value}; {events}", "{value}; {events}"),
    "alt.districts_one_more": ("{name} und 1 weiterer Kreis", "{name} and 1 more district"),
    "alt.districts_no_data": (
        "Kreise ohne Angabe (schraffiert): {n}.",
        "Districts without data (hatched): {n}.",
    ),
    "alt.districts_not_selected": (
        "Kreise nicht ausgewählt (schraffiert): {n}.",
        "Districts not selected (hatched): {n}.",
    ),
    "alt.demo": ("Synthetische Demodaten.", "Synthetic demo data."),
    "alt.chart": ("Diagramm: {title}.", "Chart: {title}."),
    # table columns (headers with their unit)
    "column.events": ("Veranstaltungen", "Events"),
    "column.courses": ("Kurse", "Courses"),
    "column.median_days": ("Median der Tage im Katalog", "Median days listed"),
    "column.institutions": ("Bildungsanbieter", "Institutions"),
    "column.capacity": ("Plätze (soweit angegeben)", "Places (where stated)"),
    "column.zero": ("darunter Kurse zu 0 {unit}", "of which courses at 0 {unit}"),
    "column.zero_events": (
        "darunter Veranstaltungen zu 0 {unit}",
        "of which events at 0 {unit}",
    ),
    "column.listed": ("Gelistet (mit Veranstaltungen)", "Listed (with events)"),
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
    **CHECK_TEXTS,
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
    "excel.written": ("Erstellt", "Created"),
    "excel.as_of": ("Stand der Daten", "Data as of"),
    "excel.sheets": ("Tabellenblätter", "Sheets"),
    "excel.table": ("Tabelle", "Table"),
    "excel.measure": ("Maß", "Measure"),
    **DISTRICT_TEXTS,
    **EXPLORER_TEXTS,
    **PERIOD_TEXTS,
    **REPORT_TEXTS,
    **SYMBOL_TEXTS,
    **METHOD_TEXTS,
}
"""The reader-facing texts: key -> (German, English); ``{name}`` fields are filled in."""
