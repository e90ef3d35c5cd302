// Scotch whist's hand form (variants/scotch/view.py: SCRIPT): the last side's tricks, the rest of the deal, said as
// the others are tapped, and the sides without a trick dimmed on the honours' rows. The form works without it.
(function () {
  "use strict";
  var form = document.querySelector("form.hand");
  var deal = form && form.querySelector(".deal-tricks");
  if (!deal) return;
  var total = parseInt(deal.getAttribute("data-total"), 10);
  var last = parseInt(deal.getAttribute("data-last"), 10);
  var rows = deal.querySelectorAll(".side-row[data-side]");
  var pairRow = rows.length ? null : deal.querySelector("fieldset");
  var rest = deal.querySelector(".rest");
  var count = deal.querySelector(".rest-count");
  function tricks() {
    var out = [], sum = 0, known = true;
    function take(fieldset) {
      var chosen = fieldset && fieldset.querySelector("input:checked");
      if (!chosen) { known = false; return 0; }
      var t = parseInt(chosen.value, 10);
      sum += t;
      return t;
    }
    if (pairRow) out.push(take(pairRow));
    rows.forEach(function (row) { out.push(take(row.querySelector("fieldset"))); });
    out.push(known ? total - sum : null);
    return { each: out, known: known };
  }
  function update() {
    var t = tricks();
    if (count) {
      count.textContent = t.known ? String(t.each[last]) : "–";
      rest.classList.toggle("over", t.known && t.each[last] < 0);
    }
    form.querySelectorAll(".honour-row input").forEach(function (input) {
      var label = form.querySelector('label[for="' + input.id + '"]');
      var side = parseInt(input.value, 10);
      if (label) label.classList.toggle("no-trick", t.known && t.each[side] === 0);
    });
  }
  deal.addEventListener("change", update);
  update();
})();
