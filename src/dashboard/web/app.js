'use strict';
// mqdashboard's page: plain DOM code over the JSON API (/api/..., src/dashboard/README.md).
// Routes are URL hashes (#/cluster, #/topic/T, #/consumer/G, ...). Every value from the
// server is put in the page as text (never as HTML). Charts are uPlot (served from the
// binary, pinned in src/dashboard/web/package-lock.json); their points are the values
// this page polled since it was opened.

const POLL_MS = 2000;
const MAX_POINTS = 300;  // 10 minutes of 2 s samples

let pollTimer = null;
let charts = [];

// ---- small helpers ----

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function table(id, headers, rows) {
  return el('table', { id },
    el('thead', {}, el('tr', {}, headers.map(h => el('th', {}, h)))),
    el('tbody', {}, rows.map(r => el('tr', {}, r.map(c =>
      (c instanceof Node ? el('td', {}, c) : el('td', { class: typeof c === 'number' ? 'num' : null }, c)))))));
}

// `source` 'poll' marks an error from the periodic refresh, which the next successful
// refresh clears; an action's error stays until the next action or page.
function showError(message, source = 'action') {
  const box = document.getElementById('error');
  box.textContent = message;
  box.dataset.source = source;
  box.hidden = false;
}

function clearError(source) {
  const box = document.getElementById('error');
  if (source && box.dataset.source !== source) return;
  box.hidden = true;
  box.textContent = '';
}

// GET (params in the query) or POST (params as a JSON body); rejects with the server's
// error text, which carries the broker's response code and remark.
async function api(path, params, method = 'GET') {
  let url = '/api/' + path;
  const init = { method };
  if (method === 'GET' && params) url += '?' + new URLSearchParams(params).toString();
  if (method === 'POST') {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(params || {});
  }
  const res = await fetch(url, init);
  let data;
  try {
    data = await res.json();
  } catch (e) {
    throw new Error(`${method} ${path}: HTTP ${res.status}`);
  }
  if (!res.ok) throw new Error(data.error || `${method} ${path}: HTTP ${res.status}`);
  return data;
}

function fmtTime(ms) {
  if (!ms) return '';
  const d = new Date(Number(ms));
  const p = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function fmtNum(v, digits = 2) {
  return typeof v === 'number' ? v.toFixed(digits) : '';
}

function localInputValue(ms) {
  const d = new Date(ms);
  const p = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

function hexDump(hex) {
  const lines = [];
  for (let i = 0; i < hex.length; i += 32) {
    const chunk = hex.substr(i, 32).match(/../g) || [];
    lines.push(String(i / 2).padStart(8, '0') + '  ' + chunk.join(' ').toLowerCase());
  }
  return lines.join('\n');
}

// A uPlot line chart that grows as points are pushed; keeps the last MAX_POINTS.
function timeChart(title, seriesLabels) {
  const box = el('div', { class: 'chart' });
  const data = [[], ...seriesLabels.map(() => [])];
  const colors = ['#4f8cff', '#e8663d', '#2ca02c', '#9467bd'];
  const plot = new uPlot({
    title, width: 640, height: 220,
    series: [{}, ...seriesLabels.map((label, i) => ({ label, stroke: colors[i % colors.length], width: 2 }))],
    axes: [{}, { size: 60 }],
    scales: { x: { time: true } },
  }, data, box);
  const chart = {
    box,
    push(tsMs, values) {
      data[0].push(tsMs / 1000);
      values.forEach((v, i) => data[i + 1].push(v));
      if (data[0].length > MAX_POINTS) data.forEach(s => s.shift());
      plot.setData(data);
    },
    points() { return data[0].length; },
    destroy() { plot.destroy(); },
  };
  charts.push(chart);
  return chart;
}

// ---- pages ----

async function clusterPage(main) {
  main.append(el('h2', {}, 'Cluster'));
  const tableBox = el('div', { id: 'cluster-table' });
  const chart = timeChart('Put / get TPS (all brokers, 10 s window)', ['put TPS', 'get TPS']);
  main.append(tableBox, chart.box);
  window.apogeeTpsChart = chart;
  const refresh = async () => {
    const c = await api('cluster');
    const rows = c.brokers.map(b => [
      b.cluster, b.brokerName, b.brokerId, b.role, b.addr,
      b.error ? el('span', { class: 'error' }, b.error) : b.version,
      b.diskRatio === undefined ? '' : fmtNum(Number(b.diskRatio) * 100, 1) + ' %',
      b.putTps ? b.putTps[0] : '', b.getTps ? b.getTps[0] : '',
      b.msgPutTotalTodayNow ?? '', b.msgGetTotalTodayNow ?? '',
      b.haLagBytes === undefined ? '' : b.haLagBytes,
    ]);
    tableBox.replaceChildren(
      el('p', { class: 'muted' }, 'NameServers: ' + c.nameServers.join(', ')),
      table('brokers', ['Cluster', 'Broker', 'Id', 'Role', 'Address', 'Version', 'Disk used',
        'Put TPS', 'Get TPS', 'Put today', 'Get today', 'HA lag (bytes)'], rows));
    let put = 0, get = 0;
    for (const b of c.brokers) {
      if (b.role === 'MASTER' && b.putTps) { put += b.putTps[0]; get += b.getTps[0]; }
    }
    chart.push(Date.now(), [put, get]);
  };
  try {
    await refresh();
  } catch (e) {
    showError(e.message, 'poll');
  }
  return refresh;
}

async function topicsPage(main) {
  main.append(el('h2', {}, 'Topics'));
  const data = await api('topics');
  const cluster = el('select', { name: 'cluster' }, data.clusters.map(c => el('option', { value: c }, c)));
  const form = el('form', { id: 'topic-form' },
    el('label', {}, 'Topic', el('input', { name: 'topic', required: true })),
    el('label', {}, 'Cluster', cluster),
    el('label', {}, 'Read queues', el('input', { name: 'readQueueNums', type: 'number', min: 1, value: 8 })),
    el('label', {}, 'Write queues', el('input', { name: 'writeQueueNums', type: 'number', min: 1, value: 8 })),
    el('label', {}, 'Perm', el('select', { name: 'perm' },
      el('option', { value: 6 }, 'RW- (6)'), el('option', { value: 4 }, 'R-- (4)'),
      el('option', { value: 2 }, '-W- (2)'))),
    el('button', { type: 'submit' }, 'Create / update'));
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const f = new FormData(form);
    try {
      const r = await api('topic/update', Object.fromEntries(f.entries()), 'POST');
      location.hash = '#/topic/' + encodeURIComponent(r.topic);
    } catch (e) {
      showError(e.message);
    }
  });
  const showSystem = el('input', { type: 'checkbox', id: 'show-system' });
  const listBox = el('div', {});
  const render = () => {
    const rows = data.topics.filter(t => showSystem.checked || t.kind === 'NORMAL')
      .map(t => [el('a', { href: '#/topic/' + encodeURIComponent(t.name) }, t.name), t.kind]);
    listBox.replaceChildren(table('topics', ['Topic', 'Kind'], rows));
  };
  showSystem.addEventListener('change', render);
  render();
  main.append(el('h3', {}, 'Create or update a topic'), form,
    el('h3', {}, 'All topics'), el('label', { class: 'inline' }, el('span', {}, showSystem, ' show retry, DLQ and system topics')),
    listBox);
  return null;
}

async function topicPage(main, topic) {
  main.append(el('h2', {}, 'Topic ', el('span', { id: 'topic-name' }, topic)));
  const box = el('div', {});
  let clusters = [];
  const del = el('button', { id: 'delete-topic', onclick: async () => {
    if (!confirm(`Delete topic ${topic} from cluster ${clusters.join(', ') || '(all)'}?`)) return;
    try {
      await api('topic/delete', clusters.length ? { topic, cluster: clusters[0] } : { topic }, 'POST');
      location.hash = '#/topics';
    } catch (e) { showError(e.message); }
  } }, 'Delete topic');
  const edit = el('form', { id: 'topic-edit' },
    el('label', {}, 'Read queues', el('input', { name: 'readQueueNums', type: 'number', min: 1 })),
    el('label', {}, 'Write queues', el('input', { name: 'writeQueueNums', type: 'number', min: 1 })),
    el('label', {}, 'Perm', el('input', { name: 'perm', type: 'number', min: 0, max: 7 })),
    el('button', { type: 'submit' }, 'Update'));
  edit.addEventListener('submit', async ev => {
    ev.preventDefault();
    clearError();
    try {
      const params = Object.assign({ topic }, clusters.length ? { cluster: clusters[0] } : {},
        Object.fromEntries(new FormData(edit).entries()));
      await api('topic/update', params, 'POST');
      await refresh();
    } catch (e) { showError(e.message); }
  });
  main.append(box, el('h3', {}, 'Change'), edit, del);
  let filled = false;
  // A topic just created is routed once the broker registers it at the NameServer (at
  // once, but asynchronously): until then the refresh shows the NameServer's answer.
  const refresh = async () => {
    const t = await api('topic', { topic });
    clusters = [...new Set(t.brokerDatas.map(b => b.cluster))];
    if (!filled && t.queueDatas[0]) {
      filled = true;
      edit.elements.readQueueNums.value = t.queueDatas[0].readQueueNums;
      edit.elements.writeQueueNums.value = t.queueDatas[0].writeQueueNums;
      edit.elements.perm.value = t.queueDatas[0].perm;
    }
    const errors = Object.entries(t.errors).map(([b, e]) => el('p', { class: 'error' }, `${b}: ${e}`));
    box.replaceChildren(
      el('p', {}, 'Messages kept: ', el('span', { id: 'topic-messages' }, t.messages),
        ' · put TPS: ', fmtNum(t.putTps)),
      ...errors,
      el('h3', {}, 'Route'),
      table('topic-route', ['Broker', 'Read queues', 'Write queues', 'Perm', 'Sys flag'],
        t.queueDatas.map(q => [q.brokerName, q.readQueueNums, q.writeQueueNums, `${q.permText} (${q.perm})`, q.topicSysFlag])),
      table('topic-brokers', ['Cluster', 'Broker', 'Addresses (id: addr)'],
        t.brokerDatas.map(b => [b.cluster, b.brokerName, Object.entries(b.brokerAddrs).map(([id, a]) => `${id}: ${a}`).join(', ')])),
      el('h3', {}, 'Queues'),
      table('topic-queues', ['Broker', 'Queue', 'Min offset', 'Max offset', 'Last store time'],
        t.queues.map(q => [q.brokerName, q.queueId, q.minOffset, q.maxOffset, fmtTime(q.lastUpdateTimestamp)])),
      el('h3', {}, 'Consumer groups'),
      t.groups.length ? el('ul', { id: 'topic-groups' }, t.groups.map(g => el('li', {}, el('a', { href: '#/consumer/' + encodeURIComponent(g) }, g))))
        : el('p', { class: 'muted' }, 'none'));
  };
  try {
    await refresh();
  } catch (e) {
    showError(e.message, 'poll');
  }
  return refresh;
}

async function consumersPage(main) {
  main.append(el('h2', {}, 'Consumers'));
  const lookup = el('form', { id: 'group-lookup' },
    el('label', {}, 'Group', el('input', { name: 'group', required: true })),
    el('button', { type: 'submit' }, 'Open'));
  lookup.addEventListener('submit', ev => {
    ev.preventDefault();
    location.hash = '#/consumer/' + encodeURIComponent(new FormData(lookup).get('group'));
  });
  const box = el('div', {});
  main.append(lookup, box);
  const refresh = async () => {
    const c = await api('consumers');
    box.replaceChildren(table('groups', ['Group', 'Online', 'Members', 'Type', 'Model', 'Consume TPS', 'Lag'],
      c.groups.map(g => [el('a', { href: '#/consumer/' + encodeURIComponent(g.group) }, g.group),
        g.online ? 'yes' : 'no', g.memberCount, g.consumeType || '', g.messageModel || '',
        g.error ? '' : fmtNum(g.consumeTps), g.error ? g.error : g.lag])));
  };
  try {
    await refresh();
  } catch (e) {
    showError(e.message, 'poll');
  }
  return refresh;
}

async function consumerPage(main, group) {
  main.append(el('h2', {}, 'Consumer group ', el('span', { id: 'group-name' }, group)));
  const summary = el('p', {});
  const chart = timeChart('Lag over time', ['total lag']);
  window.apogeeLagChart = chart;
  const queuesBox = el('div', {});
  const membersBox = el('div', {});
  const notice = el('div', { id: 'action-result' });
  const topicSelect = el('select', { name: 'topic', id: 'reset-topic' });
  const resetForm = el('form', { id: 'reset-form' },
    el('label', {}, 'Topic', topicSelect),
    el('label', {}, 'Time (local)', el('input', { name: 'time', id: 'reset-time', type: 'datetime-local', step: 1, required: true,
      value: localInputValue(Date.now() - 3600 * 1000) })),
    el('button', { type: 'submit' }, 'Reset offsets'));
  resetForm.addEventListener('submit', async ev => {
    ev.preventDefault();
    const f = new FormData(resetForm);
    const ts = new Date(f.get('time')).getTime();
    if (!Number.isFinite(ts)) { showError('pick a time'); return; }
    try {
      const r = await api('consumer/reset', { group, topic: f.get('topic'), timestamp: ts, force: true }, 'POST');
      notice.replaceChildren(el('div', { class: 'notice' },
        `Reset ${r.offsets.length} queue(s) of ${r.topic} to ${fmtTime(r.timestamp)}: ` +
        r.offsets.map(o => `${o.brokerName}/${o.queueId}→${o.offset}`).join(', ')));
      await refresh();
    } catch (e) { showError(e.message); }
  });
  const dlqBox = el('div', {});
  main.append(summary, chart.box, el('h3', {}, 'Queues'), queuesBox, el('h3', {}, 'Members and subscriptions'),
    membersBox, el('h3', {}, 'Reset offsets by time'), resetForm, notice, el('h3', {}, 'Dead-letter queue'), dlqBox);

  const refresh = async () => {
    const c = await api('consumer', { group });
    summary.replaceChildren('Total lag: ', el('strong', { id: 'group-lag' }, c.lag),
      ' · consume TPS: ', fmtNum(c.consumeTps), ' · ', c.online ? 'online' : 'offline');
    chart.push(c.timestamp, [c.lag]);
    queuesBox.replaceChildren(table('group-queues', ['Topic', 'Broker', 'Queue', 'Broker offset', 'Consumer offset', 'Lag', 'Last consumed'],
      c.queues.map(q => [q.topic, q.brokerName, q.queueId, q.brokerOffset, q.consumerOffset, q.lag, fmtTime(q.lastTimestamp)])));
    membersBox.replaceChildren(
      c.online ? table('group-members', ['Client id', 'Address', 'Language', 'Version'],
        c.members.map(m => [m.clientId, m.clientAddr, m.language, m.version]))
        : el('p', { class: 'muted' }, c.connectionError || 'no member online'),
      c.subscriptions ? table('group-subscriptions', ['Topic', 'Expression'], c.subscriptions.map(s => [s.topic, s.expression])) : '',
      c.consumeType ? el('p', { class: 'muted' }, `${c.consumeType} · ${c.messageModel} · ${c.consumeFromWhere}`) : '');
    const topics = [...new Set(c.queues.map(q => q.topic).filter(t => !t.startsWith('%RETRY%')))];
    const current = topicSelect.value;
    if (topicSelect.options.length !== topics.length) {
      topicSelect.replaceChildren(...topics.map(t => el('option', { value: t }, t)));
      if (topics.includes(current)) topicSelect.value = current;
    }
    const redrive = el('button', { id: 'redrive', onclick: async () => {
      try {
        const r = await api('consumer/redrive', { group }, 'POST');
        notice.replaceChildren(el('div', { class: 'notice' }, `Redrove ${r.redriven} message(s) of ${c.dlqTopic}`));
        await refresh();
      } catch (e) { showError(e.message); }
    } }, 'Redrive to the original topics');
    dlqBox.replaceChildren(c.dlqSize === null
      ? el('p', { class: 'muted' }, `${c.dlqTopic}: none` + (c.dlqError ? ` (${c.dlqError})` : ''))
      : el('p', {}, `${c.dlqTopic}: `, el('span', { id: 'dlq-size' }, c.dlqSize), ' message(s) ', c.dlqSize > 0 ? redrive : ''));
  };
  try {
    await refresh();
  } catch (e) {
    showError(e.message, 'poll');
  }
  return refresh;
}

async function messagesPage(main) {
  main.append(el('h2', {}, 'Messages'));
  const results = el('div', { id: 'message-results' });
  const detail = el('div', { id: 'message-detail' });
  const now = Date.now();
  const byKey = el('form', { id: 'by-key' },
    el('label', {}, 'Topic', el('input', { name: 'topic', required: true })),
    el('label', {}, 'Key', el('input', { name: 'key', required: true })),
    el('button', { type: 'submit' }, 'Search by key'));
  const byId = el('form', { id: 'by-id' },
    el('label', {}, 'Message id', el('input', { name: 'id', required: true, size: 34 })),
    el('label', {}, 'Topic (for a client id)', el('input', { name: 'topic' })),
    el('button', { type: 'submit' }, 'Search by id'));
  const byTime = el('form', { id: 'by-time' },
    el('label', {}, 'Topic', el('input', { name: 'topic', required: true })),
    el('label', {}, 'From', el('input', { name: 'begin', type: 'datetime-local', step: 1, value: localInputValue(now - 3600 * 1000) })),
    el('label', {}, 'To', el('input', { name: 'end', type: 'datetime-local', step: 1, value: localInputValue(now + 3600 * 1000) })),
    el('button', { type: 'submit' }, 'Search by time'));

  const showDetail = msg => {
    const body = el('pre', { class: 'body', id: 'message-body' });
    const bytes = hexToBytes(msg.bodyHex);
    const asText = () => { body.textContent = new TextDecoder('utf-8', { fatal: false }).decode(bytes); };
    const asHex = () => { body.textContent = hexDump(msg.bodyHex); };
    asText();
    detail.replaceChildren(
      el('h3', {}, 'Message ', msg.msgId),
      table('message-fields', ['Field', 'Value'], [
        ['Topic', msg.topic], ['Tags', msg.tags], ['Keys', msg.keys], ['Offset msgId', msg.offsetMsgId],
        ['Queue', `${msg.queueId} @ ${msg.queueOffset}`], ['Born', `${fmtTime(msg.bornTimestamp)} from ${msg.bornHost}`],
        ['Stored', `${fmtTime(msg.storeTimestamp)} at ${msg.storeHost}`], ['Reconsume times', msg.reconsumeTimes],
        ['Body size', msg.bodySize]]),
      table('message-properties', ['Property', 'Value'], Object.entries(msg.properties)),
      el('div', {}, el('button', { id: 'body-text', onclick: asText }, 'Text'), ' ',
        el('button', { id: 'body-hex', onclick: asHex }, 'Hex')),
      body, resendForm(msg));
  };
  // Redelivery to one group through its retry topic (CONSUMER_SEND_MSG_BACK, delay level 1).
  const resendForm = msg => {
    const result = el('div', { id: 'resend-result' });
    const form = el('form', { id: 'resend-form' },
      el('label', {}, 'Consumer group', el('input', { name: 'group', required: true })),
      el('button', { type: 'submit' }, 'Resend to group'));
    form.addEventListener('submit', async ev => {
      ev.preventDefault();
      clearError();
      try {
        const r = await api('message/resend', { id: msg.offsetMsgId, group: new FormData(form).get('group') }, 'POST');
        result.replaceChildren(el('div', { class: 'notice' },
          `Resent ${r.msgId} to ${r.group} (through ${r.retryTopic}, delivered after about 1 s)`));
      } catch (e) { showError(e.message); }
    });
    return el('div', {}, el('h3', {}, 'Resend to a consumer group'), form, result);
  };
  const view = async id => {
    try {
      const r = await api('message', { id });
      showDetail(r.messages[0]);
    } catch (e) { showError(e.message); }
  };
  const showList = r => {
    results.replaceChildren(
      table('messages', ['Message id', 'Tags', 'Keys', 'Queue', 'Offset', 'Stored', 'Size', ''],
        r.messages.map(m => [m.msgId, m.tags, m.keys, m.queueId, m.queueOffset, fmtTime(m.storeTimestamp), m.bodySize,
          el('button', { class: 'view', onclick: () => view(m.offsetMsgId) }, 'View')])),
      r.truncated ? el('p', { class: 'muted' }, 'more messages match; narrow the range') : '',
      r.messages.length ? '' : el('p', { class: 'muted' }, 'no message found'));
  };
  const submit = (form, fn) => form.addEventListener('submit', async ev => {
    ev.preventDefault();
    clearError();
    detail.replaceChildren();
    try { await fn(Object.fromEntries(new FormData(form).entries())); } catch (e) { showError(e.message); }
  });
  submit(byKey, async p => showList(await api('messages/byKey', p)));
  submit(byTime, async p => showList(await api('messages/byTime', {
    topic: p.topic, begin: new Date(p.begin).getTime(), end: new Date(p.end).getTime() })));
  submit(byId, async p => {
    const r = await api('message', p.topic ? p : { id: p.id });
    results.replaceChildren();
    showDetail(r.messages[0]);
  });
  main.append(el('h3', {}, 'By key'), byKey, el('h3', {}, 'By message id'), byId, el('h3', {}, 'By topic and time'),
    byTime, results, detail);
  return null;
}

async function producersPage(main) {
  main.append(el('h2', {}, 'Producers'));
  const box = el('div', {});
  const form = el('form', { id: 'producer-form' },
    el('label', {}, 'Producer group', el('input', { name: 'group', required: true })),
    el('label', {}, 'Topic', el('input', { name: 'topic', required: true })),
    el('button', { type: 'submit' }, 'Show connections'));
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    clearError();
    try {
      const r = await api('producers', Object.fromEntries(new FormData(form).entries()));
      box.replaceChildren(table('producers', ['Client id', 'Address', 'Language', 'Version', 'Broker'],
        r.connections.map(c => [c.clientId, c.clientAddr, c.language, c.version, c.brokerName])),
        ...Object.entries(r.errors).map(([b, e]) => el('p', { class: 'error' }, `${b}: ${e}`)));
    } catch (e) { showError(e.message); }
  });
  main.append(el('p', { class: 'muted' }, 'A broker knows producers by group; it is found through a topic they send to.'),
    form, box);
  return null;
}

// ---- router ----

async function route() {
  if (pollTimer) clearInterval(pollTimer);
  pollTimer = null;
  charts.forEach(c => c.destroy());
  charts = [];
  clearError();
  const hash = location.hash || '#/cluster';
  const [, page, arg] = hash.match(/^#\/([^/]*)\/?(.*)$/) || [null, 'cluster', ''];
  const name = decodeURIComponent(arg || '');
  document.querySelectorAll('nav a').forEach(a => {
    const p = a.dataset.page;
    a.classList.toggle('active', p === page || p + 's' === page || (p === 'topics' && page === 'topic') ||
      (p === 'consumers' && page === 'consumer'));
  });
  const main = document.getElementById('main');
  main.replaceChildren();
  const pages = {
    cluster: () => clusterPage(main), topics: () => topicsPage(main), topic: () => topicPage(main, name),
    consumers: () => consumersPage(main), consumer: () => consumerPage(main, name),
    messages: () => messagesPage(main), producers: () => producersPage(main),
  };
  const current = location.hash;
  try {
    const refresh = await (pages[page] || pages.cluster)();
    if (refresh && location.hash === current) {
      pollTimer = setInterval(() => {
        refresh().then(() => {
          clearError('poll');
          document.getElementById('status').textContent = 'updated ' + fmtTime(Date.now());
        }, e => showError(e.message, 'poll'));
      }, POLL_MS);
    }
  } catch (e) {
    showError(e.message);
  }
}

window.addEventListener('hashchange', route);
route();
