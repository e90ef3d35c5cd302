// The tariff as the table types it, without a reload: an option editor (a variant's own fields, such as the tariff
// card) posts its form to its data-preview address as the fields change and puts back the table it gives, the fields
// it filled in and the errors beside their fields; its own buttons (fill in a preset) do the same after asking.
// The new-game page's data box (.tariff-editor) likewise. Without this script the Preview buttons do it all by posting
// the form: nothing here is needed to enter a card.
(function () {
  "use strict";
  // The card's shape: as many columns and bids as chosen are shown at once (the server reads only those).
  document.querySelectorAll(".card-editor").forEach(function (editor) {
    var count = editor.querySelector('select[name="card.columns"]');
    var low = editor.querySelector('select[name="card.low"]');
    var high = editor.querySelector('select[name="card.high"]');
    function shape() {
      var n = count ? parseInt(count.value, 10) : 8;
      editor.querySelectorAll("[data-col]").forEach(function (el) { el.hidden = parseInt(el.dataset.col, 10) >= n; });
      var from = low ? parseInt(low.value, 10) : 7, to = high ? parseInt(high.value, 10) : 13;
      editor.querySelectorAll("[data-row]").forEach(function (el) {
        var bid = parseInt(el.dataset.row, 10);
        el.hidden = bid < from || bid > to;
      });
    }
    [count, low, high].forEach(function (el) { if (el) el.addEventListener("change", shape); });
    editor.querySelectorAll("input[data-heading]").forEach(function (input) {
      input.addEventListener("input", function () {
        var th = editor.querySelector('th[data-title="' + input.dataset.heading + '"]');
        if (th && input.value.trim()) th.textContent = input.value.trim();
      });
    });
    var file = editor.querySelector('input[type="file"]');
    var fileName = editor.querySelector(".file-name");
    if (file && fileName) {
      file.addEventListener("change", function () {
        fileName.textContent = file.files.length ? file.files[0].name : fileName.dataset.none;
      });
    }
  });
  if (!window.fetch || !window.FormData) return;

  function post(url, form, extra) {
    var data = new FormData(form);
    Object.keys(extra || {}).forEach(function (key) { data.append(key, extra[key]); });
    data.delete("preview");
    return fetch(url, { method: "POST", body: data, credentials: "same-origin" }).then(function (r) { return r.text(); });
  }

  function fieldNamed(form, name) {
    return Array.prototype.filter.call(form.elements, function (el) { return el.name === name; });
  }

  function setValue(form, name, text) {
    fieldNamed(form, name).forEach(function (el) {
      if (el === document.activeElement) return;  // never what the treasurer is typing in
      if (el.type === "checkbox") el.checked = text !== "";
      else if (el.type === "radio") el.checked = el.value === text;
      else el.value = text;
    });
  }

  function showErrors(editor, form, fresh) {
    editor.querySelectorAll(".live-error").forEach(function (el) { el.remove(); });
    editor.querySelectorAll(".field-error:not(.live-error)").forEach(function (el) { el.remove(); });
    editor.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); el.removeAttribute("aria-invalid"); });
    var summary = editor.querySelector("#card-errors");
    if (summary) summary.remove();
    fresh.querySelectorAll("template.editor-error").forEach(function (t) {
      var message = document.createElement("span");
      message.className = "error field-error live-error";
      message.setAttribute("role", "alert");
      message.textContent = t.content.textContent;
      var fields = fieldNamed(form, t.dataset.field);
      var field = fields[fields.length - 1];
      if (field) {
        field.classList.add("has-error");
        field.setAttribute("aria-invalid", "true");
        field.insertAdjacentElement("afterend", message);
        var fold = field.closest("details");
        if (fold) fold.open = true;
      } else {
        editor.querySelector(".editor-notice").appendChild(message);
      }
    });
  }

  function apply(editor, form, html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#editor-fragment");
    if (!fresh) return;
    var table = editor.querySelector(".editor-preview");
    var got = fresh.querySelector(".editor-preview");
    if (table && got) table.innerHTML = got.innerHTML;
    fresh.querySelectorAll("template.editor-value").forEach(function (t) { setValue(form, t.dataset.field, t.content.textContent); });
    var notices = fresh.querySelectorAll("template.editor-notice");
    var box = editor.querySelector(".editor-notice");
    if (box && notices.length) {
      box.innerHTML = "";
      notices.forEach(function (t) { var p = document.createElement("p"); p.className = "notice"; p.textContent = t.content.textContent; box.appendChild(p); });
    }
    showErrors(editor, form, fresh);
  }

  document.querySelectorAll(".option-editor[data-preview]").forEach(function (editor) {
    var form = editor.closest("form");
    if (!form) return;
    var url = editor.dataset.preview;
    var timer = null;
    var typed = false;  // a field changed by hand since the last fill: a preset asks before it replaces it
    function refresh() {
      post(url, form).then(function (html) { apply(editor, form, html); }).catch(function () { /* offline: Preview works */ });
    }
    editor.addEventListener("input", function (event) {
      if (!event.target.name) return;
      typed = true;
      clearTimeout(timer);
      timer = setTimeout(refresh, 350);
    });
    editor.addEventListener("change", function (event) {
      if (event.target.tagName === "SELECT" && event.target.closest(".card-start")) return;  // a choice to fill in, not yet
      if (event.target.tagName === "SELECT" || event.target.type === "checkbox" || event.target.type === "radio") {
        typed = true;
        refresh();
      }
    });
    editor.querySelectorAll("[data-editor-action]").forEach(function (button) {
      button.addEventListener("click", function (event) {
        event.preventDefault();
        if (typed && button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
        var extra = {};
        extra[button.name] = button.value;
        post(url, form, extra).then(function (html) { apply(editor, form, html); typed = false; })
          .catch(function () { form.requestSubmit(button); });
      });
    });
  });

  // The new-game page's data box (a variant without an editor of its own).
  var old = document.querySelector(".tariff-editor[data-preview]");
  if (!old) return;
  var oldForm = old.closest("form");
  var oldTimer = null;
  function oldRefresh() {
    post(old.dataset.preview, oldForm).then(function (html) {
      var now = document.getElementById("tariff-preview");
      var holder = document.createElement("div");
      holder.innerHTML = html;
      var fresh = holder.querySelector("#tariff-preview");
      if (!now || !fresh) return;
      now.replaceWith(fresh);
      fresh.querySelectorAll("template.built-text").forEach(function (text) {
        var box = oldForm.querySelector('textarea[name="opt_' + text.dataset.option + '"]');
        var shown = oldForm.querySelector('input[name="shown_' + text.dataset.option + '"]');
        if (box && shown && box.value.replace(/\s+/g, " ").trim() === shown.value.replace(/\s+/g, " ").trim()) {
          box.value = text.content.textContent;
          shown.value = box.value;
        }
      });
    }).catch(function () {});
  }
  oldForm.addEventListener("input", function (event) {
    if (!event.target.name || event.target.name.indexOf("player") === 0 || event.target.name === "title") return;
    clearTimeout(oldTimer);
    oldTimer = setTimeout(oldRefresh, 400);
  });
  oldForm.addEventListener("change", function (event) {
    if (event.target.tagName === "SELECT" || event.target.type === "checkbox") oldRefresh();
  });
})();
