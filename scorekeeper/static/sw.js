// The service worker (served as /sw.js, scope /): the app's own files from its cache, the pages a phone opened
// network-first with the last copy as the fallback, and a hand (or a deal's bids) the server could not take (no
// network, or a 5xx: storage full, busy, an error) kept for offline.js to send. What it keeps is in queue.js: never a secret.
"use strict";
var VERSION = "__VERSION__";
var PRECACHE = "__PRECACHE__";
var STATIC = "static-" + VERSION;
// The pages kept as visited: home, a protokoll, its new-hand form.
var KEPT = /^\/(?:g\/[^/]+(?:\/hands\/new|\/bids)?)?$/;
// The hand entry form, and the bids of a deal entered before it is played (kept and sent the same way).
var ENTRY = /^\/g\/([^/]+)\/(hands\/new|bids)$/;
var HIDDEN = ["csrf_token", "number", "version", "token"];

importScripts("/static/queue.js?v=" + VERSION);

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) { return cache.addAll(PRECACHE); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (event) {
  var mine = [STATIC, self.skPages.name];
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return mine.indexOf(n) < 0; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate" && ENTRY.test(url.pathname)) {
    event.respondWith(postOrKeep(request, url));
  } else if (request.method !== "GET") {
    return;
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request, { cacheName: STATIC }).then(function (hit) { return hit || fetch(request); }));
  } else if (request.mode === "navigate" && KEPT.test(url.pathname)) {
    event.respondWith(networkFirst(event, request, url));
  }
});

// The kept copy of a page (by its path: a query string is not part of it); with no network else home; with a 5xx
// from the server else that answer.
function fallback(url, answer) {
  return self.skPages.match(url.pathname).then(function (hit) {
    if (hit || answer) return hit || answer;
    return self.skPages.match("/").then(function (home) { return home || Response.error(); });
  });
}

function networkFirst(event, request, url) {
  var network = self.navigator.onLine === false ? Promise.reject(new Error("offline")) : fetch(request);
  return network.then(function (response) {
    if (response.status >= 500) return fallback(url, response);
    // A query string says something about this one visit (?saved=7, ?changed=3): the copy kept is the page without it.
    var kept = url.search ? fetch(url.pathname, { credentials: "same-origin" }) : Promise.resolve(response.clone());
    event.waitUntil(kept.then(function (page) { return self.skPages.keep(url.pathname, page); }).catch(function () {}));
    return response;
  }).catch(function () {
    return fallback(url, null);
  });
}

// The hand entry form posted while the page believed it was online, and the network failed or the server answered
// 5xx (nothing stored: storage full, busy, an error): keep the hand as offline.js would, then show the protokoll
// with it waiting to be sent; it is sent, once, when the server takes it.
function postOrKeep(request, url) {
  var copy = request.clone();
  return fetch(request).then(function (response) {
    if (response.status < 500) return response;
    return keepHand(copy, url, response.status === 507 ? "full" : "server");
  }, function () {
    return keepHand(copy, url, "network");
  });
}

function keepHand(copy, url, why) {
  var found = ENTRY.exec(url.pathname);
  var game = found[1];
  var kind = found[2] === "bids" ? "bids" : "hand";
  var number = 0;
  return copy.formData().then(function (data) {
    var fields = {};
    data.forEach(function (value, name) { if (HIDDEN.indexOf(name) < 0) fields[name] = String(value); });
    number = Number(data.get("number"));
    return self.skQueue.add({
      game: game, kind: kind, number: number, token: String(data.get("token") || ""), fields: fields,
      labels: "", at: Date.now(), status: "waiting"
    });
  }).then(function () {
    return Response.redirect("/g/" + game + "?kept=" + number + "&why=" + why + (kind === "bids" ? "&what=bids" : ""), 303);
  });
}
