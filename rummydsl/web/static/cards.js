// The playground's cards: a card's text (7H, TD, 4R, *) drawn as a card, with words for screen readers.
"use strict";

window.RummyCards = (function () {
  // ------------------------------------------------------------------ cards

  const SUITS = { S: ["♠", "spades", false], H: ["♥", "hearts", true], D: ["♦", "diamonds", true], C: ["♣", "clubs", false] };
  const COLOURS = { R: ["red", "#b3151b"], B: ["blue", "#0b57a4"], G: ["green", "#1d6b33"], P: ["purple", "#6b2fa3"], Y: ["yellow", "#7a5a00"] };
  const RANKS = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
  const ORDER = "A23456789TJQK";

  function cardFace(text) {
    const face = text.split("/")[0];
    if (face === "*") return { rank: "★", suit: "", label: "wild card", red: false, sort: [9, 99] };
    const last = face.slice(-1).toUpperCase();
    const rank = face.slice(0, -1).toUpperCase();
    if (SUITS[last]) {
      const [symbol, name, red] = SUITS[last];
      const order = ORDER.indexOf(rank === "10" ? "T" : rank);
      return { rank: rank === "T" ? "10" : rank, suit: symbol, label: `${RANKS[rank] || rank} of ${name}`, red,
               sort: ["SHDC".indexOf(last), order < 0 ? Number(rank) || 0 : order] };
    }
    if (COLOURS[last]) {
      const [name, colour] = COLOURS[last];
      return { rank, suit: "●", label: `${rank} ${name}`, red: false, colour, sort: ["RBGPY".indexOf(last), Number(rank) || 0] };
    }
    return { rank: face, suit: "", label: face, red: false, sort: [9, 0] };
  }

  function card(text, options = {}) {
    const face = cardFace(text);
    const element = document.createElement(options.button ? "button" : "span");
    if (options.button) element.type = "button";
    element.className = "card" + (face.red ? " red" : "") + (options.small ? " small" : "");
    element.dataset.card = text;
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = face.rank;
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = face.suit;
    if (face.colour) { rank.style.color = face.colour; suit.style.color = face.colour; }
    element.append(rank, suit);
    element.setAttribute(options.button ? "aria-label" : "title", face.label);
    if (!options.button) element.setAttribute("role", "img"), element.setAttribute("aria-label", face.label);
    return element;
  }

  function back(count) {
    const span = document.createElement("span");
    span.className = "card back small";
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", `${count} cards face down`);
    return span;
  }

  function sortedCards(cards) {
    return [...cards].sort((a, b) => {
      const x = cardFace(a).sort, y = cardFace(b).sort;
      return x[0] - y[0] || x[1] - y[1];
    });
  }

  function cardRow(cards, small = true) {
    const row = document.createElement("span");
    row.className = "cards";
    for (const c of cards) row.append(card(c, { small }));
    return row;
  }

  return { cardFace, card, back, sortedCards, cardRow };
})();
