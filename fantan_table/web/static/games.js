// The page for card Fan Tan (Sevens) and Collecting Tens. As app.js: the server checks everything, this only
// draws the night and sends taps. A phone sees its own hand only: the server sends no other.
"use strict";

const SUIT_SYMBOLS = { spades: "♠", hearts: "♥", diamonds: "♦", clubs: "♣" };
const RED_SUITS = ["hearts", "diamonds"];
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

function renderGame(s) {
  document.getElementById("sevens").hidden = s.plays !== "sevens";
  document.getElementById("tens").hidden = s.plays !== "tens";
  document.getElementById("sevens-banker").hidden = s.plays !== "sevens";
  document.getElementById("tens-banker").hidden = s.plays !== "tens";
  if (s.plays === "sevens") drawSevens(s);
  if (s.plays === "tens") drawTens(s);
  document.getElementById("status").textContent = `${GAME_TITLES[s.plays]}, hand ${s.round}: ${s.stage}` +
    (s.over ? ` (${s.over})` : "") + (s.device_problem ? ` [${s.device_problem}]` : "");
}

function only(el, show) {
  el.hidden = !show;
}

// redrawn only when it changes: a tap must not land on a button the live stream's refresh has just replaced
function setHtml(el, html) {
  if (el.dataset.drawn !== html) {
    el.innerHTML = html;
    el.dataset.drawn = html;
  }
}

function cardLabel(text) {
  const suit = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[text.slice(-1)];
  return { rank: text.slice(0, -1), suit, symbol: SUIT_SYMBOLS[suit] };
}

// -- card Fan Tan ------------------------------------------------------------------------------------------
function drawSevens(s) {
  const me = s.players.find((p) => p.name === s.me);
  const score = (p) => s.scoring_by === "points" ? `${p.points} points` : `${p.chips} chips`;
  document.getElementById("sevens-who").textContent = me
    ? `You are ${me.name}: ${score(me)}` + (me.cards !== null ? `, ${me.cards} cards` : "")
    : "Watching. Open your player link to play your cards.";
  const turn = s.turn ? `${s.turn} to play` : s.winner ? `${s.winner} is out` : s.stage;
  document.getElementById("sevens-status").textContent = `Hand ${s.round} · pool ${s.pool} · ${turn}` +
    (s.over ? ` · game over: ${s.winners.join(", ")} (${s.over})` : "");
  drawFans(s);
  drawMyHand(s);
  const myTurn = me && me.turn;
  only(document.getElementById("sevens-moves"), Boolean(s.mine));
  document.getElementById("sevens-pass").disabled = !myTurn;
  document.getElementById("sevens-draw").hidden = !s.dummy;
  document.getElementById("sevens-draw").disabled = !myTurn;
  setHtml(document.getElementById("sevens-players"), "<tr><th>player</th><th>" +
    (s.scoring_by === "points" ? "points" : "chips") + "</th><th>cards</th></tr>" +
    s.players.map((p) => `<tr class="${p.turn ? "turn" : ""}" data-player="${escapeHtml(p.name)}"><td>${escapeHtml(p.name)}` +
      `${p.dealer ? " (deals)" : ""}${p.turn ? " ◀" : ""}</td><td>${s.scoring_by === "points" ? p.points : p.chips}</td>` +
      `<td>${p.cards === null ? "–" : p.cards}</td></tr>`).join(""));
  const last = s.last_hand;
  document.getElementById("sevens-last").textContent = last
    ? `Hand ${last.number}: ${last.winner} went out and took the pool of ${last.pool}` +
      (last.revokes ? ` (${last.revokes} revoke${last.revokes > 1 ? "s" : ""} paid)` : "") + "."
    : "";
  setHtml(document.getElementById("sevens-move-list"), s.moves.map((m) =>
    `<li value="${m.n}">${escapeHtml(m.player)} ${moveWords(m)}</li>`).join(""));
  drawSevensBanker(s);
}

// a move as the numbered list says it (a revoke claim names a pass by its number)
function moveWords(m) {
  if (m.kind === "play") {
    const { rank, symbol } = cardLabel(m.card);
    return `played ${rank}${symbol}`;
  }
  return m.kind === "pass" ? "passed" : "drew from the dummy";
}

// the layout: one fan per suit, every rank from its low end to its high end, the seven in the middle
function drawFans(s) {
  // between hands the layout is the last hand's, as it ended, until the next deal: said so, not taken for this one
  const ended = (s.stage === "dealing" || s.stage === "over") && s.last_hand && s.layout.length > 0;
  document.getElementById("fans-caption").textContent = ended ? `Hand ${s.last_hand.number}'s layout, as it ended.` : "";
  setHtml(document.getElementById("fans"), ["spades", "hearts", "diamonds", "clubs"].map((suit) => {
    const row = s.layout.find((r) => r.suit === suit);
    const cards = row ? RANKS.slice(RANKS.indexOf(row.low), RANKS.indexOf(row.high) + 1) : [];
    const red = RED_SUITS.includes(suit) ? " red" : "";
    const faces = cards.map((r) => `<span class="card${red}${r === "7" ? " seven" : ""}">${r}${SUIT_SYMBOLS[suit]}</span>`).join("");
    return `<div class="fan" data-suit="${suit}"><span class="suit${red}">${SUIT_SYMBOLS[suit]}</span>${faces || '<span class="empty">no seven yet</span>'}</div>`;
  }).join(""));
}

function drawMyHand(s) {
  const hand = document.getElementById("my-hand");
  if (!s.mine) {
    setHtml(hand, s.mode === "virtual" || !s.me ? "" : '<p class="hint">Real cards: play them on the table; the banker enters each.</p>');
    return;
  }
  setHtml(hand, s.mine.cards.map((c) => {
    const { rank, suit, symbol } = cardLabel(c);
    const playable = s.mine.playable.includes(c);
    return `<button type="button" class="card${RED_SUITS.includes(suit) ? " red" : ""}${playable ? " playable" : ""}" data-card="${c}"` +
      `${playable ? "" : " disabled"} aria-label="${rank} of ${suit}">${rank}${symbol}</button>`;
  }).join(""));
}

document.getElementById("my-hand").addEventListener("click", (e) => {
  const button = e.target.closest("button[data-card]");
  if (button) send("/api/sevens/play", { card: button.dataset.card });
});
document.getElementById("sevens-pass").addEventListener("click", () => send("/api/sevens/pass"));
document.getElementById("sevens-draw").addEventListener("click", () => send("/api/sevens/draw"));

function drawSevensBanker(s) {
  const actions = s.actions;
  only(document.getElementById("sevens-dealer"), actions.includes("dealer"));
  only(document.querySelector('[data-sevens="deal"]'), actions.includes("deal"));
  only(document.getElementById("sevens-play"), actions.includes("play"));
  only(document.getElementById("sevens-for-a-phone"), s.mode === "virtual");
  only(document.querySelector('#sevens-play [data-sevens="draw"]'), actions.includes("draw"));
  only(document.getElementById("sevens-out"), actions.includes("out"));
  const passes = s.moves.filter((m) => m.kind === "pass");
  only(document.getElementById("sevens-revoke"), actions.includes("revoke") && passes.length > 0);
  setHtml(document.getElementById("revoke-move"), passes.map((m) =>
    `<option value="${m.n}">move ${m.n}: ${escapeHtml(m.player)} passed</option>`).join(""));
  document.getElementById("sevens-turn").textContent = s.turn || "";
  const left = document.getElementById("sevens-left");
  const shown = document.getElementById("revoke-hands");
  const names = s.players.map((p) => p.name).join("|");
  if (left.dataset.names !== names) {
    left.dataset.names = names;
    left.innerHTML = s.players.map((p) => `<label>${escapeHtml(p.name)} <input type="number" min="0" max="52" ` +
      `data-left="${escapeHtml(p.name)}" value="${p.cards ?? 0}"></label>`).join("");
    shown.innerHTML = s.players.map((p) => `<label>${escapeHtml(p.name)} <input data-shown="${escapeHtml(p.name)}" ` +
      'placeholder="7H 2C" autocomplete="off"></label>').join("");
  }
  if (shown.dataset.hand !== String(s.round)) {  // a new hand: last hand's cards shown are no news
    shown.dataset.hand = String(s.round);
    for (const input of shown.querySelectorAll("input")) input.value = "";
  }
  const filled = `${s.round}/${s.stage}`;
  if (left.dataset.filled !== filled) {  // the table's count, once per stage: then the banker's own corrections stay
    left.dataset.filled = filled;
    for (const input of left.querySelectorAll("input")) {
      input.value = s.players.find((p) => p.name === input.dataset.left).cards ?? 0;
    }
  }
}

function words(text) {
  return text.trim().split(/[\s,]+/).filter((w) => w);
}

document.getElementById("sevens-dealer").addEventListener("submit", (e) => {
  e.preventDefault();
  const cards = words(document.getElementById("sevens-dealer-cards").value);
  send("/api/banker/sevens", { action: "dealer", cards: cards.length ? cards : null });
});
document.querySelector('[data-sevens="deal"]').addEventListener("click", () => send("/api/banker/sevens", { action: "deal" }));
document.getElementById("sevens-play").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = document.getElementById("sevens-card");
  const card = input.value.trim();
  if (await send("/api/banker/sevens", { action: "play", player: state.turn, card }) && stillHolds(input, card)) input.value = "";
  input.focus();
});
for (const what of ["pass", "draw"]) {
  document.querySelector(`#sevens-play [data-sevens="${what}"]`).addEventListener("click", () =>
    send("/api/banker/sevens", { action: what, player: state.turn }));
}
document.getElementById("sevens-out").addEventListener("submit", (e) => {
  e.preventDefault();
  const left = {};
  for (const input of document.querySelectorAll("#sevens-left input")) left[input.dataset.left] = Number(input.value);
  send("/api/banker/sevens", { action: "out", cards_left: left });
});
document.getElementById("sevens-revoke").addEventListener("submit", (e) => {
  e.preventDefault();
  const shown = {};  // only the hands typed in: a hand left empty is not shown
  for (const input of document.querySelectorAll("#revoke-hands input")) {
    if (words(input.value).length) shown[input.dataset.shown] = words(input.value);
  }
  send("/api/banker/sevens", { action: "revoke", move: Number(document.getElementById("revoke-move").value), shown });
});

// -- Collecting Tens ---------------------------------------------------------------------------------------
function drawTens(s) {
  const me = s.players.find((p) => p.name === s.me);
  document.getElementById("tens-who").textContent = me
    ? `You are ${me.name}: ${dollars(me.balance_cents)}` + (me.tiles !== null ? `, ${me.tiles} tiles` : "")
    : "Watching. Open your player link to play your tiles.";
  const what = {
    rolling: `${s.roller} rolls four dice for the first player`,
    dealing: `${s.first} plays first: build the woodpile and deal`,
    taking: `${s.turn}: take the discard or draw`,
    holding: `${s.turn}: declare, or discard a tile`,
    showing: s.last_hand && s.last_hand.winner ? `${s.last_hand.winner} won ${s.last_hand.pot}` : "the hand is drawn",
    over: `the night is over (${s.over})`,
  }[s.stage];
  document.getElementById("tens-status").textContent = `Hand ${s.round} · pot ${s.pot} · ${what}`;
  const counted = s.count_off.length
    ? ` Counting off from ${s.count_off[0]}: ${s.count_off.join(", ")}.` : "";
  document.getElementById("tens-roll-text").textContent = (s.dice ? `Dice ${s.dice.join(" ")} = ${s.dice.reduce((a, b) => a + b, 0)}.` : "") +
    counted + (s.discard ? ` Discard: ${s.discard}.` : "") + (s.woodpile !== null ? ` Woodpile: ${s.woodpile}.` : "") +
    (s.roll && s.roll.status !== "ok" && s.stage === "rolling" ? ` Roll again: ${s.roll.message}.` : "");
  const roll = document.getElementById("tens-roll");
  const photo = s.roll && s.roll.frame ? photoWithBoxes("roll", s.roll, `/api/tens/roll/photo.jpg?v=${s.version}`) : "";
  setHtml(roll, photo);
  const tiles = document.getElementById("my-tiles");
  const myTurn = me && me.turn;
  const onTheTable = s.mode === "physical" && me ? '<p class="hint">Real dominoes: play them on the table; the banker enters each move.</p>' : "";
  setHtml(tiles, s.mine ? s.mine.tiles.map((t) => `<button type="button" class="tile-face" data-tile="${t}"` +
    `${myTurn && s.stage === "holding" ? "" : " disabled"}>${t}</button>`).join("") : onTheTable);
  only(document.getElementById("tens-moves"), Boolean(s.mine));
  document.getElementById("tens-take").disabled = !(myTurn && s.stage === "taking" && s.discard);
  document.getElementById("tens-draw").disabled = !(myTurn && s.stage === "taking");
  document.getElementById("tens-declare").disabled = !(myTurn && s.stage === "holding");
  setHtml(document.getElementById("tens-players"), "<tr><th>player</th><th>holds</th><th>in pot</th><th>tiles</th></tr>" +
    s.players.map((p) => `<tr class="${p.turn ? "turn" : ""}" data-player="${escapeHtml(p.name)}"><td>${escapeHtml(p.name)}` +
      `${p.turn ? " ◀" : ""}${p.roller ? " (rolls)" : ""}</td><td>${dollars(p.balance_cents)}</td>` +
      `<td>${dollars(p.in_pot_cents)}</td><td>${p.tiles === null ? "–" : p.tiles}</td></tr>`).join(""));
  const last = s.last_hand;
  const claims = s.false_claims.map((c) => `${c.player}'s declaration refused (${c.why}; paid ${c.paid})`).join(". ");
  document.getElementById("tens-last").textContent = (last && last.how ? `Hand ${last.hand}: ${last.how}. ` : "") + claims;
  const actions = s.actions;
  for (const b of document.querySelectorAll("#tens-banker [data-tens]")) {
    if (b.tagName === "BUTTON") b.hidden = !actions.includes(b.dataset.tens);
  }
  only(document.getElementById("tens-roll-form"), actions.includes("roll"));
  if (!actions.includes("roll")) forgetTypedRoll();  // the camera read the roll meanwhile, or the hand moved on
  only(document.getElementById("tens-tile-form"), actions.includes("tile"));
  document.getElementById("tens-entered").textContent = s.entered.length
    ? `Entered (${s.entered.length} of 10): ${s.entered.join(" ")}` : "";
}

document.getElementById("my-tiles").addEventListener("click", (e) => {
  const button = e.target.closest("button[data-tile]");
  if (button) send("/api/tens/discard", { tile: button.dataset.tile });
});
document.getElementById("tens-take").addEventListener("click", () => send("/api/tens/take"));
document.getElementById("tens-draw").addEventListener("click", () => send("/api/tens/draw"));
document.getElementById("tens-declare").addEventListener("click", () => send("/api/tens/declare"));
for (const b of document.querySelectorAll("#tens-banker button[data-tens]")) {
  b.addEventListener("click", () => {
    if (b.dataset.ask && !window.confirm(b.dataset.ask)) return;
    send("/api/banker/tens", { action: b.dataset.tens, player: state.turn });
  });
}
// dice by hand: checked and shown with the first player they count off; rolled only when the banker confirms
let typedRoll = null;

function forgetTypedRoll() {
  document.getElementById("tens-roll-check").hidden = true;
  typedRoll = null;
}

document.getElementById("tens-roll-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const values = words(document.getElementById("tens-dice").value).map(Number);
  const checked = await send("/api/banker/tens", { action: "roll", values });
  forgetTypedRoll();
  if (!checked) return;
  const p = checked.preview;
  typedRoll = { values, hand: p.hand };
  document.getElementById("tens-roll-preview").textContent =
    `Dice ${p.dice.join(" ")} = ${p.total}: counting off from ${p.count_off[0]}, ${p.first} plays first.`;
  document.getElementById("tens-roll-check").hidden = false;
});
document.getElementById("tens-roll-confirm").addEventListener("click", async () => {
  const roll = typedRoll;
  forgetTypedRoll();
  if (roll) await send("/api/banker/tens", { action: "roll", values: roll.values, hand: roll.hand, confirm: true });
});
document.getElementById("tens-roll-cancel").addEventListener("click", forgetTypedRoll);
document.getElementById("tens-tile-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = document.getElementById("tens-tile");
  const tile = input.value.trim();
  if (await send("/api/banker/tens", { action: "tile", tile }) && stillHolds(input, tile)) input.value = "";
  input.focus();
});
