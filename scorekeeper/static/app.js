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
// Words that follow a tap (data-follows, data-texts): who leads when a bid decides it, whose points a penalty moves.
// The server says them for the form as it is; this keeps them right while the buttons are tapped.
(function () {
  "use strict";
  // data-follows may name several fields (space-separated): the texts are keyed by their tapped values joined by
  // "|" ("" for a field not yet tapped), a key missing keeping the words the server wrote.
  document.querySelectorAll("[data-follows]").forEach(function (el) {
    var texts = JSON.parse(el.getAttribute("data-texts"));
    var names = el.getAttribute("data-follows").split(" ");
    var labels = el.tagName === "FIELDSET" ? el.querySelectorAll("label") : [el];
    labels.forEach(function (label) { label.setAttribute("data-default", label.textContent); });
    function tapped() {
      return names.map(function (name) {
        var input = document.querySelector('input[name="' + name + '"]:checked');
        return input ? input.value : "";
      }).join("|");
    }
    function follow() {
      var value = tapped();
      labels.forEach(function (label) {
        var own = el.tagName === "FIELDSET" ? (texts[value] || {})[document.getElementById(label.htmlFor).value] : texts[value];
        label.textContent = own || label.getAttribute("data-default");
      });
    }
    names.forEach(function (name) {
      document.querySelectorAll('input[name="' + name + '"]').forEach(function (input) {
        input.addEventListener("change", function () { if (input.checked) follow(); });
      });
    });
  });
})();
