// The capture page: take a picture, correct the reader's guess, save. The key comes from the printed link.
"use strict";

const params = new URLSearchParams(location.hash.slice(1));
if (params.get("key")) sessionStorage.setItem("captureKey", params.get("key"));
const KEY = sessionStorage.getItem("captureKey") || "";
history.replaceState(null, "", location.pathname);  // the key leaves the address bar (and screenshots)

const $ = (id) => document.getElementById(id);
let shot = null;

async function api(path, body) {
  const options = { headers: { "X-Capture-Key": KEY } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (!response.ok) {
    let text = `${response.status}`;
    try { text = (await response.json()).error; } catch (_) { /* not JSON: keep the status */ }
    throw new Error(text);
  }
  return response.headers.get("Content-Type").startsWith("image/") ? response.blob() : response.json();
}

function say(text, isError = false) {
  $("message").textContent = text;
  $("message").className = isError ? "error" : "";
}

function typedValues() {
  const words = $("values").value.replace(/,/g, " ").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return null;
  const values = words.map(Number);
  return values.every((v) => Number.isInteger(v) && v >= 0 && v <= 6) ? values : null;
}

function showRolls(listing) {
  $("count").textContent = `${listing.count} roll${listing.count === 1 ? "" : "s"} saved`;
  $("folder").textContent = `in ${listing.folder}`;
  const list = $("recent");
  list.replaceChildren();
  for (const roll of listing.recent) {
    const item = document.createElement("li");
    item.textContent = `${roll.name}: ${roll.values.join(" ")} `;
    const remove = document.createElement("button");
    remove.textContent = "remove";
    remove.setAttribute("aria-label", `remove ${roll.name}`);
    remove.onclick = async () => {
      try { showRolls(await api("/api/rolls/remove", { name: roll.name })); say(`removed ${roll.name}`); }
      catch (e) { say(e.message, true); }
    };
    item.append(remove);
    list.append(item);
  }
}

$("take").onclick = async () => {
  $("take").disabled = true;
  say("taking a picture…");
  try {
    const taken = await api("/api/shot", {});
    shot = taken.shot;
    $("values").value = taken.values.join(" ");
    $("seen").textContent = taken.status === "ok"
      ? `The reader saw ${taken.values.join(" ")}: check it against the dice.`
      : `The reader is not sure (${taken.message}): type what the dice show.`;
    const blob = await api(`/api/shot/${shot}.jpg`);
    $("picture").src = URL.createObjectURL(blob);
    $("picture").hidden = false;
    $("save").disabled = false;
    say("");
  } catch (e) {
    say(e.message, true);
  } finally {
    $("take").disabled = false;
  }
};

$("save").onclick = async () => {
  const values = typedValues();
  if (!values) { say("type each die's value, 0 to 6, separated by spaces", true); return; }
  $("save").disabled = true;
  try {
    const saved = await api("/api/rolls", { shot, values });
    showRolls(saved);
    say(`saved ${saved.saved}: ${values.join(" ")}. Roll again.`);
    shot = null;
    $("values").value = "";
    $("picture").hidden = true;
    $("seen").textContent = "";
  } catch (e) {
    $("save").disabled = false;
    say(e.message, true);
  }
};

for (const label of ["0", "1", "2", "3", "4", "5", "6", "⌫"]) {
  const key = document.createElement("button");
  key.textContent = label;
  key.className = "big";
  key.setAttribute("aria-label", label === "⌫" ? "delete the last value" : `add ${label}`);
  key.onclick = () => {
    const words = $("values").value.trim().split(/\s+/).filter(Boolean);
    if (label === "⌫") words.pop(); else words.push(label);
    $("values").value = words.join(" ");
  };
  $("keys").append(key);
}

api("/api/rolls").then(showRolls).catch((e) => say(e.message, true));
