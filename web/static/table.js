// The web table's page: draws the seat's document (GET this address as JSON, then each
// "state" event of ADDRESS/events) and posts the moves clicked. Every text goes in with
// textContent: nothing a ruleset writes is read as HTML.
"use strict";

const address = window.location.pathname.replace(/\/+$/, "");
let doc = null;
let picked = null;          // {item: ID} or {zone: KEY} whose moves are shown, with its name
let changed = new Set();    // the board cells changed since this seat's last move (or since it came)
let moved = false;          // this seat has just moved: the marks start again
let words = {};             // the page's words in the table's language (the body's data-words)
const SINCE_SHOWN = 8;      // the latest lines of what happened since this seat's last move, above the board
const MIN_SCALE = 0.85;     // the smallest a board is drawn at (its labels 8.5 px high)

function say(key, fields) {
  // a sentence of the page in the table's language, its {placeholders} filled in
  const given = fields || {};
  return (words[key] || key).replace(/\{(\w+)\}/g, (all, k) => (k in given ? String(given[k]) : all));
}

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function colour(name) {
  return name && CSS.supports("color", name.replace(/_/g, "")) ? name.replace(/_/g, "") : "#888";
}

const inks = new Map();

function ink(name) {
  // a colour to draw text and outlines in on the page's light ground: a light colour
  // (white, yellow) darkened until it reads, the others as they are
  const c = colour(name);
  if (!inks.has(c)) {
    const probe = el("span", {hidden: ""});
    probe.style.color = c;
    document.body.append(probe);
    const rgb = (getComputedStyle(probe).color.match(/[\d.]+/g) || [136, 136, 136]).map(Number);
    probe.remove();
    const light = (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255;
    const k = light > 0.6 ? 0.55 : 1;
    inks.set(c, light > 0.6 ? `rgb(${rgb.slice(0, 3).map(v => Math.round(v * k)).join(", ")})` : c);
  }
  return inks.get(c);
}

function playerName(seat) {
  return doc.players[seat] ? doc.players[seat].name : "p" + (seat + 1);
}

function same(a, b) {
  return !!a && !!b && a.item === b.item && a.zone === b.zone;
}

function pick(what) {
  picked = same(picked, what) ? null : what;
  render(doc);
}

function startsAt(move, what) {
  // the move acts first on the item picked, on the cell picked, or on an item in that cell
  const s = move.start;
  if (!s) return false;
  if (what.item !== undefined) return s.item === what.item;
  if (s.zone === what.zone) return true;
  const content = doc.view.zones[what.zone];
  return s.item !== undefined && Array.isArray(content) && content.includes(Number(s.item));
}

function token(item) {
  if (typeof item !== "number") {
    return el("span", {class: "token hidden", title: say("hidden")}, "?");
  }
  const info = doc.items[String(item)];
  const node = el("button", {type: "button", class: "token", title: info.label}, info.label);
  node.style.setProperty("--tok", ink(info.color));
  const what = {item: String(item), name: info.notation, label: info.label};
  if (same(picked, what)) node.classList.add("picked");
  node.addEventListener("click", () => pick(what));
  return node;
}

function contents(content) {
  const span = el("span", {class: "contents"});
  if (!Array.isArray(content)) {
    const n = content && content.count ? content.count : 0;
    span.append(el("span", {class: "muted"}, n ? say("count_hidden", {count: n}) : say("empty")));
  } else if (content.length === 0) {
    span.append(el("span", {class: "muted"}, say("empty")));
  } else {
    for (const item of content) span.append(token(item));
  }
  return span;
}

function mentions(notation, name) {
  const escaped = name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp("(^|[^\\p{L}\\p{N}])" + escaped + "($|[^\\p{L}\\p{N}])", "u").test(notation.toLowerCase());
}

function renderStatus() {
  const status = document.getElementById("status");
  status.classList.remove("yours");
  if (doc.over) {
    status.textContent = say("over");
  } else if (doc.seat !== null && doc.to_move.includes(doc.seat)) {
    // (several picks each, choose 3 ...: the seat's own picks so far, in words)
    const own = doc.picked || [];
    status.textContent = !doc.simultaneous ? say("your_move")
      : own.length ? say("your_picks", {items: own.join(", ")}) : say("your_choice");
    status.classList.add("yours");
  } else {
    const names = doc.to_move.map(playerName).join(", ");
    status.textContent = say(doc.simultaneous ? "waiting" : "to_move", {players: names});
  }
}

function commonVerb(moves) {
  // the verb every move is written with ("chase" of "chase r2c1: Birds woman 7", or
  // its locale's word: "verjagen"), if they share one: the list's heading says it once
  // and the buttons the rest
  const verb = moves.length ? moves[0].text.split(" ")[0] : null;
  const typed = moves.length ? moves[0].notation.split(" ")[0] : null;
  const shares = (m) => m.text.startsWith(verb + " ") && m.notation.startsWith(typed + " ");
  return verb && moves.every(shares) ? verb : null;
}

function renderMoves() {
  const list = document.getElementById("moves");
  const filter = document.getElementById("filter");
  const choose = document.getElementById("choose");
  list.replaceChildren();
  let moves = doc.moves;
  const verb = commonVerb(moves);
  // the ruleset's own words for the decision, else the verb the moves share
  const asked = doc.prompt || (verb ? say("choose", {verb}) : "");
  choose.hidden = !asked;
  choose.textContent = asked;
  if (picked) {
    // the moves that start there; where none does (moves without a cell or an item to
    // start from, such as a text), those whose notation names it
    let some = moves.filter(m => startsAt(m, picked));
    let how = "moves_from";
    if (!some.length) {
      some = moves.filter(m => mentions(m.notation, picked.name) || (picked.label && mentions(m.text, picked.label)));
      how = "moves_naming";
    }
    if (some.length) moves = some;
    filter.hidden = false;
    filter.textContent = say(some.length ? how : "moves_none", {name: picked.name});
  } else {
    filter.hidden = true;
  }
  for (const move of moves) {
    const shown = verb ? move.text.slice(verb.length + 1) : move.text;
    const button = el("button", {type: "button", "data-move": move.notation, title: move.notation}, shown);
    button.addEventListener("click", () => play(move.notation));
    const item = el("li");
    item.append(button);
    list.append(item);
  }
  document.getElementById("moves-section").hidden = doc.seat === null;
  if (doc.seat !== null && !moves.length) list.append(el("li", {class: "muted"}, say("none_now")));
}

function stacked(labels) {
  // alike items one on another as one label with their number, as the terminal shows them
  const out = [];
  for (const label of labels) {
    const last = out[out.length - 1];
    if (last && last[0] === label) last[1] += 1; else out.push([label, 1]);
  }
  return out.map(([label, n]) => n > 1 ? label + "×" + n : label).join(" ");
}

function renderBoard(board) {
  const box = el("div", {class: "board"});
  box.append(el("h2", {}, board.title));
  const longest = (cell) => {
    const content = doc.view.zones[cell.key];
    const labels = Array.isArray(content) ? content.map(i => typeof i === "number" ? doc.items[String(i)].short : "?") : [];
    return Math.max(cell.name.length, stacked(labels).length);
  };
  const w = Math.max(40, 6.5 * Math.max(...board.cells.map(longest)) + 10);
  const h = 34;
  const cols = board.cells.map(c => c.col);
  const steps = [];
  const rows = {};
  for (const c of board.cells) (rows[c.row] = rows[c.row] || []).push(c.col);
  for (const r of Object.values(rows)) {
    r.sort((a, b) => a - b);
    for (let i = 1; i < r.length; i++) if (r[i] > r[i - 1]) steps.push(r[i] - r[i - 1]);
  }
  const ux = (w + 6) / Math.max(1, Math.min(...steps, 99));
  const uy = h + 8;
  const width = ux * Math.max(...cols) + w + 8;
  const height = uy * Math.max(...board.cells.map(c => c.row)) + h + 8;
  const root = svg("svg", {viewBox: `0 0 ${width} ${height}`, width: width * 1.5, height: height * 1.5, role: "img"});
  // never drawn so small that its labels cannot be read: a wide board scrolls sideways
  // in its box on a narrow screen instead
  root.style.minWidth = Math.round(width * MIN_SCALE) + "px";
  root.append(svg("title", {}, board.title));
  for (const cell of board.cells) {
    const x = ux * cell.col + 4, y = uy * cell.row + 4;
    const content = doc.view.zones[cell.key];
    const held = Array.isArray(content) ? content.map(i => typeof i === "number" ? doc.items[String(i)].label : say("hidden")) : [];
    const g = svg("g", {tabindex: "0", role: "button", "aria-label": cell.name});
    if (held.length) g.append(svg("title", {}, cell.name + ": " + held.join(", ")));
    const hidden = !Array.isArray(content);
    const last = doc.last_move && doc.last_move.cells.includes(cell.key);
    const kind = "cell" + (hidden ? " hidden" : "") + (changed.has(cell.key) ? " changed" : "") +
      (last ? " last" : "");
    g.append(svg("rect", {x, y, width: w, height: h, rx: 7, class: kind}));
    g.append(svg("text", {x: x + 4, y: y + 10, class: "name"}, cell.name));
    let label = "";
    let fill = "#222";
    if (hidden) {
      label = content && content.count ? "?" + (content.count > 1 ? content.count : "") : "";
    } else if (content.length) {
      const top = content[content.length - 1];
      label = stacked(content.map(i => typeof i === "number" ? doc.items[String(i)].short : "?"));
      if (typeof top === "number") fill = ink(doc.items[String(top)].color);
      if (fill === "#888") fill = "#222";
    }
    if (label) {
      g.append(svg("text", {x: x + w / 2, y: y + 26, "text-anchor": "middle", fill, class: "tok"}, label));
    }
    const what = {zone: cell.key, name: cell.name};
    if (same(picked, what)) g.querySelector("rect").setAttribute("stroke-width", "3");
    g.addEventListener("click", () => pick(what));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(what); } });
    root.append(g);
  }
  box.append(root);
  return box;
}

function zoneRow(z, content) {
  const row = el("div", {class: "zone", "data-zone": z.key});
  let title = z.title;
  if (z.owner !== null) title += z.owner === doc.seat ? " " + say("yours") : " (" + playerName(z.owner) + ")";
  row.append(el("span", {class: "zone-title"}, title + ":"));
  row.append(contents(content));
  return row;
}

function renderLegend() {
  // what the short forms of the labels on the boards stand for
  const key = el("p", {id: "legend", class: "legend"});
  key.append(el("span", {class: "muted"}, say("key") + " "));
  doc.legend.forEach((k, i) => {
    if (i) key.append(document.createTextNode(" · "));
    key.append(el("strong", {}, k.short), document.createTextNode(" " + k.name));
  });
  return key;
}

function renderZones() {
  const boards = document.getElementById("boards");
  boards.replaceChildren(...doc.boards.map(renderBoard));
  if (doc.boards.length && doc.legend.length) boards.append(renderLegend());
  boards.hidden = doc.boards.length === 0;
  const zones = document.getElementById("zones");
  zones.replaceChildren();
  // the shared zones and this seat's own, then what it sees of the others' (not empty)
  for (const z of doc.zones) {
    if (z.owner === null || z.owner === doc.seat) zones.append(zoneRow(z, doc.view.zones[z.key]));
  }
  for (const z of doc.zones) {
    const content = doc.view.zones[z.key];
    if (z.owner !== null && z.owner !== doc.seat && Array.isArray(content) && content.length) {
      zones.append(zoneRow(z, content));
    }
  }
  document.getElementById("zones-section").hidden = zones.childElementCount === 0;
}

function renderPlayers() {
  const table = el("table");
  const head = el("tr");
  head.append(el("th", {}, ""));
  const owned = [...new Set(doc.zones.filter(z => z.owner !== null).map(z => z.name))];
  const titles = {};
  for (const z of doc.zones) titles[z.name] = z.title;
  for (const name of owned) head.append(el("th", {}, titles[name]));
  for (const v of doc.player_variables) head.append(el("th", {}, v.title));
  table.append(head);
  for (const p of doc.players) {
    const tr = el("tr", {class: (p.seat === doc.seat ? "me " : "") + (doc.to_move.includes(p.seat) ? "turn" : "")});
    tr.append(el("th", {}, p.name + (p.bot ? " " + say("bot") : "") + (p.seat === doc.seat ? " " + say("you") : "")));
    for (const name of owned) {
      const content = doc.view.zones[name + ":" + p.seat];
      const n = Array.isArray(content) ? content.length : (content ? content.count : 0);
      tr.append(el("td", {}, n));
    }
    for (const v of doc.player_variables) tr.append(el("td", {}, v.values[p.seat]));
    table.append(tr);
  }
  document.getElementById("players").replaceChildren(table);
  const vars = el("p");
  for (const v of doc.variables) {
    // each on its own (an empty list as a dash, not as nothing)
    const one = el("span", {class: "variable"});
    one.append(el("strong", {}, v.title + ": "), document.createTextNode(String(v.value) === "" ? "–" : String(v.value)));
    vars.append(one);
  }
  document.getElementById("variables").replaceChildren(vars);
}

function renderResult() {
  const section = document.getElementById("result-section");
  section.hidden = !doc.result;
  if (!doc.result) return;
  const list = el("ol");
  for (const group of doc.result.ranking) {
    const names = group.map(s => playerName(s) + " (" + doc.result.scores[s] + ")").join(", ");
    list.append(el("li", {}, names));
  }
  document.getElementById("result").replaceChildren(list);
  document.getElementById("record").setAttribute("href", address + "/record");
}

function renderLastMove() {
  // the last move as this seat saw it (the server writes a secret choice by its verb alone)
  const last = document.getElementById("last-move");
  const move = doc.last_move;
  last.hidden = !move;
  if (!move) return;
  // with the dice that fell with it: the mover learns its own throw here
  const fell = move.fell.map(fellText);
  last.textContent = say("last_move", {player: playerName(move.player), move: moveText(move)}) +
    (fell.length ? " — " + fell.join("; ") : "");
}

function moveText(move) {
  // a move made, in words as this seat may read them (the server writes a secret choice
  // by its verb alone, or null)
  return move.text === null ? say("hidden") : move.text;
}

function happenings() {
  // the moves made (the latest the document lists) and the messages of the log, in the
  // order they came: each message after the move that caused it; a move whose first
  // message tells it (its player and its value, the server says: told) is marked, to be
  // written by that message alone (marked tells: the move's line) while the log has it
  const out = [];
  let next = 0;
  let telling = -1;     // the number of the message that tells the latest move told
  const says = (upto) => {
    for (; next < doc.log.length && doc.log_dropped + next < upto; next++) {
      out.push({said: doc.log[next], tells: doc.log_dropped + next === telling});
    }
  };
  for (const run of doc.opening) {     // what fell as the game was set up
    says(run.said);
    out.push({fell: run});
  }
  for (const move of doc.moves_made) {
    says(move.said_before);
    const told = move.told === true && move.said_before >= doc.log_dropped;
    if (told) telling = move.said_before;
    out.push({move, told});
    for (const run of move.fell) {     // the dice that fell, where they fell among the messages
      says(run.said);
      out.push({fell: run});
    }
    says(move.said);
  }
  says(Infinity);
  return out;
}

function lastOwn() {
  // the place in moves_made of this seat's latest move (-1: none listed)
  let k = -1;
  doc.moves_made.forEach((m, i) => { if (m.player === doc.seat) k = i; });
  return k;
}

function fellText(run) {
  // a run of chance results alike: "Player 1 rolled 3 and 5"
  const v = run.values;
  const values = v.length === 1 ? v[0] : say("and_last", {values: v.slice(0, -1).join(", "), last: v[v.length - 1]});
  if (run.kind === "roll" && run.player !== null) return say("rolled", {player: playerName(run.player), values});
  return say(run.kind === "tie" ? "tie_broken" : "drawn", {values});
}

function entry(what, fresh) {
  const li = what.move
    ? el("li", {class: "move"}, playerName(what.move.player) + ": " + moveText(what.move))
    : what.fell ? el("li", {class: "said fell"}, fellText(what.fell))
      : el("li", {class: what.tells ? "said move" : "said"}, what.said);   // (a move's line: it tells it)
  if (fresh) li.classList.add("new");
  return li;
}

function renderLog() {
  // every move and message kept, those since this seat's last move marked; and above the
  // board, what happened since this seat's last move (its own move's messages too), when
  // there is more of it than the last move and its messages
  const all = happenings();
  const mine = lastOwn();
  let from = 0;       // the first entry after this seat's last move (with its messages)
  if (mine >= 0) {
    let seen = -1;
    all.forEach((e, i) => { if (e.move) seen += 1; if (seen <= mine) from = i + 1; });
    while (from < all.length && !all[from].move) from += 1;   // (its own move's messages: known)
  }
  const log = document.getElementById("log");
  // (a move its message tells is counted among the moves, not written twice)
  log.replaceChildren(...all.flatMap((e, i) => e.told ? [] : [entry(e, mine >= 0 && i >= from)]));
  log.scrollTop = log.scrollHeight;
  const since = document.getElementById("since");
  const fresh = doc.seat === null ? [] : all.slice(from);
  // (the last move alone, with what it said, is the line above: not told twice)
  since.hidden = doc.over || !(fresh.filter(e => e.move).length > 1 || (fresh.length && !fresh[0].move) ||
                                fresh.some(e => e.fell));
  if (since.hidden) return;
  // (a last move of its own older than the moves listed: the latest, simply)
  const heading = mine >= 0 ? "since_last" : doc.moves_made.length === doc.version ? "since_start" : "latest";
  document.getElementById("since-heading").textContent = say(heading);
  const lines = fresh.filter(e => !e.told);
  const shown = lines.slice(-SINCE_SHOWN);
  const list = document.getElementById("since-list");
  list.replaceChildren(...shown.map(e => entry(e, false)));
  if (shown.length < lines.length) list.prepend(el("li", {class: "muted"}, say("earlier", {count: lines.length - shown.length})));
}

function changedCells(before, after) {
  // the cells whose contents this seat sees differently, from its own views alone: those
  // its last move and the moves since changed
  if (!before || after.version === before.version) return changed;
  const out = moved ? new Set() : new Set(changed);
  moved = false;
  for (const board of after.boards) {
    for (const cell of board.cells) {
      if (JSON.stringify(before.view.zones[cell.key]) !== JSON.stringify(after.view.zones[cell.key])) out.add(cell.key);
    }
  }
  return out;
}

function render(next) {
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.move : null;
  changed = changedCells(doc, next);
  doc = next;
  renderStatus();
  renderLastMove();
  renderZones();
  renderPlayers();
  renderResult();
  renderLog();
  renderMoves();
  document.body.dataset.version = String(doc.version);
  if (focused) {
    const again = document.querySelector(`#moves button[data-move="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
}

async function play(notation) {
  const error = document.getElementById("error");
  error.textContent = "";
  for (const b of document.querySelectorAll("#moves button")) b.disabled = true;
  moved = true;         // (the event of this move may come before the answer)
  try {
    const answer = await fetch(address + "/moves", {
      method: "POST", headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify({move: notation}),
    });
    const body = await answer.json();
    if (!answer.ok) {
      error.textContent = body.message || say("refused", {status: answer.status});
      moved = false;
    }
    picked = null;
  } catch (e) {
    error.textContent = say("unreachable");
  }
  await refresh();
}

function show(next) {
  // a document older than the one shown (an answer overtaken by an event) is dropped
  if (!doc || next.version >= doc.version) render(next);
}

async function refresh() {
  const answer = await fetch(address, {headers: {"Accept": "application/json"}});
  if (answer.ok) show(await answer.json());
}

function connect() {
  const events = new EventSource(address + "/events");
  events.addEventListener("state", (e) => show(JSON.parse(e.data)));
  events.onerror = () => { document.getElementById("status").textContent = say("reconnecting"); };
}

document.addEventListener("DOMContentLoaded", () => {
  words = JSON.parse(document.body.dataset.words || "{}");
  refresh();
  connect();
});
