/* compat-register: the overview table sorts on a header click and filters by register, state
   and tag. Vanilla JavaScript, no network. Material's instant navigation is not enabled, so
   the page's own load event is enough; with it, `document$.subscribe(setup)` would be. */
(function () {
  "use strict";

  function cellValue(cell) {
    var badge = cell.querySelector("[data-rank]");
    return badge ? Number(badge.getAttribute("data-rank")) : cell.textContent.trim();
  }

  function compare(a, b) {
    if (typeof a === "number" && typeof b === "number") return a - b;
    return String(a).localeCompare(String(b), undefined, { numeric: true });
  }

  function headerIndex(table) {
    var names = {};
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      names[th.textContent.trim()] = i;
    });
    return names;
  }

  function sortBy(table, column, th) {
    var body = table.tBodies[0];
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (other) {
      other.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (r1, r2) {
      var order = compare(cellValue(r1.cells[column]), cellValue(r2.cells[column]));
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  function matches(row, filters, names) {
    return filters.every(function (select) {
      var wanted = select.value;
      if (!wanted) return true;
      var column = names[select.getAttribute("data-filter")];
      var text = row.cells[column].textContent.trim();
      if (select.getAttribute("data-filter") === "Tags") {
        return text.split(/,\s*/).indexOf(wanted) !== -1;
      }
      return text === wanted;
    });
  }

  function applyFilters(table, filters, names, shown) {
    var rows = table.tBodies[0].rows;
    var visible = 0;
    Array.prototype.forEach.call(rows, function (row) {
      var keep = matches(row, filters, names);
      row.hidden = !keep;
      if (keep) visible += 1;
    });
    if (shown) shown.textContent = visible + " of " + rows.length + " entries";
  }

  function tableAfter(element) {
    for (var next = element.nextElementSibling; next; next = next.nextElementSibling) {
      var table = next.tagName === "TABLE" ? next : next.querySelector("table");
      if (table) return table;
    }
    return null;
  }

  function setup() {
    var box = document.querySelector("[data-reg-filters]");
    if (!box || box.getAttribute("data-ready")) return;
    var table = tableAfter(box);
    if (!table || !table.tHead || !table.tBodies.length) return;
    box.setAttribute("data-ready", "1");
    table.setAttribute("data-reg-sortable", "");  // not a class: material styles table:not([class])
    var names = headerIndex(table);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      th.setAttribute("role", "button");
      th.addEventListener("click", function () { sortBy(table, column, th); });
    });
    var filters = Array.prototype.slice.call(box.querySelectorAll("select[data-filter]"));
    var shown = box.querySelector("[data-reg-shown]");
    filters.forEach(function (select) {
      select.addEventListener("change", function () {
        applyFilters(table, filters, names, shown);
      });
    });
    applyFilters(table, filters, names, shown);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
