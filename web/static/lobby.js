// The lobby: the rulesets offered (GET this address as JSON), a form, and the links of
// the table started (POST ADDRESS/tables). Every text goes in with textContent.
"use strict";

const address = window.location.pathname.replace(/\/+$/, "");
let catalog = null;
let words = {};             // the page's words in its language (the body's data-words)

function say(key, fields) {
  // a sentence of the page in its language, its {placeholders} filled in
  const given = fields || {};
  return (words[key] || key).replace(/\{(\w+)\}/g, (all, k) => (k in given ? String(given[k]) : all));
}

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function chosen() {
  return catalog.rulesets.find(r => r.name === document.getElementById("ruleset").value);
}

function drawSeats() {
  const seats = document.getElementById("seats");
  const n = Number(document.getElementById("players").value);
  const kept = [...seats.querySelectorAll("select")].map(s => s.value);
  seats.replaceChildren(el("legend", {}, say("seats")));
  for (let i = 0; i < n; i++) {
    const p = el("p");
    const id = "seat-" + (i + 1);
    p.append(el("label", {for: id}, say("seat", {seat: i + 1}) + " "));
    const select = el("select", {id, "data-seat": String(i + 1)});
    for (const b of catalog.bots) select.append(el("option", {value: b}, b));
    select.value = kept[i] || (i === 0 ? "human" : "random");
    p.append(select);
    seats.append(p);
  }
}

function drawRuleset() {
  const r = chosen();
  const players = document.getElementById("players");
  players.min = r.min_players;
  players.max = r.max_players;
  players.value = r.default_players;
  const variants = document.getElementById("variants");
  variants.replaceChildren(el("legend", {}, say("variants")));
  variants.hidden = r.variants.length === 0;
  for (const v of r.variants) {
    const label = el("label");
    label.append(el("input", {type: "checkbox", value: v}), document.createTextNode(" " + v));
    variants.append(el("p")).append(label);
  }
  drawSeats();
}

async function start(event) {
  event.preventDefault();
  const error = document.getElementById("error");
  error.textContent = "";
  const body = {
    ruleset: document.getElementById("ruleset").value,
    players: Number(document.getElementById("players").value),
    variants: [...document.querySelectorAll("#variants input:checked")].map(i => i.value),
    seats: [...document.querySelectorAll("#seats select")].map(s => s.value),
  };
  const answer = await fetch(address + "/tables", {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const reply = await answer.json();
  if (!answer.ok) {
    error.textContent = reply.message || reply.error || say("not_started");
    return;
  }
  const list = document.getElementById("link-list");
  list.replaceChildren();
  const origin = window.location.origin;
  for (const [seat, path] of Object.entries(reply.seats)) {
    const item = el("li");
    item.append(el("span", {}, say("link_seat", {title: reply.title, seat, who: body.seats[Number(seat) - 1]})),
                el("a", {href: path, "data-seat": seat}, origin + path));
    list.append(item);
  }
  const item = el("li");
  item.append(el("span", {}, say("spectators")), el("a", {href: reply.spectator}, origin + reply.spectator));
  list.append(item);
  document.getElementById("links").hidden = false;
}

async function load() {
  words = JSON.parse(document.body.dataset.words || "{}");
  const answer = await fetch(address, {headers: {"Accept": "application/json"}});
  catalog = await answer.json();
  const select = document.getElementById("ruleset");
  for (const r of catalog.rulesets) select.append(el("option", {value: r.name}, r.title));
  select.addEventListener("change", drawRuleset);
  document.getElementById("players").addEventListener("change", drawSeats);
  document.getElementById("start").addEventListener("submit", start);
  drawRuleset();
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", load);
