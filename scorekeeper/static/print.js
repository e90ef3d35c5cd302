// The print page's Print button; without JavaScript the browser's own print does the same.
(function () {
  "use strict";
  var button = document.getElementById("print-button");
  if (!button || !window.print) return;
  button.hidden = false;
  button.addEventListener("click", function () { window.print(); });
})();
