// The service worker (served as /sw.js, scope /): the app's own files from its cache, the pages a phone opened
// network-first with the last copy as the fallback, and a hand saved with no network kept for offline.js to send.
"use strict";
var VERSION = "__VERSION__";
var PRECACHE = "__PRECACHE__";
var STATIC = "static-" + VERSION;
var PAGES = "pages";
// The pages kept as visited: home, a protokoll, its new-hand form.
var KEPT = /^\/(?:g\/[^/]+(?:\/hands\/new)?)?$/;
var ENTRY = /^\/g\/([^/]+)\/hands\/new$/;
var HIDDEN = ["csrf_token", "number", "version", "token"];

importScripts("/static/queue.js?v=" + VERSION);

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) { return cache.addAll(PRECACHE); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("static-") === 0 && n !== STATIC; })
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
    event.respondWith(networkFirst(request, url));
  }
});

function networkFirst(request, url) {
  var network = self.navigator.onLine === false ? Promise.reject(new Error("offline")) : fetch(request);
  return network.then(function (response) {
    if (response.ok && response.type === "basic") keep(url.pathname, response.clone());
    return response;
  }).catch(function () {
    return caches.match(url.pathname, { cacheName: PAGES, ignoreVary: true }).then(function (hit) {
      return hit || caches.match("/", { cacheName: PAGES, ignoreVary: true }).then(function (home) {
        return home || Response.error();
      });
    });
  });
}

// Kept without its one-time messages ("Hand 3 saved."): they were said when it was fetched, not when it is shown.
function keep(path, response) {
  return response.text().then(function (html) {
    html = html.replace(/<div class="flashes"[\s\S]*?<\/div>/, "");
    var copy = new Response(html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
    return caches.open(PAGES).then(function (cache) { return cache.put(path, copy); });
  });
}

// The hand entry form posted while the page believed it was online, and the network failed: keep the hand as
// offline.js would, then show the protokoll (kept copy) with it waiting to be sent.
function postOrKeep(request, url) {
  var copy = request.clone();
  return fetch(request).catch(function () {
    var game = ENTRY.exec(url.pathname)[1];
    return copy.formData().then(function (data) {
      var fields = {};
      data.forEach(function (value, name) { if (HIDDEN.indexOf(name) < 0) fields[name] = String(value); });
      return self.skQueue.add({
        game: game, number: Number(data.get("number")), token: String(data.get("token") || ""), fields: fields,
        labels: "", at: Date.now(), status: "waiting"
      });
    }).then(function () {
      return Response.redirect("/g/" + game, 303);
    });
  });
}
