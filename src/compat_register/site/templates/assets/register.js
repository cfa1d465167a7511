/* compat-register: the tables after a filter box (the overview's, the revision matrix's, the
   priorities') sort on a header click and filter by the box's selects, each naming a column.
   Vanilla JavaScript, no network. Material's instant navigation is not enabled, so the page's
   own load event is enough; with it, `document$.subscribe(setup)` would be. */
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
      if (column === undefined) return true;
      var text = row.cells[column].textContent.trim();
      if (select.getAttribute("data-filter") === "Tags") {
        return text.split(/,\s*/).indexOf(wanted) !== -1;
      }
      return text === wanted;
    });
  }

  function applyFilters(tables, filters, shown) {
    var visible = 0;
    var total = 0;
    tables.forEach(function (table) {
      var names = headerIndex(table);
      var rows = table.tBodies[0].rows;
      var kept = 0;
      Array.prototype.forEach.call(rows, function (row) {
        var keep = matches(row, filters, names);
        row.hidden = !keep;
        if (keep) kept += 1;
      });
      showGroup(table, kept > 0 || tables.length === 1);
      visible += kept;
      total += rows.length;
    });
    if (shown) shown.textContent = visible + " of " + total + " entries";
  }

  // A page of several tables (the priorities, one per register) hides a table whose rows
  // are all filtered out, with the heading that names it.
  function showGroup(table, show) {
    var block = table;
    while (block.parentElement && !block.parentElement.classList.contains("md-content__inner")
           && block.parentElement.tagName !== "ARTICLE" && block.parentElement !== document.body) {
      block = block.parentElement;
    }
    block.hidden = !show;
    var heading = block.previousElementSibling;
    if (heading && /^H[2-6]$/.test(heading.tagName)) heading.hidden = !show;
  }

  function tablesAfter(element) {
    var found = [];
    for (var next = element.nextElementSibling; next; next = next.nextElementSibling) {
      if (next.tagName === "TABLE") found.push(next);
      else Array.prototype.push.apply(found, next.querySelectorAll("table"));
    }
    return found.filter(function (table) { return table.tHead && table.tBodies.length; });
  }

  // `?value=high&effort=S` (the priorities grid links so) preselects the filters it names.
  function presetFilters(filters) {
    var params = new URLSearchParams(window.location.search);
    filters.forEach(function (select) {
      var wanted = params.get(select.getAttribute("data-filter").toLowerCase());
      var known = Array.prototype.some.call(select.options, function (option) {
        return option.value === wanted;
      });
      if (wanted !== null && known) select.value = wanted;
    });
  }

  function setup() {
    var box = document.querySelector("[data-reg-filters]");
    if (!box || box.getAttribute("data-ready")) return;
    var tables = tablesAfter(box);
    if (!tables.length) return;
    box.setAttribute("data-ready", "1");
    tables.forEach(function (table) {
      table.setAttribute("data-reg-sortable", "");  // not a class: material styles table:not([class])
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
        if (th.querySelector("a")) return;  // a header that is a link (a revision) stays one
        th.setAttribute("role", "button");
        th.addEventListener("click", function () { sortBy(table, column, th); });
      });
    });
    var filters = Array.prototype.slice.call(box.querySelectorAll("select[data-filter]"));
    var shown = box.querySelector("[data-reg-shown]");
    presetFilters(filters);
    filters.forEach(function (select) {
      select.addEventListener("change", function () {
        applyFilters(tables, filters, shown);
      });
    });
    applyFilters(tables, filters, shown);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
