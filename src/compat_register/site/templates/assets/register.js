/* compat-register: the tables after a filter box (the overview's, the revision matrix's, the
   Matrix page's, the priorities') sort by column and filter by the box's selects, each naming a column.
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
      var cell = row.cells[column];
      if (select.getAttribute("data-filter") === "Tags") {
        return cell.textContent.trim().split(/,\s*/).indexOf(wanted) !== -1;
      }
      // A cell's first badge is its value: a Matrix cell adds the entry in words and
      // links after it.
      var badge = cell.querySelector("[data-rank]");
      return (badge || cell).textContent.trim() === wanted;
    });
  }

  /* A Words box (a Coverage page's) keeps the rows whose text holds every word typed, in
     any case: the page's own search, as its statements are left out of the site's. */
  function hasWords(row, box) {
    var text = row.textContent.toLowerCase();
    return !box || box.value.trim().toLowerCase().split(/\s+/).every(function (word) {
      return text.indexOf(word) !== -1;
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
        var keep = matches(row, view.filters, names) && hasWords(row, view.words);
        row.hidden = !keep;
        if (keep) kept += 1;
      });
      showGroup(table, kept > 0 || view.tables.length === 1);
      visible += kept;
      total += rows.length;
    });
    var text = visible + " of " + total + " " + view.noun;
    // Written only when it changes: a live region announces every write.
    if (view.shown && view.shown.textContent !== text) view.shown.textContent = text;
  }

  // A page of several tables (the priorities, one per subject) hides a table whose rows
  // are all filtered out, with the heading that names it and what lies between them (the
  // group's summary).
  function showGroup(table, show) {
    var block = table;
    while (block.parentElement && !block.parentElement.classList.contains("md-content__inner")
           && block.parentElement.tagName !== "ARTICLE" && block.parentElement !== document.body) {
      block = block.parentElement;
    }
    block.hidden = !show;
    var before = [];
    for (var node = block.previousElementSibling; node; node = node.previousElementSibling) {
      if (node.tagName === "TABLE" || node.querySelector("table")) return;  // no heading
      before.push(node);
      if (/^H[2-6]$/.test(node.tagName)) break;
    }
    if (!before.length || !/^H[2-6]$/.test(before[before.length - 1].tagName)) return;
    before.forEach(function (node) { node.hidden = !show; });
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
    if (view.words) view.words.value = params.get("words") || "";
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
    if (view.words && view.words.value.trim()) params.set("words", view.words.value.trim());
    else params.delete("words");
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

  /* Each cell named by its column (data-label, shown before it on a phone), and the table's
     ARIA roles kept. */
  function labelCells(table) {
    keepTableRoles(table);
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
    });
  }

  function makeSortable(view, table) {
    labelCells(table);
    headers(table).forEach(function (th) {
      var name = th.textContent.trim();
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
      words: box.querySelector("input[data-filter-words]"),
      noun: box.getAttribute("data-reg-noun") || "entries",  // a Coverage page counts statements
    };
    tables.forEach(function (table) {
      table.setAttribute("data-reg-sortable", "");  // not a class: material styles table:not([class])
      if (box.hasAttribute("data-reg-wide")) table.setAttribute("data-reg-wide", "");
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
    if (view.words) {
      view.words.addEventListener("input", function () {
        applyFilters(view);
        writeState(view);
      });
    }
    readState(view);
    applyFilters(view);
    window.addEventListener("popstate", function () {
      readState(view);
      applyFilters(view);
    });
  }

  /* Search highlighting. Material's search.highlight marks each word of the query on its
     own, anywhere in the page's text: the query META-07 reaches the page as `?h=meta 07`
     (its query parser splits at "-"), so every "07" is marked, dates and line numbers too.
     A pair of words that reads as an entry ID (letters, then digits) keeps its marks only
     where the page writes that ID ("META-07", any case); every other word of the query
     keeps all its marks. Material marks after its search index has loaded, so the marks
     are trimmed as they arrive. */
  function idWords(query) {
    var words = query.trim().toLowerCase().split(/\s+/);
    var ids = {};
    for (var i = 0; i + 1 < words.length; i += 1) {
      if (/^[a-z][a-z0-9_]*$/.test(words[i]) && /^[0-9]+$/.test(words[i + 1])) {
        var id = words[i] + "-" + words[i + 1];
        (ids[words[i]] = ids[words[i]] || []).push(id);
        (ids[words[i + 1]] = ids[words[i + 1]] || []).push(id);
      }
    }
    return ids;
  }

  function offsetIn(parent, child) {
    var offset = 0;
    for (var node = parent.firstChild; node && node !== child; node = node.nextSibling) {
      offset += node.textContent.length;
    }
    return offset;
  }

  function insideAnId(mark, ids) {
    var parent = mark.parentNode;
    var text = parent.textContent.toLowerCase();
    var start = offsetIn(parent, mark);
    var end = start + mark.textContent.length;
    return ids.some(function (id) {
      for (var at = text.indexOf(id); at !== -1; at = text.indexOf(id, at + 1)) {
        var after = text.charAt(at + id.length);
        var whole = !/[a-z0-9]/.test(after) && !/[a-z0-9]/.test(text.charAt(at - 1));
        if (whole && at <= start && end <= at + id.length) return true;
      }
      return false;
    });
  }

  function trimHighlights(root, ids) {
    var marks = root.querySelectorAll("mark[data-md-highlight]");
    Array.prototype.forEach.call(marks, function (mark) {
      var of = ids[mark.textContent.toLowerCase()];
      if (!of || insideAnId(mark, of)) return;
      var parent = mark.parentNode;
      mark.replaceWith(document.createTextNode(mark.textContent));
      parent.normalize();
    });
  }

  function watchHighlights() {
    var query = new URLSearchParams(window.location.search).get("h");
    var root = document.querySelector(".md-content");
    if (!query || !root) return;
    var ids = idWords(query);
    if (!Object.keys(ids).length) return;
    trimHighlights(root, ids);
    new MutationObserver(function () { trimHighlights(root, ids); })
      .observe(root, { childList: true, subtree: true });
  }

  /* The words material hands a result page (`?h=`) are those the result's own text
     matched: a search for META-07 gives the page-level result `?h=07` alone. A result link
     whose query holds entry IDs gets both words of each ID first, so the page above can
     keep their marks to where the ID is written. */
  var ID_IN_QUERY = /\b([A-Za-z][A-Za-z0-9_]*)-([0-9]+)\b/g;

  function idFirst(query, terms) {
    var words = [];
    query.replace(ID_IN_QUERY, function (_, prefix, number) {
      words.push(prefix.toLowerCase(), number);
      return _;
    });
    if (!words.length) return null;
    terms.trim().split(/\s+/).forEach(function (term) {
      if (term && words.indexOf(term.toLowerCase()) === -1) words.push(term);
    });
    return words.join(" ");
  }

  function pointResultsAtIds(results, input) {
    Array.prototype.forEach.call(results.querySelectorAll("a[href*='h=']"), function (link) {
      var url = new URL(link.href, window.location.href);
      var h = idFirst(input.value, url.searchParams.get("h") || "");
      if (h === null || h === url.searchParams.get("h")) return;
      url.searchParams.set("h", h);
      link.href = url.toString();
    });
  }

  /* An entry ID typed into the search box is one word here. Material's query parser splits
     it at "-" (a rule of the parser no option changes), so META-07 matches every title
     holding META and every 07: GOMETA-07, META-10. A result is kept only when its title or
     text writes each ID of the query whole, so the entry comes first and alone, followed
     only by what refers to it. A date or a line range (2024-11-05, 2363-2379) is one word
     the same way, and a page whose title writes it comes first. So is a cited file's name
     or path (conn.go, internal/mcpserver/conn.go): material matches any of its words, and
     a register citing many files under mcpserver/ would come before the entry citing it. */
  var WHOLE_IN_QUERY = new RegExp([
    "[A-Za-z0-9_][\\w.-]*(?:/[\\w.-]+)+",  // a path
    "\\b[\\w-]+\\.[A-Za-z][A-Za-z0-9]*\\b",  // a file's name
    "\\b[A-Za-z][A-Za-z0-9_]*-[0-9]+\\b",  // an ID
    "\\b[0-9]+(?:-[0-9]+)+\\b",  // a date, a line range
  ].join("|"), "g");

  function typedIds(query) {
    return (query.match(WHOLE_IN_QUERY) || []).map(function (id) { return id.toLowerCase(); });
  }

  function titleWrites(item, ids) {
    return Array.prototype.some.call(item.querySelectorAll("h1, h2"), function (title) {
      return writesIds(title, ids);
    });
  }

  function titledFirst(results, ids) {
    var items = results.querySelectorAll(".md-search-result__item");
    if (!items.length || titleWrites(items[0], ids)) return;
    var titled = Array.prototype.find.call(items, function (item) {
      return titleWrites(item, ids);
    });
    if (titled) items[0].parentNode.insertBefore(titled, items[0]);
  }

  function writesIds(element, ids) {
    var text = element.textContent.toLowerCase();
    return ids.every(function (id) {
      for (var at = text.indexOf(id); at !== -1; at = text.indexOf(id, at + 1)) {
        var around = text.charAt(at - 1) + text.charAt(at + id.length);
        if (!/[a-z0-9_]/.test(around)) return true;
      }
      return false;
    });
  }

  function keepResultsWithIds(results, ids) {
    var items = results.querySelectorAll(".md-search-result__item");
    Array.prototype.forEach.call(items, function (item) {
      var sections = item.querySelectorAll("a.md-search-result__link");
      var kept = 0;
      Array.prototype.forEach.call(sections, function (link, i) {
        if (writesIds(link, ids)) kept += 1;
        else if (i > 0) link.remove();  // the first is the page, kept as the group's head
      });
      if (!kept) item.remove();
      // Material's "Missing: 06 18" names the parts of a date it found whole.
      var missing = item.querySelectorAll(".md-search-result__terms");
      Array.prototype.forEach.call(missing, function (terms) { terms.remove(); });
      var more = item.querySelector("details.md-search-result__more");
      if (more) recount(more, more.querySelectorAll("a").length, "search.result.more");
    });
  }

  /* Material's own words for a count ("1 more on this page", "# matching documents"), from
     the page's configuration. */
  var translations = null;

  function recount(element, count, key) {
    var label = element.querySelector("summary div") || element;
    var config = document.getElementById("__config");
    translations = translations || (config && JSON.parse(config.textContent).translations) || {};
    var words = translations;
    var text = count === 0 ? words[key + ".none"]
      : count === 1 ? words[key + ".one"] : (words[key + ".other"] || "#").replace("#", count);
    if (count === 0 && element.tagName === "DETAILS") element.remove();
    else if (text && label.textContent !== text) label.textContent = text;
  }

  /* A result shows its title and the words it matched, a few words either side of each
     mark, not the whole section material hands it. */
  var AROUND = 50;

  function snippetOf(article, ids) {
    var kept = "h1, h2, nav, .md-search-result__terms, .md-search-result__icon, .reg-snippet";
    var parts = Array.prototype.filter.call(article.childNodes, function (node) {
      return !(node.nodeType === 1 && node.matches(kept));
    });
    if (!parts.length) return;
    var text = "";
    var marks = [];
    parts.forEach(function (part) {
      var walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
      var node = walker.nextNode() || (part.nodeType === 3 ? part : null);
      for (; node; node = walker.nextNode()) {
        var end = text.length + node.data.length;
        if (node.parentNode.tagName === "MARK") marks.push([text.length, end]);
        text += node.data;
      }
      text += " ";
      part.remove();
    });
    var snippet = document.createElement("p");
    snippet.className = "reg-snippet";
    text = text.replace(/\s/g, " ");
    marks = ids.length ? marksInIds(text, marks, ids) : marks;
    windows(text, marks).forEach(function (piece) { snippet.appendChild(piece); });
    article.insertBefore(snippet, article.querySelector("nav, .md-search-result__terms"));
  }

  /* For a query of IDs or dates, the marks of their parts (META, 07; 2025) where the text
     writes the whole ID or date, as on the page (trimHighlights); other words' marks all
     stay. */
  function marksInIds(text, marks, ids) {
    var lower = text.toLowerCase();
    var words = {};
    ids.forEach(function (id) {
      id.split("-").forEach(function (part) { (words[part] = words[part] || []).push(id); });
    });
    return marks.filter(function (mark) {
      var marked = lower.slice(mark[0], mark[1]);  // a token may run on: "04..task"
      var of = words[marked] || words[(marked.match(/^[a-z0-9_]+/) || [""])[0]];
      return !of || of.some(function (id) {
        for (var at = lower.indexOf(id); at !== -1; at = lower.indexOf(id, at + 1)) {
          if (at <= mark[0] && mark[1] <= at + id.length) return true;
        }
        return false;
      });
    });
  }

  /* Whole words: a window starts after a space and ends before one. */
  function wordStart(text, at) {
    var space = text.indexOf(" ", at);
    return at === 0 || space === -1 ? at : space + 1;
  }

  function wordEnd(text, at) {
    var space = text.lastIndexOf(" ", at);
    return at >= text.length || space === -1 ? at : space;
  }

  function windows(text, marks) {
    var spans = [];
    (marks.length ? marks : [[0, AROUND]]).forEach(function (mark) {
      var from = Math.min(wordStart(text, Math.max(mark[0] - AROUND, 0)), mark[0]);
      var to = Math.max(wordEnd(text, Math.min(mark[1] + AROUND, text.length)), mark[1]);
      var last = spans[spans.length - 1];
      if (last && from <= last[1]) last[1] = Math.max(last[1], to);
      else spans.push([from, to]);
    });
    var pieces = [];
    spans = spans.slice(0, 3);
    spans.forEach(function (span) {
      var at = span[0];
      pieces.push(document.createTextNode(at > 0 ? "… " : ""));
      marks.forEach(function (mark) {
        if (mark[0] < at || mark[1] > span[1]) return;
        var marked = document.createElement("mark");
        marked.textContent = text.slice(mark[0], mark[1]);
        pieces.push(document.createTextNode(text.slice(at, mark[0])), marked);
        at = mark[1];
      });
      pieces.push(document.createTextNode(text.slice(at, span[1]) + " "));
    });
    var shown = spans[spans.length - 1][1];
    if (shown < text.trim().length) pieces.push(document.createTextNode("…"));
    return pieces;
  }

  function watchSearchResults() {
    var results = document.querySelector(".md-search-result");
    var input = document.querySelector("input.md-search__input");
    if (!results || !input) return;
    var meta = results.querySelector(".md-search-result__meta");
    new MutationObserver(function () {
      var ids = typedIds(input.value);
      if (ids.length) {
        keepResultsWithIds(results, ids);
        titledFirst(results, ids);
        var groups = results.querySelectorAll(".md-search-result__item").length;
        if (meta && /\d/.test(meta.textContent)) recount(meta, groups, "search.result");
      }
      Array.prototype.forEach.call(results.querySelectorAll("article"), function (article) {
        snippetOf(article, ids);
      });
      pointResultsAtIds(results, input);
    }).observe(results, { childList: true, subtree: true });
  }

  /* Excerpts: each citation on a register page that has one ends with a link, `path:lines
     @ sha`, to the cited lines in the register's excerpt file (`excerpts.html#x…`, written
     beside the page), so that the page stays light and the search index holds no code.
     Here each link becomes a collapsed excerpt (material's `details.quote`) under its
     citation, titled by the link's text, holding the link. Opening it fetches the file,
     once per page, and shows the highlighted block in place of the link; when the fetch
     fails (or without JavaScript) the link stays and opens the file at those lines. */
  var excerptFiles = {};

  function excerptFile(url) {
    if (!excerptFiles[url]) {
      excerptFiles[url] = fetch(url).then(function (response) {
        if (!response.ok) throw new Error(response.status + " " + url);
        return response.text();
      }).then(function (text) {
        return new DOMParser().parseFromString(text, "text/html");
      });
      excerptFiles[url].catch(function () { delete excerptFiles[url]; });
    }
    return excerptFiles[url];
  }

  function showExcerpt(details, link) {
    var holder = link.parentNode;
    if (details.hasAttribute("aria-busy") || holder.hidden) return;
    var url = new URL(link.href, window.location.href);
    var key = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    details.setAttribute("aria-busy", "true");
    excerptFile(url.href).then(function (file) {
      var section = file.getElementById(key);
      var block = section && section.querySelector(".highlight");
      if (!block) throw new Error("no excerpt " + key);
      details.appendChild(document.importNode(block, true));
      numberLines(details);
      holder.hidden = true;
      focusScrollingCode(details);
    }).catch(function () {
      if (holder.querySelector(".reg-excerpt-failed")) return;
      var note = document.createElement("span");
      note.className = "reg-excerpt-failed";
      note.textContent = " (the excerpt did not load: follow the link)";
      holder.appendChild(note);
    }).then(function () {
      details.removeAttribute("aria-busy");
    });
  }

  /* On a phone an excerpt's lines wrap (register.css) rather than run off its right edge;
     the line numbers, a column that wrapped lines would leave behind, are then written
     before each line: each line of the code gets its number as `data-line`. */
  function numberLines(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".highlighttable"), function (table) {
      var numbers = table.querySelectorAll("td.linenos pre > span:not(:empty)");
      var lines = table.querySelectorAll("td.code code > span");
      if (!lines.length || numbers.length !== lines.length) return;
      Array.prototype.forEach.call(lines, function (line, index) {
        line.setAttribute("data-line", numbers[index].textContent);
      });
      table.setAttribute("data-reg-numbered", "");
    });
  }

  /* An excerpt's title: its lines and commit (`Lines 12-14 @ abc1234`); the path is the
     citation's, written right above it. */
  function excerptTitle(text) {
    var found = /:(\d+)(-\d+)? @ (\S+)$/.exec(text);
    if (!found) return text;
    return (found[2] ? "Lines " : "Line ") + found[1] + (found[2] || "") + " @ " + found[3];
  }

  function collapse(link) {
    var details = document.createElement("details");
    var summary = document.createElement("summary");
    var holder = document.createElement("p");
    details.className = "quote";
    summary.textContent = excerptTitle(link.textContent);
    details.appendChild(summary);
    var line = link.parentNode;
    (line.tagName === "P" ? line.parentNode : line).insertBefore(
      details, line.tagName === "P" ? line.nextSibling : null);
    holder.appendChild(link);
    details.appendChild(holder);
    details.addEventListener("toggle", function () {
      if (details.open) showExcerpt(details, link);
    });
  }

  function watchExcerpts() {
    Array.prototype.forEach.call(document.querySelectorAll("a.reg-excerpt"), collapse);
  }

  /* The other generated tables: a `data-reg-cards` marker before a table gives it the
     phone's card layout (register.css), its cells named by their columns. */
  function setupCards() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-reg-cards]"), function (marker) {
      if (marker.tagName === "TABLE") {  // marked itself (raw HTML: the register page's)
        labelCells(marker);
        return;
      }
      var next = marker.nextElementSibling;
      var table = next && (next.tagName === "TABLE" ? next : next.querySelector("table"));
      if (!table || !table.tHead || !table.tBodies.length) return;
      table.setAttribute("data-reg-cards", "");
      labelCells(table);
    });
  }

  /* Material's chrome: its search dialog has no accessible name (axe-core: aria-dialog-name);
     it takes the name of the search box it holds. */
  function nameSearchDialog() {
    var dialog = document.querySelector(".md-search[role='dialog']");
    var input = dialog && dialog.querySelector("input.md-search__input");
    if (dialog && input && !dialog.hasAttribute("aria-label")) {
      dialog.setAttribute("aria-label", input.getAttribute("aria-label") || "Search");
    }
  }

  /* A code block that scrolls sideways can be reached and scrolled by keyboard: material
     makes it focusable only where the pointer hovers, and never an excerpt loaded later. */
  function focusScrollingCode(root) {
    Array.prototype.forEach.call(root.querySelectorAll("pre > code"), function (code) {
      if (code.scrollWidth > code.clientWidth && !code.hasAttribute("tabindex")) {
        code.setAttribute("tabindex", "0");
      }
    });
  }

  /* A badge's Markdown (the Matrix and concept pages) names the badge by its path in the
     site; where the page is served, the badge beside it has its full address, which a
     README elsewhere can follow. */
  function absoluteSnippets(root) {
    Array.prototype.forEach.call(root.querySelectorAll("code.reg-snippet"), function (code) {
      var image = code.parentNode.querySelector("img.reg-badge-image");
      if (!image) return;
      code.textContent = code.textContent.replace(/\]\([^()\s]+\)$/, "](" + image.src + ")");
    });
  }

  function start() {
    setup();
    setupCards();
    absoluteSnippets(document);
    nameSearchDialog();
    focusScrollingCode(document);
    watchHighlights();
    watchSearchResults();
    watchExcerpts();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
