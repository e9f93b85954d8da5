"""The words of the explorer (:mod:`educatalog.widgets`) and of the dashboard's page
(``educatalog dashboard``), in German and English; part of
``educatalog.texts.words.TEXTS``.

A control names what it chooses as the tables and charts do: a filter by the name of its
dimension ("Lernform", as "Zählen nach" offers it), a measure by its name in
``measure.*`` ("Bildungsanbieter"); :mod:`educatalog.widgets` takes those from
:mod:`educatalog.texts`, so the words here are the explorer's own."""

from __future__ import annotations

EXPLORER_TEXTS: dict[str, tuple[str, str]] = {
    # the explorer: its controls
    "explorer.heading": ("Kursangebot erkunden", "Course supply explorer"),
    "explorer.by": ("Zählen nach", "Count by"),
    "explorer.by2": ("und nach", "and by"),
    "explorer.measure": ("Maß", "Measure"),
    "explorer.show": ("Darstellung", "Show"),
    "explorer.show.chart": ("Diagramm", "Chart"),
    "explorer.show.map": ("Karte", "Map"),
    "explorer.choose": (
        "Mehrere wählen: Strg-Taste (Mac: ⌘) gedrückt halten und klicken. Nichts gewählt heißt: "
        "alle.",
        "To choose several, hold Ctrl (Mac: ⌘) and click. Nothing chosen means all.",
    ),
    "explorer.all": ("{name}: keine Auswahl heißt alle", "{name}: none selected means all"),
    "explorer.start": ("Beginn", "Start"),
    "explorer.voucher": ("nur mit Bildungsgutschein", "Education voucher only"),
    "explorer.reset": ("Filter zurücksetzen", "Clear filters"),
    "explorer.apply": ("Ansicht zeigen", "Show this view"),
    "explorer.unreachable": (
        "Die gewählte Ansicht ließ sich nicht laden",
        "The view chosen could not be loaded",
    ),
    "explorer.download": ("Tabelle herunterladen ({format})", "Download the table ({format})"),
    # what a screen reader says of a control whose label the page does not show
    "explorer.aria.from": ("{name} ab", "{name} from"),
    "explorer.aria.to": ("{name} bis", "{name} to"),
    "explorer.aria.format": ("Dateiformat der Tabelle", "File format of the table"),
    # the status line and the notes beside the chart
    "explorer.match": (
        "<b>{n}</b> von {total} Veranstaltungen passen",
        "<b>{n}</b> of {total} events match",
    ),
    "explorer.ignored": (
        "zweite Dimension ignoriert: dieselbe wie die erste",
        "second dimension ignored: the same as the first",
    ),
    "explorer.updated": ("aktualisiert in {seconds} s", "updated in {seconds} s"),
    "explorer.voucher_only": ("nur mit Bildungsgutschein", "education voucher only"),
    "explorer.range": ("Beginn {low} bis {high}", "start {low} to {high}"),
    "explorer.top": (
        "Diagramm: die {top} größten von {levels} Gruppen, Tabelle: alle",
        "chart: the largest {top} of {levels} groups, table: all",
    ),
    "explorer.demo": ("synthetische Demodaten", "synthetic demo data"),
    "explorer.failed": ("Export fehlgeschlagen: {error}", "Export failed: {error}"),
    "explorer.map.hint": (
        "alle Kreise zeigt die Karte (Darstellung: Karte)",
        "the map shows every district (Show: Map)",
    ),
    "explorer.map.capacity": (
        "Die Karte zeigt Veranstaltungen, Kurse oder Bildungsanbieter, keine Plätze.",
        "The map shows events, courses or institutions, not places.",
    ),
    "explorer.map.none": (
        "Die Auswahl enthält keinen Kreis.",
        "The selection holds no district.",
    ),
    "explorer.map.other": (
        "Wählen Sie ein anderes Maß oder die Darstellung Diagramm.",
        "Choose another measure, or Show Chart.",
    ),
    "explorer.map.states": (
        "Wählen Sie ein Bundesland oder die Darstellung Diagramm.",
        "Choose a state, or Show Chart.",
    ),
    # what a link holds that the explorer cannot use
    "explorer.link.key": (
        "Link: „{part}“ gibt es nicht (es gibt: {keys}); ignoriert.",
        'Link: there is no "{part}" (there are: {keys}); ignored.',
    ),
    "explorer.link.value": (
        "Link: {part}={value} gibt es nicht (es gibt: {allowed}); ignoriert.",
        "Link: there is no {part}={value} (there are: {allowed}); ignored.",
    ),
    "explorer.link.close": (
        "Link: {part}={value} gibt es nicht ({close}); ignoriert.",
        "Link: there is no {part}={value} ({close}); ignored.",
    ),
    "explorer.link.similar": ("ähnlich: {names}", "similar: {names}"),
    "explorer.link.count": ("es gibt {n} zur Wahl", "there are {n} to choose from"),
    "explorer.link.outside": (
        "Link: {part}={value} liegt in keinem der gewählten Bundesländer ({states}); ignoriert.",
        "Link: {part}={value} lies in none of the states chosen ({states}); ignored.",
    ),
    "explorer.link.month": (
        "Link: {part}={value} ist kein Monat (JJJJ-MM oder wie der Regler ihn nennt); ignoriert.",
        "Link: {part}={value} is not a month (YYYY-MM, or as the slider names it); ignored.",
    ),
    "explorer.link.more": ("Link: und {n} weitere Hinweise.", "Link: and {n} more notices."),
    "explorer.link.range": (
        "Link: {part}={value} liegt außerhalb der Daten ({first} bis {last}); "
        "der nächste Monat gilt.",
        "Link: {part}={value} lies outside the data ({first} to {last}); "
        "the nearest month is used.",
    ),
    # the dashboard's page (educatalog dashboard)
    "dashboard.title": ("Kursangebot erkunden", "Explore the course supply"),
    "dashboard.intro": (
        "Wählen Sie, was gezählt wird und wonach, und filtern Sie die Veranstaltungen; "
        "Diagramm und Tabelle folgen. Die Adresse dieser Seite hält die Auswahl fest: "
        "Kopieren Sie sie, um diese Ansicht zu teilen.",
        "Choose what to count and by what, and filter the events; the chart and the table "
        "follow. The address of this page keeps your choices: copy it to share this view.",
    ),
    "dashboard.demo": (
        "Synthetische Demodaten: Dieser Katalog ist erfunden ({origin}). Er zeigt, wie das "
        "Werkzeug arbeitet, nicht das echte Kursangebot.",
        "Synthetic demo data: this catalogue is made up ({origin}). It shows how the tool "
        "works, not the real course supply.",
    ),
    "dashboard.failed": (
        "Die Ansicht dieses Links ließ sich nicht zeigen ({error}); hier die Grundansicht.",
        "The view of this link could not be shown ({error}); here is the plain view.",
    ),
    "dashboard.busy": (
        "Das Kursangebot ist gerade stark gefragt: Bitte laden Sie die Seite in einigen "
        "Sekunden neu.",
        "The course supply is in great demand just now: please reload the page in a few seconds.",
    ),
    "dashboard.origin": (
        "educatalog-Demo, Seed {seed}, Maßstab {scale}",
        "educatalog demo, seed {seed}, scale {scale}",
    ),
    # while the page loads (the template of data/jupyter/voila/templates/educatalog)
    "dashboard.loading": (
        "Das Kursangebot wird geladen …",
        "Loading the course supply …",
    ),
    "dashboard.loading.1": ("Der Katalog wird gelesen …", "Reading the catalogue …"),
    "dashboard.loading.2": ("Ihre Ansicht wird gezeichnet …", "Drawing your view …"),
    "dashboard.loading.step": (
        "Schritt {index} von {count} …",
        "Step {index} of {count} …",
    ),
}
"""The explorer's and the dashboard's words: key -> (German, English)."""
