// Danish whist's hand form (variants/danish/view.py: SCRIPT): gode and sans fill in their trump, a sol hides the
// trump, ace and partner (a trick bid the gå med players), and the ladder folds to the chosen bid so the rest fits
// one screen. The form works without it.
(function () {
  "use strict";
  var form = document.querySelector("form.hand");
  if (!form) return;
  var trickBid = form.querySelector(".trick-bid");
  var gaaMed = form.querySelector(".gaa-med");
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
    if (gaaMed) gaaMed.classList.toggle("hidden-solo", !solo); // only a sol can be joined
    if (solo) return;
    if (/-gode$/.test(value)) pick("trump", "clubs");
    else if (/-sans$/.test(value)) pick("trump", "none");
  }
  // Steps: once a bid is chosen the ladder folds to that bid, so trump, partner, tricks and Save fit one screen;
  // a tap on the chosen bid opens the ladder again.
  var ladder = form.querySelector(".ladder");
  function fold(open) {
    if (ladder) ladder.classList.toggle("picked", !open && !!form.querySelector('input[name="bid"]:checked'));
  }
  if (ladder) {
    ladder.addEventListener("click", function (event) {
      var label = event.target.closest("label");
      var input = label && document.getElementById(label.htmlFor);
      if (input && input.checked && ladder.classList.contains("picked")) {
        event.preventDefault();
        fold(true);
      }
    });
  }
  form.addEventListener("change", function (event) {
    if (event.target.name === "bid") {
      update();
      fold(false);
    }
  });
  update();
  if (!form.querySelector(".has-error")) fold(false);
})();
