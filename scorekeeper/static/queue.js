// What this phone keeps for a lost network: the hands not yet sent (IndexedDB) and the pages it opened (Cache
// Storage). Loaded by the pages (offline.js) and by the service worker (/sw.js); both write the same stores.
// Never a secret: no edit key is kept here (a kept hand is sent with the phone's session), and no page that holds an
// edit link is kept, so whoever picks the phone up after its cookies were cleared finds neither.
(function (scope) {
  "use strict";
  var opening = null;

  function open() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var request = indexedDB.open("scorekeeper", 2);
        request.onupgradeneeded = function () {
          var db = request.result;
          if (!db.objectStoreNames.contains("hands")) db.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
          // Version 1 kept the games' edit keys here, where they outlived the session: gone.
          if (db.objectStoreNames.contains("keys")) db.deleteObjectStore("keys");
        };
        request.onsuccess = function () {
          var db = request.result;
          db.onversionchange = function () { db.close(); opening = null; };
          resolve(db);
        };
        request.onerror = function () { opening = null; reject(request.error); };
      });
    }
    return opening;
  }

  function run(name, mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(name, mode);
        var request = work(tx.objectStore(name));
        var result;
        if (request) request.onsuccess = function () { result = request.result; };
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function byOrder(a, b) { return a.id - b.id; }

  scope.skQueue = {
    // Every kept hand, oldest first: {id, game, number, token, fields, labels, at, status, reason, message}.
    all: function (game) {
      return run("hands", "readonly", function (s) { return s.getAll(); }).then(function (items) {
        return (items || []).filter(function (i) { return !game || i.game === game; }).sort(byOrder);
      });
    },
    // Kept once per one-time token: a second tap on Save keeps nothing more.
    add: function (item) {
      return scope.skQueue.all(item.game).then(function (items) {
        var same = items.filter(function (i) { return i.token === item.token; })[0];
        if (same) return same.id;
        return run("hands", "readwrite", function (s) { return s.add(item); });
      });
    },
    put: function (item) { return run("hands", "readwrite", function (s) { return s.put(item); }); },
    remove: function (id) { return run("hands", "readwrite", function (s) { return s.delete(id); }); }
  };

  // An edit link (/g/<id>/k/<key>) or a key in the markup: such a page is never kept (the server sends none of the
  // kept pages with one; this is the worker's own check).
  var SECRET = /\/g\/[^\/\s"'<>]+\/k\/|data-edit-key/;
  var FLASHES = /<div class="flashes"[\s\S]*?<\/div>/;

  scope.skPages = {
    // Version 1 was "pages", and its copies could hold an edit link: the worker deletes every other cache.
    name: "pages-2",
    // Keep a page under its path alone, so a query string (?saved=7, ?changed=3) never makes or changes a copy;
    // without its one-time messages ("Hand 3 saved."): they were said when it was fetched, not when it is shown.
    keep: function (path, response) {
      if (!response.ok || response.type !== "basic" || response.redirected) return Promise.resolve();
      return response.text().then(function (html) {
        return caches.open(scope.skPages.name).then(function (cache) {
          if (SECRET.test(html)) return cache.delete(path);
          html = html.replace(FLASHES, "");
          return cache.put(path, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
        });
      });
    },
    match: function (path) { return caches.match(path, { cacheName: scope.skPages.name, ignoreSearch: true, ignoreVary: true }); }
  };
})(self);
