// filter.js — the filter box of a repository page: hides the rows of its
// table whose message, file or type do not hold every word typed.  Runs in
// the browser on the page's own rows; no request, no server.
(function () {
	"use strict";
	var box = document.getElementById("filter");
	var table = document.querySelector("table.errors");
	if (!box || !table) return;
	var rows = Array.prototype.slice.call(table.tBodies[0].rows);
	var texts = rows.map(function (r) {
		return (r.getAttribute("data-text") || r.textContent).toLowerCase();
	});
	var count = document.getElementById("filter-count");
	box.hidden = false;
	box.parentNode.hidden = false;
	function apply() {
		var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
		var shown = 0;
		for (var i = 0; i < rows.length; i++) {
			var ok = words.every(function (w) { return texts[i].indexOf(w) >= 0; });
			rows[i].hidden = !ok;
			if (ok) shown++;
		}
		if (count) count.textContent = words.length ? shown + " of " + rows.length + " rows on this page" : "";
	}
	box.addEventListener("input", apply);
	if (box.value) apply();
})();
