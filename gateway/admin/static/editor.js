// The policy editor. With CodeMirror (vendored into the package, see
// scripts/vendor-codemirror.sh): YAML highlighting, line numbers, the lines with problems
// marked, and Ctrl-Space completion of the keys the policy's JSON Schema allows where the cursor
// is. Without it: a textarea whose line-number gutter follows its lines and scrolling. Either
// way a problem's link selects its line. Served from the package (no inline script, nothing
// from elsewhere).
(function () {
  "use strict";
  var area = document.getElementById("policy-text");
  var gutter = document.getElementById("gutter");
  if (!area || !gutter) { return; }
  var bad = {};
  (gutter.getAttribute("data-bad") || "").split(",").forEach(function (n) {
    if (n) { bad[n] = true; }
  });

  // --- the schema: which keys may follow the path of mappings above the cursor
  var schema = null;
  function resolve(node) {
    var seen = 0;
    while (node && node.$ref && seen++ < 32) {
      node = schema.$defs[node.$ref.replace("#/$defs/", "")];
    }
    return node || {};
  }
  function alternatives(node) {  // a union's members (anyOf / oneOf / allOf), resolved
    node = resolve(node);
    var parts = node.anyOf || node.oneOf || node.allOf;
    if (!parts) { return [node]; }
    var out = [];
    parts.forEach(function (p) { out = out.concat(alternatives(p)); });
    return out;
  }
  function step(nodes, key) {
    var next = [];
    nodes.forEach(function (node) {
      alternatives(node).forEach(function (n) {
        if (key === "[]") {
          if (n.items) { next.push(n.items); }
        } else if (n.properties && n.properties[key]) {
          next.push(n.properties[key]);
        } else if (n.additionalProperties && typeof n.additionalProperties === "object") {
          next.push(n.additionalProperties);  // a name the user chose (a backend, an alias)
        }
      });
    });
    return next;
  }
  function keysAt(path) {
    var nodes = [schema];
    path.forEach(function (key) { nodes = step(nodes, key); });
    var names = {};
    nodes.forEach(function (node) {
      alternatives(node).forEach(function (n) {
        Object.keys(n.properties || {}).forEach(function (k) { names[k] = true; });
      });
    });
    return Object.keys(names).sort();
  }
  // the keys (and "[]" for a list item) of the mappings holding column `indent` of line `at`
  function pathAbove(lines, at, indent) {
    var path = [];
    for (var i = at - 1; i >= 0 && indent > 0; i--) {
      var m = /^(\s*)(- )?([A-Za-z0-9_*.-]+)?\s*:?/.exec(lines[i]);
      var ind = m[1].length;
      if (!lines[i].trim() || lines[i].trim()[0] === "#" || ind >= indent) { continue; }
      if (m[2]) {
        if (m[3] && ind + 2 < indent) { path.unshift(m[3]); }
        path.unshift("[]");
      } else if (m[3]) {
        path.unshift(m[3]);
      }
      indent = ind;
    }
    return path;
  }
  function hint(cm) {
    if (!schema) { return null; }
    var cur = cm.getCursor();
    var before = cm.getLine(cur.line).slice(0, cur.ch);
    var m = /^(\s*)(- )?([A-Za-z0-9_]*)$/.exec(before);
    if (!m) { return null; }
    var indent = m[1].length + (m[2] ? 2 : 0);
    var path = pathAbove(cm.getValue().split("\n"), cur.line, indent);
    if (m[2]) { path.push("[]"); }
    var list = keysAt(path).filter(function (k) { return k.indexOf(m[3]) === 0; });
    return {
      list: list.map(function (k) { return {text: k + ": ", displayText: k}; }),
      from: window.CodeMirror.Pos(cur.line, cur.ch - m[3].length),
      to: cur
    };
  }
  function loadSchema(url) {
    if (!url || !window.fetch) { return; }
    window.fetch(url, {credentials: "same-origin"}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (s) { schema = s; }).catch(function () { schema = null; });
  }

  function codeMirror() {
    var cm = window.CodeMirror.fromTextArea(area, {
      mode: "yaml",
      lineNumbers: true,
      indentUnit: 2,
      tabSize: 2,
      extraKeys: {
        "Ctrl-Space": "autocomplete",
        "Tab": function (c) { c.replaceSelection("  "); }
      },
      hintOptions: {hint: hint, completeSingle: false}
    });
    gutter.style.display = "none";
    cm.getWrapperElement().id = "policy-editor";
    Object.keys(bad).forEach(function (n) {
      cm.addLineClass(parseInt(n, 10) - 1, "background", "bad-line");
    });
    cm.on("change", function () {  // a problem's mark belongs to the text it was found in
      Object.keys(bad).forEach(function (n) {
        cm.removeLineClass(parseInt(n, 10) - 1, "background", "bad-line");
      });
      bad = {};
    });
    loadSchema(area.getAttribute("data-schema"));
    return function goTo(line) {
      var text = cm.getLine(line - 1) || "";
      cm.focus();
      cm.setSelection({line: line - 1, ch: 0}, {line: line - 1, ch: text.length});
      cm.scrollIntoView({line: line - 1, ch: 0}, 60);
    };
  }

  function plain() {
    function render() {
      var count = area.value.split("\n").length;
      gutter.textContent = "";
      for (var i = 1; i <= count; i++) {
        var span = document.createElement("span");
        span.textContent = String(i);
        if (bad[String(i)]) { span.className = "bad"; }
        gutter.appendChild(span);
        gutter.appendChild(document.createTextNode("\n"));
      }
      gutter.scrollTop = area.scrollTop;
    }
    area.addEventListener("input", render);
    area.addEventListener("scroll", function () { gutter.scrollTop = area.scrollTop; });
    render();
    return function goTo(line) {
      var lines = area.value.split("\n");
      var start = 0;
      for (var i = 0; i < line - 1 && i < lines.length; i++) { start += lines[i].length + 1; }
      var end = start + (lines[line - 1] || "").length;
      area.focus();
      area.setSelectionRange(start, end);
      area.scrollTop = Math.max(0, (line - 3) * 18);
      gutter.scrollTop = area.scrollTop;
    };
  }

  var goTo = window.CodeMirror ? codeMirror() : plain();
  Array.prototype.forEach.call(document.querySelectorAll("[data-goto]"), function (a) {
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      goTo(parseInt(a.getAttribute("data-goto"), 10));
    });
  });
}());
