// Makes hand entry a little faster; every page works without it.
(function () {
  "use strict";
  // A form sent back with errors: its first error in the middle of the screen, clear of the sticky Save bar.
  var first = document.getElementById("first-error") || document.querySelector(".has-error, .error");
  if (first && first.scrollIntoView) first.scrollIntoView({ block: "center" });
})();
// "Play again" starts one game however often it is tapped (the server also sends a repeat to the first one's game).
(function () {
  "use strict";
  document.querySelectorAll("form.play-again").forEach(function (form) {
    form.addEventListener("submit", function () {
      var button = form.querySelector("button");
      window.setTimeout(function () { if (button) button.disabled = true; }, 0);
    });
  });
})();
