// Live pages without reloads (the protokoll, a drive table's page, the hall screen). The page's root element says where
// to ask and what it shows: data-live-url, data-live-tag (its state's ETag), data-live-every (seconds). Every few
// seconds the script asks that address with its tag in X-Live-Tag: an empty 200 of a few hundred bytes when nothing
// changed (not a 304, after which waitress alone would close the connection: the phone keeps it). When something did,
// the answer is what changed (it says X-Live-Parts: the new hand's row, the standing, the chart…; web/live_parts.py),
// or where the server cannot tell, the fresh page, and only its parts that show state (elements with data-live and an
// id) replace their namesakes here. A part is left as it is while the user is on it: a finger down, the focus in one of
// its text fields, a tap not sent yet (data-unsent="1"), or anything the root's data-live-hold names on the page (the
// protokoll's hands kept offline, waiting to be sent); it follows as soon as it is free. With data-live-defer the page
// applies the fresh parts itself when it is ready (the hall screen, at the end of a cycle: window.skLive.apply).
// Polling pauses while the page is hidden and backs off after errors; a finished game's page asks every data-live-every
// seconds (slower), so that a deleted last hand still reaches it. Without this script the pages keep their <noscript>
// meta refresh.
"use strict";
(function () {
  var root = document.querySelector("[data-live-url]");
  if (!root || !window.fetch || !window.DOMParser) return;
  var url = root.dataset.liveUrl;
  var tag = root.dataset.liveTag || "";
  var every = (parseFloat(root.dataset.liveEvery) || 5) * 1000;
  var hold = root.dataset.liveHold || "";
  var defer = !!root.dataset.liveDefer;
  var wait = every;
  var timer = null;
  var asking = false;
  var stopped = false;
  var pressing = false;
  var fresh = {}; // id -> the fresh element not yet put in place
  var TYPED = "select, textarea, input:not([type=radio]):not([type=checkbox]):not([type=submit]):not([type=button])";
  var live = (window.skLive = { polls: 0, updates: 0, apply: apply, pending: function () { return Object.keys(fresh).length > 0; } });
  // Whether this browser may edit the game, as its pages last said (by the live address): a page drawn for an editor
  // (data-live-editor) says so for the others. A page drawn for a reader asks with its tag marked (+key) while the
  // browser says so, for its phone may have taken the edit key since: nginx answers only a bare tag (with a reader's
  // answer, for all it knows), so the app answers, as the phone now is. Its answer settles it: the editor's page, or
  // the reader's (then the mark goes).
  var EDITOR = "sk:editor:" + url;
  var editor = root.hasAttribute("data-live-editor");
  function mayEdit(now) {
    try {
      if (now === true) localStorage.setItem(EDITOR, "1");
      else if (now === false) localStorage.removeItem(EDITOR);
      return localStorage.getItem(EDITOR) === "1";
    } catch (e) {
      return false;
    }
  }
  if (editor) mayEdit(true);

  function busy(part) {
    if (pressing || part.matches('[data-unsent="1"]') || part.querySelector('[data-unsent="1"]')) return true;
    if (hold && document.querySelector(hold)) return true;
    // Being typed in (a tap leaves the focus on its radio or button long after: those are the finger's and the tap's).
    var active = document.activeElement;
    return !!(active && part.contains(active) && active.matches(TYPED));
  }

  // Put the fresh parts in place, except those the user is on; true if any was. A part of what changed (a new
  // hand's row) that has no namesake here goes after the one it follows (data-live-after).
  function apply() {
    var done = false;
    Object.keys(fresh).forEach(function (id) {
      var here = document.getElementById(id);
      if (here && busy(here)) return;
      var part = fresh[id];
      var after = part.getAttribute("data-live-after");
      part.removeAttribute("data-live-part");
      part.removeAttribute("data-live-after");
      if (here) here.replaceWith(part);
      else if (after && document.getElementById(after)) document.getElementById(after).after(part);
      delete fresh[id];
      done = true;
    });
    if (done) {
      live.updates += 1;
      document.dispatchEvent(new CustomEvent("sk:live"));
    }
    return done;
  }

  // The fresh page, or only what changed on it (data-live-delta: the blocks and rows that changed or are new, the
  // rows gone, the sheet's own attributes; web/live_parts.py).
  function take(html, marked) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var next = doc.querySelector("[data-live-url]"); // read before the parts are taken out (it may be one of them)
    var delta = next && next.hasAttribute("data-live-delta");
    if (next) {
      editor = !delta && next.hasAttribute("data-live-editor"); // what changed is only ever a reader's answer
      if (editor || marked) mayEdit(editor);
    }
    if (delta) {
      doc.querySelectorAll("[data-live-gone]").forEach(function (mark) {
        var gone = document.getElementById(mark.getAttribute("data-live-gone"));
        if (gone) gone.remove();
      });
      doc.querySelectorAll("[data-live-attrs][id]").forEach(function (attrs) {
        var here = document.getElementById(attrs.id);
        if (!here) return;
        Array.prototype.slice.call(here.attributes).forEach(function (a) {
          if (!attrs.hasAttribute(a.name)) here.removeAttribute(a.name);
        });
        Array.prototype.forEach.call(attrs.attributes, function (a) {
          if (a.name !== "data-live-attrs") here.setAttribute(a.name, a.value);
        });
      });
    }
    doc.querySelectorAll(delta ? "[data-live-part][id]" : "[data-live][id]").forEach(function (part) {
      fresh[part.id] = document.adoptNode(part);
    });
    if (next) {
      tag = next.dataset.liveTag || tag;
      url = next.dataset.liveUrl;
      // A finished game asks more slowly (a deleted last hand brings it back), one going on at the usual pace.
      if (next.dataset.liveEvery) root.dataset.liveEvery = next.dataset.liveEvery;
      else delete root.dataset.liveEvery;
      every = (parseFloat(root.dataset.liveEvery) || 5) * 1000;
    } else {
      stopped = true; // the fresh page is no longer live (a drive's table once the drive is over)
    }
    if (!defer) apply();
  }

  function schedule(ms) {
    window.clearTimeout(timer);
    timer = null;
    if (!stopped && !document.hidden) timer = window.setTimeout(ask, ms);
  }

  function ask() {
    timer = null;
    if (asking || stopped || document.hidden) return;
    asking = true;
    live.polls += 1;
    var marked = !editor && mayEdit();
    var asked = { "X-Live-Tag": marked ? tag + "+key" : tag, "X-Live-Parts": "1" };
    fetch(url, { credentials: "same-origin", cache: "no-store", headers: asked })
      .then(function (response) {
        if (response.status === 304) return null;
        if (response.ok) return response.text().then(function (html) {
          if (html) take(html, marked);
          else if (marked) mayEdit(false); // the app says this page is as the phone is: a reader's
        });
        if (response.status !== 429 && response.status < 500) stopped = true; // gone, or no longer ours
        throw new Error(String(response.status));
      })
      .then(function () {
        wait = every;
        if (!defer) apply(); // a part held before may be free now
      }, function () {
        wait = Math.min(wait * 2, 60000);
      })
      .then(function () {
        asking = false;
        schedule(wait);
      });
  }

  // An editor's page drawn in another tab of this browser (the edit link opened there): ask now.
  window.addEventListener("storage", function (event) {
    if (event.key === EDITOR && event.newValue === "1" && !editor) schedule(250);
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) schedule(0); // clears the timer: nothing is asked while hidden
    else schedule(250);
  });
  document.addEventListener("pointerdown", function () { pressing = true; }, true);
  ["pointerup", "pointercancel"].forEach(function (name) {
    document.addEventListener(name, function () {
      pressing = false;
      if (!defer) window.setTimeout(apply, 300); // after the tap's own click
    }, true);
  });
  document.addEventListener("focusout", function () { if (!defer) window.setTimeout(apply, 0); });
  document.addEventListener("change", function () { if (!defer) window.setTimeout(apply, 0); });
  schedule(every);
})();
