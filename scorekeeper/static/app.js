// Makes hand entry a little faster; every page works without it.
(function () {
  "use strict";
  var form = document.querySelector("form.hand");
  if (!form || !document.body.classList.contains("variant-danish")) return;
  var trickBid = form.querySelector(".trick-bid");
  function pick(name, value) {
    var input = form.querySelector('input[name="' + name + '"][value="' + value + '"]');
    if (input) input.checked = true;
  }
  function update() {
    var chosen = form.querySelector('input[name="bid"]:checked');
    if (!chosen) return;
    var value = chosen.value;
    var solo = !/^\d/.test(value);
    if (trickBid) trickBid.classList.toggle("hidden-solo", solo);
    if (solo) return;
    if (/-gode$/.test(value)) pick("trump", "clubs");
    else if (/-sans$/.test(value)) pick("trump", "none");
  }
  form.addEventListener("change", function (event) {
    if (event.target.name === "bid") update();
  });
  update();
})();
