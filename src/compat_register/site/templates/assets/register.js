/* compat-register: the tables after a filter box (the overview's, the revision matrix's, the
   priorities') sort by column and filter by the box's selects, each naming a column.
   Vanilla JavaScript, no network. Material's instant navigation is not enabled, so the page's
   own load event is enough; with it, `document$.subscribe(setup)` would be.

   Accessibility: each column header keeps its <th> (a screen reader still names the column
   of every cell) and gets a real <button> inside it, so Tab reaches it and Enter or Space
   sorts; `aria-sort` sits on the <th>, where ARIA allows it. The "N of M entries" count is
   a polite live region (role="status"), announced when a filter changes it. The sort and
   the filters are kept in the page's query string (`?sort=state&order=descending&state=
   missing`; the priorities grid links to `?value=high&effort=S`), so a sorted, filtered view
   can be bookmarked, shared and reloaded. On a page of several tables (the priorities, one
   per register) a sort applies to every table with that column. */
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

  function columnKey(name) {
    return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  }

  function headers(table) {
    return Array.prototype.slice.call(table.tHead.rows[0].cells);
  }

  function columnOf(table, key) {
    return headers(table).findIndex(function (th) { return columnKey(th.textContent) === key; });
  }

  function sortTables(view, key, ascending) {
    view.tables.forEach(function (table) {
      var column = columnOf(table, key);
      if (column !== -1) sortRows(table, column, ascending);
      else headers(table).forEach(function (th) { th.removeAttribute("aria-sort"); });
    });
  }

  function sortRows(table, column, ascending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (r1, r2) {
      var order = compare(cellValue(r1.cells[column]), cellValue(r2.cells[column]));
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    headers(table).forEach(function (th, i) {
      if (i === column) th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    });
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

  function headerIndex(table) {
    var names = {};
    headers(table).forEach(function (th, i) { names[th.textContent.trim()] = i; });
    return names;
  }

  function applyFilters(view) {
    var visible = 0;
    var total = 0;
    view.tables.forEach(function (table) {
      var names = headerIndex(table);
      var rows = table.tBodies[0].rows;
      var kept = 0;
      Array.prototype.forEach.call(rows, function (row) {
        var keep = matches(row, view.filters, names);
        row.hidden = !keep;
        if (keep) kept += 1;
      });
      showGroup(table, kept > 0 || view.tables.length === 1);
      visible += kept;
      total += rows.length;
    });
    var text = visible + " of " + total + " entries";
    // Written only when it changes: a live region announces every write.
    if (view.shown && view.shown.textContent !== text) view.shown.textContent = text;
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

  /* The query string <-> the view. Other parameters (material's `h` search highlight)
     are left as they are. */
  function readState(view) {
    var params = new URLSearchParams(window.location.search);
    view.filters.forEach(function (select) {
      var wanted = params.get(columnKey(select.getAttribute("data-filter")));
      var known = Array.prototype.some.call(select.options, function (option) {
        return option.value === wanted;
      });
      select.value = wanted && known ? wanted : "";
    });
    var sort = params.get("sort");
    if (sort) sortTables(view, sort, params.get("order") !== "descending");
  }

  function writeState(view) {
    var params = new URLSearchParams(window.location.search);
    view.filters.forEach(function (select) {
      var key = columnKey(select.getAttribute("data-filter"));
      if (select.value) params.set(key, select.value);
      else params.delete(key);
    });
    var sorted = null;
    view.tables.forEach(function (table) {
      sorted = sorted || table.tHead.querySelector("th[aria-sort]");
    });
    params.delete("sort");
    params.delete("order");
    if (sorted) {
      params.set("sort", columnKey(sorted.textContent));
      params.set("order", sorted.getAttribute("aria-sort"));
    }
    var query = params.toString();
    var url = window.location.pathname + (query ? "?" + query : "") + window.location.hash;
    window.history.replaceState(window.history.state, "", url);
  }

  function tablesAfter(element) {
    var found = [];
    for (var next = element.nextElementSibling; next; next = next.nextElementSibling) {
      if (next.tagName === "TABLE") found.push(next);
      else Array.prototype.push.apply(found, next.querySelectorAll("table"));
    }
    return found.filter(function (table) { return table.tHead && table.tBodies.length; });
  }

  /* Explicit table roles: on a phone the rows and cells are laid out as blocks (CSS), and
     some browsers drop a table's semantics when its display changes; the roles keep it. */
  function keepTableRoles(table) {
    table.setAttribute("role", "table");
    Array.prototype.forEach.call(table.querySelectorAll("thead, tbody"), function (group) {
      group.setAttribute("role", "rowgroup");
    });
    Array.prototype.forEach.call(table.rows, function (row) {
      row.setAttribute("role", "row");
    });
  }

  function makeSortable(view, table) {
    headers(table).forEach(function (th, column) {
      var name = th.textContent.trim();
      th.setAttribute("role", "columnheader");
      th.setAttribute("scope", "col");
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var cell = row.cells[column];
        if (!cell) return;
        cell.setAttribute("role", "cell");
        cell.setAttribute("data-label", name);
        if (cell.querySelector(".reg-badge")) cell.setAttribute("data-reg-badges", "");
      });
      if (th.querySelector("a")) return;  // a header that is a link (a revision) stays one
      var button = document.createElement("button");
      button.type = "button";
      button.className = "reg-sort";
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener("click", function () {
        sortTables(view, columnKey(name), th.getAttribute("aria-sort") !== "ascending");
        writeState(view);
      });
    });
  }

  function setup() {
    var box = document.querySelector("[data-reg-filters]");
    if (!box || box.getAttribute("data-ready")) return;
    var tables = tablesAfter(box);
    if (!tables.length) return;
    box.setAttribute("data-ready", "1");
    var view = {
      tables: tables,
      filters: Array.prototype.slice.call(box.querySelectorAll("select[data-filter]")),
      shown: box.querySelector("[data-reg-shown]"),
    };
    tables.forEach(function (table) {
      table.setAttribute("data-reg-sortable", "");  // not a class: material styles table:not([class])
      keepTableRoles(table);
      makeSortable(view, table);
    });
    if (view.shown) {
      view.shown.setAttribute("role", "status");
      view.shown.setAttribute("aria-live", "polite");
    }
    view.filters.forEach(function (select) {
      select.addEventListener("change", function () {
        applyFilters(view);
        writeState(view);
      });
    });
    readState(view);
    applyFilters(view);
    window.addEventListener("popstate", function () {
      readState(view);
      applyFilters(view);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
