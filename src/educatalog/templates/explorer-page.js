// The dashboard's page (educatalog dashboard --engine html) without leaving it: a pause
// after the last change of a control, the page of the view chosen is fetched, its controls
// and outputs are taken over in place (the focus stays where it is), and the address bar
// gets the view's link. Without this script the form's button does the same by loading
// the page. See educatalog/widgets/html_page.py for the page's parts.
(() => {
  "use strict";
  const form = document.getElementById("educatalog-form");
  if (!form) return;
  const pause = Number(form.dataset.debounce || "300");
  const parts = ["educatalog-notices", "educatalog-status", "educatalog-results", "educatalog-link"];
  let timer = null;
  let asking = null; // the request on its way, stopped by the next change
  let updates = 0;

  const controls = () => [...form.elements].filter((element) => element.name);
  // the address: the view's link as the page writes it (a link with parts it could not
  // use, named above the controls, is not redirected; the address drops them here)
  const address = (link) => (link === "?" ? location.pathname : link);
  if (form.dataset.link && form.dataset.link !== (location.search || "?")) {
    history.replaceState(null, "", address(form.dataset.link));
  }
  const query = () => new URLSearchParams(new FormData(form)).toString();

  function stop() {
    clearTimeout(timer);
    if (asking) asking.abort();
    asking = null;
  }

  function schedule() {
    stop(); // an answer to the previous choice would undo this one
    timer = setTimeout(() => show(`?${query()}`), pause);
  }

  // The controls that belong to the form: inside it, and those below the table (form=...)
  document.addEventListener("change", (event) => {
    if (event.target.form === form) schedule();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    stop();
    show(`?${query()}`);
  });
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a.educatalog-reset");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    stop();
    show(link.getAttribute("href"));
  });

  function take(fresh) {
    // each control as the server chose (a district of a state no longer chosen is gone)
    for (const control of controls()) {
      const twin = fresh.querySelector(
        control.type === "radio" || control.type === "checkbox"
          ? `input[name="${control.name}"][value="${CSS.escape(control.value)}"]`
          : `[name="${control.name}"]`,
      );
      if (!twin) continue;
      if (control.tagName === "SELECT") {
        const values = (select) => [...select.options].map((o) => o.value).join("\n");
        if (values(control) !== values(twin)) control.innerHTML = twin.innerHTML;
        [...control.options].forEach((option, index) => {
          option.selected = twin.options[index].selected;
        });
      } else if ("checked" in control) {
        control.checked = twin.checked;
      }
    }
    const reset = document.querySelector("a.educatalog-reset");
    const resetTwin = fresh.querySelector("a.educatalog-reset");
    if (reset && resetTwin) reset.setAttribute("href", resetTwin.getAttribute("href"));
    // the outputs' contents: a live region stays the same element, and is heard
    for (const id of parts) {
      const here = document.getElementById(id);
      const there = fresh.getElementById(id);
      if (here && there) here.innerHTML = there.innerHTML;
    }
  }

  function busy(on) {
    const results = document.getElementById("educatalog-results");
    if (results) results.setAttribute("aria-busy", on ? "true" : "false");
  }

  async function show(wanted) {
    const request = new AbortController();
    asking = request;
    busy(true);
    try {
      // the page of the view, not a redirect to its link: the form says the link
      const response = await fetch(wanted, {
        signal: request.signal,
        headers: { "X-Educatalog-Page": "part" },
      });
      const text = await response.text();
      if (asking !== request) return;
      const fresh = new DOMParser().parseFromString(text, "text/html");
      if (!response.ok || !fresh.getElementById("educatalog-form")) {
        // the server's own words where it has any (too busy), else its status
        const plain = (response.headers.get("Content-Type") || "").startsWith("text/plain");
        throw new Error(plain && text.length < 300 ? text : `HTTP ${response.status}`);
      }
      take(fresh);
      updates += 1;
      const status = document.querySelector("#educatalog-status [data-updates]");
      if (status) status.dataset.updates = String(updates);
      const link = fresh.getElementById("educatalog-form").dataset.link;
      history.replaceState(null, "", address(link)); // the view's link
    } catch (error) {
      if (error.name === "AbortError") return;
      const status = document.getElementById("educatalog-status");
      if (status) {
        const said = document.createElement("p");
        said.style.color = "#B00020";
        // a lost connection is the browser's TypeError, in its own language: not repeated
        const why = error.name === "TypeError" ? "" : ` (${error.message})`;
        said.textContent = `${form.dataset.failed}${why}`;
        status.replaceChildren(said);
      }
    } finally {
      if (asking === request) {
        asking = null;
        busy(false);
      }
    }
  }
})();
