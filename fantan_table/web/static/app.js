// The scorer's page. The server checks everything; this only draws the table and sends taps.
"use strict";

const SUIT_COLOURS = { suns: "#d9412b", moons: "#2d2d2d", crowns: "#2f8f46", arms: "#2c5fb3" };
const TILE_CENTRE = { 0: [100, 100], 1: [220, 100], 2: [100, 220], 3: [220, 220] };
const OUTER_CORNER = { 0: [42, 42], 1: [278, 42], 2: [42, 278], 3: [278, 278] };
const SIDES = [[0, 1], [1, 3], [3, 2], [2, 0]];
const CENTRE = [160, 160];
const SVG = "http://www.w3.org/2000/svg";

const params = new URLSearchParams(location.search);
if (params.get("player")) {
  localStorage.setItem("fantan-player", params.get("player"));
  history.replaceState(null, "", "/");
}
const playerToken = localStorage.getItem("fantan-player");
let state = null;

function cookie(name) {
  const found = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
  return found ? decodeURIComponent(found.split("=")[1]) : "";
}

// Answers may come back out of order (a live-stream refresh asked before a tap, answered after it): the page
// draws an answer only if no answer to a later request has been drawn already, so an old state never wins.
let asked = 0;
let drawn = 0;

function fresh(request) {
  if (request < drawn) return false;
  drawn = request;
  return true;
}

async function send(path, body) {
  const request = ++asked;
  const headers = { "Content-Type": "application/json", "X-CSRF-Token": cookie("fantan_csrf") };
  if (playerToken) headers["X-Player-Token"] = playerToken;
  let response;
  try {
    response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
  } catch {
    say("The table did not answer: check this phone's Wi-Fi, then try again. Nothing was changed.", true);
    sound("error");
    return null;
  }
  const data = await response.json().catch(() => ({ error: "the table did not answer" }));
  if (!response.ok) {
    say(data.error || `refused (${response.status})`, true);
    sound("error");
    return null;
  }
  say("");
  if (data.stage && fresh(request)) render(data);
  return data;
}

// the live stream can draw a change before its own answer comes back, and the banker may type the next one
// meanwhile: a late answer clears a form only while it still holds what was sent, never what was typed since
function stillHolds(input, sent) {
  return input.value.trim() === sent;
}

// -- sounds: off until the person turns them on (a phone at a game night should not beep by surprise) ---------
let audio = null;

function soundOn() {
  return localStorage.getItem("fantan-sound") === "on";
}

function drawSoundToggle() {
  const toggle = document.getElementById("sound");
  toggle.textContent = soundOn() ? "Sound: on" : "Sound: off";
  toggle.setAttribute("aria-pressed", String(soundOn()));
}

// a rising chord for a result, two low notes for a refusal; made here, nothing to download
function sound(kind) {
  if (!soundOn()) return;
  audio = audio || new AudioContext();
  const notes = kind === "error" ? [220, 175] : [523, 659, 784];
  notes.forEach((hz, i) => {
    const at = audio.currentTime + i * 0.12;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.15, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + 0.11);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + 0.12);
  });
}

document.getElementById("sound").addEventListener("click", () => {
  localStorage.setItem("fantan-sound", soundOn() ? "off" : "on");
  drawSoundToggle();
  sound("result");  // what it will sound like
});
drawSoundToggle();

function say(text, isError) {
  const el = document.getElementById("message");
  el.textContent = text;
  el.className = isError ? "error" : "";
}

function dollars(cents) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

function node(tag, attrs, parent) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// -- where each bet lies on the layout ------------------------------------------------------------------
function spotOf(bet) {
  const [kind, arg] = bet.split(":");
  const nums = arg.split(/[->]/).map(Number);
  if (kind === "number") return [TILE_CENTRE[nums[0]][0], TILE_CENTRE[nums[0]][1] + 34];  // below the numeral
  if (kind === "corner" || kind === "strong-corner") {
    const [x, y] = OUTER_CORNER[nums[0]];
    return kind === "corner" ? [x, y] : [x + (x < 160 ? 16 : -16), y + (y < 160 ? 16 : -16)];
  }
  const [a, b] = nums.map((n) => TILE_CENTRE[n]);
  const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  if (kind === "diagonal") return nums.includes(0) ? [mid[0] - 14, mid[1] - 14] : [mid[0] + 14, mid[1] - 14];
  if (kind === "strong-diagonal") {
    const s = TILE_CENTRE[nums[0]];
    return [mid[0] + (s[0] - mid[0]) * 0.3, mid[1] + (s[1] - mid[1]) * 0.3];
  }
  if (kind === "strong-side") return [mid[0] + (a[0] - mid[0]) * 0.35, mid[1] + (a[1] - mid[1]) * 0.35];
  return mid;
}

function nearer(point, a, b) {
  const d = (n) => Math.hypot(point[0] - TILE_CENTRE[n][0], point[1] - TILE_CENTRE[n][1]);
  return d(a) <= d(b) ? [a, b] : [b, a];
}

function allowed(bet) {
  return state && state.positions.includes(bet);
}

function takingBack() {
  return document.getElementById("take-back").checked;
}

function tap(bet) {
  // a tap adds a coin on every kind of spot; taking back is its own mode, the same everywhere
  if (!playerToken) return say("Open your player link (the banker has it) to bet.", true);
  if (!allowed(bet)) return say(`${bet} is not allowed in this game (variants: ${state.variants})`, true);
  send(takingBack() ? "/api/bets/remove" : "/api/bets", { bet, coins: 1 });
}

function chooseDiagonal(point) {
  const box = document.getElementById("diagonal-choice");
  const strong = document.getElementById("strong").checked;
  const options = strong ? ["strong-diagonal:0>3", "strong-diagonal:3>0", "strong-diagonal:1>2", "strong-diagonal:2>1"]
    : ["diagonal:0-3", "diagonal:1-2"];
  box.replaceChildren(...options.filter(allowed).map((bet) => {
    const b = document.createElement("button");
    b.textContent = bet;
    b.onclick = () => { box.hidden = true; tap(bet); };
    return b;
  }));
  if (!box.children.length) return say("diagonal bets are not allowed in this game", true);
  box.hidden = false;
}

function hideDiagonalChoice() {
  document.getElementById("diagonal-choice").hidden = true;
}
// the chooser goes away with any tap elsewhere, and when betting closes
document.addEventListener("click", (e) => {
  if (!e.target.closest("#diagonal-choice") && !e.target.closest('[data-zone="centre"]')) hideDiagonalChoice();
});

// -- drawing ----------------------------------------------------------------------------------------------
function drawLayout() {
  const tiles = document.getElementById("tiles");
  const zones = document.getElementById("zones");
  tiles.replaceChildren();
  zones.replaceChildren();
  const open = state.lights.open_number;
  for (const n of [0, 1, 2, 3]) {
    const [cx, cy] = TILE_CENTRE[n];
    node("rect", { x: cx - 58, y: cy - 58, width: 116, height: 116, rx: 8,
      class: "tile" + (open === n ? " lit" : ""), "data-tile": n }, tiles);
    const label = node("text", { x: cx, y: cy + 14, class: "tile-number" }, tiles);
    label.textContent = n;
  }
  const strong = () => document.getElementById("strong").checked;
  const zone = (x, y, r, name, onTap) => {
    const z = node("circle", { cx: x, cy: y, r, class: "zone", "data-zone": name }, zones);
    z.addEventListener("click", (e) => onTap(svgPoint(e)));
  };
  for (const n of [0, 1, 2, 3]) {
    zone(...TILE_CENTRE[n], 34, `number:${n}`, () => tap(`number:${n}`));
    zone(...OUTER_CORNER[n], 26, `corner:${n}`, () => tap(strong() ? `strong-corner:${n}` : `corner:${n}`));
  }
  for (const [a, b] of SIDES) {
    const [x, y] = [(TILE_CENTRE[a][0] + TILE_CENTRE[b][0]) / 2, (TILE_CENTRE[a][1] + TILE_CENTRE[b][1]) / 2];
    zone(x, y, 22, `side:${a}-${b}`, (p) => {
      if (!strong()) return tap(`side:${a}-${b}`);
      const [s, w] = nearer(p, a, b);
      tap(`strong-side:${s}>${w}`);
    });
  }
  zone(...CENTRE, 20, "centre", chooseDiagonal);
}

function svgPoint(event) {
  const svg = document.getElementById("layout");
  const box = svg.getBoundingClientRect();
  return [((event.clientX - box.left) / box.width) * 320, ((event.clientY - box.top) / box.height) * 320];
}

function drawCoins() {
  const layer = document.getElementById("coins");
  layer.replaceChildren();
  const bySpot = new Map();
  for (const p of state.players) {
    for (const c of p.coins) {
      const key = c.bet;
      if (!bySpot.has(key)) bySpot.set(key, []);
      bySpot.get(key).push({ player: p, coins: c.coins, bet: c.bet });
    }
  }
  for (const [bet, stacks] of bySpot) {
    const [x, y] = spotOf(bet);
    stacks.forEach((stack, i) => {
      const sx = x + (i - (stacks.length - 1) / 2) * 22;
      const mine = state.me === stack.player.name;
      const g = node("g", { class: "coin" + (mine ? " mine" : ""), "data-bet": bet, "data-player": stack.player.name }, layer);
      for (let k = 0; k < stack.coins; k++) {
        node("circle", { cx: sx, cy: y - k * 3, r: 12, fill: SUIT_COLOURS[stack.player.suit] }, g);
      }
      const t = node("text", { x: sx, y: y - (stack.coins - 1) * 3 + 4, class: "coin-count" }, g);
      t.textContent = stack.coins;
      const title = node("title", {}, g);
      title.textContent = `${stack.player.name}: ${stack.coins} on ${bet}` + (mine ? " (take back mode: tap to take one)" : "");
      if (mine) g.addEventListener("click", (e) => { e.stopPropagation(); if (takingBack()) send("/api/bets/remove", { bet, coins: 1 }); });
    });
  }
}

function drawStatus() {
  const stageText = {
    betting: "bets open", closed: "no more bets: lift the cup", check: "dice look unshaken: banker to confirm",
    showing: "result", raided: "RAID: the table is closed", over: `game over: ${state.over}`,
    choosing: state.draw && (state.draw.winner
      ? `${state.draw.winner} rolled highest and banks: the banker opens round 1`
      : `rolling for the bank: ${state.draw.to_roll} rolls the dice`),
  }[state.stage];
  // a roll the table could not read is shaken again, not lifted again: say so first, and why after
  const reroll = state.reading && state.reading.status !== "ok" && state.stage === "closed";
  document.getElementById("status").textContent =
    `Round ${state.round}: ` + (reroll ? `re-roll: shake the cup again, the bets stand (${state.reading.message})` : stageText) +
    (state.device_problem ? ` [${state.device_problem}]` : "");
  drawFault();
  const me = state.players.find((p) => p.name === state.me);
  document.getElementById("who").textContent = me
    ? `You are ${me.name} (${me.suit}): ${dollars(me.balance_cents)}` + (me.is_banker ? ", banking this round" : "") + (me.bankrupt ? ", bankrupt" : "")
    : "Watching. Open your player link to bet.";
  document.getElementById("stake").textContent = me && state.stage === "betting"
    ? `stake left this round: $${Math.min(state.max_coins - me.staked, Math.floor(me.balance_cents / 100) - me.staked)}`
    : "";
}

function drawFault() {
  const fault = document.getElementById("fault");
  fault.hidden = !state.fault;
  fault.textContent = state.fault
    ? `The table stopped: ${state.fault}. Play is locked; it restarts by itself and resumes the night.`
    : "";
}

let drawnResult = "";  // redrawn only when it changes: the live stream also sends each new display screen

function drawResult() {
  const body = document.getElementById("result-body");
  const last = state.last_round;
  if (state.stage === "choosing") return drawBankRoll(body);
  if (!last) return;
  const mine = last.players.find((p) => p.player === state.me);
  const head = last.voided ? `Round ${last.round} was void: every stake returned.`
    : last.corrected_from !== null
      ? `Round ${last.round} corrected: dice ${last.dice.join(" ")}, open ${last.open} (was open ${last.corrected_from}). ${escapeHtml(last.reading.message)}.`
      : `Round ${last.round}: dice ${last.dice.join(" ")}, open ${last.open}.`;
  const lines = last.players.map((p) => `<li>${escapeHtml(p.player)}: ${p.delta_cents > 0 ? "+" : ""}${dollars(p.delta_cents)} → ${dollars(p.balance_after_cents)}` +
    (p.unpaid_cents ? ` <span class="short">(${dollars(p.unpaid_cents)} unpaid)</span>` : "") + "</li>");
  const html = `<p class="big">${head}</p>` +
    (last.bank_short ? `<p class="short">${escapeHtml(last.bank_short)}.</p>` : "") +
    (mine ? `<p class="mine">You: ${mine.delta_cents > 0 ? "won" : mine.delta_cents < 0 ? "lost" : "even"} ${dollars(Math.abs(mine.delta_cents))}</p>` +
      (mine.results.length ? `<ul class="my-bets">${mine.results.map((r) => `<li>${r.coins} on ${escapeHtml(r.bet)}: ${r.outcome}${r.cents ? ` ${dollars(Math.abs(r.cents))}` : ""}</li>`).join("")}</ul>` : "") : "") +
    `<ul>${lines.join("")}</ul>` +
    (last.photo ? photoWithBoxes(last.round, last.reading) : "");
  if (html !== drawnResult) body.innerHTML = drawnResult = html;
}

// The roll for the first bank: every roll (a tie's roll-off in its own go), whose roll it is, the last photo.
function drawBankRoll(body) {
  const draw = state.draw;
  const rolls = draw.rolls.map((r) => `<li>${escapeHtml(r.player)}${r.go > 1 ? ` (roll-off ${r.go - 1})` : ""}: ` +
    `${r.dice.join(" ")} = <strong>${r.total}</strong></li>`).join("");
  const reading = draw.reading;
  const again = reading && reading.status !== "ok"
    ? `<p class="short">Roll again: ${escapeHtml(reading.message)}.</p>` : "";
  const head = draw.winner ? `${escapeHtml(draw.winner)} rolled highest and banks first.`
    : `Who banks first: the highest roll. ${escapeHtml(draw.to_roll)} rolls next.`;
  const html = `<p class="big">${head}</p>${again}<ol>${rolls}</ol>` +
    (reading && reading.frame ? photoWithBoxes(`bank`, reading, "/api/bank-roll/photo.jpg") : "");
  if (html !== drawnResult) body.innerHTML = drawnResult = html;
}

// The round's photo with each die's outline as the reader saw it: its rotated box, green when the die was
// read for sure, orange when it made the reading unsure (a void round shows which die was to blame).
function photoWithBoxes(round, reading, src) {
  const img = `<img class="photo" alt="The dice of round ${round}" src="${src || `/api/rounds/${round}/photo.jpg`}">`;
  const size = reading.frame.size;
  if (!size) return `<div class="photo-frame">${img}</div>`;  // a night from before the photo's size was kept
  const boxes = reading.dice.map((d) => {
    const [cx, cy] = d.box.center, [w, h] = d.box.size;
    const sure = d.value !== null && !d.problem;
    const what = d.value === null ? "not read" : `${d.value}`;
    const why = d.problem ? `: ${escapeHtml(d.problem)}` : "";
    const how = d.confidence === null ? "" : ` (${Math.round(d.confidence * 100)}% sure)`;
    return `<rect class="die ${sure ? "ok" : "unsure"}" x="${cx - w / 2}" y="${cy - h / 2}" width="${w}" height="${h}"` +
      ` transform="rotate(${d.box.angle} ${cx} ${cy})"><title>${what}${how}${why}</title></rect>`;
  }).join("");
  return `<div class="photo-frame">${img}<svg class="boxes" viewBox="0 0 ${size[0]} ${size[1]}">${boxes}</svg></div>`;
}

function drawScoring() {
  const { columns, rows, labels } = state.scoring;
  const pad = document.getElementById("pad");
  const head = `<tr><th>round</th>${columns.map((c) => `<th>${escapeHtml(c)}</th>`).join("")}</tr>`;
  const body = rows.map((row, i) => `<tr class="${i < rows.length - 1 ? "old" : "now"}${labels[i].includes("corrected") ? " correction" : ""}"><td>${escapeHtml(labels[i])}</td>` +
    row.map((v) => `<td>${v === null ? "–" : dollars(v)}</td>`).join("") + "</tr>").join("");
  pad.innerHTML = head + body;
}

function drawRecall() {
  document.getElementById("rounds").innerHTML = state.recall.map((r) =>
    `<li value="${r.round}">${r.voided ? "void" : `dice ${r.dice.join(" ")} → open ${r.open}`}` +
    (r.photo ? ` <a href="/api/rounds/${r.round}/photo.jpg" target="_blank">photo</a>` : "") + "</li>").join("");
}

// what the banker's section shows for every game: the login, the config's game, the simulated table
function drawCommonBanker() {
  document.getElementById("login").hidden = state.banker;
  document.getElementById("banker-tools").hidden = !state.banker;
  document.body.classList.toggle("banker", state.banker);
  const changes = state.config_changes;
  document.getElementById("config-game").hidden = !changes;
  if (changes) document.getElementById("config-changes").innerHTML = changes.map((c) => `<li>${escapeHtml(c)}</li>`).join("");
  const sim = document.getElementById("sim");
  sim.hidden = !(state.banker && state.simulated);
  if (!sim.hidden) {
    const leds = document.getElementById("leds");
    leds.innerHTML = [0, 1, 2, 3].map((n) => `<span class="led${state.lights.open_number === n ? " on" : ""}" title="LED ${n}">${n}</span>`).join("") +
      `<span class="led green${state.lights.bets_open ? " on" : ""}" title="open">open</span>`;
    document.getElementById("oled").src = `/api/display.png?v=${Date.now()}`;
    document.getElementById("camera").src = `/api/sim/camera.jpg?v=${Date.now()}`;
  }
  drawSeats();
}

function drawBanker() {
  drawCommonBanker();
  for (const b of document.querySelectorAll("[data-action]")) b.hidden = !state.actions.includes(b.dataset.action);
  const awaitsRoll = state.stage === "closed" || (state.stage === "choosing" && !state.draw.winner);
  document.getElementById("override").hidden = !awaitsRoll;
  drawSeatList();
  const deciding = document.getElementById("deciding");
  const photo = state.stage === "check" && state.reading && state.reading.frame;
  deciding.hidden = !(state.banker && photo);
  if (!deciding.hidden) document.getElementById("deciding-photo").src = `/api/reading/photo.jpg?v=${state.version}`;
  document.getElementById("strong-choice").hidden = !state.variants.includes("strong");
  const coins = state.players.flatMap((p) => p.coins.map((c) => ({ player: p.name, ...c })));
  document.getElementById("layout-coins").hidden = !(state.banker && state.stage === "betting" && coins.length);
  document.getElementById("coin-list").innerHTML = coins.map((c) =>
    `<li>${escapeHtml(c.player)}: ${c.coins} on ${escapeHtml(c.bet)} <button type="button" data-take-player="${escapeHtml(c.player)}" data-take-bet="${escapeHtml(c.bet)}" aria-label="take one back">−</button></li>`).join("");
}

// players joining or leaving between rounds: a suit free for a newcomer, and each player's leave button
function drawSeatList() {
  const between = state.stage === "betting" || state.stage === "showing";
  document.getElementById("seats").hidden = !between || state.over !== null;
  const seated = state.players.map((p) => p.suit);
  const free = ["suns", "moons", "crowns", "arms"].filter((s) => !seated.includes(s));
  const select = document.getElementById("seat-suit");
  if (select.dataset.free !== free.join()) {
    select.dataset.free = free.join();
    select.innerHTML = free.map((s) => `<option>${s}</option>`).join("");
  }
  document.getElementById("seat").hidden = !free.length;
  const list = state.players.map((p) => `<li>${escapeHtml(p.name)} (${p.suit}): ${dollars(p.balance_cents)} ` +
    `<button type="button" data-leave="${escapeHtml(p.name)}" data-balance="${p.balance_cents}">Leaves</button></li>`).join("");
  const ul = document.getElementById("seat-list");
  if (ul.innerHTML !== list) ul.innerHTML = list;
}

// the new game's seats, filled with the players at the table now: for Fan Tan one name per suit of the form's
// declared suits; for card Fan Tan and Collecting Tens names in seat order, as many as their rules take
const SEATS_SHOWN = 6;  // card Fan Tan seats up to six (001, 004); 002 and Collecting Tens take more: "Another seat"

function drawSeats() {
  const setup = document.getElementById("setup-players");
  if (!setup.children.length && gameFields.length && state) {
    const names = state.players.map((p) => p.name);
    const bySuit = field("suits").choices.map((s, i) => `<label>${s} <input name="player-${s}" value="${escapeHtml(names[i] || "")}" placeholder="(empty seat)"></label>`).join("");
    const inOrder = Array.from({ length: Math.max(SEATS_SHOWN, names.length) }, (_, i) => seatHtml(i, names[i] || "")).join("");
    setup.innerHTML = `<small class="hint">${escapeHtml(field("players").text)}</small>` +
      `<div data-games="fantan">${bySuit}</div>` +
      `<div data-games="sevens tens"><div id="setup-seats">${inOrder}</div>` +
      '<button type="button" id="another-seat">Another seat</button></div>';
    document.getElementById("another-seat").addEventListener("click", () => {
      const list = document.getElementById("setup-seats");
      list.insertAdjacentHTML("beforeend", seatHtml(list.children.length, ""));
    });
    const plays = document.querySelector('#setup [name="plays"]');
    if (plays && state.plays) plays.value = state.plays;  // a new game of tonight's game, unless the banker says
    if (plays) showFieldsFor(plays.value);
  }
}

function seatHtml(index, name) {
  return `<label>Seat ${index + 1} <input name="seat" value="${escapeHtml(name)}" placeholder="(empty seat)"></label>`;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

const GAME_TITLES = { fantan: "Fan Tan", sevens: "Card Fan Tan", tens: "Collecting Tens" };
const FANTAN_SECTIONS = ["play", "result", "scoring", "recall"];

function render(next) {
  if (state && (state.stage !== next.stage || state.round !== next.round)) {
    say("");  // old news
    hideDiagonalChoice();
    if (next.stage === "showing" && next.last_round) sound("result");
  }
  const plays = next.plays || "fantan";
  document.querySelector("header h1").textContent = GAME_TITLES[plays];
  document.body.dataset.plays = plays;
  for (const id of FANTAN_SECTIONS) document.getElementById(id).hidden = plays !== "fantan";
  document.getElementById("fantan-banker").hidden = plays !== "fantan";
  if (plays !== "fantan") {
    // another game's night: its own section and banker tools (games.js); the login, links, form and sim are shared
    state = next;
    document.body.classList.remove("raided");
    drawFault();
    drawCommonBanker();
    document.getElementById("seats").hidden = true;
    renderGame(state);
    return;
  }
  state = next;
  // a raid closes the table: the money on the page goes out of sight with the display and the LEDs
  document.body.classList.toggle("raided", state.stage === "raided");
  drawLayout();
  drawCoins();
  drawStatus();
  drawResult();
  drawScoring();
  drawRecall();
  drawBanker();
}

// -- banker controls --------------------------------------------------------------------------------------
document.getElementById("login").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (await send("/api/banker/login", { pin: document.getElementById("pin").value })) refresh();
});
document.getElementById("logout").addEventListener("click", async () => { await send("/api/banker/logout"); refresh(); });
for (const b of document.querySelectorAll("[data-action]")) {
  // the dangerous ones sit apart and ask first
  b.addEventListener("click", () => {
    if (b.dataset.ask && !window.confirm(b.dataset.ask)) return;
    send("/api/banker/action", { action: b.dataset.action });
  });
}
document.getElementById("config-begin").addEventListener("click", () => {
  if (window.confirm("Begin the config's game? This night is kept in nights/ and a new one starts.")) {
    send("/api/banker/config-game", { begin: true });
  }
});
document.getElementById("config-carry-on").addEventListener("click", () => send("/api/banker/config-game", { begin: false }));
document.getElementById("coin-list").addEventListener("click", (e) => {
  const button = e.target.closest("button");
  if (button) send("/api/banker/bets/remove", { player: button.dataset.takePlayer, bet: button.dataset.takeBet, coins: 1 });
});
document.getElementById("take-back").addEventListener("change", (e) => {
  document.body.classList.toggle("take-back", e.target.checked);
});
for (const b of document.querySelectorAll("[data-press]")) {
  b.addEventListener("click", () => send("/api/sim/press", { button: b.dataset.press }));
}
document.getElementById("shake").addEventListener("click", () => send("/api/sim/shake", {}));
document.getElementById("lift").addEventListener("click", () => send("/api/sim/lift", {}));
// dice by hand: checked and shown with their open number first; settled only when the banker confirms
let typedDice = null;
document.getElementById("override").addEventListener("submit", async (e) => {
  e.preventDefault();
  const values = document.getElementById("dice").value.trim().split(/[\s,]+/).filter((v) => v).map(Number);
  const checked = await send("/api/banker/dice", { values });
  typedDice = checked ? { values, forBank: checked.preview.for_bank } : null;
  document.getElementById("dice-check").hidden = !checked;
  if (checked) {
    const p = checked.preview;
    document.getElementById("dice-preview").textContent = p.for_bank
      ? `Dice ${p.dice.join(" ")} = ${p.total}: ${p.for_bank}'s roll for the bank.`
      : `Dice ${p.dice.join(" ")} = ${p.total}: open ${p.open}.`;
  }
});
// a correction of a settled round: checked and shown first, then confirmed, like dice typed by hand
let typedCorrection = null;
document.getElementById("correct").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  const body = {
    round: Number(form.get("round")),
    values: String(form.get("values")).trim().split(/[\s,]+/).filter((v) => v).map(Number),
    why: String(form.get("why")),
  };
  const checked = await send("/api/banker/correct", body);
  typedCorrection = checked ? body : null;
  document.getElementById("correct-check").hidden = !checked;
  if (checked) {
    const p = checked.preview;
    document.getElementById("correct-preview").textContent =
      `Round ${p.round}: dice ${p.dice.join(" ")} = ${p.total}, open ${p.open} (settled on open ${p.was}).`;
  }
});
document.getElementById("correct-confirm").addEventListener("click", async () => {
  document.getElementById("correct-check").hidden = true;
  if (typedCorrection) await send("/api/banker/correct", { ...typedCorrection, confirm: true });
  typedCorrection = null;
});
document.getElementById("correct-cancel").addEventListener("click", () => {
  document.getElementById("correct-check").hidden = true;
  typedCorrection = null;
});
document.getElementById("dice-confirm").addEventListener("click", async () => {
  document.getElementById("dice-check").hidden = true;
  if (typedDice) await send("/api/banker/dice", { values: typedDice.values, for_bank: typedDice.forBank, confirm: true });
  typedDice = null;
});
document.getElementById("dice-cancel").addEventListener("click", () => {
  document.getElementById("dice-check").hidden = true;
  typedDice = null;
});
document.getElementById("seat").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  const body = { name: String(form.get("name")).trim(), suit: String(form.get("suit")), dollars: Number(form.get("dollars")) };
  if (await send("/api/banker/players/seat", body) && stillHolds(e.target.elements.name, body.name)) e.target.reset();
});
document.getElementById("seat-list").addEventListener("click", (e) => {
  const button = e.target.closest("button");
  if (!button) return;
  const name = button.dataset.leave;
  if (window.confirm(`${name} leaves the table with ${dollars(Number(button.dataset.balance))}?`)) {
    send("/api/banker/players/leave", { player: name });
  }
});
// -- player links: each shown once, when made (the table keeps only a hash of it) --------------------------
async function showLinks(made) {
  const response = await fetch("/api/banker/players");
  if (!response.ok) return;
  const players = await response.json();
  document.getElementById("link-list").innerHTML = players.map((p) => {
    const fresh = made && made.name === p.name
      ? `<a href="${escapeHtml(made.link)}">${escapeHtml(made.link)}</a><div class="qr">${made.qr_svg}</div>`
      : `<small class="hint">${p.linked ? "has a link" : "no link yet"}</small>`;
    const end = p.linked ? ` <button type="button" data-unlink="${escapeHtml(p.name)}">End link</button>` : "";
    return `<div class="link"><strong>${escapeHtml(p.name)}</strong> ` +
      `<button type="button" data-link="${escapeHtml(p.name)}">${p.linked ? "New link" : "Make link"}</button>${end}${fresh}</div>`;
  }).join("");
}
document.getElementById("links").addEventListener("toggle", (e) => { if (e.target.open) showLinks(null); });
document.getElementById("link-list").addEventListener("click", async (e) => {
  const button = e.target.closest("button");
  if (!button) return;
  if (button.dataset.link) {
    const made = await send("/api/banker/players/link", { player: button.dataset.link });
    if (made) showLinks(made);
  } else if (button.dataset.unlink) {
    if (await send("/api/banker/players/unlink", { player: button.dataset.unlink })) showLinks(null);
  }
});
document.getElementById("setup").addEventListener("submit", (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  const players = (form.get("plays") || "fantan") === "fantan"
    ? field("suits").choices.map((suit) => ({ name: (form.get(`player-${suit}`) || "").trim(), suit })).filter((p) => p.name)
    : form.getAll("seat").map((name) => ({ name: name.trim() })).filter((p) => p.name);
  send("/api/banker/game", { players, ...setupValues(form), abandon: form.get("abandon") === "on" });
});

// -- the new-game form, built from the config's declaration of the game's keys ----------------------------
let gameFields = [];
const SEATS = ["players", "suits"];  // asked as one name per suit, above the other fields

function field(name) {
  return gameFields.find((f) => f.name === name);
}

async function loadGameForm() {
  const response = await fetch("/api/game-form");
  if (!response.ok) return;
  gameFields = (await response.json()).fields;
  const asked = gameFields.filter((f) => !SEATS.includes(f.name));
  // which game comes first: the seats under it, and the fields after, are that game's
  document.getElementById("setup-game").innerHTML = asked.filter((f) => f.name === "plays").map(fieldHtml).join("");
  document.getElementById("setup-fields").innerHTML = asked.filter((f) => f.name !== "plays").map(fieldHtml).join("");
  const plays = document.querySelector('#setup [name="plays"]');
  if (plays) {
    plays.addEventListener("change", () => showFieldsFor(plays.value));
    showFieldsFor(plays.value);
  }
  drawSeats();
}

// which game a field of the form belongs to: [sevens] and [tens] keys to theirs, the rest of [game] and [house]
// to piecepack Fan Tan's, but for what every game asks (which game, the players, the money they bring)
const SHARED_FIELDS = { plays: "all", starting_dollars: "fantan tens" };

function fieldGames(f) {
  if (SHARED_FIELDS[f.name]) return SHARED_FIELDS[f.name];
  return f.section === "sevens" || f.section === "tens" ? f.section : "fantan";
}

function showFieldsFor(plays) {
  for (const el of document.querySelectorAll("#setup [data-games]")) {
    const games = el.dataset.games;
    el.hidden = !(games === "all" || games.split(" ").includes(plays));
  }
}

function fieldHtml(f) {
  return `<div class="field" data-games="${fieldGames(f)}">${fieldInner(f)}</div>`;
}

function fieldInner(f) {
  const label = escapeHtml(f.name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()));
  const hint = `<small class="hint">${escapeHtml(f.text)}</small>`;
  if (f.kind === "texts") {
    const boxes = f.choices.map((c) => `<label class="choice"><input type="checkbox" name="${f.name}" value="${escapeHtml(c)}"${f.default.includes(c) ? " checked" : ""}> ${escapeHtml(c)}</label>`);
    return `<fieldset><legend>${label}</legend>${boxes.join("")}${hint}</fieldset>`;
  }
  let input;
  if (f.choices.length) {
    const options = f.choices.map((c) => `<option value="${escapeHtml(c)}"${c === f.default ? " selected" : ""}>${escapeHtml(c)}</option>`);
    input = `<select name="${f.name}">${options.join("")}</select>`;
  } else if (f.kind === "whole" || f.kind === "number") {
    const range = (f.low === null ? "" : ` min="${f.low}"`) + (f.high === null ? "" : ` max="${f.high}"`);
    input = `<input name="${f.name}" type="number"${range} step="${f.kind === "whole" ? 1 : "any"}" value="${f.default}" required>`;
  } else if (f.kind === "date-time") {
    input = `<input name="${f.name}" type="datetime-local">`;
  } else if (f.kind === "yes-no") {
    input = `<input name="${f.name}" type="checkbox"${f.default ? " checked" : ""}>`;
  } else {
    input = `<input name="${f.name}" value="${escapeHtml(f.default ?? "")}">`;
  }
  return `<label>${label} ${input}</label>${hint}`;
}

function setupValues(form) {
  const body = {};
  for (const f of gameFields.filter((f) => !SEATS.includes(f.name))) {
    const value = form.get(f.name);
    if (f.kind === "texts") body[f.name] = form.getAll(f.name);
    else if (f.kind === "whole" || f.kind === "number") body[f.name] = Number(value);
    else if (f.kind === "date-time") { if (value) body[f.name] = withOffset(value); }
    else if (f.kind === "yes-no") body[f.name] = value === "on";
    else body[f.name] = value;
  }
  return body;
}

function withOffset(local) {
  // "2026-11-22T23:30" in this phone's time zone, with that zone's offset from UTC: the table wants it said.
  const minutes = -new Date(local).getTimezoneOffset();
  const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, "0");
  const rest = String(Math.abs(minutes) % 60).padStart(2, "0");
  return `${local.length === 16 ? `${local}:00` : local}${minutes < 0 ? "-" : "+"}${hours}:${rest}`;
}

// -- live state -------------------------------------------------------------------------------------------
async function refresh() {
  const request = ++asked;
  const headers = playerToken ? { "X-Player-Token": playerToken } : {};
  const response = await fetch("/api/state", { headers });
  if (response.ok) {
    const next = await response.json();
    if (fresh(request)) render(next);
  }
}

const POLL_MS = 5000;
const RETRY_STREAM_MS = 30000;

function listen() {
  // EventSource cannot send headers: each event says "something changed", and the page asks for its view.
  const events = new EventSource("/api/events");
  events.onmessage = () => refresh();
  events.onerror = () => {
    if (events.readyState !== EventSource.CLOSED) {
      document.getElementById("status").textContent = "reconnecting…";
      return;
    }
    // refused (the table streams to as many pages as it may): ask now and then, and try the stream again later
    const poll = setInterval(refresh, POLL_MS);
    setTimeout(() => { clearInterval(poll); listen(); }, RETRY_STREAM_MS);
  };
}

loadGameForm();
refresh();
listen();
