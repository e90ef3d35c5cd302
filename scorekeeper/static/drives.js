// Whist drives: the table page's tap that no update undoes, and the hall screen's pages shown in turn. The updates
// themselves are live.js's (a small question every few seconds, the page's parts put in place when the drive
// changes). Without scripts the table page refreshes by a meta refresh only while its result is sent, and the hall
// screen shows all its pages, one under the other, reloading every few seconds.
"use strict";
(function () {
  // The table page: a tap that differs from what is stored marks the form unsent (data-unsent="1", and says so):
  // live.js leaves such a form as it is until it is sent or put back; a form being sent is left alone too.
  var live = document.getElementById("live");
  if (live && document.getElementById("live-form")) {
    var check = function () {
      var part = document.getElementById("live-form");
      if (!part) return;
      var checked = part.querySelector("input[name=tricks]:checked");
      var unsent = (checked ? checked.value : "") !== (part.dataset.stored || "");
      var note = part.querySelector("#unsent");
      if (note) note.hidden = !unsent;
      part.dataset.unsent = unsent ? "1" : "";
    };
    live.addEventListener("change", function (event) {
      if (event.target.matches("input[name=tricks]")) check();
    });
    live.addEventListener("submit", function () {
      var part = document.getElementById("live-form");
      if (part) part.dataset.unsent = "1";
    });
    document.addEventListener("sk:live", check);
    check();
    // The links at the page's foot (home, languages, standings): leaving with a tap not yet sent asks first.
    var foot = document.getElementById("table-foot");
    if (foot) {
      foot.addEventListener("click", function (event) {
        var part = document.getElementById("live-form");
        if (!event.target.closest("a[href]") || !part || part.dataset.unsent !== "1") return;
        if (!window.confirm(foot.dataset.leave)) event.preventDefault();
      });
    }
  }

  // The hall screen: one page at a time for `data-seconds` each; after the last a new cycle begins, with the latest
  // results if the drive changed (put in place only then), so every name on the "move now" pages is shown once a cycle.
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
        at = 0;
        // A new cycle: with the drive as it is now if it changed meanwhile (live.js fetched it already), else as it
        // was; without live.js, a reload.
        if (!window.skLive) {
          window.location.reload();
          return;
        }
        if (window.skLive.apply()) {
          screen = document.getElementById("screen");
          pages = screen.querySelectorAll(".screen-page");
          each = (parseInt(screen.dataset.seconds, 10) || 8) * 1000;
        }
      }
      show();
      window.setTimeout(next, each);
    };
    show();
    window.setTimeout(next, each);
  }
})();
