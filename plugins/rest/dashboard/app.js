/* The wakit dashboard: plain browser JavaScript, no build step, no CDN. */
/* global document, sessionStorage, fetch, TextDecoder, setTimeout, setInterval, AbortController, console, FileReader, Option */

const TOKEN_KEY = 'wakit.token';
const SIM_SENT_KEY = 'wakit.simSent';
const $ = (selector, root = document) => root.querySelector(selector);

const state = {
  token: sessionStorage.getItem(TOKEN_KEY),
  clients: new Map(),
  lastEventId: undefined,
  stream: undefined,
  simulator: false,
  /**
   * What the simulated phone sent from this page: { phone, id, text, at, afterId } (`afterId`: the
   * last message the phone had received then). Kept in sessionStorage, like the token, so that a
   * reload shows both sides of the conversation.
   */
  simSent: loadSimSent(),
  /** The id of the last message each phone received, as last shown: phone → id. */
  simLastReceived: new Map(),
  /** The simulated phone's own reactions from this page: message id → emoji. */
  simReactions: new Map(),
};

function loadSimSent() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(SIM_SENT_KEY) ?? '[]');
    return Array.isArray(saved) ? saved : [];
  } catch {
    return [];
  }
}

/** Remembers a line the simulated phone sent, placed after what it had received by then. */
function rememberSimSent(entry) {
  const phone = simPhone();
  state.simSent.push({
    ...entry,
    phone,
    at: Date.now(),
    afterId: state.simLastReceived.get(phone),
  });
  if (state.simSent.length > 200) state.simSent.shift();
  // images stay on this page only: a data URL would soon fill sessionStorage
  const saved = state.simSent.map(({ image: _image, ...rest }) => rest);
  try {
    sessionStorage.setItem(SIM_SENT_KEY, JSON.stringify(saved));
  } catch {
    // storage full or off: the lines stay until the next reload
  }
}

/**
 * Both sides of the conversation in the order they happened: what the phone received, in the
 * server's order, and each line it sent right after the message it had last received when it
 * sent it (timestamps have whole seconds only: an answer in the same second as the question would
 * otherwise come first). Lines sent before anything shown here come first.
 */
function conversation(received, sent) {
  const shown = new Set(received.map((m) => m.id));
  const after = new Map();
  const first = [];
  for (const line of sent) {
    if (line.afterId && shown.has(line.afterId)) {
      after.set(line.afterId, [...(after.get(line.afterId) ?? []), line]);
    } else first.push(line);
  }
  return [...first, ...received.flatMap((m) => [m, ...(after.get(m.id) ?? [])])];
}

class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? `HTTP ${status}`);
    this.status = status;
    this.code = problem?.code;
  }
}

async function api(method, path, body) {
  const headers = { authorization: `Bearer ${state.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : undefined;
  if (response.status === 401) signOut('The token was refused.');
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// ---------------------------------------------------------------------------------------------
// Sign in

function showLogin(message) {
  $('#login').hidden = false;
  $('#app').hidden = true;
  $('#forget-token').hidden = true;
  const error = $('#login-error');
  error.hidden = !message;
  error.textContent = message ?? '';
  $('#token-input').focus();
}

function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  state.token = null;
  state.stream?.abort();
  setConnection('off', 'not connected');
  showLogin(message);
}

$('#token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  state.token = $('#token-input').value.trim();
  sessionStorage.setItem(TOKEN_KEY, state.token);
  $('#token-input').value = '';
  void start();
});
$('#forget-token').addEventListener('click', () => signOut());

// ---------------------------------------------------------------------------------------------
// Clients

function clientCard(name) {
  let entry = state.clients.get(name);
  if (entry) return entry;
  const node = $('#client-template').content.firstElementChild.cloneNode(true);
  node.dataset.name = name;
  $('.name', node).textContent = name;
  $('.initialize', node).addEventListener('click', () => act(name, 'initialize'));
  $('.logout', node).addEventListener('click', () => act(name, 'logout'));
  $('.scan', node).addEventListener('click', () => void scan(name));
  $('#clients').append(node);
  entry = { node, status: undefined, qrTimer: undefined };
  state.clients.set(name, entry);
  for (const select of [$('#send-client'), $('#sim-client')]) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = name;
    select.append(option);
  }
  return entry;
}

function setStatus(name, status, info) {
  const entry = clientCard(name);
  entry.status = status;
  const badge = $('.status', entry.node);
  badge.textContent = status;
  badge.dataset.status = status;
  entry.node.dataset.status = status;
  if (info)
    $('.me', entry.node).textContent = info.me
      ? `${info.me.pushname || 'linked'} · ${info.me.id}`
      : 'not linked';
  if (info) setHealth(entry.node, info);
  if (info) setGovernor(entry.node, info);
  $('.initialize', entry.node).disabled = [
    'STARTING',
    'SCAN_QR',
    'AUTHENTICATED',
    'READY',
  ].includes(status);
  $('.logout', entry.node).disabled = status === 'STOPPED';
  $('.scan', entry.node).hidden = !(state.simulator && status === 'SCAN_QR');
  if (status === 'SCAN_QR') void loadQr(name);
  else $('.qr-box', entry.node).hidden = true;
}

/** Engine health: the WhatsApp Web build, broken capabilities and held sends (docs/engines.md). */
function setHealth(node, info) {
  const line = $('.health', node);
  const health = info.health;
  line.hidden = !health;
  if (!health) return;
  line.dataset.status = health.status;
  const build = `WhatsApp Web ${health.build ?? 'unknown'}`;
  const held = info.queue.held > 0 ? ` · ${info.queue.held} held` : '';
  line.textContent =
    health.status === 'ok'
      ? `${build} · engine ok${held}`
      : `${build} · broken: ${health.broken.join(', ')}${held}`;
}

const refreshing = new Set();
function refreshSoon(name) {
  if (refreshing.has(name)) return;
  refreshing.add(name);
  setTimeout(() => {
    refreshing.delete(name);
    void refreshClient(name).catch(() => undefined);
  }, 1_000);
}

/** The send governor: budget use now, deferred sends, a restriction (docs/safety.md). */
function setGovernor(node, info) {
  const line = $('.governor', node);
  const governor = info.governor;
  line.hidden = !governor;
  if (!governor) return;
  line.dataset.restricted = String(Boolean(governor.restricted));
  const { used, limits } = governor;
  const of = (key) => (limits ? `${used[key]}/${limits[key]}` : String(used[key]));
  const parts = [
    `budget ${governor.preset}`,
    `hour ${of('perHour')}`,
    `day ${of('perDay')}`,
    `new contacts ${of('newContactsPerDay')}`,
  ];
  if (governor.warmupDay) parts.push(`warm-up day ${governor.warmupDay}`);
  if (governor.deferred > 0) parts.push(`${governor.deferred} deferred`);
  if (governor.restricted) parts.push(`restricted until ${governor.restricted.until}`);
  line.textContent = parts.join(' · ');
}

async function loadQr(name) {
  const entry = clientCard(name);
  try {
    const qr = await api('GET', `/api/v1/clients/${encodeURIComponent(name)}/qr?format=base64`);
    $('.qr', entry.node).src = `data:${qr.mimetype};base64,${qr.data}`;
    $('.qr-box', entry.node).hidden = false;
  } catch (error) {
    if (error.code !== 'QR_NOT_AVAILABLE') showError(name, error);
  }
}

function showError(name, error) {
  const node = $('.error', clientCard(name).node);
  node.hidden = !error;
  node.textContent = error ? error.message : '';
}

async function act(name, action) {
  showError(name);
  try {
    const result = await api('POST', `/api/v1/clients/${encodeURIComponent(name)}/${action}`);
    setStatus(name, result.status);
  } catch (error) {
    showError(name, error);
  }
}

/** Simulator only: a simulated phone scans the QR code shown, as a person would with WhatsApp. */
async function scan(name) {
  showError(name);
  try {
    await api('POST', '/api/v1/simulator/scan', { client: name });
  } catch (error) {
    showError(name, error);
  }
}

async function refreshClient(name) {
  let info;
  try {
    info = await api('GET', `/api/v1/clients/${encodeURIComponent(name)}/info`);
  } catch (error) {
    // removed at run time (DELETE /api/v1/clients/{name}): drop its card
    if (error.code === 'CLIENT_NOT_FOUND') return dropClient(name);
    throw error;
  }
  setStatus(name, info.status, info);
}

/** Cluster mode: which node runs the client (the list's `node`; absent on a single server). */
function setNode(name, node) {
  if (node === undefined) return;
  const entry = clientCard(name);
  const line = $('.node', entry.node);
  line.hidden = false;
  line.dataset.node = node ?? '';
  line.textContent = node ? `on node ${node}` : 'not running on any node now';
}

/** Cluster mode: clients move between nodes; follow them. */
async function refreshNodes() {
  const clients = await api('GET', '/api/v1/clients');
  for (const client of clients) {
    if (client.node === undefined) return;
    if (!state.clients.has(client.name)) setStatus(client.name, client.status);
    setNode(client.name, client.node);
  }
}

function dropClient(name) {
  const entry = state.clients.get(name);
  if (!entry) return;
  entry.node.remove();
  state.clients.delete(name);
  for (const select of [$('#send-client'), $('#sim-client')]) {
    for (const option of [...select.options]) if (option.value === name) option.remove();
  }
}

// ---------------------------------------------------------------------------------------------
// Live events: SSE read with fetch (EventSource cannot send the Authorization header)

function setConnection(kind, text) {
  $('#connection').dataset.state = kind;
  $('#connection-text').textContent = text;
}

function logEvent(event) {
  const list = $('#events');
  const item = document.createElement('li');
  const time = new Date(event.at).toLocaleTimeString();
  const detail =
    event.event === 'state'
      ? `${event.data.from} → ${event.data.to}`
      : event.event === 'message' || event.event === 'message.create'
        ? `${event.data.fromMe ? '→' : '←'} ${event.data.fromMe ? event.data.to : event.data.from}: ${event.data.body}`
        : event.event === 'message.ack'
          ? `ack ${event.data.ack}`
          : event.event === 'message.status'
            ? `${event.data.status} ${event.data.kind} → ${event.data.chatId}${event.data.error ? `: ${event.data.error.code}` : ''}`
            : event.event === 'qr'
              ? 'new QR code'
              : '';
  item.innerHTML = '<time></time> <b></b> <span class="who"></span> <span class="what"></span>';
  $('time', item).textContent = time;
  $('b', item).textContent = event.event;
  $('.who', item).textContent = event.client;
  $('.what', item).textContent = detail;
  list.prepend(item);
  while (list.children.length > 100) list.lastElementChild.remove();
}

function onEvent(event) {
  logEvent(event);
  if (event.event === 'state') {
    setStatus(event.client, event.data.to);
    if (event.data.to === 'READY' || event.data.to === 'STOPPED') void refreshClient(event.client);
  } else if (
    event.event === 'engine.health' ||
    event.event === 'account.restricted' ||
    event.event === 'account.resumed'
  ) {
    void refreshClient(event.client).catch(() => undefined);
  } else if (event.event === 'message.create') {
    // a send spent budget: the governor line follows, at most once a second per client
    refreshSoon(event.client);
  } else if (event.event === 'qr') {
    // a QR means SCAN_QR even when the state event came before the stream was connected
    if (state.clients.get(event.client)?.status !== 'SCAN_QR') setStatus(event.client, 'SCAN_QR');
    else void loadQr(event.client);
  } else if (event.event === 'chat.mode') {
    void loadChatModes();
  } else if (SIM_REFRESH_EVENTS.has(event.event) && state.simulator) {
    void loadInbox();
  }
}

async function stream() {
  const controller = new AbortController();
  state.stream = controller;
  let delay = 1000;
  while (!controller.signal.aborted && state.token) {
    try {
      const headers = { authorization: `Bearer ${state.token}` };
      if (state.lastEventId) headers['last-event-id'] = state.lastEventId;
      const response = await fetch('/api/v1/events', {
        headers,
        signal: controller.signal,
        cache: 'no-store',
      });
      if (response.status === 401) return signOut('The token was refused.');
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      setConnection('on', 'live');
      delay = 1000;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let index;
        while ((index = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) state.lastEventId = line.slice(4);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) onEvent(JSON.parse(data));
        }
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      console.warn('event stream:', error);
    }
    setConnection('retry', 'reconnecting…');
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 15000);
    for (const name of state.clients.keys()) void refreshClient(name).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// Send form

$('#send-kind').addEventListener('change', () => {
  const image = $('#send-kind').value === 'image';
  $('#send-text-label').hidden = image;
  $('#send-url-label').hidden = !image;
  $('#send-caption-label').hidden = !image;
});

$('#send-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const result = $('#send-result');
  const image = $('#send-kind').value === 'image';
  const caption = $('#send-caption').value.trim();
  const body = {
    client: $('#send-client').value,
    chatId: $('#send-chat').value.trim(),
    content: image
      ? { type: 'image', url: $('#send-url').value.trim(), ...(caption ? { caption } : {}) }
      : $('#send-text').value,
  };
  result.className = 'result';
  result.textContent = 'Sending…';
  try {
    const sent = await api('POST', '/api/v1/messages', body);
    result.classList.add('ok');
    result.textContent = `Queued (${sent.id.slice(0, 8)}…) to ${sent.chatId}`;
    void followSend(sent.id);
  } catch (error) {
    result.classList.add('bad');
    result.textContent = `${error.code ?? 'Error'}: ${error.message}`;
  }
});

async function followSend(id) {
  const result = $('#send-result');
  for (let i = 0; i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const record = await api('GET', `/api/v1/messages/${encodeURIComponent(id)}`).catch(
      () => undefined,
    );
    if (!record) return;
    result.textContent = `Message ${record.status}${record.error ? `: ${record.error.code} ${record.error.message}` : ''}`;
    result.className = `result ${record.status === 'failed' ? 'bad' : 'ok'}`;
    if (record.status === 'failed' || record.status === 'read' || record.status === 'played')
      return;
  }
}

// ---------------------------------------------------------------------------------------------
// Simulator chat panel

function simPhone() {
  return $('#sim-phone').value.replace(/\D/g, '');
}

async function loadInbox() {
  const phone = simPhone();
  if (!/^\d{6,15}$/.test(phone)) return;
  try {
    const inbox = await api('GET', `/api/v1/simulator/phones/${phone}/inbox`);
    const actions = await simActions(phone);
    const list = $('#sim-inbox');
    const received = inbox.slice(-50).map((m) => ({
      id: m.id,
      type: m.type,
      out: false,
      at: m.timestamp * 1000,
      author: m.author,
      text:
        describeKind(m) ??
        (m.media
          ? `[${m.type}${m.media.filename ? ` ${m.media.filename}` : ''}] ${m.body}`
          : m.body),
      poll: m.poll ? { id: m.id, ...m.poll } : undefined,
    }));
    const sent = state.simSent
      .filter((m) => m.phone === phone)
      .map((m) => ({
        id: m.id,
        out: true,
        at: m.at,
        author: 'you',
        text: m.text,
        image: m.image,
        afterId: m.afterId,
      }));
    if (inbox.length > 0) state.simLastReceived.set(phone, inbox[inbox.length - 1].id);
    list.replaceChildren(
      ...conversation(received, sent).map((message) => {
        const item = document.createElement('li');
        item.className = message.out ? 'out' : 'in';
        const who = document.createElement('small');
        who.textContent = `${message.author} · ${new Date(message.at).toLocaleTimeString()}`;
        const text = document.createElement('span');
        text.textContent = message.text;
        item.append(who);
        if (message.image) {
          const img = document.createElement('img');
          img.src = message.image;
          img.alt = 'image sent';
          item.append(img);
        }
        item.append(text);
        if (message.poll) item.append(voteButtons(message.poll));
        decorateSimMessage(item, message, text, actions);
        return item;
      }),
    );
    list.scrollTop = list.scrollHeight;
  } catch (error) {
    $('#sim-result').textContent = error.message;
  }
}

// Reactions, edits and deletions in the chat panel (docs/actions.md): the phone reacts to the
// bot's messages; the bot's reactions, edits and deletions show on the messages.

const SIM_REFRESH_EVENTS = new Set([
  'message',
  'message.create',
  'message.reaction',
  'message.edit',
  'message.revoke',
]);
const SIM_EMOJIS = ['👍', '❤️', '😂'];

async function simActions(phone) {
  if (!state.simulator) return [];
  return api('GET', `/api/v1/simulator/phones/${phone}/actions`).catch(() => []);
}

function decorateSimMessage(item, message, text, actions) {
  if (!message.id) return;
  item.dataset.id = message.id;
  if (message.type === 'revoked') {
    item.classList.add('revoked');
    text.textContent = '🚫 This message was deleted';
    return;
  }
  if (actions.some((a) => a.type === 'edit' && a.messageId === message.id)) {
    const edited = document.createElement('small');
    edited.className = 'edited';
    edited.textContent = 'edited';
    item.append(edited);
  }
  // The latest reaction of each person, others' from the phone's log, the phone's own from here.
  const latest = new Map();
  for (const a of actions) {
    if (a.type === 'reaction' && a.messageId === message.id) latest.set(a.by, a.emoji);
  }
  const own = state.simReactions.get(message.id);
  if (own) latest.set('you', own);
  const shown = [...latest.values()].filter(Boolean);
  if (shown.length > 0) {
    const chips = document.createElement('span');
    chips.className = 'reactions';
    chips.textContent = shown.join(' ');
    item.append(chips);
  }
  if (message.out) return;
  const row = document.createElement('div');
  row.className = 'sim-react';
  for (const emoji of [...SIM_EMOJIS, '']) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = emoji || '✕';
    button.title = emoji ? `React with ${emoji}` : 'Remove the reaction';
    button.addEventListener('click', () => void reactAsPhone(message.id, emoji));
    row.append(button);
  }
  item.append(row);
}

async function reactAsPhone(messageId, emoji) {
  try {
    await api('POST', `/api/v1/simulator/phones/${simPhone()}/reactions`, { messageId, emoji });
    if (emoji) state.simReactions.set(messageId, emoji);
    else state.simReactions.delete(messageId);
    $('#sim-result').textContent = emoji ? `Reacted ${emoji}` : 'Reaction removed';
    void loadInbox();
  } catch (error) {
    $('#sim-result').textContent = `${error.code ?? 'Error'}: ${error.message}`;
  }
}

function readImage(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('cannot read the file'));
    reader.readAsDataURL(file);
  });
}

async function sendAsPhone() {
  const text = $('#sim-text').value;
  const file = $('#sim-image').files?.[0];
  if (!text.trim() && !file) return;
  try {
    const dataUrl = file ? await readImage(file) : undefined;
    const image = dataUrl
      ? {
          data: dataUrl.slice(dataUrl.indexOf(',') + 1),
          mimetype: file.type || 'image/png',
          filename: file.name,
        }
      : undefined;
    const sent = await api('POST', `/api/v1/simulator/phones/${simPhone()}/messages`, {
      ...(text.trim() ? { text } : {}),
      ...(image ? { image } : {}),
      client: $('#sim-client').value,
    });
    $('#sim-text').value = '';
    $('#sim-image').value = '';
    $('#sim-result').textContent = `Sent as ${simPhone()}`;
    rememberSimSent({
      id: sent?.id,
      text: image ? `[image ${image.filename}] ${text}` : text,
      image: dataUrl,
    });
    void loadInbox();
  } catch (error) {
    $('#sim-result').textContent = `${error.code ?? 'Error'}: ${error.message}`;
  }
}

$('#sim-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void sendAsPhone();
});
// Enter sends, Shift+Enter starts a new line
$('#sim-text').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    void sendAsPhone();
  }
});
$('#sim-phone').addEventListener('change', () => void loadInbox());

// Locations, contact cards and polls in the chat panel (docs/messages.md)

/** A readable line for a received location, poll or contact card; undefined for the rest. */
function describeKind(m) {
  if (m.location) {
    const { latitude, longitude, name, address } = m.location;
    const label = [name, address].filter(Boolean).join(', ');
    return `📍 ${label ? `${label} ` : ''}(${latitude}, ${longitude})`;
  }
  if (m.poll) {
    const how = m.poll.allowMultipleAnswers ? 'several answers' : 'one answer';
    return `📊 ${m.poll.question}: ${m.poll.options.join(' / ')} (${how})`;
  }
  if (m.vcards) {
    const cards = m.vcards.map((card) => {
      const name = /^FN[^:]*:(.*)$/im.exec(card)?.[1]?.trim() || 'contact';
      const waid = /waid=(\d+)/i.exec(card)?.[1];
      return waid ? `${name} (+${waid})` : name;
    });
    return `👤 ${cards.join(', ')}`;
  }
  return undefined;
}

/** One button per option of a received poll: the simulated phone votes with it. */
function voteButtons(poll) {
  const row = document.createElement('div');
  row.className = 'sim-votes';
  for (const option of poll.options) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = option;
    button.addEventListener('click', async () => {
      try {
        await api('POST', `/api/v1/simulator/phones/${simPhone()}/votes`, {
          messageId: poll.id,
          options: [option],
        });
        $('#sim-result').textContent = `Voted "${option}" as ${simPhone()}`;
      } catch (error) {
        $('#sim-result').textContent = `${error.code ?? 'Error'}: ${error.message}`;
      }
    });
    row.append(button);
  }
  return row;
}

/** The simulated phone sends a location or a poll; `text` is how the chat shows it. */
async function sendKindAsPhone(body, text) {
  try {
    await api('POST', `/api/v1/simulator/phones/${simPhone()}/messages`, {
      ...body,
      client: $('#sim-client').value,
    });
    $('#sim-result').textContent = `Sent as ${simPhone()}`;
    rememberSimSent({ text });
    void loadInbox();
    return true;
  } catch (error) {
    $('#sim-result').textContent = `${error.code ?? 'Error'}: ${error.message}`;
    return false;
  }
}

$('#sim-location-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const location = {
    latitude: Number($('#sim-lat').value),
    longitude: Number($('#sim-lng').value),
    ...($('#sim-place').value.trim() ? { name: $('#sim-place').value.trim() } : {}),
  };
  if (await sendKindAsPhone({ location }, describeKind({ location }))) {
    $('#sim-location-form').reset();
  }
});

$('#sim-poll-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const poll = {
    question: $('#sim-question').value.trim(),
    options: $('#sim-options')
      .value.split('\n')
      .map((o) => o.trim())
      .filter(Boolean),
    allowMultipleAnswers: $('#sim-multi').checked,
  };
  if (await sendKindAsPhone({ poll }, describeKind({ poll }))) $('#sim-poll-form').reset();
});

// ---------------------------------------------------------------------------------------------
// Recurring jobs of plugins (ctx.schedule): each with its next and last run

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : '—';
}

async function loadSchedules() {
  const jobs = await api('GET', '/api/v1/schedules');
  const list = $('#schedules');
  list.replaceChildren(
    ...jobs.map((job) => {
      const item = document.createElement('li');
      item.dataset.job = `${job.plugin}:${job.name}`;
      const title = document.createElement('strong');
      title.textContent = `${job.plugin} · ${job.name}`;
      const detail = document.createElement('span');
      detail.className = 'schedule-detail';
      detail.textContent =
        ` ${job.cron} (${job.timezone}) · next ${when(job.nextRun)} · last ${when(job.lastRun)}` +
        (job.running ? ' · running' : '');
      item.append(title, detail);
      return item;
    }),
  );
  $('#schedules-card').hidden = jobs.length === 0;
}

// Chat modes (docs/handoff.md): a row per chat whose mode was set, its mode a switch

const MODES = ['bot', 'human', 'closed'];

async function setChatMode(client, chatId, mode) {
  const query = `?client=${encodeURIComponent(client)}`;
  try {
    const info = await api('PUT', `/api/v1/chats/${encodeURIComponent(chatId)}/mode${query}`, {
      mode,
    });
    $('#mode-result').textContent = `${info.chatId}: ${info.mode}`;
  } catch (error) {
    $('#mode-result').textContent = `${error.code ?? 'Error'}: ${error.message}`;
  }
  await loadChatModes();
}

function modeRow({ client, chatId, mode, until, reason }) {
  const row = document.createElement('tr');
  row.dataset.chat = chatId;
  row.dataset.mode = mode;
  for (const text of [client, chatId]) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
  const select = document.createElement('select');
  select.className = 'mode-switch';
  select.setAttribute('aria-label', `Mode of ${chatId}`);
  for (const name of MODES) select.append(new Option(name, name, false, name === mode));
  select.addEventListener('change', () => void setChatMode(client, chatId, select.value));
  const cell = document.createElement('td');
  cell.append(select);
  const untilCell = document.createElement('td');
  untilCell.textContent = until ? new Date(until).toLocaleTimeString() : '';
  const reasonCell = document.createElement('td');
  reasonCell.className = 'mode-reason';
  reasonCell.textContent = reason ?? '';
  row.append(cell, untilCell, reasonCell);
  return row;
}

async function loadChatModes() {
  const list = await api('GET', '/api/v1/chat-modes').catch(() => undefined);
  if (!list) return;
  $('#mode-rows').replaceChildren(...list.chats.map(modeRow));
}

$('#mode-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const chat = $('#mode-chat').value.trim();
  void setChatMode($('#mode-client').value, chat, $('#mode-mode').value);
});

// ---------------------------------------------------------------------------------------------
// Start

async function start() {
  if (!state.token) return showLogin();
  try {
    const clients = await api('GET', '/api/v1/clients');
    if (!state.token) return;
    $('#login').hidden = true;
    $('#app').hidden = false;
    $('#forget-token').hidden = false;
    for (const client of clients) {
      setStatus(client.name, client.status);
      setNode(client.name, client.node);
      void refreshClient(client.name);
    }
    if (clients.some((client) => client.node !== undefined)) {
      setInterval(() => void refreshNodes().catch(() => undefined), 3000);
    }
    const doc = await fetch('/api/v1/openapi.json').then((r) => r.json());
    state.simulator = Boolean(doc.paths['/api/v1/simulator/phones/{number}/inbox']);
    $('#sim-panel').hidden = !state.simulator;
    for (const [name, entry] of state.clients) setStatus(name, entry.status);
    $('#mode-client').replaceChildren(...clients.map((c) => new Option(c.name, c.name)));
    void loadChatModes();
    if (state.simulator) {
      void loadInbox();
      setInterval(() => void loadInbox(), 3000);
    }
    void loadSchedules().catch(() => undefined);
    setInterval(() => void loadSchedules().catch(() => undefined), 5000);
    void stream();
  } catch (error) {
    if (state.token) showLogin(error.message);
  }
}

// A module script runs once the document is parsed.
void start();
