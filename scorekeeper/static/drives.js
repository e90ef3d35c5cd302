// Whist drives: the table page's refresh that never undoes a tap, and the hall screen's pages shown in turn.
// Without this script the table page refreshes by a meta refresh only while its result is sent, and the hall
// screen shows all its pages, one under the other, reloading every few seconds.
"use strict";
(function () {
  // The table page: reload every `data-refresh` seconds while the page holds no unsent choice; a tap that differs
  // from what is stored stops the clock (and says so) until it is sent or put back.
  var live = document.getElementById("live");
  if (live && live.dataset.refresh) {
    var seconds = parseInt(live.dataset.refresh, 10) || 15;
    var stored = live.dataset.stored || "";
    var note = document.getElementById("unsent");
    var timer = null;
    var start = function () {
      if (timer === null) timer = window.setTimeout(function () { window.location.replace(live.dataset.url); }, seconds * 1000);
    };
    var stop = function () {
      if (timer !== null) window.clearTimeout(timer);
      timer = null;
    };
    var choice = function () {
      var checked = document.querySelector("form.table-form input[name=tricks]:checked");
      return checked ? checked.value : "";
    };
    var check = function () {
      var unsent = choice() !== stored;
      if (note) note.hidden = !unsent;
      live.dataset.unsent = unsent ? "1" : "";
      if (unsent) stop(); else start();
    };
    document.querySelectorAll("form.table-form input[name=tricks]").forEach(function (input) {
      input.addEventListener("change", check);
    });
    var form = document.querySelector("form.table-form");
    if (form) form.addEventListener("submit", stop);
    check();
  }

  // The hall screen: one page at a time for `data-seconds` each; after the last, the screen reloads (a new cycle
  // with the latest results), so every name on the "move now" pages is shown once a cycle.
  var screen = document.getElementById("screen");
  if (screen) {
    var pages = screen.querySelectorAll(".screen-page");
    var each = (parseInt(screen.dataset.seconds, 10) || 8) * 1000;
    var at = 0;
    document.body.classList.add("paged");
    var show = function () {
      pages.forEach(function (page, i) { page.classList.toggle("shown", i === at); });
      screen.dataset.shown = String(at + 1);
    };
    var next = function () {
      at += 1;
      if (at >= pages.length) {
        window.location.reload();
        return;
      }
      show();
      window.setTimeout(next, each);
    };
    show();
    window.setTimeout(next, each);
  }
})();
