// The hands kept on this phone until the server has them, and the edit keys they are sent with (IndexedDB).
// Loaded by the pages (offline.js) and by the service worker (/sw.js); both write the same database.
(function (scope) {
  "use strict";
  var opening = null;

  function open() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var request = indexedDB.open("scorekeeper", 1);
        request.onupgradeneeded = function () {
          var db = request.result;
          if (!db.objectStoreNames.contains("hands")) db.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
          if (!db.objectStoreNames.contains("keys")) db.createObjectStore("keys");
        };
        request.onsuccess = function () { resolve(request.result); };
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
    remove: function (id) { return run("hands", "readwrite", function (s) { return s.delete(id); }); },
    setKey: function (game, key) { return run("keys", "readwrite", function (s) { return s.put(key, game); }); },
    getKey: function (game) { return run("keys", "readonly", function (s) { return s.get(game); }); }
  };
})(self);
