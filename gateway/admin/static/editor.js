// The policy editor's line numbers: the gutter follows the textarea's lines and scrolling, and
// keeps the lines with problems marked. A problem's link selects its line. Served from the
// package (no inline script, nothing from elsewhere).
(function () {
  "use strict";
  var area = document.getElementById("policy-text");
  var gutter = document.getElementById("gutter");
  if (!area || !gutter) { return; }
  var bad = {};
  (gutter.getAttribute("data-bad") || "").split(",").forEach(function (n) {
    if (n) { bad[n] = true; }
  });
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
  function goTo(line) {
    var lines = area.value.split("\n");
    var start = 0;
    for (var i = 0; i < line - 1 && i < lines.length; i++) { start += lines[i].length + 1; }
    var end = start + (lines[line - 1] || "").length;
    area.focus();
    area.setSelectionRange(start, end);
    area.scrollTop = Math.max(0, (line - 3) * 18);
    gutter.scrollTop = area.scrollTop;
  }
  area.addEventListener("input", render);
  area.addEventListener("scroll", function () { gutter.scrollTop = area.scrollTop; });
  Array.prototype.forEach.call(document.querySelectorAll("[data-goto]"), function (a) {
    a.addEventListener("click", function (ev) {
      ev.preventDefault();
      goTo(parseInt(a.getAttribute("data-goto"), 10));
    });
  });
  render();
}());
