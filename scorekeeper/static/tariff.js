// The tariff editor of the new-game page: refresh the matrix in place as the table changes its house rules.
// Without this script the "Preview the tariff" button does the same by posting the form.
(function () {
  "use strict";
  var editor = document.querySelector(".tariff-editor[data-preview]");
  if (!editor || !window.fetch) return;
  var form = editor.closest("form");
  var timer = null;

  function refresh() {
    var data = new FormData(form);
    fetch(editor.dataset.preview, { method: "POST", body: data, credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var old = document.getElementById("tariff-preview");
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var fresh = holder.querySelector("#tariff-preview");
        if (!old || !fresh) return;
        old.replaceWith(fresh);
        // A box of a built option the table has not edited follows the preset and the other rules.
        fresh.querySelectorAll("template.built-text").forEach(function (text) {
          var box = form.querySelector('textarea[name="opt_' + text.dataset.option + '"]');
          var shown = form.querySelector('input[name="shown_' + text.dataset.option + '"]');
          if (box && shown && box.value.replace(/\s+/g, " ").trim() === shown.value.replace(/\s+/g, " ").trim()) {
            box.value = text.content.textContent;
            shown.value = box.value;
          }
        });
      })
      .catch(function () { /* offline: the Preview button still works */ });
  }

  form.addEventListener("input", function (event) {
    if (!event.target.name || event.target.name.indexOf("player") === 0 || event.target.name === "title") return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 400);
  });
  form.addEventListener("change", function (event) {
    if (event.target.tagName === "SELECT" || event.target.type === "checkbox") refresh();
  });
})();
