// The tariff as the table types it, without a reload: an option editor (a variant's own fields, such as the tariff
// card) posts its form to its data-preview address as the fields change and puts back the table it gives, the fields
// it filled in and the errors beside their fields; its own buttons (fill in a preset) do the same after asking.
// The new-game page's data box (.tariff-editor) likewise. Without this script the Preview buttons do it all by posting
// the form: nothing here is needed to enter a card.
// The card's matrix (a square per bid, suffix and tricks): its rows follow the card's columns (redrawn from the page's
// preview when a column's suffixes or heading change), and a block pasted from the club's spreadsheet goes into the
// squares at once. A post sends the form URL-encoded (a card of 784 squares is a few tens of KiB so, three times that
// as multipart), and the paste only when it is to be read, so that a square typed after it is never overwritten.
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

  var PASTE = "card.paste";

  function encoded(form, extra, withPaste) {
    var data = new URLSearchParams();
    new FormData(form).forEach(function (value, key) {
      if (typeof value !== "string" || key === "preview" || (key === PASTE && !withPaste)) return;  // no file here
      data.append(key, value);
    });
    Object.keys(extra || {}).forEach(function (key) { data.append(key, extra[key]); });
    return data;
  }

  function post(url, form, extra, withPaste) {
    return fetch(url, { method: "POST", body: encoded(form, extra, withPaste), credentials: "same-origin" })
      .then(function (r) { return r.text(); });
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
    return fresh;
  }

  // The matrix's rows as the page's preview draws them for the card's columns now; what was typed meanwhile is kept,
  // and only the answer to the latest change is put in (answers may come back out of order).
  var redraws = 0;
  function redrawSquares(editor, form) {
    var url = editor.dataset.page;
    var mine = ++redraws;
    if (!url || !document.getElementById("card-squares")) return;
    var data = encoded(form, { preview: "1" }, false);
    var get = (editor.dataset.method || "post").toLowerCase() === "get";
    var asked = get ? fetch(url + (url.indexOf("?") < 0 ? "?" : "&") + data.toString(), { credentials: "same-origin" })
      : fetch(url, { method: "POST", body: data, credentials: "same-origin" });
    asked.then(function (r) { return r.text(); }).then(function (html) {
      if (mine !== redraws) return;
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("card-squares");
      var now = document.getElementById("card-squares");
      if (!fresh || !now) return;
      var typedNow = {};
      now.querySelectorAll("input.sq, textarea").forEach(function (el) { typedNow[el.name] = el.value; });
      var focused = now.contains(document.activeElement) ? document.activeElement.name : null;
      fresh.open = now.open || fresh.open;
      fresh.querySelectorAll("input.sq, textarea").forEach(function (el) {
        if (Object.prototype.hasOwnProperty.call(typedNow, el.name)) el.value = typedNow[el.name];
      });
      var placed = document.importNode(fresh, true);
      now.replaceWith(placed);
      if (focused) {
        var again = placed.querySelector('[name="' + focused + '"]');
        if (again) again.focus();
      }
    }).catch(function () { /* offline: Preview redraws it */ });
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
    function act(button) {
      var extra = {};
      extra[button.name] = button.value;
      var reading = button.value === "read";
      post(url, form, extra, reading).then(function (html) {
        var fresh = apply(editor, form, html);
        var paste = form.querySelector('textarea[name="' + PASTE + '"]');
        if (!reading) typed = false;
        else if (fresh && paste && !fresh.querySelector('template.editor-error[data-field="' + PASTE + '"]')) paste.value = "";
      }).catch(function () { form.requestSubmit(button); });
    }
    editor.addEventListener("input", function (event) {
      if (!event.target.name || event.target.name === PASTE) return;  // a paste is read when it is pasted or asked
      typed = true;
      clearTimeout(timer);
      timer = setTimeout(refresh, 350);
    });
    editor.addEventListener("change", function (event) {
      if (event.target.tagName === "SELECT" && event.target.closest(".card-start")) return;  // a choice to fill in, not yet
      if (event.target.closest(".card-column")) redrawSquares(editor, form);  // the matrix's rows follow the columns
      if (event.target.tagName === "SELECT" || event.target.type === "checkbox" || event.target.type === "radio") {
        typed = true;
        refresh();
      }
    });
    var count = editor.querySelector('select[name="card.columns"]');
    if (count) count.addEventListener("change", function () { redrawSquares(editor, form); });
    editor.addEventListener("click", function (event) {
      var button = event.target.closest("[data-editor-action]");
      if (!button || !editor.contains(button)) return;
      event.preventDefault();
      if (typed && button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
      act(button);
    });
    editor.addEventListener("paste", function (event) {
      if (event.target.name !== PASTE) return;
      var read = editor.querySelector('[data-editor-action][value="read"]');
      if (read) setTimeout(function () { act(read); }, 0);  // the rows go into the squares as soon as they are pasted
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
