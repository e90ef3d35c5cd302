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
  document.querySelectorAll("[data-follows]").forEach(function (el) {
    var texts = JSON.parse(el.getAttribute("data-texts"));
    var labels = el.tagName === "FIELDSET" ? el.querySelectorAll("label") : [el];
    labels.forEach(function (label) { label.setAttribute("data-default", label.textContent); });
    function follow(value) {
      labels.forEach(function (label) {
        var own = el.tagName === "FIELDSET" ? (texts[value] || {})[document.getElementById(label.htmlFor).value] : texts[value];
        label.textContent = own || label.getAttribute("data-default");
      });
    }
    document.querySelectorAll('input[name="' + el.getAttribute("data-follows") + '"]').forEach(function (input) {
      input.addEventListener("change", function () { if (input.checked) follow(input.value); });
    });
  });
})();
