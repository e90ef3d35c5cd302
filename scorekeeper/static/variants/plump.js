// Plump's hand form (variants/plump/view.py: SCRIPT). Every count (a bid, the tricks) folds its row of buttons into a
// stepper, − value +, so eight players' bids and tricks fit one phone screen; the dealer's forbidden bid is marked
// under the hook once the others have bid; the last player's tricks are filled in with what is left of the deal.
// The radio buttons stay the form's fields, so drafts, kept hands and the page without this script work the same.
(function () {
  "use strict";
  var seats = document.getElementById("plump-seats");
  if (!seats) return;
  var form = seats.closest("form");
  var cards = Number(seats.dataset.cards);
  var hook = seats.dataset.hook === "1";

  function inputs(fieldset) { return Array.prototype.slice.call(fieldset.querySelectorAll("input[type=radio]")); }
  function value(fieldset) {
    var checked = fieldset.querySelector("input:checked");
    return checked ? Number(checked.value) : null;
  }
  function choose(fieldset, n) {
    var input = inputs(fieldset).filter(function (i) { return Number(i.value) === n; })[0];
    if (input && !input.checked) {
      input.checked = true;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  function clear(fieldset) {
    inputs(fieldset).forEach(function (i) { i.checked = false; });
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function counts(kind) { return Array.prototype.slice.call(seats.querySelectorAll("fieldset.count." + kind)); }
  var dealerRow = seats.querySelector(".plump-seat.dealer");
  var dealerBid = dealerRow && dealerRow.querySelector("fieldset.count.bid");

  function forbidden() {
    if (!hook || !dealerBid) return null;
    var sum = 0;
    var known = counts("bid").every(function (f) {
      if (f === dealerBid) return true;
      var v = value(f);
      sum += v || 0;
      return v !== null;
    });
    var bid = cards - sum;
    return known && bid >= 0 && bid <= cards ? bid : null;
  }

  function step(fieldset, by) {
    var v = value(fieldset);
    var next = v === null ? (by > 0 ? 1 : 0) : v + by;
    if (fieldset === dealerBid && next === forbidden()) next += by;
    if (next < 0 || next > cards) return;
    fieldset.classList.remove("auto");
    choose(fieldset, next);
  }

  function stepper(fieldset) {
    var box = document.createElement("div");
    box.className = "stepper";
    var less = document.createElement("button");
    less.type = "button";
    less.className = "less";
    less.textContent = "−";
    var more = document.createElement("button");
    more.type = "button";
    more.className = "more";
    more.textContent = "+";
    var blank = document.createElement("span");
    blank.className = "value";
    blank.textContent = "–";
    var what = fieldset.parentNode.dataset.what || "";
    var who = fieldset.closest(".plump-seat").querySelector("h2.who").firstChild.textContent.trim();
    less.setAttribute("aria-label", what + " " + who + " −1");
    more.setAttribute("aria-label", what + " " + who + " +1");
    fieldset.parentNode.insertBefore(box, fieldset);
    box.append(less, fieldset, blank, more);
    less.addEventListener("click", function () { step(fieldset, -1); });
    more.addEventListener("click", function () { step(fieldset, 1); });
    // A tap on the value (or on the dash of none yet) opens the row of buttons, for a count far from where it
    // stands; choosing one folds it again.
    var field = fieldset.parentNode.parentNode;
    function open(event) {
      if (field.classList.contains("open")) return;
      event.preventDefault();
      field.classList.add("open");
    }
    blank.addEventListener("click", open);
    fieldset.addEventListener("click", function (event) {
      if (event.target.closest("label")) open(event);
    });
    fieldset.addEventListener("change", function () { field.classList.remove("open"); });
  }

  function markForbidden() {
    var bid = forbidden();
    var note = dealerRow && dealerRow.querySelector(".forbidden");
    if (note) {
      note.hidden = bid === null;
      note.querySelector("b").textContent = bid === null ? "" : String(bid);
    }
    if (!dealerBid) return;
    inputs(dealerBid).forEach(function (i) {
      var label = dealerBid.querySelector('label[for="' + i.id + '"]');
      if (label) label.classList.toggle("no", Number(i.value) === bid);
    });
    dealerBid.classList.toggle("no", bid !== null && value(dealerBid) === bid);
  }

  // The last player's tricks: once all but one have theirs, the one left gets what is left of the deal (marked as
  // filled in; a tap on it makes it the player's own).
  function fillLast(changed) {
    var tricks = counts("tricks");
    if (!tricks.length) return;
    if (changed) changed.classList.remove("auto");
    var open = tricks.filter(function (f) { return value(f) === null || f.classList.contains("auto"); });
    if (open.length !== 1) return;
    var sum = 0;
    tricks.forEach(function (f) { if (f !== open[0]) sum += value(f); });
    var left = cards - sum;
    if (left >= 0 && left <= cards) {
      open[0].classList.add("auto");
      choose(open[0], left);
    } else if (open[0].classList.contains("auto")) {
      open[0].classList.remove("auto");
      clear(open[0]);
    }
  }

  var filling = false;
  form.addEventListener("change", function (event) {
    var fieldset = event.target.closest && event.target.closest("fieldset.count");
    markForbidden();
    if (filling || !fieldset || !fieldset.classList.contains("tricks")) return;
    filling = true;
    try { fillLast(event.isTrusted || !fieldset.classList.contains("auto") ? fieldset : null); } finally { filling = false; }
  });

  seats.querySelectorAll("fieldset.count").forEach(stepper);
  seats.classList.add("stepping");
  markForbidden();
})();
