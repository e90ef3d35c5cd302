// The table never loses a hand. Every page works without this script; it only adds:
// - the service worker (/sw.js), which keeps the pages a phone opened for when there is no network;
// - drafts: the hand being entered is kept as it is tapped (localStorage), per game and hand number;
// - Save with no network keeps the hand (IndexedDB, queue.js) and shows it in the protokoll as waiting (so does the
//   service worker when the server answers 5xx); it is sent when the network returns, in order, through the JSON
//   API with the form's one-time token as Idempotency-Key and its number as X-Hand-Number, so a retry never makes a
//   second hand and a hand someone else entered is caught. It goes with the phone's session and the page's CSRF
//   token, never a key kept on the phone: a phone whose cookies were cleared sends nothing for its next user;
// - a hand the server would not take (a 4xx: final, never sent again) stays kept, with "enter it as the next hand"
//   or "drop it"; one saved once and deleted since on another phone is only said to be so;
// - the bids of a deal entered before it is played (the bids page: data-kind="bids") are kept and sent the same way
//   (PUT /api/games/<id>/bids), before the hand whose tricks complete them; the hand form kept for that deal opens
//   with the kept bids filled in;
// - the saved or edited row in view below the sticky standing.
// The words come from the page (templates/_offline.html), in the page's language.
(function () {
  "use strict";
  var holder = document.getElementById("offline-words");
  if (!holder) return;
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(holder.dataset.sw, { scope: "/" }).catch(function () {});
  }
  if (!holder.dataset.words || !window.skQueue || !window.indexedDB) return;
  var words = JSON.parse(holder.dataset.words);
  var queue = window.skQueue;
  var pages = window.skPages;
  var HIDDEN = ["csrf_token", "number", "version", "token"];

  function say(name, n) {
    return words[name].replace("%(n)d", n).replace("%(num)d", n);
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text) node.textContent = text;
    return node;
  }

  function note(text, where) {
    var box = el("p", "offline-note", text);
    box.setAttribute("role", "status");
    (where || document.querySelector("main")).prepend(box);
    return box;
  }

  // ------------------------------------------------------------ drafts

  function draftKey(game, number, kind) { return "sk:draft:" + game + ":" + number + (kind === "bids" ? ":bids" : ""); }
  function isBids(item) { return item.kind === "bids"; }

  function readDraft(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }

  function fieldsOf(form, submitter) {
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (HIDDEN.indexOf(name) < 0) fields[name] = String(value);
    });
    if (submitter && submitter.name) fields[submitter.name] = submitter.value;
    return fields;
  }

  function labelsOf(form, submitter) {
    if (submitter && submitter.name) return submitter.textContent.trim();
    var out = [];
    form.querySelectorAll("input:checked").forEach(function (input) {
      var label = form.querySelector('label[for="' + input.id + '"]');
      if (label) out.push(label.textContent.trim());
    });
    return out.join(" · ");
  }

  function restore(form, fields) {
    var any = false;
    Object.keys(fields).forEach(function (name) {
      form.querySelectorAll('input[name="' + name + '"]').forEach(function (input) {
        if ((input.type === "radio" || input.type === "checkbox") && input.value === fields[name]) {
          input.checked = true;
          any = true;
          var details = input.closest("details");
          if (details) details.open = true;
          input.dispatchEvent(new Event("change", { bubbles: true }));
        }
      });
    });
    return any;
  }

  // The drafts of hands the sheet has, and of bids it has (those of the deal in progress too: `bidsUpTo`).
  function clearDrafts(game, upTo, bidsUpTo) {
    var prefix = "sk:draft:" + game + ":";
    for (var i = localStorage.length - 1; i >= 0; i--) {
      var key = localStorage.key(i);
      if (!key || key.indexOf(prefix) !== 0) continue;
      var rest = key.slice(prefix.length);
      var bids = /:bids$/.test(rest);
      var n = parseInt(rest, 10);
      if (n <= (bids ? bidsUpTo : upTo)) localStorage.removeItem(key);
    }
  }

  // ------------------------------------------------------------ the hand entry form

  var form = document.querySelector("form.hand");
  if (form) handForm(form);

  function handForm(form) {
    var game = form.dataset.game;
    var numberField = form.querySelector('input[name="number"]');
    var tokenField = form.querySelector('input[name="token"]');
    var number = Number(form.dataset.number);
    var editing = !!form.dataset.editing;
    var kind = form.dataset.kind === "bids" ? "bids" : "hand";

    window.addEventListener("pageshow", function (event) {
      if (event.persisted) location.reload(); // never a form brought back as it was left: it may have been saved
    });

    // A button that is a hand of its own (a passed-out deal) asks before it replaces a played hand.
    form.querySelectorAll("button.one-tap[data-confirm]").forEach(function (button) {
      button.addEventListener("click", function (event) {
        if (!form.dataset.played || button.value === "confirmed") return;
        if (window.confirm(button.dataset.confirm)) button.value = "confirmed";
        else event.preventDefault();
      });
    });

    // A button of its own address (clear the bids) is no entry to keep: offline it says nothing was saved.
    form.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      if (!submitter || !submitter.hasAttribute("formaction") || navigator.onLine !== false) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      note(words.edit_offline, form);
    });

    if (editing) {
      form.addEventListener("submit", function (event) {
        if (navigator.onLine !== false) return;
        event.preventDefault();
        note(words.edit_offline, form);
      });
      return;
    }

    var ready = queue.all(game).then(function (items) {
      // Hands kept offline come before this one: this page (perhaps a kept copy) gets the next number and token.
      var last = 0;
      items.forEach(function (i) { if (i.status === "waiting" && !isBids(i)) last = Math.max(last, i.number); });
      if (last >= number) {
        number = last + 1;
        numberField.value = String(number);
        tokenField.value = freshToken();
        var head = document.querySelector(".hand-head h1");
        if (head) head.textContent = say("hand", number);
        var who = document.querySelector(".hand-head .who");
        if (who) who.hidden = true;
      }
      var nextKey = "sk:draft:" + game + ":next" + (kind === "bids" ? ":bids" : "");
      var carried = readDraft(nextKey);
      localStorage.removeItem(nextKey);
      var draft = carried || readDraft(draftKey(game, number, kind));
      if (draft && restore(form, draft.fields)) {
        save();
        note(words.restored, form);
      } else if (kind === "hand") {
        // Bids of this deal kept on this phone, not yet sent: the form opens with them, as it would from the sheet.
        var bids = items.filter(function (i) { return isBids(i) && i.number === number; }).pop();
        if (bids) restore(form, bids.fields);
      }
    }).catch(function () {});

    function save() {
      var fields = fieldsOf(form);
      if (Object.keys(fields).length) {
        localStorage.setItem(draftKey(game, number, kind), JSON.stringify({ fields: fields, at: Date.now() }));
      }
    }
    form.addEventListener("change", save);
    form.querySelectorAll(".actions a.button:not(.danger)").forEach(function (cancel) {
      cancel.addEventListener("click", function () { localStorage.removeItem(draftKey(game, number, kind)); });
    });

    form.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      if (navigator.onLine !== false) {
        // Online: the page's own POST; the draft goes when the sheet has it. If the service worker has to keep the
        // hand (a 5xx, a lost network), the protokoll labels it with these words.
        sessionStorage.setItem("sk:sending", JSON.stringify({ token: tokenField.value, labels: labelsOf(form, submitter) }));
        return;
      }
      event.preventDefault();
      var started = Date.now();
      ready.then(function () {
        return queue.add({
          game: game, kind: kind, number: number, token: tokenField.value, fields: fieldsOf(form, submitter),
          labels: labelsOf(form, submitter), at: Date.now(), status: "waiting"
        });
      }).then(function () {
        localStorage.removeItem(draftKey(game, number, kind));
        sessionStorage.setItem("sk:kept", JSON.stringify({
          game: game, kind: kind, number: number, labels: labelsOf(form, submitter), started: started
        }));
        location.replace(form.dataset.protokoll);
      });
    });
  }

  function freshToken() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // ------------------------------------------------------------ the protokoll

  var sheet = document.getElementById("sheet");
  if (sheet) protokoll(sheet);

  function protokoll(sheet) {
    var game = sheet.dataset.game;
    var hands = Number(sheet.dataset.hands);
    clearDrafts(game, hands, sheet.dataset.open ? hands + 1 : hands);
    keepInView();
    showKept(sheet, game);
    if (navigator.onLine !== false && sheet.dataset.form && "caches" in window) {
      // This protokoll and its new-hand form (and bids form), fresh, for when the network goes (kept as queue.js
      // keeps a page).
      var urls = [sheet.dataset.form];
      if (sheet.dataset.bidsForm) urls.push(sheet.dataset.bidsForm);
      if (!navigator.serviceWorker || !navigator.serviceWorker.controller) urls.push(location.pathname);
      pages.match("/").then(function (home) {
        if (!home) urls.push("/"); // the service worker keeps it fresh on each visit
        return Promise.all(urls.map(function (u) {
          return fetch(u, { credentials: "same-origin" }).then(function (response) { return pages.keep(u, response); });
        }));
      }).then(function () {
        document.documentElement.dataset.offlineReady = "1";
      }).catch(function () {});
    }
  }

  // The service worker kept a hand the server did not take (?kept=7&why=full|server|network): say so, once.
  // Answers what the form said it was sending, to label that hand's row.
  function keptByWorker() {
    var sending = null;
    try { sending = JSON.parse(sessionStorage.getItem("sk:sending") || "null"); } catch (e) { sending = null; }
    sessionStorage.removeItem("sk:sending");
    var params = new URLSearchParams(location.search);
    var number = Number(params.get("kept"));
    if (!number) return null;
    var why = params.get("why");
    if (params.get("what") === "bids") note(say("bids_kept", number));
    else note(say(why === "full" ? "server_full" : why === "server" ? "server_down" : "kept", number));
    history.replaceState(null, "", location.pathname + location.hash);
    return sending;
  }

  function pendingRow(sheet, item) {
    var id = (isBids(item) ? "pending-bids-" : "pending-") + item.number;
    var found = document.getElementById(id);
    if (found) return found;
    var body = el("tbody", "hand pending" + (isBids(item) ? " bids" : ""));
    body.id = id;
    var desc = el("tr", "desc");
    desc.append(el("td", "num", String(item.number)));
    var text = el("td", "", (isBids(item) ? say("bids", item.number) + ": " : "") + (item.labels ? item.labels + " " : ""));
    text.colSpan = sheet.querySelectorAll("thead th").length - 1;
    text.append(el("span", "mark waiting", words.waiting));
    desc.append(text);
    body.append(desc);
    var before = Array.prototype.filter.call(sheet.querySelectorAll("tbody.pending"), function (b) {
      var n = Number(b.id.replace(/^pending-(bids-)?/, ""));
      return n > item.number || (n === item.number && isBids(item) && !/^pending-bids-/.test(b.id));
    })[0];
    sheet.insertBefore(body, before || null);
    var enter = document.getElementById("enter-hand");
    if (enter && !before && !isBids(item)) enter.textContent = say("enter", item.number + 1);
    return body;
  }

  function showKept(sheet, game) {
    // The hand just kept is drawn at once from what the form left in sessionStorage; the rest from IndexedDB.
    var kept = null;
    try { kept = JSON.parse(sessionStorage.getItem("sk:kept") || "null"); } catch (e) { kept = null; }
    if (kept && kept.game === game) {
      sessionStorage.removeItem("sk:kept");
      var row = pendingRow(sheet, kept);
      note(say(isBids(kept) ? "bids_kept" : "kept", kept.number));
      row.scrollIntoView({ block: "nearest" });
      document.documentElement.dataset.keptShownMs = String(Date.now() - kept.started);
    }
    var sending = keptByWorker();
    return queue.all(game).then(function (items) {
      items.forEach(function (item) {
        if (sending && item.token === sending.token && !item.labels) {
          item.labels = sending.labels;
          queue.put(item).catch(function () {});
        }
        if (item.status === "waiting") pendingRow(sheet, item);
        else stuckBox(item, sheet);
      });
    });
  }

  function stuckBox(item, sheet) {
    var box = el("section", "kept-hand");
    box.setAttribute("role", "alert");
    box.id = "kept-" + item.id;
    var message = ["conflict", "held", "forbidden", "deleted"].indexOf(item.reason) < 0 ? "refused" : item.reason;
    if (isBids(item)) box.append(el("p", "kept-kind", say("bids", item.number)));
    box.append(el("p", "", say(message, item.number)));
    if (item.message && message === "refused") box.append(el("p", "error", item.message));
    box.append(el("p", "kept-labels", item.labels || JSON.stringify(item.fields)));
    if (message === "deleted") {
      // Saved once, then deleted on another phone: final, nothing to enter again; the phone only says so.
      var seen = el("button", "button primary seen", words.seen);
      seen.type = "button";
      seen.addEventListener("click", function () { queue.remove(item.id).then(function () { box.remove(); }); });
      box.append(seen);
      sheet.before(box);
      return;
    }
    var target = isBids(item) ? sheet.dataset.bidsForm : sheet.dataset.form;
    if (target) {
      var next = el("a", "button primary again", words.next);
      next.href = target;
      next.addEventListener("click", function (event) {
        event.preventDefault();
        var key = "sk:draft:" + item.game + ":next" + (isBids(item) ? ":bids" : "");
        localStorage.setItem(key, JSON.stringify({ fields: item.fields, at: Date.now() }));
        queue.remove(item.id).then(function () { location.href = target; });
      });
      box.append(next);
    }
    var drop = el("button", "button danger drop", words.drop);
    drop.type = "button";
    drop.addEventListener("click", function () {
      if (!window.confirm(words.drop_confirm)) return;
      queue.remove(item.id).then(function () { box.remove(); });
    });
    box.append(drop);
    sheet.before(box);
  }

  // The row a save or an edit went to, in view below the sticky standing (its height known only here).
  function keepInView() {
    var standing = document.querySelector(".standing");
    if (standing) {
      document.documentElement.style.setProperty("--standing", Math.ceil(standing.getBoundingClientRect().height) + 8 + "px");
    }
    var target = location.hash && document.getElementById(location.hash.slice(1));
    if (target) target.scrollIntoView({ block: "start" });
  }

  // ------------------------------------------------------------ home

  var waitingNote = document.getElementById("waiting-note");
  if (waitingNote) {
    queue.all().then(function (items) {
      if (!items.length) return;
      waitingNote.textContent = say(items.length === 1 ? "waiting_one" : "waiting_other", items.length);
      waitingNote.hidden = false;
      var per = {};
      items.forEach(function (i) { per[i.game] = (per[i.game] || 0) + 1; });
      Object.keys(per).forEach(function (game) {
        var li = document.querySelector('li[data-game="' + game + '"] a');
        if (li) li.append(el("small", "waiting", say(per[game] === 1 ? "waiting_one" : "waiting_other", per[game])));
      });
    }).catch(function () {});
  }

  // ------------------------------------------------------------ sending

  // With the phone's session (the key is there, nowhere else on the phone) and this page's CSRF token.
  function send(item) {
    var bids = isBids(item);
    return fetch("/api/games/" + encodeURIComponent(item.game) + (bids ? "/bids" : "/hands"), {
      method: bids ? "PUT" : "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "X-CSRFToken": holder.dataset.csrf || "",
        "Idempotency-Key": "form:" + item.token,
        "X-Hand-Number": String(item.number)
      },
      body: JSON.stringify({ form: item.fields })
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        return { status: response.status, body: body };
      });
    });
  }

  function errorsText(body) {
    var errors = (body && body.errors) || {};
    return Object.keys(errors).map(function (k) { return errors[k]; }).join(" ");
  }

  // In order, game by game; stops at a network failure or a busy server (tried again later).
  function flushAll() {
    return queue.all().then(function (items) {
      var sent = 0;
      var blocked = {};
      var chain = Promise.resolve(true);
      items.filter(function (i) { return i.status === "waiting"; }).forEach(function (item) {
        chain = chain.then(function (going) {
          if (!going) return false;
          if (blocked[item.game]) {
            item.status = "stuck";
            item.reason = "held";
            return queue.put(item).then(function () { return true; });
          }
          return send(item).then(function (answer) {
            if (answer.status === 201 || (isBids(item) && answer.status === 200)) {
              sent++;
              return queue.remove(item.id).then(function () { return true; });
            }
            if (answer.status >= 500 || answer.status === 429) return false;
            blocked[item.game] = true;
            item.status = "stuck";
            var errors = answer.body.errors || {};
            // A 4xx is final (never sent again): a hand saved once and deleted since on another phone is "deleted".
            item.reason = answer.status === 403 ? "forbidden"
              : answer.status === 404 && errors.hand ? "deleted"
              : answer.status === 409 && errors.number && "latest" in answer.body ? "conflict" : "refused";
            item.message = item.reason === "conflict" ? "" : errorsText(answer.body);
            return queue.put(item).then(function () { return true; });
          }, function () { return false; });
        });
      });
      return chain.then(function () { return { sent: sent, changed: sent || Object.keys(blocked).length }; });
    });
  }

  var flushing = null;
  function flush() {
    if (navigator.onLine === false || flushing) return flushing;
    var run = function () { return flushAll(); };
    flushing = (navigator.locks ? navigator.locks.request("scorekeeper-send", run) : run()).then(function (result) {
      flushing = null;
      if (result && result.changed && (sheet || waitingNote)) location.reload();
      return result;
    }, function () { flushing = null; });
    return flushing;
  }

  window.addEventListener("online", flush);
  queue.all().then(function (items) {
    if (!items.some(function (i) { return i.status === "waiting"; })) return;
    flush();
    var timer = setInterval(function () {
      queue.all().then(function (left) {
        if (left.some(function (i) { return i.status === "waiting"; })) flush();
        else clearInterval(timer);
      });
    }, 30000);
  }).catch(function () {});
})();
